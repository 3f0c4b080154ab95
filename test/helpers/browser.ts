import fs from 'node:fs';
import { after } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Frame, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`; .ci/run installs it when missing). */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Debian's build of Chromium's old headless mode (`apt-get install -y chromium-headless-shell`; .ci/run installs it
 * when missing): the same Blink and V8 without the browser around them (profile services, browser UI, extensions),
 * which is what Playwright itself runs for headless tests. It costs about a fifth less CPU than Chromium for the same
 * browser file (test/web/address.test.ts: 22.5–25.8 against 29.8–30.4 CPU-seconds, Chromium's processes and the
 * test's together, alternating, 2026-12-02), and the browser files are half of `npm test`'s CPU. It has no
 * notifications: `Notification.permission` is `denied` and a service worker's `showNotification` shows nothing, so
 * the tests that need them ask for Chromium itself (`launchChromium({ full: true })`).
 */
export const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/** What a browser test runs on: the headless shell when it is installed, else Chromium. */
const DEFAULT_EXECUTABLE = fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM;

/** node:test's `skip` for the browser suites: false when a browser is there, else why they are skipped. */
export const CHROMIUM_SKIP = fs.existsSync(DEFAULT_EXECUTABLE)
  ? false
  : `no Chromium at ${CHROMIUM} nor ${HEADLESS_SHELL} (apt-get install -y chromium chromium-headless-shell); the browser tests are skipped`;

/** node:test's `skip` for the suites that need Chromium itself (notifications, its browser UI). */
export const FULL_CHROMIUM_SKIP = fs.existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (apt-get install -y chromium); this suite is skipped`;

/**
 * The features Playwright switches off in every Chromium it starts (playwright-core 1.65). Chromium reads only the last
 * `--disable-features` of its command line, so a list of ours must repeat Playwright's: test/web/shared-browser.test.ts
 * fails, naming what is missing, when an upgrade of Playwright changes its list.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Browser UI that headless Chromium (156) makes anyway: the address bar's two pop-up pages (WebUI), loaded for every
 * window, so for every new context, each in a renderer process of its own. Nobody sees them; they were a fifth to a
 * quarter of the browser tests' CPU.
 */
export const UNSEEN_UI_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/**
 * Headless Chromium as every browser test runs it: no sandbox (containers), no GPU, no QUIC, nothing fetched in the
 * background, no unseen browser UI. launch() starts it on a fresh temporary profile of its own, downloads in a
 * temporary folder it removes.
 */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...UNSEEN_UI_FEATURES].join(',')}`,
];

/** Chromium itself with those switches; the headless shell takes the same (those of the browser UI do nothing there). */
export const CHROMIUM_OPTIONS: { executablePath: string; args: string[] } = { executablePath: CHROMIUM, args: ARGS };

/**
 * The process's browsers, each started on first use and closed when the process's tests are done: browser files share
 * a process (test/run.ts's batches), and starting one costs about half a second of CPU each time. One that went away
 * (crashed, or closed by hand) is started again for the next caller. Two at most: the headless shell, and Chromium for
 * the files that ask for it.
 */
const shared = new Map<string, Promise<Browser>>();

function sharedBrowser(executablePath: string): Promise<Browser> {
  const current = shared.get(executablePath);
  if (current) {
    return current.then((browser) => {
      if (browser.isConnected()) return browser;
      if (shared.get(executablePath) === current) shared.delete(executablePath);
      return sharedBrowser(executablePath);
    });
  }
  const started = chromium.launch({ executablePath, args: ARGS });
  shared.set(executablePath, started);
  started.catch(() => {
    if (shared.get(executablePath) === started) shared.delete(executablePath);
  });
  return started;
}

after(async () => {
  const browsers = [...shared.values()];
  shared.clear();
  for (const started of browsers) {
    const browser = await started.catch(() => undefined);
    if (browser?.isConnected()) await browser.close();
  }
});

/**
 * A browser for a test file or a test: the process's headless shell (Chromium itself with `full`, or where the shell
 * is not installed), seen through a lease. Its contexts and pages are the lease's own (`contexts()` lists those
 * alone), and closing it closes them, not the browser: cookies, storage, service workers and caches belong to a
 * context, so that a file never meets what another left. Once closed, the lease opens nothing more.
 */
export async function launchChromium(options: { full?: boolean } = {}): Promise<Browser> {
  const browser = await sharedBrowser(options.full ? CHROMIUM : DEFAULT_EXECUTABLE);
  const owned = new Set<BrowserContext>();
  let closed = false;
  const own = (context: BrowserContext) => {
    owned.add(context);
    context.once('close', () => owned.delete(context));
    return context;
  };
  const refuseWhenClosed = () => {
    if (closed) throw new Error('this browser lease is closed');
  };
  return new Proxy(browser, {
    get(target, property) {
      switch (property) {
        case 'newContext':
          return async (options?: Parameters<Browser['newContext']>[0]) => {
            refuseWhenClosed();
            return own(await target.newContext(options));
          };
        case 'newPage':
          return async (options?: Parameters<Browser['newPage']>[0]) => {
            refuseWhenClosed();
            const page = await target.newPage(options);
            own(page.context());
            return page;
          };
        case 'contexts':
          return () => [...owned];
        case 'close':
          return async () => {
            closed = true;
            await Promise.all([...owned].map((context) => context.close().catch(() => {})));
          };
        default: {
          const value: unknown = Reflect.get(target, property, target);
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        }
      }
    },
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
