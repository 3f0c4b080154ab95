import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

/**
 * The console's canned replies: short answers a city group's agents reuse in the chat inbox. They belong to
 * the group and go with it; they are not public data (no data_version bump), but every write is audited.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    CREATE TABLE canned_reply (
      id uuid PRIMARY KEY,
      city_group_id uuid NOT NULL REFERENCES city_group(id) ON DELETE CASCADE,
      title text NOT NULL,
      content text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX canned_reply_group_idx ON canned_reply (city_group_id, title)
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runStatements(db, `DROP TABLE IF EXISTS canned_reply`);
}
