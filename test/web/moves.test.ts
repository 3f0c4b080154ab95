// Collections that move, and service notices, in the citizens' app (docs/api.md, collections that move and service notices), in headless
// Chromium at 390 px: a commune of its own beside the demo data, with a MOVE exception, an ADD exception, its group's
// holiday rules (Christmas to the next day, New Year's Day cancelled) and service notices inserted in the database;
// the server's clock and the page's both on Monday 21 December 2026, so that the holidays are in the coming weeks.
// PGlite only, like the other browser files: the routes themselves are tested on both databases in test/calendar and
// test/notices.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startDemoServer } from '../helpers/web-fixtures.ts';
import { fixedClock } from '../helpers/app.ts';
import { CHROMIUM_SKIP, launchChromium } from '../helpers/browser.ts';
import { checkA11y } from '../helpers/axe.ts';
import {
  insertCalendarCity,
  insertCityGroup,
  insertCollectionDays,
  insertExceptions,
  insertPlace,
  insertWasteType,
  setHolidayRules,
} from '../helpers/calendar-fixtures.ts';

const SHOTS = path.resolve(import.meta.dirname, 'screenshots');
const PHONE = { width: 390, height: 844 };
const NBSP = '\u00a0';

/** Monday 21 December 2026, 10:00 in France. */
const NOW = '2026-12-21T09:00:00.000Z';
/** A day as the exceptions store it: midnight in France (winter time), as an instant. */
const midnight = (day: string) => new Date(`${day}T00:00:00+01:00`).toISOString();

interface Collection {
  date: string;
  wasteTypeId: string;
  status: 'PLANNED' | 'MOVED' | 'ADDED' | 'CANCELLED';
  originalDate: string | null;
  note: string | null;
}

describe('web app: collections that move and service notices', { skip: CHROMIUM_SKIP, timeout: 240_000 }, () => {
  let origin: string;
  let browser: Browser;
  let cityId: string;
  let placeId: string;
  let types: { emballages: string; ordures: string; verre: string };
  const clock = fixedClock(NOW);
  const cspViolations: string[] = [];
  const closers: (() => Promise<void>)[] = [];

  const api = async <T,>(url: string): Promise<T> => {
    const res = await fetch(origin + url);
    assert.equal(res.status, 200, url);
    return (await res.json()) as T;
  };

  before(async () => {
    const server = await startDemoServer({ after: (fn) => closers.push(fn) }, 'pglite', { clock });
    origin = server.origin;
    const db = server.database.db;
    const groupId = await insertCityGroup(db, 'Communauté des Fêtes');
    await setHolidayRules(db, groupId, [
      { holiday: 'noel', wasteTypeId: null, action: 'NEXT_DAY' },
      { holiday: 'jour-de-l-an', wasteTypeId: null, action: 'CANCEL' },
    ]);
    cityId = await insertCalendarCity(db, { name: 'Villefête', cityGroupId: groupId });
    types = {
      emballages: await insertWasteType(db, cityId, 'Emballages', '#facc15'),
      ordures: await insertWasteType(db, cityId, 'Ordures ménagères', '#6b7280'),
      verre: await insertWasteType(db, cityId, 'Verre', '#16a34a'),
    };
    placeId = await insertPlace(db, cityId, 'Bourg');
    const hameauId = await insertPlace(db, cityId, 'Hameau');
    await insertCollectionDays(db, placeId, [
      { name: 'vendredi', wasteTypeId: types.emballages },
      { name: 'vendredi', wasteTypeId: types.ordures },
      { name: 'mercredi', wasteTypeId: types.verre },
    ]);
    await insertCollectionDays(db, hameauId, [{ name: 'lundi', wasteTypeId: types.ordures }]);
    await insertExceptions(db, placeId, [
      { wasteTypeId: types.emballages, dateFrom: midnight('2026-12-25'), kind: 'MOVE', movedTo: midnight('2026-12-24'), name: 'Noël', description: 'Collecte avancée au jeudi 24 décembre.' },
      { wasteTypeId: types.verre, dateFrom: midnight('2027-01-02'), kind: 'ADD', name: 'Après les fêtes' },
    ]);
    const notice = (values: { title: string; body: string; severity: 'INFO' | 'WARNING'; startsAt: string; endsAt: string | null; placeIds?: string[] }) => ({
      id: randomUUID(),
      city_group_id: groupId,
      city_ids: [],
      place_ids: values.placeIds ?? [],
      title: values.title,
      body: values.body,
      severity: values.severity,
      starts_at: values.startsAt,
      ends_at: values.endsAt,
      created_at: values.startsAt,
      updated_at: values.startsAt,
    });
    await db
      .insertInto('service_notice')
      .values([
        notice({
          title: 'Grève des agents de collecte',
          body: 'Des collectes peuvent être retardées.\nSortez vos bacs la veille au soir, comme d’habitude.',
          severity: 'WARNING',
          startsAt: '2026-12-20T08:00:00.000Z',
          // Monday 4 January 2027, 18:00 in France.
          endsAt: '2027-01-04T17:00:00.000Z',
        }),
        notice({ title: 'Horaires des fêtes à la déchèterie', body: 'Fermée le 25 décembre et le 1er janvier.', severity: 'INFO', startsAt: '2026-12-18T08:00:00.000Z', endsAt: null }),
        notice({ title: 'Travaux au Hameau', body: 'Bacs à déposer en bout de rue.', severity: 'INFO', startsAt: '2026-12-19T08:00:00.000Z', endsAt: null, placeIds: [hameauId] }),
        notice({ title: 'Avis terminé', body: 'Ne doit plus paraître.', severity: 'WARNING', startsAt: '2026-12-10T08:00:00.000Z', endsAt: '2026-12-20T08:00:00.000Z' }),
      ])
      .execute();
    fs.mkdirSync(SHOTS, { recursive: true });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    for (const close of closers.reverse()) await close();
  });

  /** A phone whose clock, like the server's, is at NOW; no service worker (the offline copy is the app's own). */
  async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: PHONE, locale: 'fr-FR', timezoneId: 'Europe/Paris', serviceWorkers: 'block' });
    closers.push(() => context.close().catch(() => undefined));
    context.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    const page = await context.newPage();
    await page.clock.setFixedTime(new Date(NOW));
    return { context, page };
  }


  const calendarPath = () => `/communes/${cityId}/${placeId}`;

  it('the engine answers what the screen is to show (the scenario holds)', async () => {
    const year = await api<Collection[]>(`/public/cities/${cityId}/places/${placeId}/collections?from=2026-12-21&to=2027-01-10&include=cancelled`);
    const changed = year.filter((c) => c.status !== 'PLANNED').map((c) => [c.date, c.wasteTypeId, c.status, c.originalDate]);
    assert.deepEqual(changed, [
      ['2026-12-24', types.emballages, 'MOVED', '2026-12-25'],
      ['2026-12-26', types.ordures, 'MOVED', '2026-12-25'],
      ['2027-01-01', types.emballages, 'CANCELLED', null],
      ['2027-01-01', types.ordures, 'CANCELLED', null],
      ['2027-01-02', types.verre, 'ADDED', null],
    ]);
  });

  it('shows the notices in force for the place on top, a moved collection with both days, and what changes in the coming weeks', async () => {
    const { page } = await newPage();
    await page.goto(origin + calendarPath());
    await page.locator('.bin').first().waitFor();

    // The notices in force for this place, newest first: not the Hameau's, not the one that ended.
    const notices = page.locator('.service-notice');
    assert.deepEqual(await notices.locator('h2').allInnerTexts(), ['Important Grève des agents de collecte', 'Horaires des fêtes à la déchèterie']);
    const strike = notices.first();
    assert.equal(await strike.getAttribute('role'), 'status');
    assert.match(String(await strike.getAttribute('class')), /\bwarning\b/);
    assert.match(String(await notices.nth(1).getAttribute('class')), /\binfo\b/);
    assert.equal(await strike.locator('.notice-body').innerText(), 'Des collectes peuvent être retardées.\nSortez vos bacs la veille au soir, comme d’habitude.');
    assert.equal(await strike.locator('.notice-period').innerText(), `Jusqu’au lundi 4 janvier à 18${NBSP}h`);
    assert.equal(await notices.nth(1).locator('.notice-period').innerText(), 'Depuis le vendredi 18 décembre');
    // Drawn stronger: a WARNING has a full border, an INFO a left one only.
    const borders = await notices.evaluateAll((els) =>
      els.map((el) => (globalThis as unknown as { getComputedStyle: (e: unknown) => { borderTopWidth: string } }).getComputedStyle(el).borderTopWidth),
    );
    assert.deepEqual(borders, ['2px', '1px']);
    // On top: before the next collections.
    const noticeBox = (await strike.boundingBox())!;
    const binsBox = (await page.locator('.bins').boundingBox())!;
    assert.ok(noticeBox.y < binsBox.y);

    // Each card: its next collection, a moved one with both days (« avancée » when earlier), and the commune's note.
    const card = (type: string) => page.locator(`.bin[data-waste-type="${type}"]`);
    assert.equal(await card(types.emballages).locator('.next').innerText(), 'Jeudi 24 décembre, avancée du vendredi 25');
    assert.equal(await card(types.emballages).locator('.next time').getAttribute('datetime'), '2026-12-24');
    assert.ok((await card(types.emballages).innerText()).includes('Noël – Collecte avancée au jeudi 24 décembre.'));
    assert.equal(await card(types.ordures).locator('.next').innerText(), 'Samedi 26 décembre, reportée du vendredi 25 (Noël)');
    assert.equal(await card(types.verre).locator('.next').innerText(), 'Mercredi 23 décembre');
    // Then the next one: Verre's on the 30th.
    assert.match(await card(types.verre).innerText(), /puis mercredi 30 décembre/);

    // « Exceptions et jours fériés »: from the collections answer, not from the city's exceptions.
    const changes = await page.locator('.exceptions > li').evaluateAll((els) =>
      els.map((el) => [el.querySelector('strong')!.textContent, el.querySelector('p')!.textContent, el.getAttribute('data-status')]),
    );
    assert.deepEqual(changes, [
      ['Emballages', 'Collecte du vendredi 25 décembre avancée au jeudi 24 décembre', 'MOVED'],
      ['Ordures ménagères', 'Collecte du vendredi 25 décembre reportée au samedi 26 décembre (Noël)', 'MOVED'],
      ['Emballages', "Pas de collecte le vendredi 1er janvier (Jour de l'an)", 'CANCELLED'],
      ['Ordures ménagères', "Pas de collecte le vendredi 1er janvier (Jour de l'an)", 'CANCELLED'],
      ['Verre', 'Collecte supplémentaire le samedi 2 janvier', 'ADDED'],
    ]);
    assert.ok((await page.locator('.exceptions > li[data-status="ADDED"]').innerText()).includes('Après les fêtes'));

    // The next 30 days mark them the same way: the cancelled day is listed, as such.
    const day = (date: string) => page.locator('.agenda > li').filter({ has: page.locator(`time[datetime="${date}"]`) });
    assert.equal(await day('2027-01-01').locator('li.cancelled').count(), 2);
    assert.match(await day('2027-01-01').innerText(), /Emballages\s*pas de collecte\s*Jour de l'an/);
    assert.match(await day('2026-12-24').innerText(), /Emballages\s*avancée du vendredi 25/);
    assert.match(await day('2027-01-02').innerText(), /Verre\s*collecte supplémentaire/);
    assert.equal(await day('2026-12-25').count(), 0, 'nothing left on Christmas Day');

    await checkA11y(page, 'calendar with moves and notices');
    await page.screenshot({ path: path.join(SHOTS, 'moves-calendar-phone.png'), fullPage: true });
  });

  it('offers the feed without its cancelled collections, and keeps the calendar and its notices offline', async () => {
    const { page } = await newPage();
    await page.goto(origin + calendarPath());
    const download = page.getByRole('link', { name: /Télécharger le fichier/ });
    const feed = `/public/cities/${cityId}/places/${placeId}/calendar.ics`;
    assert.equal(await download.getAttribute('href'), `${origin}${feed}`);
    await page.getByLabel('sans les collectes annulées').check();
    assert.equal(await download.getAttribute('href'), `${origin}${feed}?cancelled=false`);
    assert.equal(await page.getByRole('link', { name: "S'abonner au calendrier" }).getAttribute('href'), `webcal://${new URL(origin).host}${feed}?cancelled=false`);
    const withCancelled = await (await fetch(`${origin}${feed}`)).text();
    const without = await (await fetch(`${origin}${feed}?cancelled=false`)).text();
    assert.match(withCancelled, /STATUS:CANCELLED/);
    assert.doesNotMatch(without, /STATUS:CANCELLED/);

    // The network drops: the calendar kept on the device, its moves and its notices, and says it is offline.
    await page.route('**/public/**', (route) => route.abort('internetdisconnected'));
    await page.getByRole('link', { name: 'Changer de secteur' }).click();
    await page.goBack();
    await page.getByText('Vous êtes hors connexion : voici le calendrier enregistré le').waitFor();
    assert.equal(await page.locator(`.bin[data-waste-type="${types.ordures}"] .next`).innerText(), 'Samedi 26 décembre, reportée du vendredi 25 (Noël)');
    assert.equal(await page.locator('.service-notice h2').first().innerText(), 'Important Grève des agents de collecte');
    assert.equal(await page.locator('.exceptions > li[data-status="CANCELLED"]').count(), 2);
  });

  it('shows the commune’s notices, any of its places’ included, before a place is chosen; none where there is none', async () => {
    const { page } = await newPage();
    await page.goto(`${origin}/communes/${cityId}`);
    await page.getByRole('heading', { level: 1, name: /votre secteur/ }).waitFor();
    await page.locator('.service-notice').first().waitFor();
    assert.deepEqual(await page.locator('.service-notice h2').allInnerTexts(), [
      'Important Grève des agents de collecte',
      'Travaux au Hameau',
      'Horaires des fêtes à la déchèterie',
    ]);
    await checkA11y(page, 'place choice with notices');

    // A demo commune has no notice: nothing is shown.
    const groups = await api<{ cities: { id: string; name: string }[] }[]>('/public/city-groups');
    const brestId = groups.flatMap((g) => g.cities).find((c) => c.name === 'Brest')!.id;
    const noticesAnswered = page.waitForResponse((r) => r.url().includes(`/public/cities/${brestId}/notices`));
    await page.goto(`${origin}/communes/${brestId}`);
    await page.getByRole('heading', { level: 1, name: /votre secteur/ }).waitFor();
    assert.deepEqual(await (await noticesAnswered).json(), []);
    assert.equal(await page.locator('.service-notice, .service-notices').count(), 0);
  });

  it('gives the Home Assistant configuration of the place, its feed without the cancelled collections', async () => {
    const { context, page } = await newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    // The calendar first: the open-data page is about the place chosen there.
    await page.goto(origin + calendarPath());
    await page.locator('.bin').first().waitFor();
    await page.getByRole('link', { name: 'Données ouvertes' }).click();
    const section = page.getByRole('region', { name: 'Dans Home Assistant' });
    await section.waitFor();
    const yaml = section.getByRole('region', { name: 'Configuration de Home Assistant' });
    const oneSource = await yaml.innerText();
    const feed = `${origin}/public/cities/${cityId}/places/${placeId}/calendar.ics?cancelled=false`;
    assert.ok(oneSource.startsWith('waste_collection_schedule:\n  sources:\n    - name: ics\n      args:\n'), oneSource);
    assert.ok(oneSource.includes(`        url: "${feed}"\n`), oneSource);
    assert.ok(oneSource.includes('      calendar_title: "Collecte – Bourg"\n'), oneSource);
    assert.ok(oneSource.includes('sensor:\n  - platform: waste_collection_schedule\n    name: "Collecte Bourg"\n'), oneSource);

    // The feed it names has no cancelled event, and its regex names each collection after its bin, a moved one too.
    const regex = new RegExp(JSON.parse(/regex: (".*")/.exec(oneSource)![1]) as string);
    const ics = (await (await fetch(feed)).text()).replace(/\r\n[ \t]/g, '');
    assert.doesNotMatch(ics, /STATUS:CANCELLED/);
    const summaries = [...ics.matchAll(/^SUMMARY:(.*)$/gm)].map((m) => m[1].trim());
    assert.ok(summaries.includes('Collecte : Ordures ménagères (reportée du 25 décembre)'), summaries.slice(0, 5).join(' | '));
    assert.deepEqual(new Set(summaries.map((s) => regex.exec(s)?.[1])), new Set(['Emballages', 'Ordures ménagères', 'Verre']));

    // One sensor per bin: one source per bin, its own feed (`wasteTypeId`), the sensors by source_index.
    await section.getByLabel('Un capteur par bac').check();
    const perBin = await yaml.innerText();
    assert.equal(perBin.match(/- name: ics/g)?.length, 3);
    for (const [index, [name, id]] of [['Emballages', types.emballages], ['Ordures ménagères', types.ordures], ['Verre', types.verre]].entries()) {
      assert.ok(perBin.includes(`        url: "${feed}&wasteTypeId=${id}"\n`), perBin);
      assert.ok(perBin.includes(`  - platform: waste_collection_schedule\n    source_index: ${index}\n    name: "${name}"\n`), perBin);
    }
    const verre = (await (await fetch(`${feed}&wasteTypeId=${types.verre}`)).text()).replace(/\r\n[ \t]/g, '');
    assert.deepEqual(new Set([...verre.matchAll(/^SUMMARY:(.*)$/gm)].map((m) => m[1].trim())), new Set(['Collecte : Verre']));

    await section.getByRole('button', { name: 'Copier la configuration' }).click();
    const said = section.getByRole('status');
    await said.waitFor();
    if ((await said.innerText()).startsWith('Configuration copiée')) assert.equal(await page.evaluate('navigator.clipboard.readText()'), perBin.endsWith('\n') ? perBin : `${perBin}\n`);
    await checkA11y(page, 'open data with Home Assistant');
    await page.screenshot({ path: path.join(SHOTS, 'home-assistant-phone.png'), fullPage: true });
  });

  it('ran without a Content-Security-Policy violation', () => {
    assert.deepEqual(cspViolations, []);
  });
});
