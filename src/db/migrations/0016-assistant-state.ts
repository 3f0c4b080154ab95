import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

/**
 * The built-in assistant's state of a conversation, kept as data (never read back from its own French
 * replies): the question waiting for a place, and the last question's kind and slots for a follow-up.
 *
 * And what citizens ask the assistant, counted per day, city, topic (a question kind) and, for the questions it could
 * not answer, their normalised words: nothing that identifies a citizen (no conversation, device or time finer than
 * the day). No foreign key to the city, as for the search counts: the counts are the city's history.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    ALTER TABLE conversation ADD COLUMN assistant_state jsonb;
    CREATE TABLE chat_count (
      day date NOT NULL,
      city_id uuid NOT NULL,
      topic text NOT NULL CHECK (char_length(topic) BETWEEN 1 AND 60),
      question text NOT NULL DEFAULT '' CHECK (char_length(question) <= 100),
      count integer NOT NULL CHECK (count >= 1),
      PRIMARY KEY (day, city_id, topic, question)
    );
    CREATE INDEX chat_count_city_day_idx ON chat_count (city_id, day)
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runStatements(db, `DROP TABLE IF EXISTS chat_count; ALTER TABLE conversation DROP COLUMN IF EXISTS assistant_state`);
}
