import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';

/** The demo data set (built by `npm run demo:build`), shipped with the code. */
export const DEMO_BUNDLE_PATH = path.resolve(import.meta.dirname, '..', '..', 'demo', 'bundle.json');

/**
 * Loads the demo bundle when the database holds no city yet, so that `npm start` on a fresh clone
 * serves real communes. A database that already has cities (demo or real) is left alone.
 * Answers the number of cities loaded (0 when nothing was done).
 */
export async function loadDemoDataIfEmpty(
  database: Database,
  config: Config,
  logger: Logger,
  bundlePath: string = DEMO_BUNDLE_PATH,
): Promise<number> {
  const row = await database.db
    .selectFrom('city')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(row.n) > 0) return 0;
  // Loaded only here: the import (validation, MDX compiler) costs start-up time that a filled database never needs.
  const { importBundleFile } = await import('../bundle/import.ts');
  const summary = await importBundleFile(database, bundlePath, { mediaDir: config.mediaDir, now: new Date() });
  logger.info(
    { cities: summary.counts.cities, cityGroups: summary.counts.cityGroups, bundle: bundlePath },
    `demo data loaded: ${summary.counts.cities} cities in ${summary.counts.cityGroups} groups`,
  );
  return summary.counts.cities;
}
