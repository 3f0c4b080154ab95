// The commune list (/communes) in headless Chromium on the demo data: when no commune's name holds the text typed, the
// list asks the server's typo-tolerant search (GET /public/search/communes, docs/api.md, finding one's commune or
// address without choosing it first) and offers what the resident probably meant under « Vouliez-vous dire : ».
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startDemoServer } from '../helpers/web-fixtures.ts';
import { CHROMIUM_SKIP, launchChromium } from '../helpers/browser.ts';
import { checkA11y } from '../helpers/axe.ts';
import { browserDatabaseKinds } from '../helpers/database.ts';

const PHONE = { width: 390, height: 844 };

for (const kind of browserDatabaseKinds()) {
  describe(`web app: the commune list offers communes spelled otherwise (${kind})`, { skip: CHROMIUM_SKIP, timeout: 240_000 }, () => {
    let origin: string;
    let browser: Browser;
    const closers: (() => Promise<void>)[] = [];

    before(async () => {
      const server = await startDemoServer({ after: (fn) => closers.push(fn) }, kind);
      origin = server.origin;
      browser = await launchChromium();
    });

    after(async () => {
      await browser?.close();
      for (const close of closers.reverse()) await close();
    });

    async function communes(): Promise<{ page: Page; close: () => Promise<void>; goOffline: () => Promise<void> }> {
      const context = await browser.newContext({ viewport: PHONE, locale: 'fr-FR', timezoneId: 'Europe/Paris', serviceWorkers: 'block' });
      const page = await context.newPage();
      await page.goto(`${origin}/communes`);
      await page.getByLabel('Votre commune', { exact: true }).waitFor();
      return { page, close: () => context.close(), goOffline: () => context.setOffline(true) };
    }

    it('types « plouzanne », is offered Plouzané under « Vouliez-vous dire : » and follows it', async () => {
      const { page, close } = await communes();
      await page.getByLabel('Votre commune', { exact: true }).fill('plouzanne');
      await page.getByText('Vouliez-vous dire\u00a0:', { exact: true }).waitFor();
      const offered = page.getByRole('list', { name: 'Vouliez-vous dire\u00a0:' }).getByRole('link');
      await offered.first().waitFor();
      assert.match(await offered.first().innerText(), /^Plouzané(\s|$)/);
      // No « aucune commune » beside the suggestions, and no list of communes found on the device.
      assert.equal(await page.getByText(/Aucune commune ne correspond/).count(), 0);
      assert.equal(await page.getByRole('list', { name: 'Communes trouvées' }).count(), 0);
      await checkA11y(page, 'commune list, communes offered');
      await offered.first().click();
      await page.getByRole('heading', { level: 1, name: /Plouzané.*votre secteur/ }).waitFor();
      assert.match(new URL(page.url()).pathname, /^\/communes\/[^/]+$/);

      // A postcode, then Enter, takes the first commune offered.
      await page.goto(`${origin}/communes`);
      const box = page.getByLabel('Votre commune', { exact: true });
      await box.fill('29200');
      await page.getByRole('list', { name: 'Vouliez-vous dire\u00a0:' }).getByRole('link', { name: /^Brest\b/ }).waitFor();
      await box.press('Enter');
      await page.getByRole('heading', { level: 1, name: /Brest/ }).waitFor();
      await close();
    });

    it('says « aucune commune » when the server finds nothing either, or cannot be reached, and keeps the device’s own finds', async () => {
      const { page, close, goOffline } = await communes();
      const box = page.getByLabel('Votre commune', { exact: true });
      // What the device finds itself is shown as before, without asking the server.
      await box.fill('brest');
      await page.getByRole('list', { name: 'Communes trouvées' }).getByRole('link', { name: /^Brest\b/ }).waitFor();
      assert.equal(await page.getByText('Vouliez-vous dire\u00a0:').count(), 0);

      await box.fill('xyzzy qwerty');
      await page.getByText('Aucune commune ne correspond à « xyzzy qwerty ».', { exact: false }).waitFor();
      assert.equal(await page.getByText('Vouliez-vous dire\u00a0:').count(), 0);

      // Offline: the suggestion request fails, the message stays.
      await goOffline();
      await box.fill('brst');
      await page.getByText('Aucune commune ne correspond à « brst ».', { exact: false }).waitFor();
      assert.equal(await page.getByText('Vouliez-vous dire\u00a0:').count(), 0);
      await close();
    });
  });
}
