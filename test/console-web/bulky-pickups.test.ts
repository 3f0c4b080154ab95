// The console's « Enlèvement des encombrants » and « Clés Open311 » screens (docs/api.md, bulky-waste pickups and
// Open311) in headless Chromium, against a real server: next month's Tuesdays and Thursdays opened
// in bulk and seen on the calendar, one day's capacity set, bookings filed through the public API listed on their day
// in the crew's order (by street, then by number), a day that would drop below its bookings refused (one day, then in
// bulk: the API's 409 sentence, nothing changed), the crew's list printed alone; an Open311 key created by a super
// admin, shown once, working, listed without itself after a reload, revoked; a non-super admin not offered the screen;
// the keyboard alone from the month to a day's capacity; a phone's width.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { CHROMIUM_SKIP, checkA11y, createAgent, logIn, newAgentContext, openBrowser, PASSWORD, PHONE, shoot, startConsoleServer, type ConsoleServer } from '../helpers/console-browser.ts';
import { clipboardText } from '../helpers/browser.ts';

const json = { 'content-type': 'application/json' };
const WEEKDAY_NAMES = ['dimanche', 'lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi'];

interface Day {
  date: string;
  capacity: number;
  booked: number;
  remaining: number;
  bookings: { id: string; reference: string; address: string | null; items: string | null; placeName: string | null }[];
}

/** The agent's token, for reading what the screens changed. */
async function tokenOf(origin: string, email: string): Promise<Record<string, string>> {
  const login = await fetch(`${origin}/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ email, password: PASSWORD }) });
  assert.equal(login.status, 200);
  return { authorization: `Bearer ${((await login.json()) as { accessToken: string }).accessToken}` };
}

/** Next month in Paris (YYYY-MM), whose days are all bookable today, and its days. */
function nextMonth(): { month: string; days: string[] } {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
  const first = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)), 1));
  const month = first.toISOString().slice(0, 7);
  const length = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return { month, days: Array.from({ length }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`) };
}

const weekdayOf = (day: string) => WEEKDAY_NAMES[new Date(`${day}T12:00:00Z`).getUTCDay()];
/** `mardi 8 décembre`, `mardi 1er décembre` (with `year`: `mardi 8 décembre 2026`). */
const dayName = (day: string, year = false) =>
  new Intl.DateTimeFormat('fr-FR', { weekday: 'long', day: 'numeric', month: 'long', ...(year ? { year: 'numeric' } : {}), timeZone: 'UTC' })
    .format(new Date(`${day}T12:00:00Z`))
    .replace(/^(\S+) 1 /, '$1 1er ');
const monthLabel = (month: string) => new Intl.DateTimeFormat('fr-FR', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-15T12:00:00Z`));
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function pickupDays(origin: string, auth: Record<string, string>, cityId: string, from: string, to: string): Promise<Day[]> {
  const answer = await fetch(`${origin}/admin/cities/${cityId}/bulky-pickups?from=${from}&to=${to}`, { headers: auth });
  assert.equal(answer.status, 200, await answer.clone().text());
  return (await answer.json()) as Day[];
}

/** A resident's booking through the public API, as the citizens' app files one. */
async function book(origin: string, body: Record<string, unknown>): Promise<{ id: string; reference: string }> {
  const answer = await fetch(`${origin}/public/requests`, { method: 'POST', headers: json, body: JSON.stringify({ typeCode: 'encombrants', email: 'habitant@example.org', ...body }) });
  assert.equal(answer.status, 201, await answer.clone().text());
  return (await answer.json()) as { id: string; reference: string };
}

/** Presses Tab until the focused element answers `wanted` (at most 80 times): the keyboard alone reaches it. */
async function tabTo(page: Page, wanted: (element: { tag: string; text: string; label: string }) => boolean, what: string): Promise<void> {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const e = document.activeElement as HTMLElement | null;
      return { tag: e?.tagName.toLowerCase() ?? '', text: (e?.innerText ?? '').replace(/\s+/g, ' ').trim(), label: e?.id ? (document.querySelector(`label[for="${e.id}"]`)?.textContent ?? '') : '' };
    });
    if (wanted(focused)) return;
  }
  assert.fail(`the keyboard does not reach ${what}`);
}

async function brest(server: ConsoleServer) {
  const db = server.database.db;
  const city = await db.selectFrom('city').select(['id', 'name']).where('city_group_id', '=', server.groupId).where('name', '=', 'Brest').executeTakeFirstOrThrow();
  const place = await db.selectFrom('collection_place').select(['id', 'name']).where('city_id', '=', city.id).orderBy('name').executeTakeFirstOrThrow();
  return { city, place };
}

for (const kind of browserDatabaseKinds()) {
  describe(`console: bulky-waste pickups and Open311 keys, in a browser (${kind})`, { skip: CHROMIUM_SKIP, timeout: 360_000 }, () => {
    it('opens pickup days in bulk and one by one, lists a day’s bookings in the crew’s order, refuses overbooking and prints the crew’s list', async (t) => {
      const server = await startConsoleServer(t, kind);
      const { origin } = server;
      await createAgent(server, { email: 'lena@brest.fr', name: 'Léna Caradec', permissions: ['REQUESTS', 'CITIES'] });
      const auth = await tokenOf(origin, 'lena@brest.fr');
      const { city, place } = await brest(server);
      const { month, days } = nextMonth();
      const [first, last] = [days[0], days[days.length - 1]];
      const opened = days.filter((d) => ['mardi', 'jeudi'].includes(weekdayOf(d)));
      // The second Tuesday and Wednesday of the month: from the 8th, well past the noon-before rule.
      const tuesday = days.filter((d) => weekdayOf(d) === 'mardi')[1];
      const wednesday = days.filter((d) => weekdayOf(d) === 'mercredi')[1];

      const browser = await openBrowser(t);
      const context = await newAgentContext(browser);
      const page = await context.newPage();
      await logIn(page, origin, 'lena@brest.fr');

      // From the commune's screen to its calendar, this month, then the next.
      await page.getByRole('navigation', { name: 'Navigation de la console' }).getByRole('link', { name: 'Communes' }).click();
      await page.getByRole('link', { name: 'Brest', exact: true }).click();
      await page.getByRole('link', { name: 'Enlèvement des encombrants' }).click();
      await page.getByRole('heading', { level: 1, name: 'Enlèvement des encombrants – Brest' }).waitFor();
      await page.getByRole('link', { name: `Mois suivant, ${monthLabel(month)}` }).click();
      await page.waitForURL(new RegExp(`\\?mois=${month}$`));
      const calendar = page.getByRole('list', { name: `Jours de ${monthLabel(month)}` });
      await calendar.waitFor();
      assert.equal(await calendar.getByRole('listitem').count(), days.length);
      const cell = (day: string) => calendar.getByRole('listitem').filter({ has: page.getByRole('link', { name: new RegExp(`^${escape(dayName(day))}\\s:`) }) });
      assert.match(await cell(tuesday).innerText(), /Non ouvert/);

      // Every Tuesday and Thursday of the month at 5 places, through the bulk form.
      const bulk = page.getByRole('form', { name: 'Ouvrir ou fermer plusieurs jours' });
      assert.deepEqual([await bulk.getByLabel('Premier jour').inputValue(), await bulk.getByLabel('Dernier jour').inputValue()], [first, last], 'the month shown');
      await bulk.getByLabel('Mardi').check();
      await bulk.getByLabel('Jeudi').check();
      await bulk.getByLabel('Capacité de chaque jour').fill('5');
      await bulk.getByRole('button', { name: 'Appliquer à ces jours' }).click();
      await page.getByRole('status').filter({ hasText: `${opened.length}\u00a0jours à 5\u00a0places.` }).waitFor();
      let stored = await pickupDays(origin, auth, city.id, first, last);
      assert.deepEqual(stored.map((d) => [d.date, d.capacity]), opened.map((d) => [d, 5]));
      for (const day of [opened[0], tuesday, opened[opened.length - 1]]) await cell(day).filter({ hasText: /5\splaces[\s\S]*0\srendez-vous[\s\S]*5\slibres/ }).waitFor();
      assert.match(await cell(wednesday).innerText(), /Non ouvert/);

      // One day: the second Tuesday at 4 places, in its panel.
      await calendar.getByRole('link', { name: new RegExp(`^${escape(dayName(tuesday))}\\s:`) }).click();
      await page.waitForURL(new RegExp(`jour=${tuesday}`));
      const title = dayName(tuesday, true).replace(/^./, (c) => c.toUpperCase());
      const panel = page.getByRole('region', { name: title });
      await panel.getByText('Aucun rendez-vous ce jour-là.').waitFor();
      const dayForm = panel.getByRole('form', { name: 'Capacité du jour' });
      assert.equal(await dayForm.getByLabel('Capacité du jour').inputValue(), '5');
      await dayForm.getByLabel('Capacité du jour').fill('4');
      await dayForm.getByRole('button', { name: 'Enregistrer la capacité' }).click();
      await panel.getByRole('status').filter({ hasText: `${title}\u00a0: 4\u00a0places.` }).waitFor();
      assert.equal((await pickupDays(origin, auth, city.id, tuesday, tuesday))[0].capacity, 4);
      await cell(tuesday).filter({ hasText: /4\splaces/ }).waitFor();

      // Four residents book it (one naming their secteur); the crew drives by street, then by number.
      const booked = {
        siam25: await book(origin, { deviceId: 'device-bulky-1', cityId: city.id, address: '25 rue de Siam, Brest', description: 'Un canapé.', attributes: { slotDate: tuesday, items: 'Un canapé' } }),
        foch: await book(origin, { deviceId: 'device-bulky-2', cityId: city.id, address: '3 avenue Foch, Brest', description: 'Une armoire.', attributes: { slotDate: tuesday, items: 'Une armoire' } }),
        siam7: await book(origin, { deviceId: 'device-bulky-3', cityId: city.id, placeId: place.id, address: '7 rue de Siam, Brest', description: 'Un matelas.', attributes: { slotDate: tuesday, items: 'Un matelas' } }),
        montaigne: await book(origin, { deviceId: 'device-bulky-4', cityId: city.id, address: '12 bis Boulevard Montaigne, Brest', description: 'Une table.', attributes: { slotDate: tuesday, items: 'Une table et 4 chaises' } }),
      };
      const crewOrder = [
        [booked.foch, '3 avenue Foch, Brest', 'Une armoire', '—'],
        [booked.montaigne, '12 bis Boulevard Montaigne, Brest', 'Une table et 4 chaises', '—'],
        [booked.siam7, '7 rue de Siam, Brest', 'Un matelas', place.name],
        [booked.siam25, '25 rue de Siam, Brest', 'Un canapé', '—'],
      ] as const;
      await page.reload();
      await cell(tuesday).filter({ hasText: /4\splaces[\s\S]*4\srendez-vous[\s\S]*complet/ }).waitFor();
      const bookings = panel.getByRole('table', { name: `Rendez-vous du ${dayName(tuesday, true)}, par rue` });
      await bookings.waitFor();
      const rows = (await bookings.locator('tbody tr').allInnerTexts()).map((row) => row.split('\t').map((c) => c.trim()));
      assert.deepEqual(rows, crewOrder.map(([b, address, items, sector]) => [b.reference, address, items, sector]));
      assert.equal(await bookings.getByRole('link', { name: booked.siam7.reference }).getAttribute('href'), `/console/demandes/${booked.siam7.id}`);
      await checkA11y(page, 'bulky pickups, a day with bookings');
      await shoot(page, 'bulky-pickups', panel);

      // Closing the booked day: the API's 409, said in the form; nothing changed.
      await dayForm.getByLabel('Capacité du jour').fill('0');
      await dayForm.getByRole('button', { name: 'Enregistrer la capacité' }).click();
      const refusal = dayForm.getByRole('alert');
      await refusal.waitFor();
      assert.match(await refusal.innerText(), new RegExp(`^Le ${escape(dayName(tuesday))}( \\d{4})? compte déjà 4\u00a0rendez-vous\u00a0: sa capacité ne peut pas descendre en dessous`));
      await checkA11y(page, 'bulky pickups, a refused capacity');
      // Every Tuesday closed at once (the form is fresh since the reload: without a day of the week checked, the form
      // says so at its fieldset): refused the same way, naming the booked one, and no Tuesday closed.
      await bulk.getByLabel('Capacité de chaque jour').fill('0');
      await bulk.getByRole('button', { name: 'Appliquer à ces jours' }).click();
      const weekdays = bulk.getByRole('group', { name: 'Jours de la semaine' });
      await weekdays.locator('.field-error', { hasText: 'Cochez au moins un jour de la semaine.' }).waitFor();
      assert.match(String(await weekdays.getAttribute('class')), /invalid/);
      await bulk.getByLabel('Mardi').check();
      await bulk.getByRole('button', { name: 'Appliquer à ces jours' }).click();
      await bulk.getByRole('alert').filter({ hasText: new RegExp(`^Le ${escape(dayName(tuesday))}( \\d{4})? compte déjà 4\u00a0rendez-vous`) }).waitFor();
      stored = await pickupDays(origin, auth, city.id, first, last);
      assert.deepEqual(
        stored.map((d) => [d.date, d.capacity, d.booked]),
        opened.map((d) => [d, d === tuesday ? 4 : 5, d === tuesday ? 4 : 0]),
      );

      // The crew's list: the button prints; printed, the page holds the list alone, by street.
      const crew = page.locator('.crew-list');
      assert.equal(await crew.isVisible(), false, 'hidden on screen');
      await page.evaluate('window.print = () => { window.__printed = (window.__printed || 0) + 1; }');
      await panel.getByRole('button', { name: 'Imprimer la liste de la tournée' }).click();
      assert.equal(await page.evaluate('window.__printed'), 1);
      await page.emulateMedia({ media: 'print' });
      assert.equal(await crew.isVisible(), true, 'printed');
      for (const [what, other] of [
        ['the navigation', page.getByRole('navigation', { name: 'Navigation de la console' })],
        ['the header', page.getByRole('button', { name: 'Se déconnecter' })],
        ['the screen’s title', page.getByRole('heading', { level: 1 })],
        ['the calendar', page.locator('.pickup-days')],
        ['the day’s panel', page.locator('.day-panel')],
        ['the bulk form', page.locator('form[aria-labelledby="bulk-capacity-title"]')],
      ] as const) {
        assert.equal(await other.isVisible(), false, `${what} is not printed`);
      }
      assert.equal((await crew.getByRole('heading').innerText()).trim(), `Enlèvement des encombrants – Brest – ${title}`);
      const printed = (await crew.locator('tbody tr').allInnerTexts()).map((row) => row.split('\t').map((c) => c.trim()));
      assert.deepEqual(printed, crewOrder.map(([b, address, items], i) => [String(i + 1), address, items, b.reference]));
      assert.deepEqual(
        (await crew.locator('thead th').allInnerTexts()).map((h) => h.trim()),
        ['N°', 'Adresse', 'Objets', 'Référence'],
      );
      await page.emulateMedia({ media: 'screen' });
      assert.equal(await crew.isVisible(), false);

      // A phone: the month a day a line, nothing wider than the screen.
      await page.setViewportSize(PHONE);
      await page.reload();
      await bookings.waitFor();
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'the calendar fits 390 px');
      await checkA11y(page, 'bulky pickups on a phone');

      // The keyboard alone: this month, the next, its second Wednesday, 2 places.
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`${origin}/console/communes/${city.id}/encombrants`);
      await page.getByRole('heading', { level: 1, name: 'Enlèvement des encombrants – Brest' }).waitFor();
      await page.getByRole('list', { name: /^Jours de / }).waitFor();
      await tabTo(page, (e) => e.tag === 'a' && e.text.startsWith('Mois suivant'), 'the next month');
      await page.keyboard.press('Enter');
      await page.waitForURL(new RegExp(`\\?mois=${month}$`));
      await calendar.waitFor();
      // (The focused element's text has its spaces, no-break ones too, made plain.)
      await tabTo(page, (e) => e.tag === 'a' && e.text.includes(`${dayName(wednesday)} :`), 'the second Wednesday');
      await page.keyboard.press('Enter');
      await page.waitForURL(new RegExp(`jour=${wednesday}`));
      const wednesdayTitle = dayName(wednesday, true).replace(/^./, (c) => c.toUpperCase());
      await page.getByRole('region', { name: wednesdayTitle }).getByText('Aucune tournée n’est prévue ce jour-là.').waitFor();
      await tabTo(page, (e) => e.tag === 'input' && e.label === 'Capacité du jour', 'the day’s capacity');
      await page.keyboard.type('2');
      await tabTo(page, (e) => e.tag === 'button' && e.text === 'Enregistrer la capacité', 'the day’s button');
      await page.keyboard.press('Enter');
      await page.getByRole('status').filter({ hasText: `${wednesdayTitle}\u00a0: 2\u00a0places.` }).waitFor();
      assert.deepEqual(
        (await pickupDays(origin, auth, city.id, wednesday, wednesday)).map((d) => [d.date, d.capacity]),
        [[wednesday, 2]],
      );
      await cell(wednesday).filter({ hasText: /2\splaces[\s\S]*2\slibres/ }).waitFor();
      assert.deepEqual(context.cspViolations, []);
    });

    it('lets a super admin create an Open311 key, shown once, and revoke it; other agents are not offered the screen', async (t) => {
      const server = await startConsoleServer(t, kind);
      const { origin } = server;
      await createAgent(server, { email: 'root@collecte.fr', name: 'Morgane Le Bihan', superAdmin: true });
      await createAgent(server, { email: 'yann@brest.fr', name: 'Yann Le Gall', permissions: ['CITIES', 'CHALLENGES', 'BLOG_POSTS', 'CMS', 'CHAT_CONVERSATIONS', 'USERS', 'REQUESTS'] });
      const auth = await tokenOf(origin, 'root@collecte.fr');
      const group = await server.database.db.selectFrom('city_group').select(['id', 'name', 'siren']).where('id', '=', server.groupId).executeTakeFirstOrThrow();
      const listKeys = async () => {
        const answer = await fetch(`${origin}/admin/open311-keys`, { headers: auth, signal: AbortSignal.timeout(30_000) });
        assert.equal(answer.status, 200);
        return ((await answer.json()) as { data: { id: string; name: string; cityGroupId: string; lastUsedAt: string | null }[] }).data;
      };
      /** A partner's filing with `key` for an unknown service: 403 when the key is refused, 404 past it. */
      const fileWith = async (key: string) =>
        (
          await fetch(`${origin}/open311/v2/requests.json`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ api_key: key, jurisdiction_id: group.siren, service_code: 'service-inconnu', description: 'Essai du partenaire.' }),
            signal: AbortSignal.timeout(30_000),
          })
        ).status;

      const browser = await openBrowser(t);
      const context = await newAgentContext(browser);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
      const page = await context.newPage();
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.accept();
      });
      await logIn(page, origin, 'root@collecte.fr');
      const nav = page.getByRole('navigation', { name: 'Navigation de la console' });
      await nav.getByRole('link', { name: 'Clés Open311' }).click();
      await page.getByRole('heading', { level: 1, name: 'Clés Open311' }).waitFor();
      await page.getByText('Aucune clé pour l’instant.').waitFor();

      // Created for the group: the key shown once, to copy.
      const form = page.getByRole('form', { name: 'Nouvelle clé' });
      await form.getByLabel('Nom du partenaire').fill('FixMyStreet');
      // No group chosen: the API's refusal at the group's field.
      await form.getByRole('button', { name: 'Créer la clé' }).click();
      await form.locator('.field.invalid').filter({ has: page.getByLabel('Collectivité') }).locator('.field-error').waitFor();
      assert.deepEqual(await listKeys(), []);
      await form.getByLabel('Collectivité').selectOption({ label: group.name });
      await form.getByRole('button', { name: 'Créer la clé' }).click();
      const shown = page.getByRole('region', { name: `Clé de «\u00a0FixMyStreet\u00a0» pour ${group.name}` });
      await shown.waitFor();
      await shown.getByText('elle ne sera plus jamais affichée').waitFor();
      const key = await shown.getByLabel('Clé API').inputValue();
      assert.match(key, /^[A-Za-z0-9_-]{43}$/);
      await shown.getByRole('button', { name: 'Copier' }).click();
      await shown.getByRole('status').filter({ hasText: 'Clé copiée dans le presse-papiers.' }).waitFor();
      const copied = await clipboardText(page);
      if (copied !== null) assert.equal(copied, key);
      await checkA11y(page, 'a new Open311 key');
      await shoot(page, 'open311-key', shown);
      const keys = await listKeys();
      assert.deepEqual(keys.map((k) => [k.name, k.cityGroupId, k.lastUsedAt]), [['FixMyStreet', group.id, null]]);
      const table = page.getByRole('table', { name: 'Clés Open311 en service' });
      assert.match(await table.getByRole('row').filter({ hasText: 'FixMyStreet' }).innerText(), new RegExp(`FixMyStreet\\s+${escape(group.name)}[\\s\\S]+jamais`));

      // The key is the partner's: filings with it pass the key's check (a wrong one is refused).
      assert.equal(await fileWith(key), 404);
      assert.equal(await fileWith(`${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`), 403);

      // Reloaded: listed with its last use, the key itself nowhere.
      await page.reload();
      await table.waitFor();
      assert.equal(await shown.count(), 0);
      assert.ok(!(await page.content()).includes(key), 'the key is not shown again');
      const row = table.getByRole('row').filter({ hasText: 'FixMyStreet' });
      assert.match(await row.innerText(), /FixMyStreet[\s\S]+(lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche) (1er|\d+) \S+( \d{4})? à \d+\u00a0h/);
      assert.doesNotMatch(await row.innerText(), /jamais/);
      await checkA11y(page, 'Open311 keys');

      // Revoked after a confirmation: gone from the list, refused to the partner.
      await row.getByRole('button', { name: 'Révoquer la clé FixMyStreet' }).click();
      await page.getByRole('status').filter({ hasText: 'Clé «\u00a0FixMyStreet\u00a0» révoquée.' }).waitFor();
      assert.deepEqual(dialogs, ['Révoquer la clé «\u00a0FixMyStreet\u00a0»\u202f? Le partenaire ne pourra plus déposer de demandes avec elle.']);
      await page.getByText('Aucune clé pour l’instant.').waitFor();
      assert.deepEqual(await listKeys(), []);
      assert.equal(await fileWith(key), 403);

      // An agent holding every permission, but no super admin: no « Clés Open311 », and the screen refused.
      const other = await (await newAgentContext(browser)).newPage();
      await logIn(other, origin, 'yann@brest.fr');
      const otherNav = other.getByRole('navigation', { name: 'Navigation de la console' });
      await otherNav.getByRole('link', { name: 'Comptes des agents' }).waitFor();
      assert.equal(await otherNav.getByRole('link', { name: 'Clés Open311' }).count(), 0);
      assert.equal(await other.getByRole('link', { name: 'Clés Open311' }).count(), 0, 'nor on the home screen');
      await other.goto(`${origin}/console/open311`);
      await other.getByRole('heading', { level: 1, name: 'Accès refusé' }).waitFor();
      assert.deepEqual(context.cspViolations, []);
    });
  });
}
