import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

/**
 * What citizens search in the sorting guide (docs/api.md, what citizens search), counted per day, city and normalised query, and
 * nothing else: no IP, no device id, no time finer than the day (the city's own), so that no row can be traced back
 * to a citizen. `found` says whether the latest search of that query found anything.
 *
 * No foreign key to the city: a re-import replaces a city's rows, and its counts are the city's history, not its data.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    CREATE TABLE search_count (
      day date NOT NULL,
      city_id uuid NOT NULL,
      query text NOT NULL CHECK (char_length(query) BETWEEN 1 AND 100),
      found boolean NOT NULL,
      count integer NOT NULL CHECK (count >= 1),
      PRIMARY KEY (day, city_id, query)
    );
    CREATE INDEX search_count_city_day_idx ON search_count (city_id, day)
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runStatements(db, `DROP TABLE IF EXISTS search_count`);
}
