// The points screen and « Où jeter ? » in headless Chromium on the demo data (docs/api.md, recycling points and open data; what citizens search):
// points open or closed at a fixed instant (the server's clock and the page's both set to it), by kind then name, or
// nearest first with a position granted, filtered by what they take, each with a directions link; the server's
// ranked search as one types, linking to the points that take what was found; the open-data page of the footer.
// PGlite only, like app.test.ts: the routes themselves are tested on both databases in test/recycling and test/guide.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { startDemoServer } from '../helpers/web-fixtures.ts';
import { fixedClock } from '../helpers/app.ts';
import { CHROMIUM_SKIP, launchChromium } from '../helpers/browser.ts';
import { checkA11y } from '../helpers/axe.ts';

const SHOTS = path.resolve(import.meta.dirname, 'screenshots');
const PHONE = { width: 390, height: 844 };
const NBSP = '\u00a0';

/** Monday 23 November 2026, 12:30 in Brest: the déchèteries' lunch break (winter hours), the glass banks open. */
const MONDAY_LUNCH = '2026-11-23T11:30:00.000Z';
/** The same Monday, 15:00: the déchèteries open until 17:30 (winter hours). */
const MONDAY_AFTERNOON = '2026-11-23T14:00:00.000Z';
/** Saturday 28 November 2026, 18:00: the déchèteries closed until Monday 9:00. */
const SATURDAY_EVENING = '2026-11-28T17:00:00.000Z';

interface Point {
  id: string;
  name: string;
  kind: 'CENTRE' | 'CONTAINER' | 'SHOP' | null;
  latitude: number;
  longitude: number;
  materials: string[];
  openNow: boolean | null;
  nextChange: string | null;
  distanceMeters: number | null;
}
interface City {
  id: string;
  wasteTypes: { id: string; name: string }[];
  cityGroup: { id: string } | null;
}

const KIND_ORDER = { CENTRE: 0, CONTAINER: 1, SHOP: 2 } as const;

/** Counts the page's geolocation requests (window.__geolocationCalls), installed before any of the app's scripts. */
const COUNT_GEOLOCATION = `(() => {
  const geolocation = navigator.geolocation;
  if (!geolocation) return;
  window.__geolocationCalls = 0;
  const original = geolocation.getCurrentPosition.bind(geolocation);
  geolocation.getCurrentPosition = (...args) => { window.__geolocationCalls++; return original(...args); };
})();`;

describe('web app: recycling points and « Où jeter ? »', { skip: CHROMIUM_SKIP, timeout: 240_000 }, () => {
  let origin: string;
  let browser: Browser;
  let brestId: string;
  const clock = fixedClock(MONDAY_LUNCH);
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
    fs.mkdirSync(SHOTS, { recursive: true });
    browser = await launchChromium();
    const groups = await api<{ cities: { id: string; name: string }[] }[]>('/public/city-groups');
    brestId = groups.flatMap((g) => g.cities).find((c) => c.name === 'Brest')!.id;
  });

  after(async () => {
    await browser?.close();
    for (const close of closers.reverse()) await close();
  });

  /** A phone in Brest, the commune chosen, the server's and the page's clocks at `at`. */
  async function newPage(at: string, options: Parameters<Browser['newContext']>[0] = {}): Promise<{ context: BrowserContext; page: Page }> {
    clock.set(at);
    const context = await browser.newContext({ viewport: PHONE, locale: 'fr-FR', timezoneId: 'Europe/Paris', serviceWorkers: 'block', ...options });
    context.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    await context.addInitScript(COUNT_GEOLOCATION);
    await context.addInitScript(`localStorage.setItem('collecte.city', ${JSON.stringify(JSON.stringify(brestId))})`);
    const page = await context.newPage();
    await page.clock.setFixedTime(new Date(at));
    return { context, page };
  }


  const cards = (page: Page) => page.getByRole('list', { name: 'Points de collecte' }).getByRole('listitem');
  const cardNames = (page: Page) => cards(page).locator('h2').allInnerTexts();
  const cardOf = (page: Page, name: string) => cards(page).filter({ has: page.getByRole('heading', { name, exact: true }) });

  it('lists the points by kind then name, each open or closed as the API says at that instant, with a directions link', async () => {
    const { context, page } = await newPage(MONDAY_LUNCH);
    await page.goto(`${origin}/decheteries`);
    await cards(page).first().waitFor();
    const points = await api<Point[]>(`/public/cities/${brestId}/recycling-points`);
    const expected = [...points]
      .sort((a, b) => (a.kind ? KIND_ORDER[a.kind] : 3) - (b.kind ? KIND_ORDER[b.kind] : 3) || a.name.localeCompare(b.name, 'fr'))
      .map((p) => p.name);
    assert.deepEqual(await cardNames(page), expected);
    assert.notDeepEqual(expected, points.map((p) => p.name), 'the API answers by name: the screen reorders');

    // At 12:30 on a Monday the déchèteries are at lunch, the glass banks open until 22:00, the textile bank always.
    const spernot = points.find((p) => p.name === 'Déchèterie du Spernot')!;
    assert.equal(spernot.openNow, false);
    assert.equal(spernot.nextChange, '2026-11-23T13:00:00.000Z');
    assert.equal(await cardOf(page, spernot.name).locator('.opening').innerText(), `Fermé · ouvre à 14${NBSP}h`);
    const glass = points.find((p) => p.name.includes('Rue de Siam'))!;
    assert.equal(glass.openNow, true);
    assert.equal(await cardOf(page, glass.name).locator('.opening').innerText(), `Ouvert · ferme à 22${NBSP}h`);
    const textile = points.find((p) => p.name.startsWith('Borne textile'))!;
    assert.equal(textile.nextChange, null);
    assert.equal(await cardOf(page, textile.name).locator('.opening').innerText(), `Ouvert 24${NBSP}h/24`);

    // OpenStreetMap's directions to the point; no start without a position.
    const link = cardOf(page, spernot.name).getByRole('link', { name: `Itinéraire vers ${spernot.name}` });
    const href = new URL(String(await link.getAttribute('href')));
    assert.equal(href.origin + href.pathname, 'https://www.openstreetmap.org/directions');
    assert.equal(href.searchParams.get('to'), `${spernot.latitude},${spernot.longitude}`);
    assert.equal(href.searchParams.has('from'), false);
    assert.equal(await page.evaluate('window.__geolocationCalls'), 0, 'no geolocation request without the tap');
    await checkA11y(page, 'points by kind');
    await page.screenshot({ path: path.join(SHOTS, 'points-phone.png'), fullPage: true });
    await context.close();
  });

  it('says when an open point closes at a half hour, and when a closed one opens next on another day', async () => {
    // The server's clock only moves forward through this file: its response cache holds « now » answers until then.
    const afternoon = await newPage(MONDAY_AFTERNOON);
    await afternoon.page.goto(`${origin}/decheteries`);
    await cards(afternoon.page).first().waitFor();
    assert.equal(await cardOf(afternoon.page, 'Déchèterie du Vern').locator('.opening').innerText(), `Ouvert · ferme à 17${NBSP}h${NBSP}30`);
    await afternoon.context.close();

    const saturday = await newPage(SATURDAY_EVENING);
    await saturday.page.goto(`${origin}/decheteries`);
    await cards(saturday.page).first().waitFor();
    const points = await api<Point[]>(`/public/cities/${brestId}/recycling-points`);
    const vern = points.find((p) => p.name === 'Déchèterie du Vern')!;
    assert.deepEqual([vern.openNow, vern.nextChange], [false, '2026-11-30T08:00:00.000Z']);
    assert.equal(await cardOf(saturday.page, vern.name).locator('.opening').innerText(), `Fermé · ouvre lundi à 9${NBSP}h`);
    await saturday.context.close();
  });

  it('sorts the points nearest first once « Me localiser » is tapped, the directions starting there', async () => {
    const near = { latitude: 48.4183, longitude: -4.4611 };
    const { context, page } = await newPage(SATURDAY_EVENING, { permissions: ['geolocation'], geolocation: near });
    await page.goto(`${origin}/decheteries`);
    await cards(page).first().waitFor();
    assert.equal(await page.evaluate('window.__geolocationCalls'), 0);
    await page.getByRole('button', { name: 'Me localiser' }).click();
    await page.getByText('du plus proche au plus éloigné').waitFor();
    assert.equal(await page.evaluate('window.__geolocationCalls'), 1);
    const expected = await api<Point[]>(`/public/cities/${brestId}/recycling-points?lat=${near.latitude}&lon=${near.longitude}`);
    assert.equal(expected[0].name, 'Déchèterie du Vern');
    assert.deepEqual(await cardNames(page), expected.map((p) => p.name));
    assert.match(await cardOf(page, 'Déchèterie du Vern').innerText(), new RegExp(`à 0${NBSP}m|à 10${NBSP}m`));
    const href = new URL(String(await cardOf(page, expected[1].name).getByRole('link', { name: /^Itinéraire/ }).getAttribute('href')));
    assert.equal(href.searchParams.get('from'), '48.41830,-4.46110');
    await checkA11y(page, 'points by distance');
    await context.close();
  });

  it('keeps the points by kind with a French sentence when the position is refused', async () => {
    const { context, page } = await newPage(SATURDAY_EVENING);
    await page.goto(`${origin}/decheteries`);
    await page.getByRole('button', { name: 'Me localiser' }).click();
    await page.getByRole('alert').getByText(`Vous n'avez pas autorisé la localisation${NBSP}: les points restent classés par type, puis par nom.`).waitFor();
    assert.equal((await cardNames(page))[0], 'Déchèterie du Spernot');
    await context.close();
  });

  it('filters the points by what they take, as the API’s wasteTypeId does', async () => {
    const { context, page } = await newPage(SATURDAY_EVENING);
    await page.goto(`${origin}/decheteries`);
    await cards(page).first().waitFor();
    const city = await api<City>(`/public/cities/${brestId}`);
    const glass = city.wasteTypes.find((w) => w.name === 'Verre')!;
    await page.getByLabel('Ce que vous déposez').selectOption({ label: 'Verre' });
    const taking = await api<Point[]>(`/public/cities/${brestId}/recycling-points?wasteTypeId=${glass.id}`);
    assert.ok(taking.length > 0 && taking.length < 5);
    await page.getByText(`${taking.length} points qui acceptent « Verre »`).waitFor();
    assert.deepEqual((await cardNames(page)).sort(), taking.map((p) => p.name).sort());
    assert.equal(new URL(page.url()).searchParams.get('dechet'), glass.id);
    await page.getByLabel('Ce que vous déposez').selectOption({ label: 'Tous les points' });
    assert.equal(await cards(page).count(), 5);
    await context.close();
  });

  it('searches on the server as one types: a typo finds the right item first, linking to the points that take it', async () => {
    const { context, page } = await newPage(SATURDAY_EVENING);
    const searches: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/sorting-guide')) searches.push(new URL(r.url()).searchParams.get('q')!);
    });
    await page.goto(`${origin}/tri`);
    const box = page.getByLabel('Objet ou matière');
    await box.pressSequentially('capsul de cafe', { delay: 20 });
    const answers = page.getByRole('list', { name: 'Où le jeter' }).getByRole('listitem');
    await answers.first().waitFor();
    const expected = await api<{ material: string; wasteTypeName: string; wasteTypeId: string; recyclingPointIds: string[] }[]>(
      `/public/cities/${brestId}/sorting-guide?q=${encodeURIComponent('capsul de cafe')}`,
    );
    assert.equal(expected[0].material, 'Capsules de café ou de thé');
    assert.equal(expected[0].wasteTypeName, 'Emballages et papiers');
    assert.deepEqual(await answers.locator('h2').allInnerTexts(), expected.map((r) => r.material));
    // Debounced: far fewer searches than keystrokes, and the last one is the text in the box.
    assert.ok(searches.length >= 1 && searches.length < 'capsul de cafe'.length, searches.join(' | '));
    assert.equal(searches.at(-1), 'capsul de cafe');
    await checkA11y(page, 'où jeter, results');
    await page.screenshot({ path: path.join(SHOTS, 'sorting-search-phone.png'), fullPage: true });

    const first = answers.first();
    await first.getByRole('link', { name: /qui l’acceptent/ }).click();
    await page.getByRole('heading', { level: 1, name: "Déchèteries et points d'apport" }).waitFor();
    assert.equal(new URL(page.url()).searchParams.get('dechet'), expected[0].wasteTypeId);
    await cards(page).first().waitFor();
    const points = await api<Point[]>(`/public/cities/${brestId}/recycling-points`);
    const names = points.filter((p) => expected[0].recyclingPointIds.includes(p.id)).map((p) => p.name);
    assert.deepEqual((await cardNames(page)).sort(), names.sort());
    await context.close();
  });

  it('says so when nothing is found, and aborts a search superseded by more typing', async () => {
    const { context, page } = await newPage(SATURDAY_EVENING);
    await page.goto(`${origin}/tri`);
    const box = page.getByLabel('Objet ou matière');
    await box.fill('zzzz qqqq');
    await page.getByText(`Nous n'avons pas trouvé «${NBSP}zzzz qqqq${NBSP}»`).waitFor();

    let held: Route | null = null;
    await page.route('**/sorting-guide**', (route) => {
      if (!held) held = route;
      else return route.continue();
    });
    const firstRequest = page.waitForRequest((r) => r.url().includes('/sorting-guide'));
    await box.fill('medic');
    const firstUrl = (await firstRequest).url();
    const aborted = page.waitForEvent('requestfailed', (r) => r.url() === firstUrl);
    await box.fill('medicamant');
    assert.match((await aborted).url(), /q=medic$/);
    const answers = page.getByRole('list', { name: 'Où le jeter' }).getByRole('listitem');
    await answers.first().waitFor();
    assert.match(await answers.first().locator('.verdict').innerText(), /Pharmacie/);
    await (held as Route | null)?.continue().catch(() => {});
    await context.close();
  });

  it('links « Données ouvertes » from the footer to the commune’s exports, each a file that downloads', async () => {
    const { context, page } = await newPage(SATURDAY_EVENING);
    await page.goto(`${origin}/`);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Données ouvertes' }).click();
    await page.getByRole('heading', { level: 1, name: 'Données ouvertes' }).waitFor();
    const links = page.getByRole('list', { name: 'Fichiers à télécharger' }).getByRole('link');
    await links.first().waitFor();
    const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
    const city = await api<City>(`/public/cities/${brestId}`);
    assert.equal(hrefs.length, 3);
    assert.ok(hrefs.includes(`/public/cities/${brestId}/recycling-points.geojson`));
    assert.ok(hrefs.includes(`/public/city-groups/${city.cityGroup!.id}/equipements.csv`));
    for (const href of hrefs) {
      const res = await fetch(origin + href);
      assert.equal(res.status, 200, href);
      assert.match(String(res.headers.get('content-type')), /geo\+json|text\/csv/, href);
      assert.match(String(res.headers.get('content-disposition')), /^attachment/, href);
    }
    await checkA11y(page, 'open data');
    await context.close();
  });

  it('ran without a Content-Security-Policy violation', () => {
    assert.deepEqual(cspViolations, []);
  });
});
