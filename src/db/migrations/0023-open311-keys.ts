import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

/**
 * Open311 API keys (docs/api.md, Open311): a super admin gives one to a city group's partner (FixMyStreet, a CRM
 * connector), and the partner files requests with it. Only the key's SHA-256 is kept (`key_hash`, hex): the key itself
 * is shown once, in the answer that creates it, and a stolen database gives nobody a key. A 32-byte random key needs no
 * salt nor slow hash: nothing can be guessed from its digest. Revoking deletes the row (the audit log keeps it); a
 * key goes with its group. `last_used_at` is moved at most once a minute per key, so that a partner's burst writes
 * it once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    CREATE TABLE open311_key (
      id uuid PRIMARY KEY,
      city_group_id uuid NOT NULL REFERENCES city_group (id) ON DELETE CASCADE,
      name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 120),
      key_hash text NOT NULL UNIQUE CHECK (key_hash ~ '^[0-9a-f]{64}$'),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      last_used_at timestamptz
    );
    CREATE INDEX open311_key_group_idx ON open311_key (city_group_id)
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runStatements(db, 'DROP TABLE IF EXISTS open311_key');
}
