// The home screen's one box in headless Chromium on the demo data (docs/api.md, finding one's commune or address
// without choosing it first): a resident types their address with its commune, or their commune with a typo, never
// choosing from the commune list first, and lands on their calendar or their commune, by keyboard.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startDemoServer } from '../helpers/web-fixtures.ts';
import { CHROMIUM_SKIP, launchChromium } from '../helpers/browser.ts';
import { checkA11y } from '../helpers/axe.ts';
import { browserDatabaseKinds } from '../helpers/database.ts';

const PHONE = { width: 390, height: 844 };

interface Candidate {
  cityId: string;
  cityName: string;
  placeId: string;
  placeName: string;
  label: string;
}

for (const kind of browserDatabaseKinds()) {
  describe(`web app: the home screen's address or commune box (${kind})`, { skip: CHROMIUM_SKIP, timeout: 240_000 }, () => {
    let origin: string;
    let browser: Browser;
    const closers: (() => Promise<void>)[] = [];

    const api = async <T,>(url: string): Promise<T> => {
      const res = await fetch(origin + url);
      assert.equal(res.status, 200, url);
      return (await res.json()) as T;
    };

    before(async () => {
      const server = await startDemoServer({ after: (fn) => closers.push(fn) }, kind);
      origin = server.origin;
      browser = await launchChromium();
    });

    after(async () => {
      await browser?.close();
      for (const close of closers.reverse()) await close();
    });

    /** A resident's first visit: nothing remembered, the home screen shows the box. */
    async function home(): Promise<{ page: Page; close: () => Promise<void> }> {
      const context = await browser.newContext({ viewport: PHONE, locale: 'fr-FR', timezoneId: 'Europe/Paris', serviceWorkers: 'block' });
      const page = await context.newPage();
      await page.goto(`${origin}/`);
      await page.getByRole('heading', { level: 1, name: /Quand passe la collecte chez moi/ }).waitFor();
      return { page, close: () => context.close() };
    }

    it('types « 12 rue jean jaures brest » and, by keyboard, gets the calendar of that place', async () => {
      const { page, close } = await home();
      const box = page.getByRole('combobox', { name: 'Votre adresse ou votre commune' });
      await box.focus();
      await page.keyboard.type('12 rue jean jaures brest', { delay: 15 });
      const options = page.getByRole('listbox', { name: 'Communes et adresses trouvées' }).getByRole('option');
      await options.first().waitFor();
      assert.equal(await box.getAttribute('aria-expanded'), 'true');

      // What the API answers, in its order, each naming its commune and sector.
      const expected = await api<Candidate[]>(`/public/search/addresses?q=${encodeURIComponent('12 rue jean jaures brest')}`);
      assert.ok(expected.length > 0 && expected.every((c) => c.cityName === 'Brest'), JSON.stringify(expected));
      assert.equal(await options.count(), expected.length);
      for (let i = 0; i < expected.length; i++) {
        const text = await options.nth(i).innerText();
        assert.ok(text.includes(expected[i].label) && text.includes(`Brest, secteur ${expected[i].placeName}`), text);
      }
      await checkA11y(page, 'home search, addresses listed');

      await page.keyboard.press('ArrowDown');
      assert.equal(await box.getAttribute('aria-activedescendant'), await options.first().getAttribute('id'));
      assert.equal(await options.first().getAttribute('aria-selected'), 'true');
      await page.keyboard.press('Enter');

      const place = expected[0];
      await page.getByRole('heading', { level: 1, name: `Collecte à Brest Secteur ${place.placeName}` }).waitFor();
      await page.locator('.bin .next time').first().waitFor();
      assert.equal(new URL(page.url()).pathname, `/communes/${place.cityId}/${place.placeId}`);
      await checkA11y(page, 'calendar from the home search');
      // The place is remembered: the home screen is now its calendar.
      await page.goto(`${origin}/`);
      await page.getByRole('heading', { level: 1, name: `Collecte à Brest Secteur ${place.placeName}` }).waitFor();
      await close();
    });

    it('finds a commune typed with a typo, and Enter opens its choice of sectors', async () => {
      const { page, close } = await home();
      const box = page.getByRole('combobox', { name: 'Votre adresse ou votre commune' });
      await box.focus();
      await page.keyboard.type('plouzanne', { delay: 15 });
      const first = page.getByRole('listbox', { name: 'Communes et adresses trouvées' }).getByRole('option').first();
      await first.waitFor();
      assert.match(await first.innerText(), /^Plouzané\s[\s\S]*Commune \(29280\), Brest Métropole/);
      await checkA11y(page, 'home search, a commune listed');
      // Enter without moving takes the first: the commune.
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: /Plouzané.*votre secteur/ }).waitFor();

      // Nothing found says so, and the commune list stays one link away.
      await page.goto(`${origin}/`);
      await page.getByRole('combobox', { name: 'Votre adresse ou votre commune' }).fill('xyzzy qwerty');
      await page.getByText(/Aucune commune ni adresse trouvée pour «\s?xyzzy qwerty\s?»/).waitFor();
      await page.getByRole('link', { name: 'Choisir ma commune dans la liste' }).click();
      await page.getByLabel('Votre commune', { exact: true }).waitFor();
      await close();
    });
  });
}
