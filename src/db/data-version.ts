import { sql, type Kysely } from 'kysely';
import type { DB } from './types.ts';

/**
 * The data version: one counter that every change of public data moves, in the same transaction as the change (the
 * import, and the admin writes to come). Every instance polls it (src/http/data-version.ts) and keys its cached answers
 * by it, so new data reaches every instance's public answers within a second; the streamed city list pins it.
 */

export async function readDataVersion(db: Kysely<DB>): Promise<number> {
  const row = await db.selectFrom('data_version').select('version').where('id', '=', 1).executeTakeFirst();
  return Number(row?.version ?? 0);
}

/** Moves the version (in `db`'s transaction when it is one) and answers the new one. */
export async function bumpDataVersion(db: Kysely<DB>, now: Date): Promise<number> {
  const { rows } = await sql<{ version: number }>`
    UPDATE data_version SET version = version + 1, changed_at = ${now.toISOString()} WHERE id = 1 RETURNING version
  `.execute(db);
  return Number(rows[0].version);
}
