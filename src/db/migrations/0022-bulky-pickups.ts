import { sql, type Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';
import { SEED_FUNCTION } from './0020-resident-requests.ts';

/**
 * Bulky-waste pickups by appointment (docs/api.md, bulky-waste pickups):
 *
 * - `bulky_pickup_day`: a city's pickup day with its capacity and the bookings it holds. `booked` moves with each
 *   booking and cancellation, in the same transaction, by a conditional update (`booked < capacity`): however many
 *   bookings arrive at once on however many instances, a day never holds more than its capacity. A capacity is never
 *   set below what is booked (the CHECK says so too).
 * - `request_mail` learns the evening-before message of a booking (`PICKUP_EVE`), once per request.
 * - The `encombrants` type of the default catalogue no longer requires a place: a booking is made for an address
 *   (docs/api.md, Bulky-waste pickups), the place found from it when it can be.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    CREATE TABLE bulky_pickup_day (
      city_id uuid NOT NULL REFERENCES city (id) ON DELETE CASCADE,
      day date NOT NULL,
      capacity integer NOT NULL CHECK (capacity >= 0 AND capacity <= 10000),
      booked integer NOT NULL DEFAULT 0 CHECK (booked >= 0 AND booked <= capacity),
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (city_id, day)
    );
    ALTER TABLE request_mail DROP CONSTRAINT request_mail_kind_check;
    ALTER TABLE request_mail ADD CONSTRAINT request_mail_kind_check CHECK (kind IN ('RECEIPT', 'UPDATE', 'PICKUP_EVE'));
    CREATE UNIQUE INDEX request_mail_pickup_eve_idx ON request_mail (request_id) WHERE kind = 'PICKUP_EVE';
    UPDATE request_type SET place = 'OPTIONAL' WHERE code = 'encombrants' AND place = 'REQUIRED'
  `);
  // The catalogue new groups get, with its bulky-pickup type asking no place.
  const bulkyLine = `'ENCOMBRANTS',\n     'REQUIRED',`;
  if (!SEED_FUNCTION.includes(bulkyLine)) throw new Error('migration 0022: the catalogue of 0020 changed');
  await sql
    .raw(SEED_FUNCTION.replace('CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION').replace(bulkyLine, `'ENCOMBRANTS',\n     'OPTIONAL',`))
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runStatements(db, `
    DROP TABLE bulky_pickup_day;
    DROP INDEX request_mail_pickup_eve_idx;
    DELETE FROM request_mail WHERE kind = 'PICKUP_EVE';
    ALTER TABLE request_mail DROP CONSTRAINT request_mail_kind_check;
    ALTER TABLE request_mail ADD CONSTRAINT request_mail_kind_check CHECK (kind IN ('RECEIPT', 'UPDATE'))
  `);
}
