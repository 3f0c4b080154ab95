// The accessibility helpers every browser test relies on (test/helpers/axe.ts) must fail on a real violation, also
// when the screen is checked again in the same document (the engines are then not given to the page a second time).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM_SKIP, launchChromium } from '../helpers/browser.ts';
import { checkAxe, checkHtmlcs } from '../helpers/axe.ts';

const PAGE = '<!doctype html><html lang="fr"><head><title>Essai</title></head><body><main><h1>Essai</h1><p id="slot"></p></main></body></html>';
/** An image with no text alternative: critical for axe-core (image-alt), an error for HTML_CodeSniffer (H37). */
const UNLABELLED_IMAGE = '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="10" height="10">';

describe('the accessibility checks of the browser tests', { skip: CHROMIUM_SKIP }, () => {
  let browser: Browser;
  let page: Page;
  before(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
  });
  after(() => browser?.close());

  const setSlot = (html: string) => page.evaluate((inner) => void ((globalThis as unknown as { document: { getElementById(id: string): { innerHTML: string } } }).document.getElementById('slot').innerHTML = inner), html);

  for (const [name, check, rule] of [
    ['axe-core', checkAxe, /image-alt/],
    ['HTML_CodeSniffer', checkHtmlcs, /H37/],
  ] as const) {
    it(`${name}: passes a clean screen, fails once a violation appears in the same document, and passes again when it goes`, async () => {
      await page.setContent(PAGE);
      await check(page, 'clean');
      await setSlot(UNLABELLED_IMAGE);
      await assert.rejects(check(page, 'with an unlabelled image'), (err: Error) => rule.test(err.message) && err.message.includes('with an unlabelled image'));
      await setSlot('');
      await check(page, 'clean again');
    });

    it(`${name}: a page navigated to afterwards is checked with the engine given anew`, async () => {
      await page.goto(`data:text/html,${encodeURIComponent(PAGE.replace('<p id="slot"></p>', UNLABELLED_IMAGE))}`);
      await assert.rejects(check(page, 'new document'), rule);
    });
  }
});
