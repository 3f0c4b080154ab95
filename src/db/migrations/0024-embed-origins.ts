import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

/**
 * The origins that may frame a city group's widgets (docs/widgets.md): the communes' websites, each an `https://`
 * origin as the admin API normalises it (`https://www.plouzane.fr`, no path, no trailing slash). The embed pages'
 * `frame-ancestors` is `'self'` plus this list; an empty list lets no other site frame them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    ALTER TABLE city_group ADD COLUMN embed_origins text[] NOT NULL DEFAULT '{}'
      CHECK (cardinality(embed_origins) <= 100)
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runStatements(db, 'ALTER TABLE city_group DROP COLUMN IF EXISTS embed_origins');
}
