import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { importBundleFile } from '../../src/bundle/import.ts';
import { DEMO_BUNDLE_PATH } from '../../src/demo/load.ts';
import type { Database, DatabaseKind } from '../../src/db/database.ts';
import type { Clock } from '../../src/app.ts';
import { WEB_DIST } from '../../src/web/routes.ts';
import { buildTestApp } from './app.ts';
import { consoleEnv } from './console-fixtures.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The built web app (`npm ci` builds it through `prepare`; a checkout without it is built once here). */
export function ensureWebBuilt(): string {
  const index = path.join(WEB_DIST, 'index.html');
  if (fs.existsSync(index)) return WEB_DIST;
  // Test files run in parallel: one builds, the others wait for it (a directory is an atomic lock).
  const lock = path.join(os.tmpdir(), 'collecte-web-build.lock');
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`web build lock ${lock} held for too long`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    if (!fs.existsSync(index)) {
      const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
      const result = spawnSync(process.execPath, [vite, 'build', '--config', 'web/vite.config.ts'], { cwd: ROOT, encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`web build failed:\n${result.stdout}\n${result.stderr}`);
    }
  } finally {
    fs.rmdirSync(lock);
  }
  return WEB_DIST;
}

/**
 * The demo data set served over real HTTP on a free port by the whole app, as `npm start` would (console on, with
 * `consoleEnv`); `clock`, when given, is the server's (opening states at a fixed instant); `env`, more configuration.
 */
export async function startDemoServer(
  t: { after: (fn: () => Promise<void>) => void },
  kind: DatabaseKind = 'pglite',
  options: { clock?: Clock; env?: Record<string, string> } = {},
): Promise<{ app: FastifyInstance; origin: string; database: Database }> {
  ensureWebBuilt();
  const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'collecte-web-media-'));
  t.after(async () => fs.rmSync(mediaDir, { recursive: true, force: true }));
  const { app, database } = await buildTestApp(t, kind, { env: { MEDIA_DIR: mediaDir, ...consoleEnv, ...options.env }, clock: options.clock });
  await importBundleFile(database, DEMO_BUNDLE_PATH, { mediaDir, now: new Date() });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { app, origin: `http://127.0.0.1:${port}`, database };
}
