// More of the collection screens in headless Chromium: a day every other week previewed before
// it is saved, a place's area pasted as GeoJSON, and the quiz questions.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { CHROMIUM_SKIP, checkA11y, createAgent, logIn, newAgentContext, openBrowser, shoot, startConsoleServer, type ConsoleServer } from '../helpers/console-browser.ts';

interface PublicCity {
  id: string;
  wasteTypes: { id: string; name: string }[];
  wasteCollectionPlaces: { id: string; name: string; collectionDays: { name: string; wasteTypeId: string }[] }[];
  quizQuestions: { material: string; correctWasteTypeId: string }[];
}

async function json<T>(server: ConsoleServer, url: string): Promise<T> {
  const res = await fetch(server.origin + url);
  assert.equal(res.status, 200, url);
  return (await res.json()) as T;
}

async function city(server: ConsoleServer, name: string): Promise<PublicCity> {
  const groups = await json<{ cities: { id: string; name: string }[] }[]>(server, '/public/city-groups');
  return json<PublicCity>(server, `/public/cities/${groups.flatMap((g) => g.cities).find((c) => c.name === name)!.id}`);
}

/** Monday of the week of a YYYY-MM-DD day, as a day number since the epoch. */
const mondayOf = (day: string) => {
  const n = Date.parse(`${day}T00:00:00Z`) / 86_400_000;
  return n - ((new Date(`${day}T12:00:00Z`).getUTCDay() + 6) % 7);
};

for (const kind of browserDatabaseKinds()) {
  describe(`console place rules in a browser (${kind})`, { skip: CHROMIUM_SKIP, timeout: 240_000 }, () => {
    it('previews a day every other week from its starting week, pastes an area, and writes a quiz question', async (t) => {
      const server = await startConsoleServer(t, kind);
      await createAgent(server, { email: 'collecte@brest.fr', name: 'Yann Le Gall', permissions: ['CITIES'] });
      const brest = await city(server, 'Brest');
      const place = brest.wasteCollectionPlaces[0];
      // A waste type the place never collects on Sundays: every Sunday collection in the preview is the new rule's.
      const type = brest.wasteTypes[0];
      assert.ok(!place.collectionDays.some((d) => d.name === 'dimanche' && d.wasteTypeId === type.id));

      const browser = await openBrowser(t);
      const page = await (await newAgentContext(browser)).newPage();
      await logIn(page, server.origin, 'collecte@brest.fr', undefined, `/console/secteurs/${place.id}`);
      await page.getByRole('button', { name: 'Ajouter un jour de collecte' }).click();
      await page.getByLabel('Jour', { exact: true }).selectOption('dimanche');
      await page.getByLabel('Type de déchets').selectOption(type.id);
      await page.getByLabel('Une semaine sur deux').check();
      // Every other week needs its starting week: said at once, and no preview until it is given.
      await page.getByText('Choisissez une date').waitFor();
      const start = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
      await page.getByLabel(/Une semaine de collecte/).fill(start);
      const added = page.locator(`.preview li[data-change="added"][data-waste-type="${type.id}"]`);
      await added.first().waitFor();
      const days = await added.evaluateAll((items) => items.map((item) => item.getAttribute('data-date')!));
      assert.ok(days.length >= 2, `two Sundays or more in 60 days: ${days}`);
      for (const day of days) {
        assert.equal(new Date(`${day}T12:00:00Z`).getUTCDay(), 0, `${day} is a Sunday`);
        assert.equal((mondayOf(day) - mondayOf(start)) % 14, 0, `${day} falls in a week of the rhythm`);
      }
      await checkA11y(page, 'day form');
      await shoot(page, 'biweekly-day');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: 'Jour de collecte ajouté.' }).waitFor();
      await page.getByRole('cell', { name: /^un dimanche sur deux/ }).waitFor();

      // The area: a pasted text that is not GeoJSON says so; a polygon is saved and the position lookup finds it.
      await page.getByRole('button', { name: 'Renommer ou changer la zone' }).click();
      const area = page.getByLabel('Zone (GeoJSON)');
      await area.fill('{"type": "Point"');
      await page.getByText('n’est pas du JSON valide').waitFor();
      const square = { type: 'Polygon', coordinates: [[[-30.01, 40.01], [-29.99, 40.01], [-29.99, 39.99], [-30.01, 39.99], [-30.01, 40.01]]] };
      await area.fill(JSON.stringify({ type: 'Feature', properties: {}, geometry: square }));
      await page.getByText('Zone d’un polygone.').first().waitFor();
      await checkA11y(page, 'area form');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: 'Secteur enregistré.' }).waitFor();
      let found: { placeId: string }[] = [];
      for (let i = 0; i < 50 && found.length === 0; i++) {
        found = await json<{ placeId: string }[]>(server, `/public/places/lookup?lat=40&lon=-30`);
        if (found.length === 0) await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(found[0]?.placeId, place.id);

      // A quiz question, then in the public city.
      await page.goto(`${server.origin}/console/communes/${brest.id}/quiz`);
      await page.getByRole('heading', { level: 1, name: 'Questions du quiz de tri' }).waitFor();
      await checkA11y(page, 'quiz');
      await page.getByRole('button', { name: 'Ajouter une question' }).click();
      await page.getByLabel('Matériau').fill('Boîte de conserve de la console');
      await page.getByLabel('Question', { exact: true }).fill('Où jeter une boîte de conserve vide ?');
      await page.getByLabel('Bonne réponse').selectOption(type.id);
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: 'créée' }).waitFor();
      await page.getByRole('cell', { name: 'Boîte de conserve de la console', exact: true }).waitFor();
      let questions: PublicCity['quizQuestions'] = [];
      for (let i = 0; i < 50; i++) {
        questions = (await city(server, 'Brest')).quizQuestions;
        if (questions.some((q) => q.material === 'Boîte de conserve de la console')) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(questions.find((q) => q.material === 'Boîte de conserve de la console')?.correctWasteTypeId, type.id);

      // Deleting asks first, then the row goes.
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Supprimer la question sur Boîte de conserve de la console' }).click();
      await page.getByRole('status').filter({ hasText: 'supprimée' }).waitFor();
      // The list is read again after the delete: the row leaves once it is.
      await page.getByRole('cell', { name: 'Boîte de conserve de la console', exact: true }).waitFor({ state: 'detached' });
    });
  });
}
