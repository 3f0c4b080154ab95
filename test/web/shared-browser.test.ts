// The browser tests' Chromium (test/helpers/browser.ts): one per process, seen by each test file through a lease
// whose contexts are its own and close with it, so that files sharing a process never meet each other's state.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_OPTIONS, CHROMIUM_SKIP, FULL_CHROMIUM_SKIP, HEADLESS_SHELL, UNSEEN_UI_FEATURES, launchChromium } from '../helpers/browser.ts';
import type { Browser } from 'playwright-core';

/** The program a lease's browser runs (`chromium` or `chromium-headless-shell`), read from its browser process. */
async function programOf(lease: Browser): Promise<string> {
  const session = await lease.newBrowserCDPSession();
  try {
    const { processInfo } = (await session.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; id: number }[] };
    const browser = processInfo.find((info) => info.type === 'browser')!;
    return path.basename(fs.readlinkSync(`/proc/${browser.id}/exe`));
  } finally {
    await session.detach();
  }
}

/** The features a Chromium started with these options runs without: the last `--disable-features` of its command line. */
async function disabledFeatures(options: Parameters<typeof chromium.launchServer>[0]): Promise<string[]> {
  const server = await chromium.launchServer(options);
  try {
    const args = fs.readFileSync(`/proc/${server.process().pid}/cmdline`, 'utf8').split('\0');
    const last = args.findLast((arg) => arg.startsWith('--disable-features='));
    return last ? last.slice('--disable-features='.length).split(',') : [];
  } finally {
    await server.close();
  }
}

describe('the browser tests’ shared Chromium', { skip: CHROMIUM_SKIP }, () => {
  it('gives each lease its own contexts, closes them with the lease, and keeps Chromium for the next', async () => {
    const first = await launchChromium();
    const second = await launchChromium();
    try {
      const mine = await first.newContext();
      const page = await first.newPage();
      const theirs = await second.newContext();
      assert.equal(first.contexts().length, 2);
      assert.deepEqual(second.contexts(), [theirs]);

      // Cookies are a context's: the other lease's contexts do not see them.
      await mine.addCookies([{ name: 'lease', value: 'first', url: 'http://127.0.0.1/' }]);
      assert.deepEqual(await theirs.cookies(), []);

      let closed = 0;
      mine.once('close', () => closed++);
      page.context().once('close', () => closed++);
      await first.close();
      assert.equal(closed, 2, 'both of the lease’s contexts closed');
      assert.deepEqual(first.contexts(), []);
      await assert.rejects(first.newContext(), /lease is closed/);

      // Chromium itself is still there for the other lease, and for a new one.
      assert.ok(second.isConnected());
      const later = await launchChromium();
      try {
        const fresh = await later.newPage();
        await fresh.setContent('<p>encore là</p>');
        assert.equal(await fresh.textContent('p'), 'encore là');
        assert.deepEqual(await fresh.context().cookies(), [], 'a new lease starts without the cookies of one before');
      } finally {
        await later.close();
      }
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('starts Chromium again for the next lease when it went away', async () => {
    const lease = await launchChromium();
    const page = await lease.newPage();
    // The real browser behind the lease: closing it ends Chromium for every lease of the process.
    await page.context().browser()!.close();
    const next = await launchChromium();
    try {
      assert.ok(next.isConnected());
      const fresh = await next.newPage();
      await fresh.setContent('<p>relancé</p>');
      assert.equal(await fresh.textContent('p'), 'relancé');
    } finally {
      await next.close();
      await lease.close();
    }
  });

  it('runs the headless shell where it is installed, and Chromium itself for a lease that asks for it', async (t) => {
    // A page of a potentially trustworthy origin (127.0.0.1), where notifications may be asked for.
    const server = http.createServer((_request, response) => void response.end('<p>rappel</p>'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const permissionIn = async (lease: Browser) => {
      const page = await lease.newPage();
      await page.goto(origin);
      return page.evaluate(() => Notification.permission);
    };

    const shell = fs.existsSync(HEADLESS_SHELL);
    const lease = await launchChromium();
    try {
      assert.equal(await programOf(lease), shell ? 'chromium-headless-shell' : 'chromium');
      // Why a file that shows notifications asks for Chromium itself.
      assert.equal(await permissionIn(lease), shell ? 'denied' : 'default');
      if (FULL_CHROMIUM_SKIP) return;
      const full = await launchChromium({ full: true });
      try {
        assert.equal(await programOf(full), 'chromium');
        assert.equal(await permissionIn(full), 'default', 'Chromium itself asks for the permission');
        assert.ok(lease.isConnected(), 'the two browsers live side by side');
      } finally {
        await full.close();
      }
    } finally {
      await lease.close();
    }
  });

  it('keeps every feature Playwright switches off, and makes no browser UI for a new window', { skip: FULL_CHROMIUM_SKIP }, async () => {
    // Chromium reads the last --disable-features alone: ours must hold Playwright's whole list, as it is today.
    const playwrights = await disabledFeatures({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox'] });
    assert.ok(playwrights.length > 0, 'Playwright switches features off');
    const ours = await disabledFeatures(CHROMIUM_OPTIONS);
    assert.deepEqual(
      playwrights.filter((feature) => !ours.includes(feature)),
      [],
      'features Playwright switches off that test/helpers/browser.ts does not (add them to PLAYWRIGHT_DISABLED_FEATURES)',
    );
    for (const feature of UNSEEN_UI_FEATURES) assert.ok(ours.includes(feature), feature);

    // Headless Chromium makes the address bar's pop-up pages for every window unless told not to.
    const lease = await launchChromium({ full: true });
    try {
      const page = await lease.newPage();
      await page.setContent('<p>sans barre d’adresse</p>');
      const session = await lease.newBrowserCDPSession();
      const { targetInfos } = (await session.send('Target.getTargets')) as { targetInfos: { type: string; url: string }[] };
      assert.deepEqual(
        targetInfos.filter((target) => target.type === 'browser_ui').map((target) => target.url),
        [],
      );
      assert.ok(targetInfos.some((target) => target.type === 'page'));
    } finally {
      await lease.close();
    }
  });
});
