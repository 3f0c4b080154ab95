// The commune screen's address box and « Me localiser » in headless Chromium on the demo data (docs/api.md, from an address to a collection place):
// a citizen finds their collection place from their address or their position and lands on its calendar.
// PGlite only, like app.test.ts: the lookup itself is tested on both databases in test/cities/lookup.test.ts.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { startDemoServer } from '../helpers/web-fixtures.ts';
import { CHROMIUM_SKIP, launchChromium } from '../helpers/browser.ts';
import { checkA11y } from '../helpers/axe.ts';

const SKIP = CHROMIUM_SKIP;
const SHOTS = path.resolve(import.meta.dirname, 'screenshots');
const PHONE = { width: 390, height: 844 };
const NBSP = '\u00a0';

interface Candidate {
  cityId: string;
  placeId: string;
  placeName: string;
  matchedBy: string;
  label: string;
}

/** Counts the page's geolocation requests (window.__geolocationCalls), installed before any of the app's scripts. */
const COUNT_GEOLOCATION = `(() => {
  const geolocation = navigator.geolocation;
  if (!geolocation) return;
  window.__geolocationCalls = 0;
  for (const name of ['getCurrentPosition', 'watchPosition']) {
    const original = geolocation[name].bind(geolocation);
    geolocation[name] = (...args) => { window.__geolocationCalls++; return original(...args); };
  }
})();`;

describe('web app: finding one’s place from an address or a position', { skip: SKIP, timeout: 180_000 }, () => {
  let origin: string;
  let browser: Browser;
  let brestId: string;
  const cspViolations: string[] = [];
  const closers: (() => Promise<void>)[] = [];

  const api = async <T,>(url: string): Promise<T> => {
    const res = await fetch(origin + url);
    assert.equal(res.status, 200, url);
    return (await res.json()) as T;
  };

  before(async () => {
    const server = await startDemoServer({ after: (fn) => closers.push(fn) });
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

  async function newPage(options: Parameters<Browser['newContext']>[0] = {}): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: PHONE, locale: 'fr-FR', timezoneId: 'Europe/Paris', serviceWorkers: 'block', ...options });
    context.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    await context.addInitScript(COUNT_GEOLOCATION);
    return { context, page: await context.newPage() };
  }

  const geolocationCalls = (page: Page) => page.evaluate('window.__geolocationCalls') as Promise<number>;


  /** The calendar screen of a place: its heading names the commune and the place, the URL is the place's. */
  async function seeCalendarOf(page: Page, placeName: string) {
    const city = await api<{ wasteCollectionPlaces: { id: string; name: string }[] }>(`/public/cities/${brestId}`);
    const place = city.wasteCollectionPlaces.find((p) => p.name === placeName);
    assert.ok(place, `Brest has a place named ${placeName}`);
    await page.getByRole('heading', { level: 1, name: `Collecte à Brest Secteur ${placeName}` }).waitFor();
    await page.locator('.bin .next time').first().waitFor();
    assert.equal(new URL(page.url()).pathname, `/communes/${brestId}/${place.id}`);
  }

  it('suggests addresses as one types, chosen with the keyboard, and opens that place’s calendar', async () => {
    const { context, page } = await newPage();
    await page.goto(`${origin}/communes/${brestId}`);
    await page.getByRole('heading', { level: 1, name: /Brest.*votre secteur/ }).waitFor();
    // The list of places stays, below, as the fallback.
    await page.getByRole('heading', { level: 2, name: /choisissez votre secteur/i }).waitFor();
    assert.ok((await page.getByRole('list', { name: /choisissez votre secteur/i }).getByRole('link').count()) > 1);

    const box = page.getByRole('combobox', { name: 'Votre adresse' });
    assert.equal(await box.getAttribute('aria-expanded'), 'false');
    assert.match(String(await box.getAttribute('placeholder')), new RegExp(`12 rue de Siam`));
    // Two characters ask nothing.
    const lookups: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/public/places/lookup')) lookups.push(decodeURIComponent(new URL(r.url()).search));
    });
    await box.pressSequentially('12');
    await page.waitForTimeout(600);
    assert.deepEqual(lookups, []);

    await box.pressSequentially(' rue jean jaur', { delay: 20 });
    const options = page.getByRole('listbox', { name: 'Adresses trouvées' }).getByRole('option');
    await options.first().waitFor();
    assert.equal(await box.getAttribute('aria-expanded'), 'true');
    // What the API answers for the text typed, in the same order, label and place name in each option.
    const expected = await api<Candidate[]>(`/public/places/lookup?cityId=${brestId}&address=${encodeURIComponent('12 rue jean jaur')}`);
    assert.equal(expected[0].placeName, 'Centre-ville et Recouvrance');
    assert.equal(await options.count(), expected.length);
    for (let i = 0; i < expected.length; i++) {
      const text = await options.nth(i).innerText();
      assert.ok(text.includes(expected[i].label) && text.includes(expected[i].placeName), text);
    }
    // Debounced: far fewer requests than keystrokes, and the last one is the text in the box.
    assert.ok(lookups.length >= 1 && lookups.length < ' rue jean jaur'.length, lookups.join(' | '));
    assert.match(lookups.at(-1)!, /address=12 rue jean jaur$/);

    await checkA11y(page, 'address suggestions');
    await page.screenshot({ path: path.join(SHOTS, 'address-suggestions-phone.png') });

    // Arrow keys move the active option (aria-activedescendant), Escape closes the list, Enter picks.
    await box.press('ArrowDown');
    const first = options.first();
    assert.equal(await first.getAttribute('aria-selected'), 'true');
    assert.equal(await box.getAttribute('aria-activedescendant'), await first.getAttribute('id'));
    await box.press('Escape');
    assert.equal(await box.getAttribute('aria-expanded'), 'false');
    assert.equal(await box.inputValue(), '12 rue jean jaur');
    await box.press('ArrowDown');
    assert.equal(await box.getAttribute('aria-expanded'), 'true');
    assert.equal(await first.getAttribute('aria-selected'), 'true');
    await box.press('Enter');
    await seeCalendarOf(page, 'Centre-ville et Recouvrance');
    assert.equal(await geolocationCalls(page), 0, 'no geolocation request without the tap');
    await context.close();
  });

  it('opens the calendar of the suggestion clicked, says « Aucune adresse trouvée » when nothing matches', async () => {
    const { context, page } = await newPage();
    await page.goto(`${origin}/communes/${brestId}`);
    const box = page.getByRole('combobox', { name: 'Votre adresse' });
    await box.fill('zzzz qqqq');
    await page.getByText(`Aucune adresse trouvée pour «${NBSP}zzzz qqqq${NBSP}»`).waitFor();
    assert.equal(await box.getAttribute('aria-expanded'), 'false');

    await box.fill('150 rue jean jaurès');
    const option = page.getByRole('option').filter({ hasText: 'Lambézellec et Saint-Martin' }).first();
    await option.click();
    await seeCalendarOf(page, 'Lambézellec et Saint-Martin');
    await context.close();
  });

  it('shows the API’s French error when a lookup fails', async () => {
    const { context, page } = await newPage();
    await page.goto(`${origin}/communes/${brestId}`);
    await page.route('**/public/places/lookup**', (route) => route.abort('internetdisconnected'));
    await page.getByRole('combobox', { name: 'Votre adresse' }).fill('12 rue de siam');
    await page.getByRole('alert').getByText('Impossible de joindre le service').waitFor();
    await page.unroute('**/public/places/lookup**');
    await page.getByRole('button', { name: 'Réessayer' }).click();
    await page.getByRole('option').first().waitFor();
    await context.close();
  });

  it('aborts a suggestion request superseded by more typing: the latest text wins', async () => {
    const { context, page } = await newPage();
    await page.goto(`${origin}/communes/${brestId}`);
    // The first request is held unanswered until the next one leaves.
    let held: Route | null = null;
    await page.route('**/public/places/lookup**', (route) => {
      if (!held) held = route;
      else return route.continue();
    });
    const box = page.getByRole('combobox', { name: 'Votre adresse' });
    const first = page.waitForRequest((r) => r.url().includes('/places/lookup'));
    await box.fill('150 rue jean');
    const firstUrl = (await first).url();
    const aborted = page.waitForEvent('requestfailed', (r) => r.url() === firstUrl);
    await box.fill('12 rue jean jaur');
    assert.match((await aborted).url(), /address=150%20rue%20jean$/);
    await page.getByRole('option').first().waitFor();
    assert.match(await page.getByRole('option').first().innerText(), /Centre-ville et Recouvrance/);
    await (held as Route | null)?.continue().catch(() => {});
    await context.close();
  });

  it('« Me localiser » asks for the position only on the tap, and opens the calendar of the one place there', async () => {
    const { context, page } = await newPage({ permissions: ['geolocation'], geolocation: { latitude: 48.41, longitude: -4.48 } });
    await page.goto(`${origin}/communes/${brestId}`);
    const button = page.getByRole('button', { name: 'Me localiser' });
    await button.waitFor();
    await checkA11y(page, 'commune screen with the address box');
    await page.screenshot({ path: path.join(SHOTS, 'address-commune-phone.png'), fullPage: true });
    assert.equal(await geolocationCalls(page), 0, 'no geolocation request before the tap');
    await button.click();
    await seeCalendarOf(page, 'Lambézellec et Saint-Martin');
    assert.equal(await geolocationCalls(page), 1);
    await context.close();
  });

  it('« Me localiser » on a border: the places sharing it, to choose from', async () => {
    // A corner that Brest's three areas share (demo/bundle.json): a point on a border belongs to each side.
    const corner = { latitude: 48.39793, longitude: -4.47745 };
    const expected = await api<Candidate[]>(`/public/places/lookup?cityId=${brestId}&lat=${corner.latitude}&lon=${corner.longitude}`);
    assert.ok(expected.length > 1, 'several places at the corner');
    const { context, page } = await newPage({ permissions: ['geolocation'], geolocation: corner });
    await page.goto(`${origin}/communes/${brestId}`);
    await page.getByRole('button', { name: 'Me localiser' }).click();
    const list = page.getByRole('list', { name: 'Secteurs à votre position' });
    await list.waitFor();
    await page.getByText(`Plusieurs secteurs correspondent à votre position${NBSP}: choisissez le vôtre.`).waitFor();
    assert.deepEqual(
      await list.getByRole('link').locator('strong').allInnerTexts(),
      expected.map((c) => c.placeName),
    );
    await checkA11y(page, 'places at the position');
    await page.screenshot({ path: path.join(SHOTS, 'address-position-choices-phone.png'), fullPage: true });
    await list.getByRole('link', { name: /Saint-Marc et Bellevue/ }).click();
    await seeCalendarOf(page, 'Saint-Marc et Bellevue');
    await context.close();
  });

  it('goes to the network for every lookup: the service worker keeps none, offline says so in French', async () => {
    const { context, page } = await newPage({ serviceWorkers: 'allow' });
    await page.goto(`${origin}/communes/${brestId}`);
    await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
    await page.reload();
    assert.equal(await page.evaluate('Boolean(navigator.serviceWorker.controller)'), true, 'the worker controls the page');
    const box = page.getByRole('combobox', { name: 'Votre adresse' });
    await box.fill('12 rue jean jaur');
    await page.getByRole('option').first().waitFor();
    const cached = (await page.evaluate(
      'caches.keys().then((names) => Promise.all(names.map((n) => caches.open(n).then((c) => c.keys())))).then((lists) => lists.flat().map((r) => r.url))',
    )) as string[];
    assert.equal(cached.filter((url) => url.includes('/places/lookup')).length, 0, cached.join(' '));

    await context.setOffline(true);
    try {
      await box.fill('150 rue jean jaur');
      await page.getByRole('alert').getByText('Impossible de joindre le service').waitFor();
      assert.equal(await page.getByRole('option').count(), 0);
    } finally {
      await context.setOffline(false);
    }
    await context.close();
  });

  it('« Me localiser » elsewhere: a French sentence when no place is there, another when the position is refused', async () => {
    const far = await newPage({ permissions: ['geolocation'], geolocation: { latitude: 45.76, longitude: 4.83 } });
    await far.page.goto(`${origin}/communes/${brestId}`);
    await far.page.getByRole('button', { name: 'Me localiser' }).click();
    await far.page.getByRole('alert').getByText(`Aucun secteur de collecte n'a été trouvé à votre position${NBSP}: tapez votre adresse`).waitFor();
    await far.context.close();

    // No permission granted: headless Chromium refuses the position.
    const refused = await newPage();
    await refused.page.goto(`${origin}/communes/${brestId}`);
    await refused.page.getByRole('button', { name: 'Me localiser' }).click();
    await refused.page.getByRole('alert').getByText(`Vous n'avez pas autorisé la localisation${NBSP}: tapez votre adresse ci-dessus`).waitFor();
    await refused.page.getByRole('combobox', { name: 'Votre adresse' }).waitFor();
    await refused.context.close();
  });

  it('hides « Me localiser » where the browser has no geolocation', async () => {
    const { context, page } = await newPage();
    await context.addInitScript('delete Navigator.prototype.geolocation');
    await page.goto(`${origin}/communes/${brestId}`);
    await page.getByRole('combobox', { name: 'Votre adresse' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Me localiser' }).count(), 0);
    await context.close();
  });

  it('ran without a Content-Security-Policy violation', () => {
    assert.deepEqual(cspViolations, []);
  });
});
