import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { recordAudit } from '../admin/audit.ts';
import { reachableRecord, type AdminAgent } from '../admin/agent.ts';
import { assertNoFault } from '../admin/store.ts';
import { findActiveCity, type ActiveCity } from '../domain/cities.ts';
import type { RecordFault } from '../domain/rules/faults.ts';
import {
  dayInTimeZone,
  formatDayNumber,
  FRENCH_WEEKDAYS,
  isoWeekdayIndex,
  parseCalendarDate,
  resolveTimeZone,
  wallClockInstant,
  type DayNumber,
} from '../kernel/dates.ts';
import { errors } from '../kernel/errors.ts';
import { requestMessages } from '../kernel/validation-messages.ts';
import * as bulky from './bulky-repository.ts';
import * as repo from './repository.ts';

/**
 * Bulky-waste pickups by appointment (docs/api.md, bulky-waste pickups): a city's pickup days with their capacity, a
 * booking as a request of type `encombrants` that never passes a day's capacity, its cancellation until noon the day
 * before, and the staff's side (capacities one day or many at once, the bookings of each day for the crew).
 */

export const BULKY_PICKUP = 'encombrants';
/** A day closes to bookings and cancellations at this hour the day before, city time. */
const CLOSING_HOUR = 12;
/** Longest range of days one listing or one bulk change covers. */
export const MAX_RANGE_DAYS = 366;

/** The first day a booking can be made for at `now`: tomorrow until noon, the day after from noon. */
export function firstBookableDay(now: Date, timeZone: string): DayNumber {
  const today = dayInTimeZone(now, timeZone);
  return now.getTime() < wallClockInstant(today, CLOSING_HOUR, 0, timeZone).getTime() ? today + 1 : today + 2;
}

/** When a booking of `day` can no longer be made or cancelled: noon the day before, city time. */
const closingOf = (day: DayNumber, timeZone: string) => wallClockInstant(day - 1, CLOSING_HOUR, 0, timeZone);

/** A range of days `from`..`to` (both `YYYY-MM-DD`, both included), checked: 400 naming `to` when it is wrong. */
function dayRange(from: DayNumber, to: DayNumber): { from: string; to: string } {
  if (to < from) throw errors.invalidField('to', requestMessages.rangeBackwards);
  if (to - from + 1 > MAX_RANGE_DAYS) throw errors.invalidField('to', requestMessages.rangeTooLong(MAX_RANGE_DAYS));
  return { from: formatDayNumber(from), to: formatDayNumber(to) };
}

async function activeCity(db: Kysely<DB>, cityId: string): Promise<ActiveCity> {
  const city = await findActiveCity(db, cityId.toLowerCase());
  if (!city) throw errors.cityNotFound();
  return city;
}

// ---------------------------------------------------------------- residents

export interface OpenPickupDay {
  date: string;
  capacity: number;
  remaining: number;
}

/**
 * The days a resident may book (`GET /public/cities/:cityId/bulky-pickups`): those with a capacity, from the first one
 * still open (tomorrow until noon) or `from` if later, to `to` (by default 90 days on). Full days are listed with
 * `remaining` 0, so that a calendar shows them taken.
 */
export async function openPickupDays(db: Kysely<DB>, cityId: string, query: { from?: string; to?: string }, now: Date): Promise<OpenPickupDay[]> {
  const city = await activeCity(db, cityId);
  const first = firstBookableDay(now, resolveTimeZone(city.timeZone));
  const asked = query.from === undefined ? first : parseCalendarDate(query.from)!;
  const from = Math.max(first, asked);
  const to = query.to === undefined ? asked + 90 : parseCalendarDate(query.to)!;
  if (to < from) return [];
  const range = dayRange(from, to);
  const rows = await bulky.pickupDays(db, city.id, range.from, range.to, { closed: false });
  return rows.map((row) => ({ date: row.day, capacity: row.capacity, remaining: Math.max(0, row.capacity - row.booked) }));
}

/**
 * A booking's own rules, beyond its type's requirements (docs/api.md): an address and an e-mail, and `slotDate` a day
 * of the city still open with room (400 naming the field; a full day: 409). Answers the day.
 */
export async function bookingDay(
  db: Kysely<DB>,
  city: ActiveCity,
  typeName: string,
  values: { address: string | null; email: string | null; attributes: Record<string, unknown> },
  now: Date,
): Promise<string> {
  const faults: RecordFault[] = [];
  if (values.address === null) faults.push({ path: 'address', message: requestMessages.required(typeName) });
  if (values.email === null) faults.push({ path: 'email', message: requestMessages.required(typeName) });
  const slotDate = values.attributes.slotDate;
  if (typeof slotDate !== 'string') faults.push({ path: 'attributes.slotDate', message: requestMessages.required(typeName) });
  assertNoFault(faults);
  const day = parseCalendarDate(slotDate as string);
  if (day === null) throw errors.invalidField('attributes.slotDate', requestMessages.notADay);
  if (day < firstBookableDay(now, resolveTimeZone(city.timeZone))) {
    throw errors.invalidField('attributes.slotDate', requestMessages.bulkyDayClosed);
  }
  const row = await bulky.pickupDay(db, city.id, slotDate as string);
  if (!row || row.capacity === 0) throw errors.invalidField('attributes.slotDate', requestMessages.noBulkyPickupDay);
  // Full already: no need to try (the transaction decides for the bookings that race for the last places).
  if (row.booked >= row.capacity) throw errors.bulkyDayFull();
  return slotDate as string;
}

/**
 * Files a booking in one transaction: a place of its day taken first (the day's row, locked by the update, orders the
 * bookings that race for it: a day with no place left answers 409 and writes nothing), then the request `PLANIFIEE` for
 * that day, its follower, photos, history and receipt.
 */
export async function fileBooking(
  db: Kysely<DB>,
  values: Omit<repo.NewRequest, 'reference' | 'status' | 'planned_for'>,
  booking: { day: string; year: number; photoIds: readonly string[] },
): Promise<void> {
  const { day, year, photoIds } = booking;
  await db.transaction().execute(async (trx) => {
    if (!(await bulky.takePlace(trx, values.city_id, day))) throw errors.bulkyDayFull();
    const number = await repo.nextReferenceNumber(trx, values.city_group_id, year);
    const reference = `${year}-${String(number).padStart(6, '0')}`;
    await repo.insertRequest(trx, { ...values, reference, status: 'PLANIFIEE', planned_for: day });
    await repo.addFollower(trx, values.id, values.device_id, values.created_at as Date);
    const taken = await repo.attachPhotos(trx, values.id, photoIds);
    if (taken < photoIds.length) throw errors.invalidField('photoIds', requestMessages.notAPhoto(photoIds.join(', ')));
    const at = values.created_at as Date;
    await repo.insertUpdate(trx, { id: randomUUID(), request_id: values.id, at, kind: 'STATUS', status: 'PLANIFIEE', message: null, author: null });
    await repo.enqueueMail(trx, { id: randomUUID(), requestId: values.id, updateId: null, now: at });
  });
}

/**
 * Cancels a booking for its resident (`POST /public/requests/:id/cancel`) until noon the day before, giving its place
 * back: 404 for a request the device does not follow, 409 for anything but a standing booking or past the deadline.
 */
export async function cancelBooking(db: Kysely<DB>, id: string, deviceId: string, now: Date): Promise<void> {
  if (!(await repo.isFollower(db, id, deviceId))) throw errors.requestNotFound();
  await db.transaction().execute(async (trx) => {
    const row = await repo.findRequest(trx, id, { forUpdate: true });
    if (!row) throw errors.requestNotFound();
    if (row.type_code !== BULKY_PICKUP) throw errors.notABooking();
    if (row.status !== 'PLANIFIEE' || row.planned_for === null) throw errors.bookingNotStanding();
    const city = await trx.selectFrom('city').select('time_zone').where('id', '=', row.city_id).executeTakeFirstOrThrow();
    if (now.getTime() >= closingOf(parseCalendarDate(row.planned_for)!, resolveTimeZone(city.time_zone)).getTime()) {
      throw errors.cancellationClosed();
    }
    await repo.updateRequest(trx, id, { status: 'ANNULEE', assigned_to: row.assigned_to, planned_for: row.planned_for, closed_at: now, updated_at: now });
    const updateId = randomUUID();
    await repo.insertUpdate(trx, { id: updateId, request_id: id, at: now, kind: 'STATUS', status: 'ANNULEE', message: null, author: null });
    await repo.enqueueMail(trx, { id: randomUUID(), requestId: id, updateId, now });
    await bulky.freePlace(trx, row.city_id, row.planned_for);
  });
}

/** A booking the staff close (`ANNULEE`, `REJETEE`) gives its day's place back; call it in the status change's transaction. */
export async function releasedByStaff(trx: Kysely<DB>, row: repo.RequestRow, status: string): Promise<void> {
  if (row.type_code !== BULKY_PICKUP || row.status !== 'PLANIFIEE' || row.planned_for === null) return;
  if (status === 'ANNULEE' || status === 'REJETEE') await bulky.freePlace(trx, row.city_id, row.planned_for);
}

// ---------------------------------------------------------------- staff

export interface AdminPickupDay {
  date: string;
  capacity: number;
  booked: number;
  remaining: number;
  bookings: { id: string; reference: string; address: string | null; items: string | null; placeName: string | null }[];
}

/** A city the agent reaches (its group's), else 404 as if missing. */
async function reachableCity(db: Kysely<DB>, agent: AdminAgent, cityId: string) {
  const row = await db.selectFrom('city').select(['id', 'city_group_id', 'time_zone']).where('id', '=', cityId.toLowerCase()).executeTakeFirst();
  return reachableRecord(agent, row, (c) => [c.city_group_id], errors.cityNotFound);
}

/** A city's pickup days from `from` to `to` (closed ones too), each with its standing bookings sorted by address. */
export async function adminPickupDays(db: Kysely<DB>, agent: AdminAgent, cityId: string, query: { from: string; to: string }): Promise<AdminPickupDay[]> {
  const city = await reachableCity(db, agent, cityId);
  return daysWithBookings(db, city.id, dayRange(parseCalendarDate(query.from)!, parseCalendarDate(query.to)!));
}

async function daysWithBookings(db: Kysely<DB>, cityId: string, range: { from: string; to: string }): Promise<AdminPickupDay[]> {
  const [days, bookings] = await Promise.all([
    bulky.pickupDays(db, cityId, range.from, range.to, { closed: true }),
    bulky.bookingsOf(db, cityId, range.from, range.to, BULKY_PICKUP),
  ]);
  const byDay = Map.groupBy(bookings, (b) => b.day);
  return days.map((row) => ({
    date: row.day,
    capacity: row.capacity,
    booked: row.booked,
    remaining: Math.max(0, row.capacity - row.booked),
    bookings: (byDay.get(row.day) ?? []).map((b) => ({
      id: b.id,
      reference: b.reference,
      address: b.address,
      items: typeof b.attributes.items === 'string' ? b.attributes.items : null,
      placeName: b.place_name,
    })),
  }));
}

/**
 * Sets one day's capacity, or the capacity of the days `from`..`to` that fall on `weekdays` (French names), in one
 * transaction, audited: a day would hold fewer places than it has bookings → 409 naming it, and nothing changes.
 * Answers the days as they now are.
 */
export async function setPickupCapacity(
  db: Kysely<DB>,
  agent: AdminAgent,
  cityId: string,
  change: { days: { date: string } | { from: string; to: string; weekdays: readonly string[] }; capacity: number },
  now: Date,
): Promise<AdminPickupDay[]> {
  const city = await reachableCity(db, agent, cityId);
  let days: string[];
  let range: { from: string; to: string };
  if ('date' in change.days) {
    range = { from: change.days.date, to: change.days.date };
    days = [change.days.date];
  } else {
    const from = parseCalendarDate(change.days.from)!;
    const to = parseCalendarDate(change.days.to)!;
    range = dayRange(from, to);
    const wanted = new Set(change.days.weekdays.map((name) => FRENCH_WEEKDAYS.indexOf(name.toLowerCase() as (typeof FRENCH_WEEKDAYS)[number])));
    days = [];
    for (let day = from; day <= to; day++) if (wanted.has(isoWeekdayIndex(day))) days.push(formatDayNumber(day));
  }
  await db.transaction().execute(async (trx) => {
    const { overbooked, before } = await bulky.setCapacities(trx, city.id, days, change.capacity, now);
    if (overbooked.length > 0) throw errors.pickupDayOverbooked(overbooked[0].day, overbooked[0].booked);
    const was = new Map(before.map((row) => [row.day, row.capacity]));
    await recordAudit(
      trx,
      agent,
      {
        action: 'update',
        // The city's pickup calendar, named by the city: which days had which capacity, and what they now have.
        entity: 'bulkyPickupDays',
        entityId: city.id,
        cityGroupIds: [city.city_group_id],
        before: { capacities: Object.fromEntries(days.filter((d) => was.has(d)).map((d) => [d, was.get(d)])) },
        after: { capacity: change.capacity, days },
      },
      now,
    );
  });
  return daysWithBookings(db, city.id, range);
}
