// Fields of the admin API edited in the console's forms, in headless Chromium: a challenge's pass mark, a city
// group's contact block, a waste type's materials, a place's attached locations. Each refused value shows the
// API's sentence at its field; each saved one reaches the public API.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { CHROMIUM_SKIP, checkA11y, createAgent, logIn, newAgentContext, openBrowser, shoot, startConsoleServer } from '../helpers/console-browser.ts';

/** A public answer once `ready` says so (writes reach the public API within a second). */
async function publicUntil<T>(url: string, ready: (body: T) => boolean): Promise<T> {
  let body: T | undefined;
  for (let i = 0; i < 50; i++) {
    body = (await (await fetch(url)).json()) as T;
    if (ready(body)) return body;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`${url} never answered as expected: ${JSON.stringify(body).slice(0, 500)}`);
}

/** The API's sentence under the field labelled `label`, tied to it by aria-describedby. */
async function errorAt(page: Page, label: string, text: RegExp): Promise<void> {
  const field = page.getByLabel(label, { exact: true });
  await page.locator('.field-error').filter({ hasText: text }).first().waitFor();
  assert.equal(await field.getAttribute('aria-invalid'), 'true', `${label} is marked invalid`);
  const ids = (await field.getAttribute('aria-describedby'))!.split(' ');
  assert.match(await page.locator(`[id="${ids.at(-1)}"]`).innerText(), text);
}

interface PublicCity {
  wasteTypes: { id: string; name: string; details: { material: string; instructions: string | null }[] }[];
  wasteCollectionPlaces: { id: string; name: string; attachedLocations: { name: string; reference: string; latitude: number; longitude: number }[] }[];
}

for (const kind of browserDatabaseKinds()) {
  describe(`console record fields in a browser (${kind})`, { skip: CHROMIUM_SKIP, timeout: 240_000 }, () => {
    it('edits a challenge’s pass mark, a group’s contact, a waste type’s materials and a place’s attached locations', async (t) => {
      const server = await startConsoleServer(t, kind);
      await createAgent(server, { email: 'agent@brest.fr', name: 'Yann Le Gall', permissions: ['CITIES', 'CHALLENGES'] });
      await createAgent(server, { email: 'admin@collecte.fr', name: 'Super Admin', superAdmin: true });
      const groups = (await (await fetch(`${server.origin}/public/city-groups`)).json()) as { id: string; name: string; cities: { id: string; name: string }[] }[];
      const cityId = groups.flatMap((g) => g.cities).find((c) => c.name === 'Brest')!.id;
      const browser = await openBrowser(t);
      const page = await (await newAgentContext(browser)).newPage();
      page.on('dialog', (dialog) => void dialog.accept());
      await logIn(page, server.origin, 'agent@brest.fr');

      // A challenge's pass mark: 150 refused at the field, 80 saved and public.
      const challenges = (await (await fetch(`${server.origin}/public/challenges/${cityId}`)).json()) as { id: string; name: string; passingScore: number }[];
      const challenge = challenges[0];
      await page.getByRole('navigation', { name: 'Navigation de la console' }).getByRole('link', { name: 'Défis' }).click();
      await page.getByRole('heading', { level: 1, name: 'Défis' }).waitFor();
      await page.getByLabel('Commune').selectOption({ label: 'Brest' });
      await page.getByRole('button', { name: `Modifier ${challenge.name}` }).click();
      const score = page.getByLabel('Note de réussite (%)');
      await score.waitFor();
      assert.equal(await score.inputValue(), String(challenge.passingScore));
      await score.fill('150');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await errorAt(page, 'Note de réussite (%)', /passingScore/);
      await checkA11y(page, 'challenge form');
      await score.fill('80');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: `Défi « ${challenge.name} » enregistré.` }).waitFor();
      await page.getByRole('row').filter({ hasText: challenge.name }).getByRole('cell', { name: '80\u00a0%' }).waitFor();
      await publicUntil<{ id: string; passingScore: number }[]>(`${server.origin}/public/challenges/${cityId}`, (list) => list.find((c) => c.id === challenge.id)?.passingScore === 80);

      // A waste type's materials: added under the waste type's form.
      await page.goto(`${server.origin}/console/communes/${cityId}/types-de-dechets`);
      await page.getByRole('button', { name: 'Modifier Verre' }).click();
      const materials = page.getByRole('region', { name: 'Matériaux de ce type de déchets' });
      await materials.getByRole('cell', { name: 'Bouteille en verre (eau, vin)', exact: true }).waitFor();
      await materials.getByRole('button', { name: 'Ajouter un matériau' }).click();
      const detailForm = page.getByRole('form', { name: 'Ajouter un matériau' });
      await detailForm.getByLabel('Matériau', { exact: true }).fill('Pot de confiture');
      await detailForm.getByLabel('Consignes pour ce matériau').fill('Videz-le ; le couvercle va avec les emballages.');
      await checkA11y(page, 'waste type with its materials');
      await detailForm.getByRole('button', { name: 'Enregistrer' }).click();
      await materials.getByRole('status').filter({ hasText: 'Matériau « Pot de confiture » créé.' }).waitFor();
      await materials.getByRole('cell', { name: 'Pot de confiture', exact: true }).waitFor();
      await publicUntil<PublicCity>(`${server.origin}/public/cities/${cityId}`, (city) =>
        city.wasteTypes.some((w) => w.name === 'Verre' && w.details.some((d) => d.material === 'Pot de confiture' && d.instructions === 'Videz-le ; le couvercle va avec les emballages.')),
      );

      // A place's attached locations: a longitude that is not a number refused at the field; a French decimal comma taken.
      const city = (await (await fetch(`${server.origin}/public/cities/${cityId}`)).json()) as PublicCity;
      const place = city.wasteCollectionPlaces[0];
      await page.goto(`${server.origin}/console/secteurs/${place.id}`);
      const locations = page.getByRole('region', { name: 'Lieux rattachés' });
      await locations.getByRole('cell', { name: place.attachedLocations[0].name, exact: true }).waitFor();
      await locations.getByRole('button', { name: 'Ajouter un lieu rattaché' }).click();
      const locationForm = page.getByRole('form', { name: 'Ajouter un lieu rattaché' });
      await locationForm.getByLabel('Nom du lieu').fill('Place de la Liberté');
      await locationForm.getByLabel('Référence').fill('29019_9999');
      await locationForm.getByLabel('Latitude').fill('48,3904');
      await locationForm.getByLabel('Longitude').fill('ouest');
      await locationForm.getByRole('button', { name: 'Enregistrer' }).click();
      await errorAt(page, 'Longitude', /longitude/);
      await checkA11y(page, 'attached location form');
      await shoot(page, 'attached-location', locationForm);
      await locationForm.getByLabel('Longitude').fill('-4,4862');
      await locationForm.getByRole('button', { name: 'Enregistrer' }).click();
      await locations.getByRole('status').filter({ hasText: 'Lieu rattaché « Place de la Liberté » créé.' }).waitFor();
      await publicUntil<PublicCity>(`${server.origin}/public/cities/${cityId}`, (c) =>
        c.wasteCollectionPlaces.some((p) => p.id === place.id && p.attachedLocations.some((l) => l.name === 'Place de la Liberté' && l.latitude === 48.3904 && l.longitude === -4.4862)),
      );

      // A group's contact: for super admins; a malformed phone refused at the field, a good one public.
      assert.equal(await page.getByRole('button', { name: /Modifier les coordonnées/ }).count(), 0);
      const admin = await (await newAgentContext(browser)).newPage();
      await logIn(admin, server.origin, 'admin@collecte.fr', undefined, '/console/communes');
      const group = groups.find((g) => g.cities.some((c) => c.id === cityId))!;
      await admin.getByRole('button', { name: `Modifier les coordonnées de ${group.name}` }).click();
      const phone = admin.getByLabel('Téléphone');
      await phone.fill('appelez-nous');
      await admin.getByLabel('Horaires d’accueil').fill('du lundi au vendredi, de 9 h à 17 h');
      await admin.getByRole('button', { name: 'Enregistrer' }).click();
      await errorAt(admin, 'Téléphone', /contactPhone/);
      await checkA11y(admin, 'group contact form');
      await phone.fill('02 98 00 00 00');
      await admin.getByRole('button', { name: 'Enregistrer' }).click();
      await admin.getByRole('status').filter({ hasText: 'Coordonnées de' }).waitFor();
      await admin.getByText('02 98 00 00 00').waitFor();
      await publicUntil<{ id: string; contactPhone: string | null; contactHours: string | null }[]>(`${server.origin}/public/city-groups`, (list) => {
        const g = list.find((x) => x.id === group.id);
        return g?.contactPhone === '02 98 00 00 00' && g.contactHours === 'du lundi au vendredi, de 9 h à 17 h';
      });
    });
  });
}
