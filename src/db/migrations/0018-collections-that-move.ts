import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

/**
 * Collections that move: an exception cancels (as before), moves a collection to `moved_to`, or adds one; a city
 * follows the national holidays or Alsace-Moselle's; a city group has holiday rules, per holiday and waste type (a
 * null waste type for every one), one per holiday and waste type. `calendar_sequence` remembers, per occurrence of the
 * iCalendar feed that ever left its planned day or status, where it was last published and its SEQUENCE, so that a
 * calendar client sees each change as newer.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    ALTER TABLE collection_exception
      ADD COLUMN kind text NOT NULL DEFAULT 'CANCEL' CHECK (kind IN ('CANCEL', 'MOVE', 'ADD')),
      ADD COLUMN moved_to timestamptz,
      ADD CONSTRAINT collection_exception_moved_to_check CHECK ((kind = 'MOVE') = (moved_to IS NOT NULL));
    ALTER TABLE city ADD COLUMN holiday_calendar text NOT NULL DEFAULT 'FR' CHECK (holiday_calendar IN ('FR', 'FR-ALSACE-MOSELLE'));
    CREATE TABLE holiday_rule (
      city_group_id uuid NOT NULL REFERENCES city_group(id) ON DELETE CASCADE,
      position integer NOT NULL,
      holiday text NOT NULL,
      waste_type_id uuid REFERENCES waste_type(id) ON DELETE CASCADE,
      action text NOT NULL CHECK (action IN ('KEEP', 'CANCEL', 'NEXT_DAY', 'PREVIOUS_DAY', 'SHIFT_WEEK')),
      PRIMARY KEY (city_group_id, position)
    );
    CREATE UNIQUE INDEX holiday_rule_target_idx ON holiday_rule (city_group_id, holiday, COALESCE(waste_type_id::text, ''));
    CREATE INDEX holiday_rule_waste_type_idx ON holiday_rule (waste_type_id) WHERE waste_type_id IS NOT NULL;
    CREATE TABLE calendar_sequence (
      place_id uuid NOT NULL REFERENCES collection_place(id) ON DELETE CASCADE,
      waste_type_id uuid NOT NULL,
      planned_date text NOT NULL,
      date text NOT NULL,
      status text NOT NULL,
      sequence integer NOT NULL,
      PRIMARY KEY (place_id, waste_type_id, planned_date)
    )
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    DROP TABLE calendar_sequence;
    DROP TABLE holiday_rule;
    ALTER TABLE city DROP COLUMN holiday_calendar;
    DELETE FROM collection_exception WHERE kind <> 'CANCEL';
    ALTER TABLE collection_exception DROP COLUMN moved_to, DROP COLUMN kind
  `);
}
