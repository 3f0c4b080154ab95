// Collections that move (docs/api.md, exceptions and holiday rules) in the console, in headless Chromium against a
// real server, as an agent does it: a collection moved to another day in the exception form (only the fields of a
// move, the 14 days said, the API's refusal at its field), then seen in the list, the preview and the public
// calendar; a collection added.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { frenchDate } from '../../src/kernel/french.ts';
import { CHROMIUM_SKIP, checkA11y, createAgent, logIn, newAgentContext, openBrowser, shoot, startConsoleServer, type ConsoleServer } from '../helpers/console-browser.ts';

interface PublicCity {
  id: string;
  wasteTypes: { id: string; name: string }[];
  wasteCollectionPlaces: { id: string; name: string }[];
}
interface Collection {
  date: string;
  wasteTypeId: string;
  holiday: string | null;
  status: string;
  originalDate: string | null;
}

async function json<T>(server: ConsoleServer, url: string): Promise<T> {
  const res = await fetch(server.origin + url);
  assert.equal(res.status, 200, url);
  return (await res.json()) as T;
}

async function brest(server: ConsoleServer): Promise<PublicCity> {
  const groups = await json<{ cities: { id: string; name: string }[] }[]>(server, '/public/city-groups');
  return json<PublicCity>(server, `/public/cities/${groups.flatMap((g) => g.cities).find((c) => c.name === 'Brest')!.id}`);
}

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
/** As the console writes a day in its list: with the year when it is not this year's. */
const listed = (day: string) => frenchDate(day, { year: day.slice(0, 4) !== String(new Date().getFullYear()) });

/** The body of the next exception the page sends (POST), and the answer's status and body. */
function nextException(page: Page) {
  return page
    .waitForResponse((r) => r.request().method() === 'POST' && /\/admin\/places\/[^/]+\/exceptions$/.test(new URL(r.url()).pathname))
    .then(async (r) => ({ sent: r.request().postDataJSON() as Record<string, unknown>, status: r.status(), body: (await r.json()) as Record<string, unknown> }));
}

for (const kind of browserDatabaseKinds()) {
  describe(`console: collections that move, in a browser (${kind})`, { skip: CHROMIUM_SKIP, timeout: 240_000 }, () => {
    it('moves a collection to another day, refused past 14 days at the new day’s field, then listed, previewed and published; adds one', async (t) => {
      const server = await startConsoleServer(t, kind);
      await createAgent(server, { email: 'collecte@brest.fr', name: 'Yann Le Gall', permissions: ['CITIES'] });
      const city = await brest(server);
      const place = city.wasteCollectionPlaces[0];
      const calendar = `/public/cities/${city.id}/places/${place.id}/collections`;
      const today = new Date().toISOString().slice(0, 10);
      const upcoming = await json<Collection[]>(server, `${calendar}?from=${today}&to=${addDays(today, 45)}`);
      // A collection a few days ahead, and a day after it without a collection of its waste type: where it moves.
      const target = upcoming.find((c) => c.date > addDays(today, 2) && c.status === 'PLANNED' && c.holiday === null)!;
      const has = (day: string, wasteTypeId: string) => upcoming.some((c) => c.date === day && c.wasteTypeId === wasteTypeId);
      const newDay = [1, 2, 3, 4, 5, 6].map((n) => addDays(target.date, n)).find((day) => !has(day, target.wasteTypeId))!;
      const typeName = city.wasteTypes.find((w) => w.id === target.wasteTypeId)!.name;

      const browser = await openBrowser(t);
      const page = await (await newAgentContext(browser)).newPage();
      await logIn(page, server.origin, 'collecte@brest.fr', undefined, `/console/secteurs/${place.id}`);
      await page.getByRole('heading', { level: 1, name: place.name }).waitFor();
      await page.getByRole('button', { name: 'Annuler, déplacer ou ajouter une collecte' }).click();
      // A cancellation first: its two days, no new day.
      await page.getByRole('heading', { level: 2, name: 'Annuler une collecte' }).waitFor();
      await page.getByLabel('Du', { exact: true }).waitFor();
      assert.equal(await page.getByLabel('Nouveau jour').count(), 0);

      // A move: the day planned and the new day, the 14 days said, no end date.
      await page.getByRole('radio', { name: 'Déplacer une collecte' }).check();
      await page.getByRole('heading', { level: 2, name: 'Déplacer une collecte' }).waitFor();
      assert.equal(await page.getByLabel('Du', { exact: true }).count(), 0);
      assert.equal(await page.getByLabel('Au (facultatif)').count(), 0);
      await page.getByText('La collecte peut être avancée ou reportée de 14\u00a0jours au plus').waitFor();
      await page.getByLabel('Type de déchets').selectOption(target.wasteTypeId);
      await page.getByLabel('Jour prévu').fill(target.date);
      await page.getByLabel('Nouveau jour').fill(addDays(target.date, 20));
      const newDayField = page.locator('.field', { has: page.getByLabel('Nouveau jour') });
      await newDayField.locator('.field-error').filter({ hasText: '14\u00a0jours au plus' }).waitFor();
      await checkA11y(page, 'move form');

      // Sent anyway, the API refuses it; its sentence is shown at the new day, which is marked.
      const refusal = nextException(page);
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      const refused = await refusal;
      assert.equal(refused.status, 400);
      assert.equal(refused.body.field, 'movedTo');
      assert.deepEqual([refused.sent.kind, refused.sent.dateTo], ['MOVE', null]);
      await newDayField.locator('.field-error').filter({ hasText: String(refused.body.message) }).waitFor();
      assert.equal(await page.getByLabel('Nouveau jour').getAttribute('aria-invalid'), 'true');

      // A day within reach: the preview shows it moved, on its new day, and its old day struck.
      await page.getByLabel('Nouveau jour').fill(newDay);
      await page.getByLabel('Titre').fill('Marché de Noël');
      const moved = page.locator(`.preview li[data-date="${newDay}"][data-waste-type="${target.wasteTypeId}"][data-status="MOVED"][data-change="added"]`);
      await moved.waitFor();
      assert.match(await moved.innerText(), new RegExp(`${typeName}[\\s\\S]*reportée du ${frenchDate(target.date)}`));
      const left = page.locator(`.preview li[data-date="${target.date}"][data-waste-type="${target.wasteTypeId}"][data-change="removed"]`);
      assert.match(await left.innerText(), new RegExp(`déplacée au ${frenchDate(newDay)}`));
      await checkA11y(page, 'move preview');
      await shoot(page, 'exception-move', moved);

      const saving = nextException(page);
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      const saved = await saving;
      assert.equal(saved.status, 201);
      assert.deepEqual([saved.sent.kind, saved.sent.dateTo, saved.sent.movedTo], ['MOVE', null, `${newDay}T12:00:00.000Z`]);
      await page.getByRole('status').filter({ hasText: 'Exception ajoutée.' }).waitFor();
      await page.getByRole('cell', { name: `Déplacée du ${listed(target.date)} au ${listed(newDay)}`, exact: true }).waitFor();
      // The place's own preview, nothing being edited: the move on its new day.
      await page.locator(`.preview li[data-date="${newDay}"][data-status="MOVED"]`).filter({ hasText: `reportée du ${frenchDate(target.date)}` }).waitFor();
      let published: Collection[] = [];
      for (let i = 0; i < 50; i++) {
        published = await json<Collection[]>(server, `${calendar}?from=${target.date}&to=${newDay}`);
        if (published.some((c) => c.date === newDay && c.status === 'MOVED')) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(published.some((c) => c.date === newDay && c.wasteTypeId === target.wasteTypeId && c.status === 'MOVED' && c.originalDate === target.date), 'the public calendar has it moved');

      // An addition: one day, nothing else to fill.
      const extra = [1, 2, 3, 4, 5, 6].map((n) => addDays(newDay, n)).find((day) => !has(day, target.wasteTypeId))!;
      await page.getByRole('button', { name: 'Annuler, déplacer ou ajouter une collecte' }).click();
      await page.getByRole('radio', { name: 'Ajouter une collecte' }).check();
      await page.getByRole('heading', { level: 2, name: 'Ajouter une collecte' }).waitFor();
      assert.equal(await page.getByLabel('Nouveau jour').count(), 0);
      assert.equal(await page.getByLabel('Au (facultatif)').count(), 0);
      await page.getByLabel('Type de déchets').selectOption(target.wasteTypeId);
      await page.getByLabel('Jour de la collecte ajoutée').fill(extra);
      await page.locator(`.preview li[data-date="${extra}"][data-status="ADDED"][data-change="added"]`).filter({ hasText: 'ajoutée' }).waitFor();
      const adding = nextException(page);
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      const added = await adding;
      assert.deepEqual([added.status, added.sent.kind, added.sent.dateTo, added.sent.movedTo], [201, 'ADD', null, null]);
      await page.getByRole('cell', { name: `Ajoutée le ${listed(extra)}`, exact: true }).waitFor();
    });
  });
}
