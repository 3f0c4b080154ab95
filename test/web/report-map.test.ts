// The report form's optional map (docs/web-app.md, resident requests), in headless Chromium at 390 px on the demo
// data: with MAP_TILE_URL naming a tile server the test runs on loopback, the form draws its tiles, centres on the
// resident's place or on the position « Me localiser » found, puts the pin where tapped, moves it with the arrow keys,
// and files that position; the app's CSP lets that origin in. Without MAP_TILE_URL (a second app on the same data),
// there is no map and not one request leaves for the tile server, or for any other origin.
// On PGlite, and on PostgreSQL too when DATABASE_URL is set.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { WEB_APP_CSP } from '../../src/http/url-space.ts';
import { buildTestApp } from '../helpers/app.ts';
import { CHROMIUM_SKIP, launchChromium } from '../helpers/browser.ts';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { startDemoServer } from '../helpers/web-fixtures.ts';
import { checkA11y } from '../helpers/axe.ts';

const SHOTS = path.resolve(import.meta.dirname, 'screenshots');
const PHONE = { width: 390, height: 844 };
const NBSP = '\u00a0';
const ZOOM = 17;
/** Where « Me localiser » finds the resident: rue de Siam, Brest. */
const GEO = { latitude: 48.3905, longitude: -4.4862, accuracy: 12 };

interface LatLon {
  latitude: number;
  longitude: number;
}
interface City {
  id: string;
  wasteCollectionPlaces: { id: string; name: string; attachedLocations: LatLon[] }[];
}
interface ResidentRequest {
  id: string;
  typeCode: string;
  latitude: number | null;
  longitude: number | null;
}

/** Web Mercator at zoom 17, written here again (not imported from the app) so that the test checks the app's. */
const SIZE = 256 * 2 ** ZOOM;
function project({ latitude, longitude }: LatLon): { x: number; y: number } {
  const phi = (latitude * Math.PI) / 180;
  return { x: ((longitude + 180) / 360) * SIZE, y: ((1 - Math.asinh(Math.tan(phi)) / Math.PI) / 2) * SIZE };
}
function unproject({ x, y }: { x: number; y: number }): LatLon {
  return { longitude: (x / SIZE) * 360 - 180, latitude: (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / SIZE))) * 180) / Math.PI };
}
const tileOf = (position: LatLon) => {
  const { x, y } = project(position);
  return `/${ZOOM}/${Math.floor(x / 256)}/${Math.floor(y / 256)}.png`;
};
/** The position `dx`, `dy` CSS pixels away from `from` on the map. */
const moved = (from: LatLon, dx: number, dy: number) => {
  const p = project(from);
  return unproject({ x: p.x + dx, y: p.y + dy });
};

/** Within `pixels` on the map at zoom 17 (about 0.8 m each here). */
function near(actual: LatLon, expected: LatLon, pixels: number, what: string) {
  const [a, e] = [project(actual), project(expected)];
  const off = Math.hypot(a.x - e.x, a.y - e.y);
  assert.ok(off <= pixels, `${what}: ${JSON.stringify(actual)} is ${off.toFixed(2)} px from ${JSON.stringify(expected)}`);
}

for (const kind of browserDatabaseKinds()) {
  describe(`web app: the report form's map (${kind})`, { skip: CHROMIUM_SKIP, timeout: 300_000 }, () => {
    let mapped: string;
    let plain: string;
    let tileOrigin: string;
    let browser: Browser;
    let brest: City;
    let centre: City['wasteCollectionPlaces'][number];
    const tileHits: string[] = [];
    const cspViolations: string[] = [];
    const closers: (() => Promise<void>)[] = [];
    const suite = { after: (fn: () => Promise<void>) => void closers.push(fn) };

    const api = async <T,>(origin: string, url: string): Promise<T> => {
      const res = await fetch(origin + url);
      assert.equal(res.status, 200, url);
      return (await res.json()) as T;
    };

    before(async () => {
      // The operator's tile server: one light tile for every address, never cached, each request written down.
      const png = await sharp({ create: { width: 256, height: 256, channels: 3, background: '#d9e8d2' } }).png().toBuffer();
      const tiles = http.createServer((req, res) => {
        tileHits.push(req.url ?? '');
        res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store', 'content-length': png.length });
        res.end(png);
      });
      await new Promise<void>((resolve) => tiles.listen(0, '127.0.0.1', resolve));
      closers.push(() => new Promise((resolve) => tiles.close(() => resolve())));
      tileOrigin = `http://127.0.0.1:${(tiles.address() as AddressInfo).port}`;

      const server = await startDemoServer(suite, kind, { env: { MAP_TILE_URL: `${tileOrigin}/{z}/{x}/{y}.png` } });
      mapped = server.origin;
      // The same data served without a map.
      const { app } = await buildTestApp(suite, kind, { database: server.database });
      await app.listen({ port: 0, host: '127.0.0.1' });
      plain = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

      const groups = await api<{ cities: { id: string; name: string }[] }[]>(mapped, '/public/city-groups');
      brest = await api<City>(mapped, `/public/cities/${groups.flatMap((g) => g.cities).find((c) => c.name === 'Brest')!.id}`);
      centre = brest.wasteCollectionPlaces.find((p) => p.name.startsWith('Centre-ville'))!;

      fs.mkdirSync(SHOTS, { recursive: true });
      browser = await launchChromium();
    });

    after(async () => {
      await browser?.close();
      for (const close of closers.reverse()) await close();
    });

    /** A phone whose chosen place is Centre-ville, with its own device id; every URL it asks for written down. */
    async function newPage(options: Parameters<Browser['newContext']>[0] = {}): Promise<{ context: BrowserContext; page: Page; deviceId: string; asked: string[] }> {
      const context = await browser.newContext({ viewport: PHONE, locale: 'fr-FR', timezoneId: 'Europe/Paris', serviceWorkers: 'block', ...options });
      closers.push(() => context.close().catch(() => undefined));
      context.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
      });
      const deviceId = `web-map-${kind}-${Math.random().toString(16).slice(2, 14)}`;
      const place = { cityId: brest.id, cityName: 'Brest', placeId: centre.id, placeName: centre.name };
      await context.addInitScript(`(() => {
        if (localStorage.getItem('collecte.deviceId')) return;
        localStorage.setItem('collecte.deviceId', ${JSON.stringify(JSON.stringify(deviceId))});
        localStorage.setItem('collecte.place', ${JSON.stringify(JSON.stringify(place))});
      })();`);
      const page = await context.newPage();
      const asked: string[] = [];
      page.on('request', (request) => void asked.push(request.url()));
      return { context, page, deviceId, asked };
    }


    /** The filed request as its device reads it back. */
    async function filedBy(origin: string, deviceId: string): Promise<ResidentRequest> {
      const [listed] = await api<ResidentRequest[]>(origin, `/public/requests?deviceId=${deviceId}`);
      assert.ok(listed, 'a request was filed');
      return api<ResidentRequest>(origin, `/public/requests/${listed.id}?deviceId=${deviceId}`);
    }

    async function file(page: Page, description: string) {
      await page.getByLabel('Décrivez le problème').fill(description);
      await page.getByRole('button', { name: 'Envoyer ma demande' }).click();
      await page.getByRole('heading', { level: 1, name: 'Demande enregistrée' }).waitFor();
    }

    /** Every tile of the map loaded: the tile server's image, 256 px. */
    const tilesShown = (page: Page) =>
      page.waitForFunction(() => {
        const images = [...document.querySelectorAll<HTMLImageElement>('.map img')];
        return images.length > 0 && images.every((img) => img.complete && img.naturalWidth === 256);
      });

    /** The centre of the pin, in the page's CSS pixels. */
    async function pinAt(page: Page): Promise<{ x: number; y: number }> {
      const box = await page.locator('.map-pin').boundingBox();
      assert.ok(box, 'the pin is drawn');
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    }

    const liveRegion = (page: Page) => page.locator('.map-field [aria-live="polite"]');

    it('opens on the resident’s place, puts the pin with the arrow keys alone, and files that position', async () => {
      const { page, deviceId } = await newPage();
      const response = await page.goto(`${mapped}/signaler?type=depot-sauvage`);
      const csp = String(response?.headers()['content-security-policy']);
      assert.match(csp, new RegExp(`(^|; )img-src 'self' data: ${tileOrigin.replace(/\./g, '\\.')}(;|$)`), csp);
      assert.equal(csp, WEB_APP_CSP.replace("img-src 'self' data:", `img-src 'self' data: ${tileOrigin}`), 'nothing else changes');
      await page.getByRole('heading', { level: 1, name: /Dépôt sauvage/ }).waitFor();
      const map = page.getByRole('application', { name: 'Carte' });
      await map.waitFor();
      await tilesShown(page);
      // Centred on the place's middle: its tile is among those asked, all at street level.
      const placeMiddle = {
        latitude: centre.attachedLocations.reduce((s, l) => s + l.latitude, 0) / centre.attachedLocations.length,
        longitude: centre.attachedLocations.reduce((s, l) => s + l.longitude, 0) / centre.attachedLocations.length,
      };
      assert.ok(tileHits.includes(tileOf(placeMiddle)), `${tileOf(placeMiddle)} in ${tileHits.join(', ')}`);
      assert.ok(tileHits.every((hit) => hit.startsWith(`/${ZOOM}/`)), tileHits.join(', '));
      const shown = await page.locator('.map img').count();
      assert.ok(shown >= 2 && shown <= 9, `${shown} tiles`);
      await page.getByText('© les contributeurs d’OpenStreetMap').waitFor();
      assert.equal(await page.locator('.map-pin').count(), 0, 'no pin before the resident puts one');
      await checkA11y(page, 'form with the map');
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= PHONE.width, `${width} px wide`);
      await page.screenshot({ path: path.join(SHOTS, 'request-map-phone.png'), fullPage: true });

      // The keyboard alone: Tab to the map, then the arrows (Shift: eight steps).
      for (let i = 0; i < 40 && !(await map.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
      assert.equal(await map.evaluate((el) => el === document.activeElement), true, 'Tab reaches the map');
      await page.keyboard.press('ArrowLeft');
      await page.getByText('Position choisie sur la carte.').waitFor();
      const first = await liveRegion(page).innerText();
      assert.match(first, new RegExp(`^Position choisie${NBSP}: 48,\\d{5}, −4,\\d{5}$`));
      const before = await pinAt(page);
      await page.keyboard.press('Shift+ArrowDown');
      await page.keyboard.press('ArrowLeft');
      const after = await pinAt(page);
      assert.ok(Math.abs(after.x - before.x + 8) < 0.6 && Math.abs(after.y - before.y - 64) < 0.6, `the pin moved from ${JSON.stringify(before)} to ${JSON.stringify(after)}`);
      assert.notEqual(await liveRegion(page).innerText(), first, 'each move is said');
      await file(page, 'Des gravats au coin de la rue.');
      const filed = await filedBy(mapped, deviceId);
      assert.equal(filed.typeCode, 'depot-sauvage');
      // Each position is kept to a millionth of a degree (about a tenth of a pixel): three moves, half a pixel at most.
      near({ latitude: filed.latitude!, longitude: filed.longitude! }, moved(placeMiddle, -16, 64), 0.5, 'the position filed');
    });

    it('recentres on the position « Me localiser » found, puts the pin where tapped, and files it', async () => {
      const { page, deviceId, asked } = await newPage({ geolocation: GEO, permissions: ['geolocation'] });
      await page.goto(`${mapped}/signaler?type=depot-sauvage`);
      await page.getByRole('heading', { level: 1, name: /Dépôt sauvage/ }).waitFor();
      await tilesShown(page);
      await page.getByRole('button', { name: 'Me localiser' }).click();
      await page.getByRole('status').getByText(`Position relevée, à 12${NBSP}m près.`).waitFor();
      // The map now shows the device's position, the pin on it, at the map's middle.
      await page.waitForFunction((tile) => [...document.querySelectorAll<HTMLImageElement>('.map img')].some((img) => img.src.endsWith(tile)), tileOf(GEO));
      await tilesShown(page);
      const map = page.getByRole('application', { name: 'Carte' });
      // Clear of the tab bar fixed at the bottom of a phone's screen.
      await map.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      const box = (await map.boundingBox())!;
      const found = await pinAt(page);
      assert.ok(Math.abs(found.x - (box.x + box.width / 2)) <= 1.5 && Math.abs(found.y - (box.y + box.height / 2)) <= 1.5, 'the pin is at the middle');

      // A tap 60 px right of it and 40 px up: the pin goes there; « Me localiser » is offered again.
      await page.mouse.click(found.x + 60, found.y - 40);
      await page.getByText('Position choisie sur la carte.').waitFor();
      const tapped = await pinAt(page);
      assert.ok(Math.abs(tapped.x - found.x - 60) <= 1 && Math.abs(tapped.y - found.y + 40) <= 1, `the pin is where tapped: ${JSON.stringify({ found, tapped })}`);
      assert.match(await liveRegion(page).innerText(), new RegExp(`^Position choisie${NBSP}: 48,\\d{5}, −4,\\d{5}$`));
      await page.getByRole('button', { name: 'Me localiser' }).waitFor();
      // The map took the focus with the tap: the arrows move the pin on from there.
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowUp');
      const keyed = await pinAt(page);
      assert.ok(Math.abs(keyed.x - tapped.x - 16) < 0.6 && Math.abs(keyed.y - tapped.y + 8) < 0.6, `the pin moved to ${JSON.stringify(keyed)}`);

      await file(page, 'Un matelas abandonné.');
      const filed = await filedBy(mapped, deviceId);
      near({ latitude: filed.latitude!, longitude: filed.longitude! }, moved(GEO, 60 + 16, -40 - 8), 1.5, 'the position filed');
      // The tile server is the one other origin the page reached.
      const elsewhere = asked.filter((url) => !url.startsWith(`${mapped}/`) && !url.startsWith('data:'));
      assert.ok(elsewhere.length > 0 && elsewhere.every((url) => url.startsWith(`${tileOrigin}/${ZOOM}/`)), elsewhere.join(', '));
    });

    it('draws no map and asks no tile without MAP_TILE_URL; « Me localiser » and the address still work', async () => {
      tileHits.length = 0;
      const { page, deviceId, asked } = await newPage({ geolocation: GEO, permissions: ['geolocation'] });
      const config = page.waitForResponse((res) => res.url() === `${plain}/public/requests/config`);
      const response = await page.goto(`${plain}/signaler?type=depot-sauvage`);
      assert.equal(response?.headers()['content-security-policy'], WEB_APP_CSP);
      await page.getByRole('heading', { level: 1, name: /Dépôt sauvage/ }).waitFor();
      assert.deepEqual(await (await config).json(), { map: null });
      await page.getByRole('button', { name: 'Me localiser' }).click();
      await page.getByRole('status').getByText(`Position relevée, à 12${NBSP}m près.`).waitFor();
      await page.getByLabel('Adresse ou lieu').fill('Devant le 3 rue de Siam');
      assert.equal(await page.locator('.map, .map-field').count(), 0, 'no map');
      assert.equal(await page.getByRole('application').count(), 0);
      await checkA11y(page, 'form without the map');
      await file(page, 'Des sacs abandonnés.');
      const filed = await filedBy(plain, deviceId);
      near({ latitude: filed.latitude!, longitude: filed.longitude! }, GEO, 0.2, 'the device’s position filed');
      assert.deepEqual(tileHits, [], 'no request reached the tile server');
      assert.deepEqual(asked.filter((url) => !url.startsWith(`${plain}/`)), [], 'no request left for another origin');
    });

    it('ran without a Content-Security-Policy violation', () => {
      assert.deepEqual(cspViolations, []);
    });
  });
}
