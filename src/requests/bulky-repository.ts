import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.ts';

/** Bulky-waste pickup days (migration 0022) and the bookings they hold: SQL only. */

export interface PickupDayRow {
  day: string;
  capacity: number;
  booked: number;
}

/** A city's pickup days from `from` to `to` (both included), by day; those with no capacity only when asked. */
export async function pickupDays(
  db: Kysely<DB>,
  cityId: string,
  from: string,
  to: string,
  options: { closed: boolean },
): Promise<PickupDayRow[]> {
  return db
    .selectFrom('bulky_pickup_day')
    .select([sql<string>`day::text`.as('day'), 'capacity', 'booked'])
    .where('city_id', '=', cityId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .$if(!options.closed, (q) => q.where('capacity', '>', 0))
    .orderBy('day')
    .execute();
}

export async function pickupDay(db: Kysely<DB>, cityId: string, day: string, options: { forUpdate?: boolean } = {}) {
  return db
    .selectFrom('bulky_pickup_day')
    .select([sql<string>`day::text`.as('day'), 'capacity', 'booked'])
    .where('city_id', '=', cityId)
    .where('day', '=', day)
    .$if(options.forUpdate === true, (q) => q.forUpdate())
    .executeTakeFirst();
}

/**
 * Sets the capacity of a city's days, each at most once: the days below what they hold are answered instead (nothing
 * written then). The rows are locked first, so that no booking slips in between the check and the write.
 */
export async function setCapacities(
  trx: Kysely<DB>,
  cityId: string,
  days: readonly string[],
  capacity: number,
  now: Date,
): Promise<{ overbooked: PickupDayRow[]; before: PickupDayRow[] }> {
  if (days.length === 0) return { overbooked: [], before: [] };
  const before = await trx
    .selectFrom('bulky_pickup_day')
    .select([sql<string>`day::text`.as('day'), 'capacity', 'booked'])
    .where('city_id', '=', cityId)
    .where('day', 'in', [...days])
    .orderBy('day')
    .forUpdate()
    .execute();
  const overbooked = before.filter((row) => row.booked > capacity);
  if (overbooked.length > 0) return { overbooked, before };
  await trx
    .insertInto('bulky_pickup_day')
    .values(days.map((day) => ({ city_id: cityId, day, capacity, updated_at: now })))
    .onConflict((oc) => oc.columns(['city_id', 'day']).doUpdateSet({ capacity, updated_at: now }))
    .execute();
  return { overbooked: [], before };
}

/** Takes one place of a day with room; false when it has none (full, closed, or no such day). */
export async function takePlace(trx: Kysely<DB>, cityId: string, day: string): Promise<boolean> {
  const taken = await trx
    .updateTable('bulky_pickup_day')
    .set({ booked: sql`booked + 1` })
    .where('city_id', '=', cityId)
    .where('day', '=', day)
    .where(sql<boolean>`booked < capacity`)
    .returning('booked')
    .executeTakeFirst();
  return taken !== undefined;
}

/** Gives a place back (a booking cancelled or rejected). */
export async function freePlace(trx: Kysely<DB>, cityId: string, day: string): Promise<void> {
  await trx
    .updateTable('bulky_pickup_day')
    .set({ booked: sql`booked - 1` })
    .where('city_id', '=', cityId)
    .where('day', '=', day)
    .where('booked', '>', 0)
    .execute();
}

export interface BookingRow {
  id: string;
  reference: string;
  day: string;
  status: string;
  address: string | null;
  attributes: Record<string, unknown>;
  place_name: string | null;
  created_at: Date;
}

/** The bookings of a city's days (`PLANIFIEE`: those standing), by day, then by address. */
export async function bookingsOf(db: Kysely<DB>, cityId: string, from: string, to: string, bulkyCode: string): Promise<BookingRow[]> {
  return db
    .selectFrom('resident_request as r')
    .innerJoin('request_type as t', 't.id', 'r.type_id')
    .leftJoin('collection_place as p', 'p.id', 'r.place_id')
    .select([
      'r.id',
      'r.reference',
      sql<string>`r.planned_for::text`.as('day'),
      'r.status',
      'r.address',
      'r.attributes',
      'p.name as place_name',
      'r.created_at',
    ])
    .where('r.city_id', '=', cityId)
    .where('t.code', '=', bulkyCode)
    .where('r.status', '=', 'PLANIFIEE')
    .where('r.planned_for', '>=', from)
    .where('r.planned_for', '<=', to)
    .orderBy('r.planned_for')
    .orderBy('r.address')
    .orderBy('r.id')
    .execute();
}

/** The standing bookings with an address to write to, of days `from` to `to`, that have not had their evening-before message. */
export async function bookingsWithoutEve(db: Kysely<DB>, from: string, to: string, bulkyCode: string, limit: number) {
  return db
    .selectFrom('resident_request as r')
    .innerJoin('request_type as t', 't.id', 'r.type_id')
    .innerJoin('city as c', 'c.id', 'r.city_id')
    .select(['r.id', sql<string>`r.planned_for::text`.as('day'), 'c.time_zone'])
    .where('t.code', '=', bulkyCode)
    .where('r.status', '=', 'PLANIFIEE')
    .where('r.planned_for', '>=', from)
    .where('r.planned_for', '<=', to)
    .where('r.email', 'is not', null)
    .where('r.mail_stopped_at', 'is', null)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('request_mail as m').select('m.id').whereRef('m.request_id', '=', 'r.id').where('m.kind', '=', 'PICKUP_EVE'))))
    .limit(limit)
    .execute();
}

/** Owes a booking its evening-before message (once: a unique index). */
export async function enqueueEveMail(db: Kysely<DB>, values: { id: string; requestId: string; now: Date }): Promise<void> {
  await db
    .insertInto('request_mail')
    .values({ id: values.id, request_id: values.requestId, update_id: null, kind: 'PICKUP_EVE', status: 'PENDING', next_attempt_at: values.now, created_at: values.now })
    .onConflict((oc) => oc.doNothing())
    .execute();
}
