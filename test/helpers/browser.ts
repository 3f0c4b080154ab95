import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

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
