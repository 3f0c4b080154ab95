// « Déclaration d'accessibilité » and « Données personnelles » in the agents' console (web/shared/legal.tsx), in
// headless Chromium on the demo data: linked from the footer of the login screen and of every
// screen, open without logging in and inside the console once logged in, each with one h1 and its sections; the
// console's main screens (login, home, a place's editor, the requests' queue, the two pages) through both
// accessibility engines, axe-core and HTML_CodeSniffer (test/helpers/axe.ts). One cookie, the session's, once logged in.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { checkBothEngines } from '../helpers/axe.ts';
import { CHROMIUM_SKIP, createAgent, logIn, newAgentContext, openBrowser, startConsoleServer } from '../helpers/console-browser.ts';

const NBSP = '\u00a0';

/** The screen drawn: its h1 there and nothing left loading. */
async function settled(page: Page): Promise<void> {
  await page.locator('main h1').first().waitFor();
  await page.waitForFunction(() => !document.querySelector('.loading, .spinner'));
}

async function assertFooterLinks(page: Page, screen: string): Promise<void> {
  const footer = page.locator('footer');
  assert.equal(await footer.getByRole('link', { name: `Accessibilité${NBSP}: partiellement conforme` }).getAttribute('href'), '/console/accessibilite', `${screen}: footer`);
  assert.equal(await footer.getByRole('link', { name: 'Données personnelles' }).getAttribute('href'), '/console/donnees-personnelles', `${screen}: footer`);
}

const sections = (page: Page) => page.locator('main h2').allInnerTexts();

for (const kind of browserDatabaseKinds()) {
  describe(`console: accessibility statement and personal data (${kind})`, { skip: CHROMIUM_SKIP, timeout: 300_000 }, () => {
    it('links both pages from the login screen and every screen, and the main screens pass both engines', async (t) => {
      const server = await startConsoleServer(t, kind);
      await createAgent(server, { email: 'lena@brest.fr', name: 'Léna Caradec', permissions: ['CITIES', 'REQUESTS'] });
      const place = await server.database.db
        .selectFrom('collection_place')
        .innerJoin('city', 'city.id', 'collection_place.city_id')
        .where('city.city_group_id', '=', server.groupId)
        .select('collection_place.id')
        .orderBy('collection_place.name')
        .executeTakeFirstOrThrow();
      const browser = await openBrowser(t);
      const context = await newAgentContext(browser);
      const page = await context.newPage();

      // Not logged in: the login screen, and both pages from its footer.
      await page.goto(`${server.origin}/console`);
      await page.getByRole('button', { name: 'Se connecter' }).waitFor();
      await assertFooterLinks(page, 'login');
      await checkBothEngines(page, 'login');

      await page.locator('footer').getByRole('link', { name: /^Accessibilité/ }).click();
      await page.getByRole('heading', { level: 1, name: 'Déclaration d’accessibilité' }).waitFor();
      await settled(page);
      assert.equal(await page.locator('h1').count(), 1);
      assert.equal(await page.title(), 'Déclaration d’accessibilité – Console Collecte');
      assert.deepEqual(await sections(page), [
        'État de conformité',
        'Vérifications réalisées',
        'Contenus non accessibles',
        'Établissement de cette déclaration',
        'Retour d’information et contact',
        'Voies de recours',
      ]);
      const statement = (await page.locator('main').innerText()).replaceAll(NBSP, ' ');
      for (const words of ['partiellement conforme', 'RGAA', 'axe-core', 'HTML_CodeSniffer', 'administrateur de la console', 'Défenseur des droits']) {
        assert.ok(statement.includes(words), `the statement says « ${words} »`);
      }
      assert.equal(await page.getByRole('button', { name: 'Se connecter' }).count(), 0, 'the statement opens without logging in');
      await assertFooterLinks(page, 'accessibility statement, logged out');
      await checkBothEngines(page, 'accessibility statement, logged out');

      await page.locator('footer').getByRole('link', { name: 'Données personnelles' }).click();
      await page.getByRole('heading', { level: 1, name: 'Données personnelles' }).waitFor();
      await settled(page);
      assert.equal(await page.locator('h1').count(), 1);
      assert.deepEqual(await sections(page), ['Sur votre appareil', 'Sur le serveur du service', 'Cookies', 'Services extérieurs', 'Pour les agents', 'Vos droits']);
      assert.ok((await page.locator('main').innerText()).replaceAll(NBSP, ' ').includes('cookie de session'));
      await checkBothEngines(page, 'personal data, logged out');

      // Logged in: the main screens, each with the footer, through both engines.
      await logIn(page, server.origin, 'lena@brest.fr');
      const screens: [string, string][] = [
        ['/console', 'home'],
        [`/console/secteurs/${place.id}`, 'place editor'],
        ['/console/demandes', 'requests queue'],
        ['/console/accessibilite', 'accessibility statement'],
        ['/console/donnees-personnelles', 'personal data'],
      ];
      for (const [path, screen] of screens) {
        await page.goto(server.origin + path);
        await page.getByRole('button', { name: 'Se déconnecter' }).waitFor();
        await settled(page);
        assert.equal(await page.locator('h1').count(), 1, `${screen}: one h1`);
        await assertFooterLinks(page, screen);
        await checkBothEngines(page, screen);
      }
      const cookies = await context.cookies();
      assert.deepEqual(
        cookies.map((c) => ({ path: c.path, httpOnly: c.httpOnly })),
        [{ path: '/auth', httpOnly: true }],
        'one cookie, the session’s',
      );
      assert.deepEqual(context.cspViolations, []);
    });
  });
}
