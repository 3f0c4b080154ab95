import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

/**
 * How a counted search reads to the city's staff: `query` is folded for counting (« capsule de cafe »), which the
 * analytics cannot show back as citizens wrote it. `shown` keeps the latest words as typed (lower case, accents kept,
 * one space between words: « capsule de café »), still nothing that identifies the citizen. Null for the rows counted
 * before it existed, which the analytics then show folded.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    ALTER TABLE search_count ADD COLUMN shown text CHECK (char_length(shown) BETWEEN 1 AND 100)
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runStatements(db, 'ALTER TABLE search_count DROP COLUMN IF EXISTS shown');
}
