// The API documentation (/docs) rendered in headless Chromium under its Content-Security-Policy: the page must draw
// the document and run a request with no policy violation. Skipped with a reason where Debian's chromium is missing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { buildTestApp } from '../helpers/app.ts';
import { CHROMIUM_SKIP, launchChromium } from '../helpers/browser.ts';
import { DOCS_PAGES } from '../../src/http/openapi.ts';

const SKIP = CHROMIUM_SKIP;

describe('API documentation in a browser', { skip: SKIP, timeout: 120_000 }, () => {
  let origin: string;
  let browser: Browser;
  const closers: (() => Promise<void>)[] = [];

  before(async () => {
    const { app } = await buildTestApp({ after: (fn: () => Promise<void>) => closers.push(fn) }, 'pglite');
    await app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    for (const close of closers.reverse()) await close();
  });

  it('renders /docs under its Content-Security-Policy, and "Try it out" runs, with no violation', async () => {
    const csp = (await fetch(`${origin}/docs`)).headers.get('content-security-policy');
    assert.ok(csp, 'the docs page has a Content-Security-Policy');
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);

    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
    // Every violation, also those the console does not show.
    await page.addInitScript(
      "document.addEventListener('securitypolicyviolation', (e) => reportViolation(e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sourceFile));",
    );

    await page.goto(`${origin}/docs`);
    await page.locator('.swagger-ui .info .title', { hasText: 'Collecte' }).waitFor();
    assert.ok((await page.locator('.opblock').count()) > 10, 'the operations are listed');
    // Every tag is drawn, the last one too (Swagger UI stops drawing past about 140 operations in one page: the back
    // office has a page of its own).
    await page.locator('.opblock-summary', { hasText: '/auth/logout' }).first().waitFor();
    assert.equal(await page.locator('.opblock-summary', { hasText: '/admin/' }).count(), 0, 'the back office is on its own page');

    // A request from the page: the document's own origin, allowed by connect-src.
    await page.locator('.opblock-summary', { hasText: '/health' }).first().click();
    await page.getByRole('button', { name: 'Try it out' }).click();
    await page.getByRole('button', { name: 'Execute' }).click();
    await page.locator('.live-responses-table .response-col_status', { hasText: '200' }).first().waitFor();

    // The back office's page: every admin operation drawn, the last tag included.
    await page.goto(`${origin}/docs/admin`);
    await page.locator('.swagger-ui .info .title', { hasText: 'Collecte' }).waitFor();
    await page.locator('.opblock-summary', { hasText: '/admin/waste-types/{id}' }).first().waitFor();
    const spec = (await (await fetch(`${origin}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const count = (keep: (path: string) => boolean) =>
      Object.entries(spec.paths).filter(([path]) => keep(path)).reduce((n, [, methods]) => n + Object.keys(methods).length, 0);
    const operations = count(DOCS_PAGES['/docs/admin']);
    // Every path of the document is on a page (the login's is on the public one and the back office's).
    for (const path of Object.keys(spec.paths)) {
      assert.ok(Object.values(DOCS_PAGES).some((keep) => keep(path)), path);
    }
    await page.waitForFunction(`document.querySelectorAll('.opblock').length >= ${operations}`, undefined, { timeout: 60_000 }).catch(() => {});
    assert.equal(await page.locator('.opblock').count(), operations, 'every operation of the back office is drawn');

    // The residents' requests' back office, on a page of its own.
    await page.goto(`${origin}/docs/admin-requests`);
    await page.locator('.opblock-summary', { hasText: '/admin/requests/{id}/replies' }).first().waitFor();
    const ofRequests = count(DOCS_PAGES['/docs/admin-requests']);
    await page.waitForFunction(`document.querySelectorAll('.opblock').length >= ${ofRequests}`, undefined, { timeout: 60_000 }).catch(() => {});
    assert.equal(await page.locator('.opblock').count(), ofRequests, 'every operation of the requests’ back office is drawn');

    // What the city group publishes, on a page of its own.
    await page.goto(`${origin}/docs/admin-content`);
    await page.locator('.opblock-summary', { hasText: '/admin/faq/{id}' }).first().waitFor();
    const ofContent = count(DOCS_PAGES['/docs/admin-content']);
    await page.waitForFunction(`document.querySelectorAll('.opblock').length >= ${ofContent}`, undefined, { timeout: 60_000 }).catch(() => {});
    assert.equal(await page.locator('.opblock').count(), ofContent, 'every operation of the content’s back office is drawn');

    await context.close();
    assert.deepEqual(violations, []);
  });
});
