// The points screen and « Où jeter ? » offline, in headless Chromium with the service worker on the demo data: the
// points and the guide read once online (the service worker keeps them), then the network cut and the page's clock
// moved on. The points' open-now is computed on the device from the kept specs at the page's time, with a notice
// that the copy is offline (never the state the copy was saved with); the guide searches the materials kept on the
// device and says so. Both databases.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startDemoServer } from '../helpers/web-fixtures.ts';
import { fixedClock } from '../helpers/app.ts';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { CHROMIUM_SKIP, launchChromium } from '../helpers/browser.ts';
import { checkA11y } from '../helpers/axe.ts';

const PHONE = { width: 390, height: 844 };
const NBSP = '\u00a0';

/** Monday 23 November 2026, 7:00 in Brest: the déchèteries closed until 9:00 (winter hours). */
const MONDAY_MORNING = '2026-11-23T06:00:00.000Z';
/** The same Monday, 10:30: the déchèteries open until 12:00. */
const MONDAY_HALF_PAST_TEN = '2026-11-23T09:30:00.000Z';

interface Point {
  id: string;
  name: string;
  materials: string[];
  openNow: boolean | null;
  nextChange: string | null;
}

for (const kind of browserDatabaseKinds()) {
  describe(`web app offline: points open now and « Où jeter ? » (${kind})`, { skip: CHROMIUM_SKIP, timeout: 300_000 }, () => {
    let origin: string;
    let browser: Browser;
    let brestId: string;
    const clock = fixedClock(MONDAY_MORNING);
    const closers: (() => Promise<void>)[] = [];

    const api = async <T,>(url: string): Promise<T> => {
      const res = await fetch(origin + url);
      assert.equal(res.status, 200, url);
      return (await res.json()) as T;
    };

    before(async () => {
      const server = await startDemoServer({ after: (fn) => closers.push(fn) }, kind, { clock });
      origin = server.origin;
      browser = await launchChromium();
      const groups = await api<{ cities: { id: string; name: string }[] }[]>('/public/city-groups');
      brestId = groups.flatMap((g) => g.cities).find((c) => c.name === 'Brest')!.id;
    });

    after(async () => {
      await browser?.close();
      for (const close of closers.reverse()) await close();
    });

    const cards = (page: Page) => page.getByRole('list', { name: 'Points de collecte' }).getByRole('listitem');
    const cardOf = (page: Page, name: string) => cards(page).filter({ has: page.getByRole('heading', { name, exact: true }) });
    const answers = (page: Page) => page.getByRole('list', { name: 'Où le jeter' }).getByRole('listitem');

    /** A phone in Brest with the service worker, having read the points and the guide online at 7:00. */
    async function visitedOnline(): Promise<{ context: BrowserContext; page: Page }> {
      const context = await browser.newContext({ viewport: PHONE, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
      await context.addInitScript(`localStorage.setItem('collecte.city', ${JSON.stringify(JSON.stringify(brestId))})`);
      const page = await context.newPage();
      await page.clock.setFixedTime(new Date(MONDAY_MORNING));
      await page.goto(`${origin}/decheteries`);
      await cards(page).first().waitFor();
      await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
      // Once the worker controls the page, what the screens read passes through it and is kept.
      await page.reload();
      await page.waitForFunction('navigator.serviceWorker.controller !== null');
      await cards(page).first().waitFor();
      assert.equal(await cardOf(page, 'Déchèterie du Spernot').locator('.opening').innerText(), `Fermé · ouvre à 9${NBSP}h`);
      await page.getByRole('status').filter({ hasText: 'Hors ligne' }).waitFor({ state: 'detached' });

      await page.goto(`${origin}/tri`);
      await page.getByLabel('Objet ou matière').fill('verre');
      await answers(page).first().waitFor();
      assert.equal(await page.getByText('Hors ligne').count(), 0, 'online: the server answers, no offline notice');
      return { context, page };
    }

    it('computes open now on the device at the page’s time from the kept hours, saying it is offline', async () => {
      const { context, page } = await visitedOnline();
      const points = await api<Point[]>(`/public/cities/${brestId}/recycling-points`);
      assert.equal(points.find((p) => p.name === 'Déchèterie du Spernot')!.openNow, false, 'the kept copy says closed at 7:00');

      await context.setOffline(true);
      await page.clock.setFixedTime(new Date(MONDAY_HALF_PAST_TEN));
      await page.goto(`${origin}/decheteries`);
      await cards(page).first().waitFor();
      await page.getByRole('status').filter({ hasText: `Hors ligne${NBSP}: voici les horaires enregistrés le` }).waitFor();
      // At 10:30 the déchèteries are open until noon, the glass banks until 22:00, the textile bank always.
      assert.equal(await cardOf(page, 'Déchèterie du Spernot').locator('.opening').innerText(), `Ouvert · ferme à 12${NBSP}h`);
      assert.equal(await cardOf(page, 'Déchèterie du Vern').locator('.opening').innerText(), `Ouvert · ferme à 12${NBSP}h`);
      const glass = points.find((p) => p.name.includes('Rue de Siam'))!;
      assert.equal(await cardOf(page, glass.name).locator('.opening').innerText(), `Ouvert · ferme à 22${NBSP}h`);
      const textile = points.find((p) => p.name.startsWith('Borne textile'))!;
      assert.equal(await cardOf(page, textile.name).locator('.opening').innerText(), `Ouvert 24${NBSP}h/24`);

      // At 12:40, lunch: closed until 14:00, from the same kept copy.
      await page.clock.setFixedTime(new Date('2026-11-23T11:40:00.000Z'));
      await page.reload();
      await cards(page).first().waitFor();
      assert.equal(await cardOf(page, 'Déchèterie du Spernot').locator('.opening').innerText(), `Fermé · ouvre à 14${NBSP}h`);
      await checkA11y(page, 'points offline');
      await context.close();
    });

    it('searches the kept guide on the device when the server is out of reach, saying so', async () => {
      const { context, page } = await visitedOnline();
      const online = await api<{ material: string; wasteTypeId: string; recyclingPointIds: string[] }[]>(
        `/public/cities/${brestId}/sorting-guide?q=${encodeURIComponent('capsule de cafe')}`,
      );
      assert.equal(online[0].material, 'Capsules de café ou de thé');

      await context.setOffline(true);
      await page.clock.setFixedTime(new Date(MONDAY_HALF_PAST_TEN));
      await page.goto(`${origin}/tri`);
      const box = page.getByLabel('Objet ou matière');
      await box.fill('capsule de cafe');
      await page.getByRole('status').filter({ hasText: `Hors ligne${NBSP}: résultats de la dernière version enregistrée` }).waitFor();
      await answers(page).first().waitFor();
      assert.equal(await answers(page).first().locator('h2').innerText(), 'Capsules de café ou de thé');
      assert.equal(await page.getByRole('alert').count(), 0, 'no « Impossible de joindre le service »');

      await box.fill('verre');
      await page.getByRole('status').filter({ hasText: 'Hors ligne' }).waitFor();
      await answers(page).first().waitFor();
      const found = await answers(page).locator('h2').allInnerTexts();
      assert.ok(found.length > 1, found.join(' | '));
      assert.ok(found.every((name) => /verre/i.test(name)), found.join(' | '));
      await checkA11y(page, 'où jeter offline');

      // Its link leads to the kept points that take it, offline too.
      await box.fill('capsule de cafe');
      await answers(page).first().locator('h2').filter({ hasText: 'Capsules de café ou de thé' }).waitFor();
      await answers(page).first().getByRole('link', { name: /qui l’acceptent/ }).click();
      await page.getByRole('heading', { level: 1, name: "Déchèteries et points d'apport" }).waitFor();
      await cards(page).first().waitFor();
      assert.equal(new URL(page.url()).searchParams.get('dechet'), online[0].wasteTypeId);
      const points = await api<Point[]>(`/public/cities/${brestId}/recycling-points`);
      const names = points.filter((p) => online[0].recyclingPointIds.includes(p.id)).map((p) => p.name);
      assert.deepEqual((await cards(page).locator('h2').allInnerTexts()).sort(), names.sort());
      await context.close();
    });
  });
}
