import fs from 'node:fs';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`; .ci/run installs it when missing). */
export const CHROMIUM = '/usr/bin/chromium';

/** node:test's `skip` for the browser suites: false when Chromium is there, else why they are skipped. */
export const CHROMIUM_SKIP = fs.existsSync(CHROMIUM)
  ? false
  : `no Chromium at ${CHROMIUM} (apt-get install -y chromium); the browser tests are skipped`;

/**
 * Headless Chromium as every browser test runs it: no sandbox (containers), no GPU, no QUIC, nothing fetched in the
 * background. launch() always starts it on a fresh temporary --user-data-dir of its own (it refuses the flag in
 * args); `downloadsPath`, when given, is the caller's folder for downloads and traces, removed by the caller.
 */
export function launchChromium(downloadsPath?: string): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    ...(downloadsPath ? { downloadsPath } : {}),
  });
}

/**
 * What the page's clipboard holds, read in the page (`navigator.clipboard.readText()`, the context granted
 * `clipboard-read`), or null when the browser does not answer within `ms`: under a loaded machine headless Chromium
 * has been seen to leave the read pending for good, which would hold the whole suite until its timeout. A null is
 * no proof of a copy: the caller has waited for the page to say it copied (its status) first.
 */
export async function clipboardText(page: Page, ms = 10_000): Promise<string | null> {
  await page.bringToFront();
  return page.evaluate(
    (wait) =>
      Promise.race([
        (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), wait)),
      ]),
    ms,
  );
}

/**
 * What `read` answers in the page once it answers `wanted`, or after `ms` whatever it answers then, for the assertion
 * that follows to show: the apps move the focus in an effect after they render, which an action's promise does not
 * wait for. `read` runs in the page (as `page.evaluate` runs it): it names nothing of the test's scope.
 */
export async function settledFocus<T>(target: Page | Frame, read: () => T, wanted: T, ms = 5_000): Promise<T> {
  await target
    .waitForFunction(`JSON.stringify((${read.toString()})()) === ${JSON.stringify(JSON.stringify(wanted))}`, undefined, { timeout: ms })
    .catch(() => {});
  return target.evaluate(read);
}
