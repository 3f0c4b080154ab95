import { sql, type Kysely, type Selectable } from 'kysely';
import { findPlaceOwner, type PlaceOwner } from '../domain/cities.ts';
import type { CollectionExceptionTable, DB } from '../db/types.ts';
import { childRecords } from '../db/child-records.ts';
import { pageWindow, type PageRequest } from '../kernel/pagination.ts';
import type { PlaceSchedule } from '../domain/collection-calendar.ts';
import { loadSchedule, schedulesOf } from '../domain/schedules.ts';

export interface PlaceCalendarData {
  city: { id: string; name: string; timeZone: string };
  place: { id: string; name: string };
  schedule: PlaceSchedule;
  /** When public data last changed (data_version), for the iCalendar DTSTAMP. */
  dataChangedAt: Date;
}

export type PlaceCalendarLookup =
  | { found: 'city-missing' }
  | { found: 'place-missing' }
  | { found: 'place'; data: PlaceCalendarData };

/**
 * Loads what the calendar engine needs for one place of an ACTIF city in two round trips whatever the data: the
 * city, the data version and the place (checked to be the city's), then the schedule (src/domain/schedules.ts).
 */
export async function loadPlaceCalendar(db: Kysely<DB>, cityId: string, placeId: string): Promise<PlaceCalendarLookup> {
  const [city, version, place] = await Promise.all([
    db
      .selectFrom('city')
      .select(['id', 'name', 'time_zone', 'city_group_id', 'holiday_calendar'])
      .where('id', '=', cityId)
      .where('status', '=', 'ACTIF')
      .executeTakeFirst(),
    db.selectFrom('data_version').select('changed_at').where('id', '=', 1).executeTakeFirst(),
    db.selectFrom('collection_place').select(['id', 'name']).where('id', '=', placeId).where('city_id', '=', cityId).executeTakeFirst(),
  ]);
  if (!city) return { found: 'city-missing' };
  if (!place) return { found: 'place-missing' };
  const [scheduled] = await schedulesOf(db, [{ ...place, city_id: city.id, city_group_id: city.city_group_id, time_zone: city.time_zone, holiday_calendar: city.holiday_calendar }]);
  return {
    found: 'place',
    data: {
      city: { id: city.id, name: city.name, timeZone: city.time_zone },
      place: { id: place.id, name: place.name },
      schedule: scheduled.schedule,
      // The row is created by the first migration; the epoch only stands in if someone deleted it.
      dataChangedAt: version?.changed_at ?? new Date(0),
    },
  };
}

/** A place of any city, ACTIF or not (the admin preview), with its owner and what the calendar engine needs. */
export async function loadAdminPlaceSchedule(
  db: Kysely<DB>,
  placeId: string,
): Promise<{ owner: PlaceOwner; schedule: PlaceSchedule } | undefined> {
  const place = await loadSchedule(db, placeId);
  if (!place) return undefined;
  return { owner: { placeId: place.id, cityId: place.cityId, cityGroupId: place.cityGroupId }, schedule: place.schedule };
}

// The admin API's exceptions (docs/api.md, the admin API): one place's exceptions, read and written one at a time.

export type ExceptionRow = Selectable<CollectionExceptionTable>;
/** One page of a place's exceptions by dateFrom, then id, and their total. */
export async function listPlaceExceptions(db: Kysely<DB>, placeId: string, page: PageRequest): Promise<{ rows: ExceptionRow[]; total: number }> {
  const matching = db.selectFrom('collection_exception').where('place_id', '=', placeId);
  const [{ total }] = await matching.select((eb) => eb.fn.countAll<string>().as('total')).execute();
  const window = pageWindow(page, Number(total));
  if (!window) return { rows: [], total: Number(total) };
  const rows = await matching.selectAll().orderBy('date_from').orderBy('id').limit(window.limit).offset(window.offset).execute();
  return { rows, total: Number(total) };
}

/** An exception and its place's owner, in one query; the exception alone locked until the end of the transaction with `forUpdate`. */
export async function findException(
  db: Kysely<DB>,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<{ row: ExceptionRow; owner: PlaceOwner } | undefined> {
  const found = await db
    .selectFrom('collection_exception as e')
    .innerJoin('collection_place as p', 'p.id', 'e.place_id')
    .innerJoin('city', 'city.id', 'p.city_id')
    .selectAll('e')
    .select(['city.id as owner_city_id', 'city.city_group_id as owner_city_group_id'])
    .where('e.id', '=', id)
    .$if(options.forUpdate === true, (qb) => qb.forUpdate('e'))
    .executeTakeFirst();
  if (!found) return undefined;
  const { owner_city_id: cityId, owner_city_group_id: cityGroupId, ...row } = found;
  return { row, owner: { placeId: row.place_id, cityId, cityGroupId } };
}

/** What a place's exceptions are checked against: its city's waste types (those they may name) and time zone. */
export async function placeCity(db: Kysely<DB>, placeId: string): Promise<{ wasteTypeIds: Set<string>; timeZone: string | null }> {
  const city = db.selectFrom('collection_place').select('city_id').where('id', '=', placeId);
  const [rows, zone] = await Promise.all([
    db.selectFrom('waste_type').select('id').where('city_id', '=', city).execute(),
    db.selectFrom('city').select('time_zone').where('id', '=', city).executeTakeFirst(),
  ]);
  return { wasteTypeIds: new Set(rows.map((row) => row.id)), timeZone: zone?.time_zone ?? null };
}

export const { insert: insertException, update: updateException, remove: deleteException } =
  childRecords('collection_exception', 'place_id', findPlaceOwner);


/** An occurrence of a place's feed: the day it was planned for (its key), and where and how it is published now. */
export interface PublishedOccurrence {
  wasteTypeId: string;
  plannedDate: string;
  date: string;
  status: string;
}

const sequenceKey = (o: { wasteTypeId: string; plannedDate: string }) => `${o.wasteTypeId}|${o.plannedDate}`;

/**
 * The iCalendar SEQUENCE of each occurrence, by `wasteTypeId|plannedDate`: 0 for one that never left its planned day
 * and status; each change of day or status since it was last published adds one. What was published is kept per
 * place and occurrence (`calendar_sequence`) for the occurrences that ever changed; a change is written with one
 * statement whose conflict clause adds one only when the stored state differs, so two instances publishing the same
 * change count it once.
 */
export async function publishSequences(db: Kysely<DB>, placeId: string, occurrences: readonly PublishedOccurrence[]): Promise<Map<string, number>> {
  const sequences = new Map<string, number>();
  if (occurrences.length === 0) return sequences;
  const earliest = occurrences.reduce((min, o) => (o.plannedDate < min ? o.plannedDate : min), occurrences[0].plannedDate);
  const stored = await db
    .selectFrom('calendar_sequence')
    .select(['waste_type_id', 'planned_date', 'date', 'status', 'sequence'])
    .where('place_id', '=', placeId)
    .where('planned_date', '>=', earliest)
    .execute();
  const byKey = new Map(stored.map((row) => [sequenceKey({ wasteTypeId: row.waste_type_id, plannedDate: row.planned_date }), row]));
  const changed: { place_id: string; waste_type_id: string; planned_date: string; date: string; status: string; sequence: number }[] = [];
  for (const o of occurrences) {
    const key = sequenceKey(o);
    const row = byKey.get(key);
    let sequence: number;
    if (!row) sequence = o.status === 'PLANNED' && o.date === o.plannedDate ? 0 : 1;
    else sequence = row.date === o.date && row.status === o.status ? row.sequence : row.sequence + 1;
    sequences.set(key, sequence);
    if (sequence > (row?.sequence ?? 0)) {
      changed.push({ place_id: placeId, waste_type_id: o.wasteTypeId, planned_date: o.plannedDate, date: o.date, status: o.status, sequence });
    }
  }
  if (changed.length > 0) {
    await db
      .insertInto('calendar_sequence')
      .values(changed)
      .onConflict((oc) =>
        oc
          .columns(['place_id', 'waste_type_id', 'planned_date'])
          .doUpdateSet((eb) => ({
            date: eb.ref('excluded.date'),
            status: eb.ref('excluded.status'),
            sequence: sql<number>`calendar_sequence.sequence + 1`,
          }))
          .where((eb) => eb.or([eb('calendar_sequence.date', '<>', eb.ref('excluded.date')), eb('calendar_sequence.status', '<>', eb.ref('excluded.status'))])),
      )
      .execute();
  }
  return sequences;
}

// The preview of a city group's holidays (docs/api.md, exceptions and holiday rules): the group and what each of its
// cities says of its calendar.

export interface GroupCalendarCity {
  id: string;
  name: string;
  timeZone: string;
  holidayCalendar: string;
}

/** A city group's id and its cities (ACTIF or not) with their time zone and holiday calendar; undefined for an unknown group. */
export async function loadGroupCalendarCities(db: Kysely<DB>, cityGroupId: string): Promise<{ id: string; cities: GroupCalendarCity[] } | undefined> {
  const [group, cities] = await Promise.all([
    db.selectFrom('city_group').select('id').where('id', '=', cityGroupId).executeTakeFirst(),
    db
      .selectFrom('city')
      .select(['id', 'name', 'time_zone', 'holiday_calendar'])
      .where('city_group_id', '=', cityGroupId)
      .orderBy('id')
      .execute(),
  ]);
  if (!group) return undefined;
  return { id: group.id, cities: cities.map((c) => ({ id: c.id, name: c.name, timeZone: c.time_zone, holidayCalendar: c.holiday_calendar })) };
}
