// The console's collection data screens in headless Chromium, against a real server: cancelling
// a collection with its preview and the public calendar, two agents editing the same waste type, and a session that
// ends while a form is being filled.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { fixedClock } from '../helpers/app.ts';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { frenchDate } from '../../src/kernel/french.ts';
import {
  CHROMIUM_SKIP,
  PASSWORD,
  checkA11y,
  createAgent,
  logIn,
  newAgentContext,
  openBrowser,
  shoot,
  startConsoleServer,
  type ConsoleServer,
} from '../helpers/console-browser.ts';

interface PublicCity {
  id: string;
  name: string;
  wasteTypes: { id: string; name: string }[];
  wasteCollectionPlaces: { id: string; name: string }[];
}
interface Collection {
  date: string;
  wasteTypeId: string;
}

async function json<T>(server: ConsoleServer, url: string): Promise<T> {
  const res = await fetch(server.origin + url);
  assert.equal(res.status, 200, url);
  return (await res.json()) as T;
}

async function brest(server: ConsoleServer): Promise<PublicCity> {
  const groups = await json<{ cities: { id: string; name: string }[] }[]>(server, '/public/city-groups');
  const id = groups.flatMap((g) => g.cities).find((c) => c.name === 'Brest')!.id;
  return json<PublicCity>(server, `/public/cities/${id}`);
}

/** Fills the login form in place (the page is not reloaded: what the page holds in memory stays). */
async function logInAgain(page: Page, email: string) {
  await page.getByLabel('Adresse e-mail').fill(email);
  await page.getByLabel('Mot de passe').fill(PASSWORD);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await page.getByRole('button', { name: 'Se déconnecter' }).waitFor();
}

for (const kind of browserDatabaseKinds()) {
  describe(`console collection screens in a browser (${kind})`, { skip: CHROMIUM_SKIP, timeout: 240_000 }, () => {
    it('cancels a collection: the preview shows it cancelled before saving, then the public calendar drops it', async (t) => {
      const server = await startConsoleServer(t, kind);
      await createAgent(server, { email: 'collecte@brest.fr', name: 'Yann Le Gall', permissions: ['CITIES'] });
      const city = await brest(server);
      const place = city.wasteCollectionPlaces[0];
      const calendar = `/public/cities/${city.id}/places/${place.id}/collections`;
      const upcoming = await json<Collection[]>(server, calendar);
      // A collection a few days ahead, inside the 60 days of the preview.
      const target = upcoming.find((c) => c.date > upcoming[0].date) ?? upcoming[0];
      const typeName = city.wasteTypes.find((w) => w.id === target.wasteTypeId)!.name;

      const browser = await openBrowser(t);
      const page = await (await newAgentContext(browser)).newPage();
      await logIn(page, server.origin, 'collecte@brest.fr');
      await page.getByRole('navigation', { name: 'Navigation de la console' }).getByRole('link', { name: 'Communes' }).click();
      await page.getByRole('link', { name: 'Brest', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Brest' }).waitFor();
      await checkA11y(page, 'city');
      await page.getByRole('link', { name: 'Secteurs et jours de collecte' }).click();
      await page.getByRole('heading', { level: 1, name: 'Secteurs de collecte' }).waitFor();
      await checkA11y(page, 'places');
      await page.getByRole('link', { name: place.name, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: place.name }).waitFor();
      await page.locator('.preview li').first().waitFor();
      await checkA11y(page, 'place');
      await shoot(page, 'place');

      await page.getByRole('button', { name: 'Annuler, déplacer ou ajouter une collecte' }).click();
      await page.getByRole('heading', { level: 2, name: 'Annuler une collecte' }).waitFor();
      await page.getByLabel('Type de déchets').selectOption(target.wasteTypeId);
      await page.getByLabel('Du', { exact: true }).fill(target.date);
      // The date input shows the day in the browser's way; the console says it in French beside it.
      await page.locator('.date-said').filter({ hasText: `Date choisie : ${frenchDate(target.date, { year: true })}.` }).waitFor();
      await page.getByLabel('Titre').fill('Grève');
      await page.getByLabel('Explication pour les habitants').fill('Collecte reportée au lendemain.');
      // Before saving: the preview shows that collection cancelled, the public calendar still has it.
      const cancelled = page.locator(`.preview li[data-date="${target.date}"][data-waste-type="${target.wasteTypeId}"]`);
      await page.locator(`.preview li[data-date="${target.date}"][data-waste-type="${target.wasteTypeId}"][data-change="removed"]`).waitFor();
      assert.match(await cancelled.innerText(), new RegExp(typeName));
      assert.ok((await json<Collection[]>(server, calendar)).some((c) => c.date === target.date && c.wasteTypeId === target.wasteTypeId));
      await checkA11y(page, 'exception form');
      await shoot(page, 'exception-preview');

      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: 'Exception ajoutée.' }).waitFor();
      await page.getByRole('cell', { name: 'Grève', exact: true }).waitFor();
      // Public answers follow the write within a second (the data version): ask until they do.
      let after: Collection[] = [];
      for (let i = 0; i < 50; i++) {
        after = await json<Collection[]>(server, calendar);
        if (!after.some((c) => c.date === target.date && c.wasteTypeId === target.wasteTypeId)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(!after.some((c) => c.date === target.date && c.wasteTypeId === target.wasteTypeId), 'the public calendar no longer has the cancelled collection');
      assert.ok(after.length > 0);

      // A street rule: the table says which numbers, and the address lookup finds the place by it.
      await page.getByRole('button', { name: 'Ajouter une rue' }).click();
      await page.getByLabel('Rue', { exact: true }).fill('Rue de la Console');
      await page.getByLabel('Du numéro').fill('1');
      await page.getByLabel('Au numéro').fill('99');
      await page.getByLabel('Côté').selectOption('ODD');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: 'Rue « Rue de la Console » créée.' }).waitFor();
      await page.getByRole('cell', { name: 'numéros impairs de 1 à 99', exact: true }).waitFor();
      await checkA11y(page, 'streets');
      let found: { placeId: string }[] = [];
      for (let i = 0; i < 50 && found.length === 0; i++) {
        found = await json<{ placeId: string }[]>(server, `/public/places/lookup?cityId=${city.id}&address=${encodeURIComponent('13 rue de la console')}`);
        if (found.length === 0) await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(found[0]?.placeId, place.id);
    });

    it('shows the second agent the conflict (412) and what the first one changed, then reloads or overwrites', async (t) => {
      const server = await startConsoleServer(t, kind);
      await createAgent(server, { email: 'a@brest.fr', name: 'Agent A', permissions: ['CITIES'] });
      await createAgent(server, { email: 'b@brest.fr', name: 'Agent B', permissions: ['CITIES'] });
      const city = await brest(server);
      const type = city.wasteTypes[0];
      const url = `/console/communes/${city.id}/types-de-dechets?edit=${type.id}`;
      const browser = await openBrowser(t);
      const a = await (await newAgentContext(browser)).newPage();
      const b = await (await newAgentContext(browser)).newPage();
      await logIn(a, server.origin, 'a@brest.fr', PASSWORD, url);
      await logIn(b, server.origin, 'b@brest.fr', PASSWORD, url);
      for (const page of [a, b]) await page.getByLabel('Nom', { exact: true }).waitFor();
      assert.equal(await b.getByLabel('Nom', { exact: true }).inputValue(), type.name);
      await checkA11y(b, 'waste type form');
      await shoot(b, 'waste-type');

      await a.getByLabel('Nom', { exact: true }).fill(`${type.name} (A)`);
      await a.getByRole('button', { name: 'Enregistrer' }).click();
      await a.getByRole('status').filter({ hasText: 'enregistré' }).waitFor();

      await b.getByLabel('Couleur (code)', { exact: true }).fill('#123456');
      await b.getByRole('button', { name: 'Enregistrer' }).click();
      const conflict = b.getByRole('alert').filter({ hasText: 'Quelqu’un a modifié cet élément' });
      await conflict.waitFor();
      const row = conflict.getByRole('row', { name: /^Nom/ });
      assert.match(await row.innerText(), new RegExp(`${type.name} \\(A\\)`));
      await checkA11y(b, 'conflict');
      await shoot(b, 'conflict', conflict);

      // Reload: the form takes the saved version; B's colour is typed again and saved over it.
      await conflict.getByRole('button', { name: 'Recharger la version enregistrée' }).click();
      assert.equal(await b.getByLabel('Nom', { exact: true }).inputValue(), `${type.name} (A)`);
      await b.getByLabel('Couleur (code)', { exact: true }).fill('#123456');
      await b.getByRole('button', { name: 'Enregistrer' }).click();
      await b.getByRole('status').filter({ hasText: 'enregistré' }).waitFor();

      // A saves again over B's colour without having seen it: a conflict again, and this time A overwrites.
      await a.getByRole('button', { name: `Modifier ${type.name} (A)` }).click();
      await a.getByLabel('Nom', { exact: true }).waitFor();
      const staleA = await (await newAgentContext(browser)).newPage();
      await logIn(staleA, server.origin, 'a@brest.fr', PASSWORD, url);
      await staleA.getByLabel('Icône').waitFor();
      await b.getByRole('button', { name: `Modifier ${type.name} (A)` }).click();
      await b.getByLabel('Icône').fill('recycle');
      await b.getByRole('button', { name: 'Enregistrer' }).click();
      await b.getByRole('status').filter({ hasText: 'enregistré' }).waitFor();
      await staleA.getByLabel('Icône').fill('leaf');
      await staleA.getByRole('button', { name: 'Enregistrer' }).click();
      const second = staleA.getByRole('alert').filter({ hasText: 'Quelqu’un a modifié cet élément' });
      await second.getByRole('row', { name: /^Icône/ }).waitFor();
      await second.getByRole('button', { name: 'Écraser avec ma version' }).click();
      await staleA.getByRole('status').filter({ hasText: 'enregistré' }).waitFor();
      const saved = await json<PublicCity>(server, `/public/cities/${city.id}`);
      const now = saved.wasteTypes.find((w) => w.id === type.id) as unknown as { name: string; color: string; icon: string };
      assert.deepEqual([now.name, now.color, now.icon], [`${type.name} (A)`, '#123456', 'leaf']);
    });

    it('keeps an unsaved form through an expired session: back to the login screen, then the form as it was', async (t) => {
      const clock = fixedClock(new Date().toISOString());
      const server = await startConsoleServer(t, kind, { clock });
      await createAgent(server, { email: 'collecte@brest.fr', name: 'Yann Le Gall', permissions: ['CITIES'] });
      const city = await brest(server);
      const place = city.wasteCollectionPlaces[0];
      const browser = await openBrowser(t);
      const page = await (await newAgentContext(browser)).newPage();
      await logIn(page, server.origin, 'collecte@brest.fr', PASSWORD, `/console/secteurs/${place.id}?edit=exception:nouveau`);
      await page.getByLabel('Titre').fill('Travaux rue de Siam');
      // The preview of the typed exception is answered first: landing after the clock moves, it would end the session
      // before the save does.
      const previewed = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/preview') && (r.request().postData() ?? '').includes('place Wilson'));
      await page.getByLabel('Explication pour les habitants').fill('Déposez vos sacs au point d’apport de la place Wilson.');
      await previewed;

      // Thirteen hours later: the access token and the whole session (AUTH_SESSION_HOURS, 12) have ended.
      clock.set(new Date(Date.now() + 13 * 3_600_000).toISOString());
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('button', { name: 'Se connecter' }).waitFor();
      await page.getByText('le formulaire que vous remplissiez a été conservé').waitFor();
      await checkA11y(page, 'expired');

      await logInAgain(page, 'collecte@brest.fr');
      await page.getByText('Vos modifications non enregistrées ont été conservées').waitFor();
      assert.equal(await page.getByLabel('Titre').inputValue(), 'Travaux rue de Siam');
      assert.equal(await page.getByLabel('Explication pour les habitants').inputValue(), 'Déposez vos sacs au point d’apport de la place Wilson.');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: 'Exception ajoutée.' }).waitFor();
      await page.getByRole('cell', { name: 'Travaux rue de Siam', exact: true }).waitFor();
    });
  });
}
