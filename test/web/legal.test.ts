// « Déclaration d'accessibilité » and « Données personnelles » in the citizens' app (web/shared/legal.tsx), in headless
// Chromium on the demo data: both pages linked from the footer of every main screen, each with one
// h1 and its sections, the service's contact once a commune is chosen, no cookie set by the app; and the main screens
// (home, calendar, sorting guide, recycling points, report form, the two pages) through both accessibility engines,
// axe-core and HTML_CodeSniffer (test/helpers/axe.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startDemoServer } from '../helpers/web-fixtures.ts';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { CHROMIUM_SKIP, launchChromium } from '../helpers/browser.ts';
import { checkBothEngines } from '../helpers/axe.ts';

const NBSP = '\u00a0';

/** The screen drawn: its h1 there and nothing left loading. */
async function settled(page: Page): Promise<void> {
  await page.locator('main h1').first().waitFor();
  await page.waitForFunction(() => !document.querySelector('.loading, .spinner'));
}

/** The footer's two links, each to its page. */
async function assertFooterLinks(page: Page, screen: string): Promise<void> {
  const footer = page.locator('footer');
  assert.equal(await footer.getByRole('link', { name: `Accessibilité${NBSP}: partiellement conforme` }).getAttribute('href'), '/accessibilite', `${screen}: footer`);
  assert.equal(await footer.getByRole('link', { name: 'Données personnelles' }).getAttribute('href'), '/donnees-personnelles', `${screen}: footer`);
}

/** The h2 headings of the page's main content, in order. */
const sections = (page: Page) => page.locator('main h2').allInnerTexts();

for (const kind of browserDatabaseKinds()) {
  describe(`web app: accessibility statement and personal data (${kind})`, { skip: CHROMIUM_SKIP, timeout: 300_000 }, () => {
    it('links both pages from every main screen, which pass axe-core and HTML_CodeSniffer', async (t) => {
      const { origin } = await startDemoServer(t, kind);
      const browser = await launchChromium();
      t.after(() => browser.close());
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
      const page = await context.newPage();

      const groups = (await (await fetch(`${origin}/public/city-groups`)).json()) as { name: string; contactPhone: string | null; cities: { id: string; name: string }[] }[];
      const brest = groups.flatMap((g) => g.cities.map((c) => ({ ...c, group: g }))).find((c) => c.name === 'Brest')!;
      const city = (await (await fetch(`${origin}/public/cities/${brest.id}`)).json()) as { wasteCollectionPlaces: { id: string }[] };
      const placeId = city.wasteCollectionPlaces[0].id;

      // Before any commune is chosen: the home screen, then the pages, which say where the contact will be.
      await page.goto(`${origin}/accessibilite`);
      await settled(page);
      assert.equal(await page.locator('h1').count(), 1);
      assert.equal(await page.locator('h1').innerText(), 'Déclaration d’accessibilité');
      assert.equal(await page.title(), 'Déclaration d’accessibilité – Collecte');
      assert.deepEqual(await sections(page), [
        'État de conformité',
        'Vérifications réalisées',
        'Contenus non accessibles',
        'Établissement de cette déclaration',
        'Retour d’information et contact',
        'Voies de recours',
      ]);
      const statement = await page.locator('main').innerText();
      for (const words of ['partiellement conforme', 'RGAA', 'version 4.1', 'Aucun audit complet', 'axe-core', 'HTML_CodeSniffer', 'Chromium', 'clavier', 'Libre réponse 71120']) {
        assert.ok(statement.replaceAll(NBSP, ' ').includes(words), `the statement says « ${words} »`);
      }
      assert.ok(await page.getByRole('link', { name: 'Défenseur des droits', exact: true }).isVisible());
      assert.ok(await page.getByRole('link', { name: /délégué du Défenseur des droits/ }).isVisible());
      assert.ok(await page.getByRole('link', { name: 'votre commune choisie' }).isVisible(), 'no commune yet: the way to choose one');
      await assertFooterLinks(page, 'accessibility statement');
      await checkBothEngines(page, 'accessibility statement');

      await page.locator('footer').getByRole('link', { name: 'Données personnelles' }).click();
      await page.getByRole('heading', { level: 1, name: 'Données personnelles' }).waitFor();
      await settled(page);
      assert.equal(await page.locator('h1').count(), 1);
      assert.deepEqual(await sections(page), ['Sur votre appareil', 'Sur le serveur du service', 'Cookies', 'Services extérieurs', 'Pour les agents', 'Vos droits']);
      const data = (await page.locator('main').innerText()).replaceAll(NBSP, ' ');
      for (const words of ['aucun cookie', 'aucun traceur', 'aucune publicité', 'localStorage', '365 jours', '7 jours', '24 heures', 'adresse IP', 'RGPD', 'CNIL']) {
        assert.ok(data.includes(words), `the personal-data page says « ${words} »`);
      }
      await assertFooterLinks(page, 'personal data');
      await checkBothEngines(page, 'personal data');

      // The main screens: the footer's links, both engines.
      const screens: [string, string][] = [
        ['/', 'home'],
        [`/communes/${brest.id}/${placeId}`, 'calendar'],
        ['/tri', 'sorting guide'],
        ['/decheteries', 'recycling points'],
        ['/signaler', 'report form'],
      ];
      for (const [path, screen] of screens) {
        await page.goto(origin + path);
        await settled(page);
        if (screen === 'calendar') await page.locator('[data-waste-type]').first().waitFor();
        await assertFooterLinks(page, screen);
        await checkBothEngines(page, screen);
      }

      // A commune chosen (the calendar above): the statement gives its group's contact.
      await page.locator('footer').getByRole('link', { name: /^Accessibilité/ }).click();
      await page.getByRole('heading', { level: 1, name: 'Déclaration d’accessibilité' }).waitFor();
      const contact = page.locator('section.contact');
      await contact.waitFor();
      assert.match(await contact.innerText(), new RegExp(brest.group.contactPhone!.replace(/ /g, '\\s')));
      await checkBothEngines(page, 'accessibility statement with a contact');

      // The pages' own addresses are the app's (200), and nothing the app did set a cookie.
      for (const path of ['/accessibilite', '/donnees-personnelles']) assert.equal((await fetch(origin + path)).status, 200, path);
      assert.deepEqual(await context.cookies(), [], 'the citizens’ app sets no cookie');
    });
  });
}
