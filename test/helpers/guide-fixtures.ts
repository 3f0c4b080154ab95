import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { importBundleFile } from '../../src/bundle/import.ts';
import { DEMO_BUNDLE_PATH } from '../../src/demo/load.ts';
import type { Database, DatabaseKind } from '../../src/db/database.ts';
import { buildTestApp, fixedClock } from './app.ts';
import { consoleEnv } from './console-fixtures.ts';

/** The demo's two groups. */
export const BREST_METROPOLE = '6257598e-116b-5090-9b09-374e65036c9b';
export const PAYS_DES_ABERS = 'da54dfd7-bb11-5096-9c78-3066c4a969ae';

/**
 * The app on the demo data, logins on. The demo holds ADEME's « Capsules de café ou de thé » (synonyms « Capsule de
 * café », « Dosette de café ») and « Boîte à pizza » (synonym « Carton à pizza »), both in the packaging bin.
 */
export async function demoGuideApp(
  cleanups: (() => Promise<void>)[],
  kind: DatabaseKind,
  now: string,
): Promise<{ app: FastifyInstance; database: Database; clock: ReturnType<typeof fixedClock>; cityIds: Map<string, string> }> {
  const clock = fixedClock(now);
  const ctx = { after: (fn: () => Promise<void>) => void cleanups.push(fn) };
  const { app, database } = await buildTestApp(ctx, kind, { clock, env: consoleEnv });
  const mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'collecte-guide-'));
  cleanups.push(() => fs.rm(mediaDir, { recursive: true, force: true }));
  await importBundleFile(database, DEMO_BUNDLE_PATH, { mediaDir, now: new Date(now) });
  const cities = await database.db.selectFrom('city').select(['id', 'name']).execute();
  const cityIds = new Map(cities.map((c) => [c.name, c.id]));
  return { app, database, clock, cityIds };
}
