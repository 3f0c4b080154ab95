// A conversation's place in the console, in headless Chromium against a real server: an agent who
// holds CHAT_CONVERSATIONS alone (no CITIES) reads the commune, the place and its next collections in French, with
// a moved and an added collection said as such, beside the citizen's messages.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { fixedClock } from '../helpers/app.ts';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { CHROMIUM_SKIP, checkA11y, createAgent, logIn, newAgentContext, openBrowser, shoot, startConsoleServer } from '../helpers/console-browser.ts';

const DAY_MS = 86_400_000;
const PLACE_NAME = 'Quartier des Essais';

/** YYYY-MM-DD of an instant in Paris. */
const parisDay = (instant: Date) => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Paris' }).format(instant);
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T12:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
const noon = (day: string) => new Date(`${day}T12:00:00Z`);

/** As the contract writes a day to agents: `mardi 1er décembre`, with the year when it is not this one. */
function frenchDay(day: string, thisYear: string): string {
  const [year, , date] = day.split('-').map(Number) as [number, number, number];
  const weekday = new Intl.DateTimeFormat('fr-FR', { weekday: 'long', timeZone: 'UTC' }).format(noon(day));
  const monthName = new Intl.DateTimeFormat('fr-FR', { month: 'long', timeZone: 'UTC' }).format(noon(day));
  return `${weekday} ${date === 1 ? '1er' : date} ${monthName}${String(year) === thisYear ? '' : ` ${year}`}`;
}

for (const kind of browserDatabaseKinds()) {
  describe(`console conversation place in a browser (${kind})`, { skip: CHROMIUM_SKIP, timeout: 240_000 }, () => {
    it('shows an agent without CITIES the place of the conversation and its next collections in French', async (t) => {
      // The server's today stays the same through the test, whatever the time it takes.
      const now = new Date();
      const server = await startConsoleServer(t, kind, { clock: fixedClock(now.toISOString()) });
      await createAgent(server, { email: 'awa@brest.fr', name: 'Awa Diallo', permissions: ['CHAT_CONVERSATIONS'] });
      const db = server.database.db;
      const city = await db.selectFrom('city').select(['id', 'name']).where('city_group_id', '=', server.groupId).where('status', '=', 'ACTIF')
        .orderBy('name').executeTakeFirstOrThrow();
      const [weekly, extra] = await db.selectFrom('waste_type').select(['id', 'name']).where('city_id', '=', city.id).orderBy('name').limit(2).execute();
      assert.ok(weekly && extra, 'the demo city has two waste types');

      // A place collected every Tuesday; its next Tuesday moves to the Wednesday, and the other waste type has one
      // collection only, added on the first of next month. No holiday rule moves anything else.
      const today = parisDay(now);
      const thisYear = today.slice(0, 4);
      const tuesday = addDays(today, (2 - noon(today).getUTCDay() + 7) % 7);
      const firstOfNextMonth = `${addDays(`${today.slice(0, 8)}28`, 7).slice(0, 8)}01`;
      const placeId = randomUUID();
      await db.deleteFrom('holiday_rule').where('city_group_id', '=', server.groupId).execute();
      await db.insertInto('collection_place').values({ id: placeId, city_id: city.id, name: PLACE_NAME }).execute();
      await db.insertInto('collection_day').values({ id: randomUUID(), place_id: placeId, name: 'mardi', waste_type_id: weekly.id, description: null, biweekly: false, start_date: null }).execute();
      await db.insertInto('collection_exception').values([
        { id: randomUUID(), place_id: placeId, kind: 'MOVE', date_from: noon(tuesday), date_to: null, moved_to: noon(addDays(tuesday, 1)), waste_type_id: weekly.id, name: 'Travaux', description: null },
        { id: randomUUID(), place_id: placeId, kind: 'ADD', date_from: noon(firstOfNextMonth), date_to: null, moved_to: null, waste_type_id: extra.id, name: 'Tournée exceptionnelle', description: null },
      ]).execute();

      // A citizen gives that place to the assistant and asks for a person.
      const json = { 'content-type': 'application/json' };
      const created = await fetch(`${server.origin}/public/chat/conversations`, { method: 'POST', headers: json, body: JSON.stringify({ deviceId: `web-${'cd'.repeat(16)}`, cityId: city.id }) });
      assert.equal(created.status, 201, await created.clone().text());
      const { id } = (await created.json()) as { id: string };
      const located = await fetch(`${server.origin}/public/chat/conversations/${id}/location`, { method: 'PATCH', headers: json, body: JSON.stringify({ cityId: city.id, placeId }) });
      assert.equal(located.status, 200, await located.clone().text());
      const asked = await fetch(`${server.origin}/public/chat/conversations/${id}/messages`, { method: 'POST', headers: json, body: JSON.stringify({ content: 'je veux parler à un agent' }) });
      assert.equal(asked.status, 201);

      const browser = await openBrowser(t);
      const context = await newAgentContext(browser);
      const page = await context.newPage();
      await logIn(page, server.origin, 'awa@brest.fr');
      await page.getByRole('navigation', { name: 'Navigation de la console' }).getByRole('link', { name: 'Boîte de réception' }).click();
      await page.getByRole('row').filter({ hasText: 'Attend un agent' }).getByRole('link', { name: /^Appareil [0-9A-F]{6}$/ }).click();
      await page.getByRole('heading', { level: 1, name: /^Conversation avec Appareil/ }).waitFor();

      assert.match(await page.locator('main').innerText(), new RegExp(`Lieu\\s:\\s${city.name}, secteur «\\s${PLACE_NAME}\\s»`));
      const panel = page.getByRole('region', { name: 'Prochaines collectes' });
      await panel.waitFor();
      const d = (day: string) => frenchDay(day, thisYear);
      assert.deepEqual(await panel.getByRole('list', { name: `Prochaines collectes, ${weekly.name}` }).getByRole('listitem').allInnerTexts(), [
        `${d(addDays(tuesday, 1))} (déplacée du ${d(tuesday)}\u00a0: Travaux)`,
        d(addDays(tuesday, 7)),
        d(addDays(tuesday, 14)),
      ]);
      assert.deepEqual(await panel.getByRole('list', { name: `Prochaines collectes, ${extra.name}` }).getByRole('listitem').allInnerTexts(), [
        `${d(firstOfNextMonth)} (collecte ajoutée\u00a0: Tournée exceptionnelle)`,
      ]);
      assert.match(d(firstOfNextMonth), / 1er /);
      // Read-only: nothing to edit in the panel, and no admin route was needed (the agent holds no CITIES).
      assert.equal(await panel.locator('input, select, textarea, button').count(), 0);
      await checkA11y(page, 'conversation place');
      await shoot(page, 'conversation-place', panel);
      assert.deepEqual(context.cspViolations, []);
    });
  });
}
