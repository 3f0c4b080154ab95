// The recycling points screen in headless Chromium: « ouvert maintenant ? » as the agent types the opening hours,
// the same answer the public API then gives.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { CHROMIUM_SKIP, checkA11y, createAgent, logIn, newAgentContext, openBrowser, shoot, startConsoleServer } from '../helpers/console-browser.ts';

for (const kind of browserDatabaseKinds()) {
  describe(`console recycling points in a browser (${kind})`, { skip: CHROMIUM_SKIP, timeout: 180_000 }, () => {
    it('says whether a point is open now as the opening hours are typed, and saves them', async (t) => {
      const server = await startConsoleServer(t, kind);
      await createAgent(server, { email: 'collecte@brest.fr', name: 'Yann Le Gall', permissions: ['CITIES'] });
      const groups = (await (await fetch(`${server.origin}/public/city-groups`)).json()) as { cities: { id: string; name: string }[] }[];
      const cityId = groups.flatMap((g) => g.cities).find((c) => c.name === 'Brest')!.id;
      const points = (await (await fetch(`${server.origin}/public/cities/${cityId}/recycling-points`)).json()) as { id: string; name: string }[];
      const point = points[0];

      const browser = await openBrowser(t);
      const page = await (await newAgentContext(browser)).newPage();
      await logIn(page, server.origin, 'collecte@brest.fr', undefined, `/console/communes/${cityId}/types-de-dechets`);
      await page.getByRole('heading', { level: 1, name: 'Types de déchets' }).waitFor();
      await page.getByRole('cell', { name: 'Verre', exact: true }).waitFor();
      await checkA11y(page, 'waste types');
      await shoot(page, 'waste-types');

      await page.goto(`${server.origin}/console/communes/${cityId}/points-d-apport`);
      await page.getByRole('heading', { level: 1, name: 'Points d’apport et déchèteries' }).waitFor();
      await page.getByRole('cell', { name: point.name, exact: true }).waitFor();
      await checkA11y(page, 'recycling points');
      await page.getByRole('button', { name: `Modifier ${point.name}` }).click();
      const spec = page.getByLabel('Horaires (format OpenStreetMap)');
      await spec.waitFor();
      const answer = page.locator('#open-now');
      await spec.fill('24/7');
      await answer.filter({ hasText: 'Ouvert maintenant ? Oui. Toujours ouvert.' }).waitFor();
      await spec.fill('off');
      await answer.filter({ hasText: 'Ouvert maintenant ? Non.' }).waitFor();
      await spec.fill('Mo-Fr 09:00-');
      await answer.filter({ hasText: 'Ces horaires ne se lisent pas' }).waitFor();
      assert.equal(await spec.getAttribute('aria-invalid'), 'true');
      await spec.fill('24/7');
      await answer.filter({ hasText: 'Oui' }).waitFor();
      await checkA11y(page, 'recycling point form');
      await shoot(page, 'recycling-point', answer);
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: 'enregistré' }).waitFor();

      let saved: { id: string; openNow: boolean | null; openingHoursSpec: string | null } | undefined;
      for (let i = 0; i < 50; i++) {
        const now = (await (await fetch(`${server.origin}/public/cities/${cityId}/recycling-points`)).json()) as NonNullable<typeof saved>[];
        saved = now.find((p) => p.id === point.id);
        if (saved?.openingHoursSpec === '24/7') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(saved?.openingHoursSpec, '24/7');
      assert.equal(saved?.openNow, true);
    });
  });
}
