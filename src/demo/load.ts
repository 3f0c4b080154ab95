import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { DB } from '../db/types.ts';

/** Loads the demo bundle when the database holds no city group and no city yet. */
export async function loadDemoDataIfEmpty(db: Kysely<DB>, _config: Config, logger: Logger): Promise<void> {
  const row = await db.selectFrom('city').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  if (Number(row.n) > 0) return;
  logger.warn('demo data set not available yet');
}
