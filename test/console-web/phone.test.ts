// The console on a phone (390 × 844, touch) in headless Chromium: the navigation folds behind an
// accessible « Menu » button, so every screen starts with its content; real taps on a place's « Modifier », a list's
// « Modifier » and the requests' queue reach their buttons and links (nothing lies over them); the menu opens, leads
// to a screen and closes, also on Escape; no screen is wider than the phone (tables scroll in their own frame); the
// buttons are a finger's size; axe-core with the menu open and closed. At 1280 px the navigation stays at the side,
// without the button.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { PERMISSIONS } from '../../src/auth/permissions.ts';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { CHROMIUM_SKIP, checkA11y, CONSOLE_SHOTS, createAgent, DESKTOP, logIn, newAgentContext, openBrowser, PHONE, startConsoleServer, type ConsoleServer } from '../helpers/console-browser.ts';
import { settledFocus } from '../helpers/browser.ts';

/** POST /public/requests, as the citizens' app files one: the queue then holds a row. */
async function fileRequest(server: ConsoleServer, cityId: string): Promise<string> {
  const body = { deviceId: 'device-phone-1', cityId, typeCode: 'autre', description: 'Une question sur le compost.' };
  const answer = await fetch(`${server.origin}/public/requests`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(answer.status, 201, await answer.clone().text());
  return ((await answer.json()) as { reference: string }).reference;
}

/** The screen drawn: its title there and nothing still loading. */
async function settled(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.waitForFunction(() => !document.querySelector('.loading'));
}

/** Nothing wider than the phone: the layout viewport was not widened to fit the page, and the page does not scroll sideways. */
async function assertFits(page: Page, screen: string): Promise<void> {
  const { inner, scroll } = await page.evaluate(() => ({ inner: window.innerWidth, scroll: document.documentElement.scrollWidth }));
  assert.equal(inner, PHONE.width, `${screen}: the layout keeps the phone's width`);
  assert.ok(scroll <= inner, `${screen}: ${scroll} px wide on a ${inner} px screen`);
}

/** A real tap on `target`, after checking that a finger at its centre touches it and not something over it. */
async function tap(target: Locator, what: string): Promise<void> {
  await target.scrollIntoViewIfNeeded();
  const hit = await target.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    const top = document.elementFromPoint(x, y);
    return { inView: x >= 0 && y >= 0 && x <= window.innerWidth && y <= window.innerHeight, reached: top !== null && element.contains(top), top: top?.outerHTML.slice(0, 120) ?? null };
  });
  assert.ok(hit.inView, `${what} is on the screen`);
  assert.ok(hit.reached, `a finger on ${what} touches ${hit.top}`);
  await target.tap();
}

/** Every button and navigation link shown is at least 44 px tall and wide enough for a finger. */
async function assertTouchTargets(page: Page, screen: string): Promise<void> {
  const small = await page.evaluate(() =>
    [...document.querySelectorAll('button, .button, .side a')]
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && box.height > 0)
      .filter(({ box }) => box.height < 44 || box.width < 44)
      .map(({ element, box }) => `${(element.textContent ?? '').trim().slice(0, 40)} (${Math.round(box.width)} × ${Math.round(box.height)})`),
  );
  assert.deepEqual(small, [], `${screen}: targets smaller than 44 px`);
}

/** What the phone shows, under test/.artifacts/console/phone-NAME.png (git-ignored). */
async function snap(page: Page, name: string): Promise<void> {
  fs.mkdirSync(CONSOLE_SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(CONSOLE_SHOTS, `phone-${name}.png`) });
}

for (const kind of browserDatabaseKinds()) {
  describe(`console on a phone, in a browser (${kind})`, { skip: CHROMIUM_SKIP, timeout: 300_000 }, () => {
    it('folds the navigation behind « Menu », and taps reach the screens’ buttons without widening the page', async (t) => {
      const server = await startConsoleServer(t, kind);
      await createAgent(server, { email: 'lena@brest.fr', name: 'Léna Caradec', permissions: [...PERMISSIONS] });
      const db = server.database.db;
      const city = await db.selectFrom('city').select('id').where('city_group_id', '=', server.groupId).where('name', '=', 'Brest').executeTakeFirstOrThrow();
      const place = await db.selectFrom('collection_place').select(['id', 'name']).where('city_id', '=', city.id).orderBy('name').executeTakeFirstOrThrow();
      const reference = await fileRequest(server, city.id);

      const browser = await openBrowser(t);
      const context = await newAgentContext(browser, PHONE, { isMobile: true, hasTouch: true });
      const page = await context.newPage();
      const nav = page.getByRole('navigation', { name: 'Navigation de la console' });
      const menu = page.getByRole('button', { name: 'Menu' });
      // The menu's state once it is `wanted`, or after a few seconds whatever it is then: the console renders a
      // tap's or a key's effect after the action's promise has resolved.
      const expanded = async (wanted: 'true' | 'false') => {
        await page.locator(`button[aria-expanded="${wanted}"]`, { hasText: 'Menu' }).waitFor({ timeout: 5_000 }).catch(() => {});
        return menu.getAttribute('aria-expanded');
      };

      // Home: the menu folded, the content right under the header.
      await logIn(page, server.origin, 'lena@brest.fr');
      await settled(page);
      assert.equal(await expanded('false'), 'false');
      const controlled = await menu.getAttribute('aria-controls');
      assert.ok(controlled && (await page.locator(`#${controlled}`).count()) === 1, 'the button names the menu it shows');
      assert.equal(await nav.getByRole('link', { name: 'Communes' }).isVisible(), false, 'the links are folded');
      const mainTop = await page.locator('main').evaluate((main) => main.getBoundingClientRect().top);
      assert.ok(mainTop < 200, `the content starts ${mainTop} px down, not below the whole navigation`);
      await assertFits(page, 'home');
      await assertTouchTargets(page, 'home');
      await checkA11y(page, 'home on a phone, menu closed');

      // A place's editor: its tables scroll in their own frame; a tap on « Modifier » opens the day's form.
      await page.goto(`${server.origin}/console/secteurs/${place.id}`);
      await settled(page);
      await page.getByRole('heading', { level: 2, name: 'Jours de collecte' }).waitFor();
      await assertFits(page, 'the place');
      await assertTouchTargets(page, 'the place');
      await checkA11y(page, 'the place on a phone');
      await tap(page.getByRole('button', { name: /^Modifier le / }).first(), 'the first day’s « Modifier »');
      await page.getByRole('heading', { level: 2, name: 'Modifier le jour de collecte' }).waitFor();
      assert.match(page.url(), /[?&]edit=jour/);
      await assertFits(page, 'the day’s form');
      await checkA11y(page, 'the day’s form on a phone');
      await snap(page, 'place-day');
      await tap(page.getByRole('button', { name: 'Annuler', exact: true }), '« Annuler »');
      await page.getByRole('heading', { level: 2, name: 'Modifier le jour de collecte' }).waitFor({ state: 'detached' });

      // The menu: tapped open, it shows the links (axe on it), leads to the challenges' list and folds again.
      await tap(menu, '« Menu »');
      assert.equal(await expanded('true'), 'true');
      const challenges = nav.getByRole('link', { name: 'Défis' });
      await challenges.waitFor();
      await assertFits(page, 'the open menu');
      await assertTouchTargets(page, 'the open menu');
      await checkA11y(page, 'the open menu on a phone');
      await snap(page, 'menu-open');
      await tap(challenges, 'the menu’s « Défis »');
      await page.getByRole('heading', { level: 1, name: 'Défis' }).waitFor();
      await settled(page);
      assert.equal(await expanded('false'), 'false', 'the menu folds once a screen is chosen');
      assert.equal(await challenges.isVisible(), false);
      assert.equal(await settledFocus(page, () => document.activeElement?.tagName, 'H1'), 'H1', 'the focus on the new screen’s title');
      await assertFits(page, 'the challenges');
      await assertTouchTargets(page, 'the challenges');
      await checkA11y(page, 'the challenges on a phone');
      // The list's table is wider than the phone: it scrolls in its frame, and its « Modifier » is reached by a tap.
      await page.getByLabel('Commune').selectOption({ label: 'Brest' });
      await page.getByRole('cell', { name: 'Les bases du tri', exact: true }).waitFor();
      await settled(page);
      await assertFits(page, 'Brest’s challenges');
      await tap(page.getByRole('button', { name: 'Modifier Les bases du tri' }), 'the challenge’s « Modifier »');
      await page.getByRole('heading', { level: 2, name: 'Modifier le défi' }).waitFor();
      await assertFits(page, 'the challenge’s form');

      // Escape folds the open menu, the focus back on its button.
      await tap(menu, '« Menu »');
      await nav.getByRole('link', { name: /^Demandes/ }).waitFor();
      await nav.getByRole('link', { name: 'Accueil' }).focus();
      await page.keyboard.press('Escape');
      assert.equal(await expanded('false'), 'false');
      await nav.getByRole('link', { name: /^Demandes/ }).waitFor({ state: 'hidden' });
      assert.equal(await settledFocus(page, () => document.activeElement?.textContent?.trim(), 'Menu'), 'Menu', 'the focus back on « Menu »');

      // The requests' queue through the menu; a tap on a request's reference opens it.
      await tap(menu, '« Menu »');
      await tap(nav.getByRole('link', { name: /^Demandes/ }), 'the menu’s « Demandes »');
      await page.getByRole('heading', { level: 1, name: 'Demandes des habitants' }).waitFor();
      await settled(page);
      assert.equal(await expanded('false'), 'false');
      // The same screen chosen again: the menu folds, the focus on the content rather than lost with the hidden link.
      await tap(menu, '« Menu »');
      await tap(nav.getByRole('link', { name: /^Demandes/ }), 'the menu’s « Demandes » again');
      await nav.getByRole('link', { name: /^Demandes/ }).waitFor({ state: 'hidden' });
      assert.equal(await settledFocus(page, () => document.activeElement?.id, 'main'), 'main', 'the focus on the content');
      await assertFits(page, 'the queue');
      await assertTouchTargets(page, 'the queue');
      await checkA11y(page, 'the queue on a phone');
      await tap(page.getByRole('link', { name: new RegExp(reference) }), 'the request’s reference');
      await page.getByRole('heading', { level: 1, name: new RegExp(`^Demande ${reference}`) }).waitFor();
      await settled(page);
      await assertFits(page, 'the request');
      await checkA11y(page, 'the request on a phone');
      assert.deepEqual(context.cspViolations, []);

      // A desktop: the navigation at the side, every link shown, no « Menu ».
      const desktop = await (await newAgentContext(browser, DESKTOP)).newPage();
      await logIn(desktop, server.origin, 'lena@brest.fr');
      await settled(desktop);
      const side = desktop.getByRole('navigation', { name: 'Navigation de la console' });
      await side.getByRole('link', { name: 'Communes' }).waitFor();
      assert.equal(await desktop.getByRole('button', { name: 'Menu' }).isVisible(), false);
      const [navBox, mainBox] = await Promise.all([side.boundingBox(), desktop.locator('main').boundingBox()]);
      assert.ok(navBox && mainBox && navBox.x + navBox.width <= mainBox.x, 'the navigation beside the content');
      await checkA11y(desktop, 'home on a desktop');
    });
  });
}
