import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

/**
 * A city group's frequently asked questions (docs/api.md, frequently asked questions): what residents ask the
 * service again and again, answered once, in the order the group chose. They belong to the group and go with it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    CREATE TABLE faq (
      id uuid PRIMARY KEY,
      city_group_id uuid NOT NULL REFERENCES city_group(id) ON DELETE CASCADE,
      question text NOT NULL CHECK (char_length(question) BETWEEN 1 AND 300),
      answer text NOT NULL CHECK (char_length(answer) BETWEEN 1 AND 3000),
      position integer NOT NULL DEFAULT 0 CHECK (position BETWEEN 0 AND 9999),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX faq_group_idx ON faq (city_group_id, position)
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runStatements(db, 'DROP TABLE IF EXISTS faq');
}
