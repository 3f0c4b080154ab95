// The widgets on a commune's website (docs/widgets.md; CONTRACT.md section 19), in headless Chromium on the demo data:
// a « commune website » served over HTTPS on another port (test/web/fixtures/commune-site.ts) includes /widget.js and
// the four kinds. On `https://localhost:PORT`, listed in Brest's group `embedOrigins` by its CITIES agent, each frame
// loads, is titled in French, takes its content's height (and follows it), answers the keyboard, keeps the page's focus
// where it is on load (a commune of one sector too), leaves the app's other screens to a new tab, darkens a pale
// accent, writes no cookie nor host storage, and has no serious axe violation; an element added after load is drawn,
// one naming no kind says so; on `https://127.0.0.1:PORT`, listed nowhere, every frame is blocked. The pages' headers
// are checked too: frame-ancestors is 'self' plus the group's sites on /embed/* only, 'none' elsewhere.
// On PGlite, and on PostgreSQL too when DATABASE_URL is set.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { startDemoServer } from '../helpers/web-fixtures.ts';
import { CHROMIUM_SKIP, launchChromium } from '../helpers/browser.ts';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { createAccount, loginHeaders } from '../helpers/auth-fixtures.ts';
import { checkA11y } from '../helpers/axe.ts';
import { communePage, startCommuneSite, type CommuneSite } from './fixtures/commune-site.ts';

const DESKTOP = { width: 1024, height: 800 };
/** A yellow that reads on nothing white (1.6:1): the widget must darken it. */
const PALE_ACCENT = '#ffcc00';
/** The frames' titles, as /widget.js writes them. */
const TITLES = {
  calendrier: 'Jours de collecte des déchets',
  tri: 'Où jeter mes déchets\u00a0?',
  points: 'Points d’apport et déchèteries',
  demande: 'Signaler un problème au service des déchets',
} as const;
type Kind = keyof typeof TITLES;
const KINDS = Object.keys(TITLES) as Kind[];
/** How far the frame's height may be from its content's (rounding of fractional heights). */
const SLACK_PX = 2;

interface City {
  id: string;
  name: string;
  cityGroup: { id: string };
  wasteCollectionPlaces: { id: string; name: string }[];
}
interface RequestType {
  code: string;
  name: string;
  category: string;
}

/** WCAG's contrast of `#rrggbb` against white. */
function contrastWithWhite(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((s) => (s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4));
  return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05);
}

/** The `frame-ancestors` directives of an answer's Content-Security-Policy. */
const frameAncestors = (res: Response) => (res.headers.get('content-security-policy') ?? '').split(/;\s*/).filter((d) => d.startsWith('frame-ancestors'));

/** A name holding `text` as it is. */
const containing = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

/** Probes until `ok` holds (at most ~15 s); else fails saying what was last seen. */
async function until<T>(what: string | (() => string), probe: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < 150; i++) {
    last = await probe().catch(() => undefined);
    if (last !== undefined && ok(last)) return last;
    await sleep(100);
  }
  return assert.fail(`${typeof what === 'string' ? what : what()}; last seen: ${JSON.stringify(last)}`);
}

for (const kind of browserDatabaseKinds()) {
  describe(`widgets on a commune's website (${kind})`, { skip: CHROMIUM_SKIP, timeout: 300_000 }, () => {
    let origin: string;
    let app: FastifyInstance;
    let browser: Browser;
    let site: CommuneSite;
    let brest: City;
    let centre: { id: string; name: string };
    let otherCity: { id: string; name: string } | undefined;
    /** A commune of Brest's group with one sector: its calendar widget opens that sector by itself. */
    let bohars: { id: string; name: string };
    const closers: (() => Promise<void>)[] = [];
    const suite = { after: (fn: () => Promise<void>) => void closers.push(fn) };

    const api = async <T,>(url: string): Promise<T> => (await fetch(origin + url)).json() as Promise<T>;
    /** The page every test loads: the four kinds, the calendar on Centre-ville in the pale accent. */
    const widgetsPage = () =>
      communePage(origin, [
        { heading: 'Vos jours de collecte', attributes: { collecte: 'calendrier', city: brest.id, place: centre.id, color: PALE_ACCENT } },
        { heading: 'Où jeter ?', attributes: { collecte: 'tri', city: brest.id } },
        { heading: 'Déchèteries', attributes: { collecte: 'points', city: brest.id } },
        { heading: 'Un problème ?', attributes: { collecte: 'demande', city: brest.id } },
      ]);
    /** A page with an element that names no kind, to which a CMS block adds a widget after load. */
    const oneSectorPage = () => communePage(origin, [{ heading: 'Vos jours de collecte', attributes: { collecte: 'calendrier', city: bohars.id } }]);
    const misconfiguredPage = () => communePage(origin, [{ heading: 'Agenda', attributes: { collecte: 'agenda', city: brest.id } }]);

    before(async () => {
      const server = await startDemoServer(suite, kind);
      origin = server.origin;
      app = server.app;
      const groups = await api<{ id: string; cities: { id: string; name: string }[] }[]>('/public/city-groups');
      const group = groups.find((g) => g.cities.some((c) => c.name === 'Brest'))!;
      brest = await api<City>(`/public/cities/${group.cities.find((c) => c.name === 'Brest')!.id}`);
      centre = brest.wasteCollectionPlaces.find((p) => p.name.startsWith('Centre-ville'))!;
      otherCity = groups.find((g) => g.id !== group.id)?.cities[0];
      bohars = group.cities.find((c) => c.name === 'Bohars')!;

      site = await startCommuneSite(() => ({ '/': widgetsPage(), '/bohars': oneSectorPage(), '/agenda': misconfiguredPage() }));
      closers.push(() => site.close());
      // Brest's agent holding CITIES lists the commune's site (https://localhost:PORT), and only it.
      await createAccount(server.database.db, { email: 'sites@brest.fr', name: 'Nolwenn Sites', permissions: ['CITIES'], cityGroupIds: [group.id] });
      const asAgent = await loginHeaders(app, 'sites@brest.fr');
      const url = `/admin/city-groups/${group.id}`;
      const current = await app.inject({ method: 'GET', url, headers: asAgent });
      assert.equal(current.statusCode, 200, current.body);
      const patched = await app.inject({
        method: 'PATCH',
        url,
        headers: { ...asAgent, 'if-match': String(current.headers.etag) },
        payload: { embedOrigins: [site.listedOrigin] },
      });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.deepEqual(patched.json().embedOrigins, [site.listedOrigin]);

      browser = await launchChromium();
    });

    after(async () => {
      await browser?.close();
      for (const close of closers.reverse()) await close();
    });

    /** A visitor of the commune's site (its certificate is self-signed), with what the page and its frames report. */
    async function visit(pageUrl: string) {
      const context = await browser.newContext({ viewport: DESKTOP, locale: 'fr-FR', timezoneId: 'Europe/Paris', serviceWorkers: 'block', ignoreHTTPSErrors: true });
      closers.push(() => context.close().catch(() => undefined));
      const page = await context.newPage();
      const errors: string[] = [];
      const consoleText: string[] = [];
      const requested: string[] = [];
      const refused: string[] = [];
      const failed: { url: string; error: string }[] = [];
      page.on('pageerror', (err) => errors.push(`${err.name}: ${err.message}`));
      page.on('console', (message) => consoleText.push(message.text()));
      page.on('request', (request) => requested.push(request.url()));
      page.on('response', (response) => {
        if (response.status() === 429) refused.push(response.url());
      });
      page.on('requestfailed', (request) => failed.push({ url: request.url(), error: request.failure()?.errorText ?? '' }));
      await page.goto(pageUrl);
      const visit = { context, page, errors, consoleText, requested, refused, failed };
      visits.set(page, visit);
      return visit;
    }
    const visits = new WeakMap<Page, Awaited<ReturnType<typeof visit>>>();

    const iframeOf = (page: Page, index: number) => page.locator(`#widget-${index} iframe`);

    /** The frame of the page's `index`th widget, scrolled to (the frames load lazily), once its document is the widget's. */
    async function widgetFrame(page: Page, index: number): Promise<Frame> {
      const iframe = iframeOf(page, index);
      const seen = visits.get(page)!;
      await until(
        () => `widget ${index}: /widget.js draws its frame (asked: ${JSON.stringify(seen.requested.filter((url) => !url.includes('/public/')))}, failed: ${JSON.stringify(seen.failed)}, console: ${JSON.stringify(seen.consoleText)}, page errors: ${JSON.stringify(seen.errors)})`,
        () => iframe.count(),
        (n) => n === 1,
      );
      await iframe.scrollIntoViewIfNeeded();
      const handle = await iframe.elementHandle();
      return until(`widget ${index}: its frame holds /embed`, async () => (await handle!.contentFrame())!, (frame) => frame.url().startsWith(`${origin}/embed/`));
    }

    /** Waits until the frame's height is its content's (within SLACK_PX); answers that height. */
    async function sizedToContent(page: Page, index: number, what: string): Promise<number> {
      const frame = await widgetFrame(page, index);
      const sizes = await until(
        `${what}: the frame takes its content's height`,
        async () => ({
          content: await frame.evaluate(() => document.documentElement.getBoundingClientRect().height),
          frame: await iframeOf(page, index).evaluate((element) => element.getBoundingClientRect().height),
        }),
        (s) => Math.abs(s.content - s.frame) <= SLACK_PX,
      );
      return sizes.frame;
    }

    /** Nothing stored: no cookie for the site nor for Collecte, nothing in the page's storage. */
    async function nothingStored(context: BrowserContext, page: Page) {
      assert.deepEqual(await context.cookies([site.listedOrigin, site.unlistedOrigin, origin]), []);
      assert.deepEqual(await page.evaluate(() => ({ cookie: document.cookie, local: localStorage.length, session: sessionStorage.length })), { cookie: '', local: 0, session: 0 });
    }

    it('frames /embed/* for this origin and the group’s sites only; the app, the console and the API for no one', async () => {
      const widget = await fetch(`${origin}/embed/tri?city=${brest.id}`);
      assert.equal(widget.status, 200);
      assert.deepEqual(frameAncestors(widget), [`frame-ancestors 'self' ${site.listedOrigin}`]);
      assert.equal(widget.headers.get('x-frame-options'), null);
      assert.equal(widget.headers.get('set-cookie'), null);
      for (const kindOfWidget of KINDS) {
        const res = await fetch(`${origin}/embed/${kindOfWidget}?city=${brest.id}`);
        assert.equal(res.status, 200, kindOfWidget);
        assert.deepEqual(frameAncestors(res), [`frame-ancestors 'self' ${site.listedOrigin}`], kindOfWidget);
      }
      // Another group's commune: its own list (empty), not Brest's.
      if (otherCity) {
        const other = await fetch(`${origin}/embed/tri?city=${otherCity.id}`);
        assert.equal(other.status, 200);
        assert.deepEqual(frameAncestors(other), ["frame-ancestors 'self'"], otherCity.name);
      }
      for (const url of ['/', '/console', '/public/cities', '/embed/tri?city=00000000-0000-4000-8000-000000000000', '/embed/agenda?city=' + brest.id]) {
        const res = await fetch(origin + url, { headers: { accept: 'text/html' } });
        await res.arrayBuffer();
        assert.deepEqual(frameAncestors(res), ["frame-ancestors 'none'"], url);
        assert.equal(res.headers.get('x-frame-options'), 'DENY', url);
      }
      const loader = await fetch(`${origin}/widget.js`);
      assert.match(loader.headers.get('content-type') ?? '', /javascript/);
      assert.equal(loader.headers.get('set-cookie'), null);
      await loader.arrayBuffer();
    });

    it('draws the four widgets on a listed site: titled in French, loaded, sized to their content, focus and storage of the page untouched, no serious axe violation', async () => {
      const { context, page, errors, requested, refused } = await visit(`${site.listedOrigin}/`);
      const types = await api<RequestType[]>(`/public/city-groups/${brest.cityGroup.id}/request-types`);
      assert.ok(types.length > 0, 'the demo group has request types');
      for (const [index, kindOfWidget] of KINDS.entries()) {
        assert.equal(await iframeOf(page, index).getAttribute('title'), TITLES[kindOfWidget]);
        const frame = await widgetFrame(page, index);
        assert.equal(await frame.evaluate(() => document.documentElement.lang), 'fr');
        if (kindOfWidget === 'calendrier') {
          await frame.getByRole('heading', { level: 1, name: /Collecte à Brest/ }).waitFor();
          await frame.getByRole('heading', { name: 'Prochaines collectes' }).waitFor();
          assert.ok((await frame.getByRole('list', { name: 'Prochaine collecte de chaque bac' }).getByRole('listitem').count()) > 0);
          // « Me prévenir la veille » reads the frame's reminders once.
          await frame.getByRole('heading', { name: 'Me prévenir la veille' }).waitFor();
          await until('the reminders are read', async () => requested.filter((url) => url.includes('/public/reminders/subscriptions/')).length, (n) => n > 0);
        } else if (kindOfWidget === 'tri') {
          await frame.getByRole('searchbox', { name: 'Objet ou matière' }).waitFor();
        } else if (kindOfWidget === 'points') {
          await frame.getByRole('list', { name: 'Points de collecte' }).waitFor();
          assert.ok((await frame.getByRole('list', { name: 'Points de collecte' }).getByRole('listitem').count()) > 0);
        } else {
          await frame.getByRole('heading', { level: 1, name: /Signaler un problème/ }).waitFor();
          for (const type of types) await frame.getByRole('link', { name: containing(type.name) }).first().waitFor();
        }
        await sizedToContent(page, index, kindOfWidget);
        await checkA11y(frame, `the ${kindOfWidget} frame`);
      }
      // Loading took no focus from the page (a frame holding it would make the iframe the page's active element).
      assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'BODY');
      await nothingStored(context, page);
      assert.deepEqual(errors, []);
      // This Chromium denies the frames storage (third-party storage blocked, `localStorage` throws): the calendar
      // still keeps one device id, and asks for its reminders once, not at each render.
      const reminders = requested.filter((url) => url.includes('/public/reminders/subscriptions/'));
      assert.equal(reminders.length, 1, reminders.join('\n'));
      assert.deepEqual(refused, []);
    });

    it('darkens an accent that does not read on white until it does, inside the frame', async () => {
      const { page } = await visit(`${site.listedOrigin}/`);
      const frame = await widgetFrame(page, 0);
      assert.equal(new URL(frame.url()).searchParams.get('color'), PALE_ACCENT);
      await frame.getByRole('heading', { name: 'Prochaines collectes' }).waitFor();
      const accent = (await frame.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--accent'))).trim().toLowerCase();
      assert.match(accent, /^#[0-9a-f]{6}$/);
      assert.notEqual(accent, PALE_ACCENT);
      assert.ok(contrastWithWhite(accent) >= 4.5, `${accent}: ${contrastWithWhite(accent).toFixed(2)}:1 against white`);
      // Darkened, not replaced: no channel above the chosen colour's, its hue kept (red above green above blue).
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(accent.slice(i, i + 2), 16));
      assert.ok(r <= 0xff && g <= 0xcc && b === 0 && r > g, accent);
    });

    it('opens by itself the calendar of a commune of one sector, the page keeping its focus', async () => {
      const { page, errors } = await visit(`${site.listedOrigin}/bohars`);
      const frame = await widgetFrame(page, 0);
      await frame.getByRole('heading', { level: 1, name: /Collecte à Bohars/ }).waitFor();
      await frame.getByRole('heading', { name: 'Prochaines collectes' }).waitFor();
      await sizedToContent(page, 0, 'Bohars’s calendar');
      assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'BODY');
      assert.equal(await frame.evaluate(() => document.activeElement?.tagName), 'BODY', 'no title focused inside the frame either');
      assert.deepEqual(errors, []);
    });

    it('answers the keyboard from the page: a search in « tri », a request type in « demande », each frame following its content', async () => {
      const { context, page, errors } = await visit(`${site.listedOrigin}/`);

      // « tri »: Tab from the page's link into the frame's search box, type, Enter; the server's answer is shown.
      const tri = await widgetFrame(page, 1);
      const box = tri.getByRole('searchbox', { name: 'Objet ou matière' });
      await box.waitFor();
      const bins = await sizedToContent(page, 1, 'tri, its bins');
      await page.locator('#before-1').focus();
      await page.keyboard.press('Tab');
      assert.equal(await tri.evaluate(() => document.activeElement?.id), 'material-query');
      assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'IFRAME');
      const found = await api<{ material: string }[]>(`/public/cities/${brest.id}/sorting-guide?q=pile`);
      assert.ok(found.length > 0, 'the demo guide knows « pile »');
      const triUrl = tri.url();
      await page.keyboard.type('pile');
      await page.keyboard.press('Enter');
      await tri.getByRole('list', { name: 'Où le jeter' }).getByRole('heading', { name: found[0].material }).first().waitFor();
      assert.equal(tri.url(), triUrl, 'Enter does not reload the frame');
      const results = await sizedToContent(page, 1, 'tri, its results');
      assert.notEqual(results, bins, 'the frame follows the results');
      // Emptied, the bins are back, and so is the frame's height.
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Backspace');
      await tri.getByRole('heading', { name: `Les bacs de ${brest.name}` }).waitFor();
      assert.ok(Math.abs((await sizedToContent(page, 1, 'tri, its bins again')) - bins) <= SLACK_PX);

      // « demande »: Tab into the frame lands on the first type; Enter opens its form inside the frame; sending it
      // empty shows the errors, and the frame grows to show them.
      const demande = await widgetFrame(page, 3);
      await demande.getByRole('heading', { level: 1, name: /Signaler un problème/ }).waitFor();
      const first = (await demande.locator('.choices a').first().locator('strong').innerText()).trim();
      await page.locator('#before-3').focus();
      await page.keyboard.press('Tab');
      assert.equal(await demande.evaluate(() => document.activeElement?.querySelector('strong')?.textContent?.trim()), first);
      await page.keyboard.press('Enter');
      await demande.getByRole('heading', { level: 1, name: containing(first) }).waitFor();
      assert.match(new URL(demande.url()).pathname, /^\/embed\/demande$/);
      assert.equal(new URL(demande.url()).searchParams.get('city'), brest.id, 'the frame keeps its commune');
      const form = await sizedToContent(page, 3, 'demande, the form');
      const submit = demande.getByRole('button', { name: /Envoyer ma demande|Réserver ce jour/ });
      for (let i = 0; i < 60 && !(await submit.evaluate((button) => button === document.activeElement)); i++) await page.keyboard.press('Tab');
      assert.ok(await submit.evaluate((button) => button === document.activeElement), 'Tab reaches the form’s button');
      await page.keyboard.press('Enter');
      await demande.getByRole('alert').filter({ hasText: 'Votre demande n’a pas été envoyée' }).waitFor();
      const withErrors = await sizedToContent(page, 3, 'demande, the form with its errors');
      assert.ok(withErrors > form, `the frame grew with the errors (${form} → ${withErrors} px)`);
      assert.equal(context.pages().length, 1, 'all of it happened inside the frames, no tab opened');
      assert.deepEqual(errors, []);
    });

    it('opens in a new tab, in the app, what a widget leaves to it', async () => {
      const { context, page } = await visit(`${site.listedOrigin}/`);
      const points = await widgetFrame(page, 2);
      const full = points.getByRole('link', { name: /Point plein/ }).first();
      await full.waitFor();
      assert.equal(await full.getAttribute('target'), '_blank');
      assert.ok((await full.getAttribute('href'))!.startsWith(`${origin}/signaler?`), (await full.getAttribute('href')) ?? '');
      assert.match(await full.innerText(), /nouvel onglet/);
      const credit = points.getByRole('link', { name: /^Collecte/ });
      assert.equal(await credit.getAttribute('target'), '_blank');
      assert.equal(new URL((await credit.evaluate((a) => (a as HTMLAnchorElement).href))).origin, origin);
      const [tab] = await Promise.all([context.waitForEvent('page'), full.click()]);
      await tab.waitForURL((url) => url.origin === origin && url.pathname === '/signaler');
      assert.equal(await tab.evaluate(() => window.opener), null);
      await tab.getByRole('heading', { level: 1 }).first().waitFor();
      // The frame itself stayed on its list.
      assert.match(new URL(points.url()).pathname, /^\/embed\/points$/);
    });

    it('draws a widget a CMS adds after load, and says in French what an element without a known kind lacks', async () => {
      const { page, errors } = await visit(`${site.listedOrigin}/agenda`);
      await page.locator('#widget-0', { hasText: 'Module Collecte' }).waitFor();
      assert.match(await page.locator('#widget-0').innerText(), /indiquez data-collecte \(calendrier, tri, points ou demande\) et data-city/);
      // A block opened after load: the loader draws it too, and the page still answers.
      const added = page.evaluate((cityId) => {
        const block = document.createElement('div');
        block.id = 'widget-1';
        block.dataset.collecte = 'tri';
        block.dataset.city = cityId;
        document.querySelector('main')!.append(block);
        return 'answered';
      }, brest.id);
      const answer = await Promise.race([added, sleep(10_000).then(() => 'no answer in 10 s')]);
      assert.equal(answer, 'answered', 'the page answers after an element is added');
      const tri = await widgetFrame(page, 1);
      await tri.getByRole('searchbox', { name: 'Objet ou matière' }).waitFor();
      await sizedToContent(page, 1, 'tri, added after load');
      assert.deepEqual(errors, []);
    });

    it('gets a blocked frame for each widget on a site the group does not list', async () => {
      const { context, page, consoleText, failed } = await visit(`${site.unlistedOrigin}/`);
      for (const [index, kindOfWidget] of KINDS.entries()) {
        const iframe = iframeOf(page, index);
        await iframe.waitFor({ state: 'attached' });
        await iframe.scrollIntoViewIfNeeded();
        assert.equal(await iframe.getAttribute('title'), TITLES[kindOfWidget]);
        const handle = await iframe.elementHandle();
        const frame = await until(`${kindOfWidget}: the frame ends on Chromium's error page`, async () => (await handle!.contentFrame())!, (f) => f.url().startsWith('chrome-error://'));
        assert.equal(await frame.locator('main.embed, #app').count(), 0, `${kindOfWidget}: nothing of the widget`);
        // Never sized: no message came from a widget.
        assert.equal(await iframe.evaluate((element) => (element as HTMLIFrameElement).style.height), '480px');
      }
      // Each page was refused by its own CSP, which names the one site it lets frame it.
      const blocked = await until('each widget’s page is refused', async () => failed.filter((f) => f.url.startsWith(`${origin}/embed/`)), (list) => list.length === KINDS.length);
      assert.ok(blocked.every((f) => f.error === 'net::ERR_BLOCKED_BY_RESPONSE'), JSON.stringify(blocked));
      const said = consoleText.filter((text) => /(Refused to frame|Framing) 'http:\/\/127\.0\.0\.1:\d+\/'/.test(text) && text.includes(`"frame-ancestors 'self' ${site.listedOrigin}"`));
      assert.equal(said.length, KINDS.length, consoleText.join('\n'));
      await nothingStored(context, page);
    });
  });
}
