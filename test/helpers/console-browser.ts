// The agents' console in headless Chromium: a real server on the demo data (either database), agents' accounts,
// logging in through the login screen, axe-core and screenshots. Used by test/console-web/*.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { importBundleFile } from '../../src/bundle/import.ts';
import { DEMO_BUNDLE_PATH } from '../../src/demo/load.ts';
import type { Database, DatabaseKind } from '../../src/db/database.ts';
import type { Permission } from '../../src/auth/permissions.ts';
import type { User } from '../../src/auth/schemas.ts';
import { buildTestApp, type TestAppOptions } from './app.ts';
import { consoleEnv } from './console-fixtures.ts';
import { createAccount, PASSWORD } from './auth-fixtures.ts';
import { launchChromium } from './browser.ts';
import { ensureWebBuilt } from './web-fixtures.ts';

export { CHROMIUM_SKIP } from './browser.ts';
export { PASSWORD } from './auth-fixtures.ts';

/** Screenshots of the console, git-ignored (the README's three are copied to docs/ by hand). */
export const CONSOLE_SHOTS = path.resolve(import.meta.dirname, '../.artifacts/console');
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

export interface ConsoleServer {
  app: FastifyInstance;
  database: Database;
  origin: string;
  /** The demo's first city group, which every fixture agent works for. */
  groupId: string;
}

/** The whole app over real HTTP on a free port, on the demo data, logins on. */
export async function startConsoleServer(
  t: { after: (fn: () => Promise<void>) => void },
  kind: DatabaseKind,
  options: Pick<TestAppOptions, 'clock'> & { env?: Record<string, string> } = {},
): Promise<ConsoleServer> {
  ensureWebBuilt();
  const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'collecte-console-media-'));
  t.after(async () => fs.rmSync(mediaDir, { recursive: true, force: true }));
  const { app, database } = await buildTestApp(t, kind, { env: { MEDIA_DIR: mediaDir, ...consoleEnv, ...options.env }, clock: options.clock });
  await importBundleFile(database, DEMO_BUNDLE_PATH, { mediaDir, now: new Date() });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const group = await database.db.selectFrom('city_group').select('id').orderBy('name').executeTakeFirstOrThrow();
  return { app, database, origin: `http://127.0.0.1:${port}`, groupId: group.id };
}

/** An agent of the server's demo group (or a super admin), with the fixtures' password. */
export function createAgent(
  server: ConsoleServer,
  values: { email: string; name: string; permissions?: Permission[]; superAdmin?: boolean },
): Promise<User> {
  return createAccount(server.database.db, { cityGroupIds: values.superAdmin ? [] : [server.groupId], ...values }, new Date());
}

/** A browser for a test (the process's Chromium, test/helpers/browser.ts); contexts are the agents (each its own cookies). */
export async function openBrowser(t: { after: (fn: () => Promise<void>) => void }): Promise<Browser> {
  const browser = await launchChromium();
  t.after(() => browser.close());
  return browser;
}

/**
 * A new agent's browser (French, Paris time); CSP violations reported in the page fail `assertNoCspViolation`.
 * `device` makes it a phone's: `isMobile` (the viewport meta tag honoured, a page wider than the screen widens the
 * layout) and `hasTouch` (taps).
 */
export async function newAgentContext(
  browser: Browser,
  viewport = DESKTOP,
  device: { isMobile?: boolean; hasTouch?: boolean } = {},
): Promise<BrowserContext & { cspViolations: string[] }> {
  const context = (await browser.newContext({ viewport, ...device, locale: 'fr-FR', timezoneId: 'Europe/Paris' })) as BrowserContext & { cspViolations: string[] };
  context.cspViolations = [];
  context.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) context.cspViolations.push(message.text());
  });
  return context;
}

/** Logs in through the login screen and waits for the console's home. */
export async function logIn(page: Page, origin: string, email: string, password = PASSWORD, path = '/console'): Promise<void> {
  await page.goto(origin + path);
  await page.getByLabel('Adresse e-mail').fill(email);
  await page.getByLabel('Mot de passe').fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await page.getByRole('button', { name: 'Se déconnecter' }).waitFor();
}

/** axe-core on the current screen (test/helpers/axe.ts). */
export { checkA11y } from './axe.ts';

/**
 * The current screen at desktop width (this page) and at phone width (the same page resized), under
 * test/.artifacts/console/NAME-desktop.png and NAME-phone.png; `showing`, when given, is scrolled into view first.
 */
export async function shoot(page: Page, name: string, showing?: Locator): Promise<void> {
  fs.mkdirSync(CONSOLE_SHOTS, { recursive: true });
  const before = page.viewportSize() ?? DESKTOP;
  for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    await page.setViewportSize(viewport);
    if (showing) await showing.evaluate((element) => (element as unknown as { scrollIntoView: (o: object) => void }).scrollIntoView({ block: 'center' }));
    await page.screenshot({ path: path.join(CONSOLE_SHOTS, `${name}-${size}.png`) });
  }
  await page.setViewportSize(before);
}
