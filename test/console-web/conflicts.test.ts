// Two agents editing the same recycling point in headless Chromium, against a real server: the
// second save answers 412, the conflict table shows each field with its value before, theirs and mine (mine marked),
// a clash asks which to keep, and « Garder leurs changements et les miens » saves both agents' changes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { CHROMIUM_SKIP, PASSWORD, checkA11y, createAgent, logIn, newAgentContext, openBrowser, shoot, startConsoleServer } from '../helpers/console-browser.ts';

interface PublicPoint {
  id: string;
  name: string;
  address: string | null;
  openingHours: string | null;
}

for (const kind of browserDatabaseKinds()) {
  describe(`console conflicts merged field by field (${kind})`, { skip: CHROMIUM_SKIP, timeout: 240_000 }, () => {
    it('keeps both agents’ changes of a recycling point, each clash as the second agent chose', async (t) => {
      const server = await startConsoleServer(t, kind);
      await createAgent(server, { email: 'a@brest.fr', name: 'Agent A', permissions: ['CITIES'] });
      await createAgent(server, { email: 'b@brest.fr', name: 'Agent B', permissions: ['CITIES'] });
      const groups = (await (await fetch(`${server.origin}/public/city-groups`)).json()) as { cities: { id: string; name: string }[] }[];
      const cityId = groups.flatMap((g) => g.cities).find((c) => c.name === 'Brest')!.id;
      const pointsUrl = `${server.origin}/public/cities/${cityId}/recycling-points`;
      const point = ((await (await fetch(pointsUrl)).json()) as PublicPoint[])[0];
      const url = `/console/communes/${cityId}/points-d-apport?edit=${point.id}`;

      const browser = await openBrowser(t);
      const a = await (await newAgentContext(browser)).newPage();
      const b = await (await newAgentContext(browser)).newPage();
      await logIn(a, server.origin, 'a@brest.fr', PASSWORD, url);
      await logIn(b, server.origin, 'b@brest.fr', PASSWORD, url);
      for (const page of [a, b]) await page.getByLabel('Nom', { exact: true }).waitFor();

      // A renames the point and changes its hours' text, and saves first.
      await a.getByLabel('Nom', { exact: true }).fill(`${point.name} (A)`);
      await a.getByLabel('Horaires (texte pour les habitants)').fill('Horaires de A');
      await a.getByRole('button', { name: 'Enregistrer' }).click();
      await a.getByRole('status').filter({ hasText: 'enregistré' }).waitFor();

      // B, on the version before, renames it too, changes its address and the same hours' text.
      await b.getByLabel('Nom', { exact: true }).fill(`${point.name} (B)`);
      await b.getByLabel('Adresse').fill('1 rue de B, Brest');
      await b.getByLabel('Horaires (texte pour les habitants)').fill('Horaires de B');
      await b.getByRole('button', { name: 'Enregistrer' }).click();
      const conflict = b.getByRole('alert').filter({ hasText: 'Quelqu’un a modifié cet élément' });
      await conflict.waitFor();
      const table = conflict.getByRole('table', { name: 'Champs modifiés depuis l’ouverture du formulaire' });
      const headers = await table.getByRole('columnheader').allInnerTexts();
      assert.deepEqual(headers.slice(0, 4), ['Champ', 'Valeur d’origine', 'Leur valeur', 'Ma valeur']);
      // The address only B changed: marked as B's, kept as B's without asking.
      const address = table.getByRole('row', { name: /^Adresse/ });
      assert.match(await address.innerText(), /1 rue de B, Brest\s*modifiée par vous\s+la vôtre/);
      assert.equal(await address.getByRole('radio').count(), 0);
      // The name both changed: original, A's, B's, and a choice.
      const name = table.getByRole('row', { name: /^Nom/ });
      assert.match(await name.innerText(), new RegExp(`${point.name}\\s+${point.name} \\(A\\)\\s+${point.name} \\(B\\)\\s*modifiée par vous`));
      await checkA11y(b, 'conflict to merge');
      await shoot(b, 'conflict-merge', conflict);

      // Without a choice for each clash, the merge asks for it, naming the fields.
      await conflict.getByRole('button', { name: 'Garder leurs changements et les miens' }).click();
      await conflict.getByText('Choisissez la valeur à garder pour « Nom », « Horaires (texte pour les habitants) ».').waitFor();
      await name.getByRole('radio', { name: 'garder la leur' }).check();
      await table.getByRole('row', { name: /^Horaires \(texte/ }).getByRole('radio', { name: 'garder la mienne' }).check();
      await conflict.getByRole('button', { name: 'Garder leurs changements et les miens' }).click();
      await b.getByRole('status').filter({ hasText: `Point « ${point.name} (A) » enregistré.` }).waitFor();

      // The public point has A's name, B's address and B's hours (public answers follow within a second).
      let saved: PublicPoint | undefined;
      for (let i = 0; i < 50; i++) {
        saved = ((await (await fetch(pointsUrl)).json()) as PublicPoint[]).find((p) => p.id === point.id);
        if (saved?.address === '1 rue de B, Brest') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.deepEqual([saved?.name, saved?.address, saved?.openingHours], [`${point.name} (A)`, '1 rue de B, Brest', 'Horaires de B']);
    });
  });
}
