import type { Kysely, Selectable } from 'kysely';
import { findPlaceOwner, type PlaceOwner } from '../domain/cities.ts';
import type { CollectionExceptionTable, DB } from '../db/types.ts';
import { childRecords } from '../db/child-records.ts';
import { pageWindow, type PageRequest } from '../kernel/pagination.ts';
import type { PlaceSchedule } from '../domain/collection-calendar.ts';

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
 * Loads what the calendar engine needs for one place of an ACTIF city, in six small queries whatever the data,
 * two round trips: the city and the data version, then the place (checked to be the city's), its days,
 * its exceptions and the city's waste types.
 */
export async function loadPlaceCalendar(db: Kysely<DB>, cityId: string, placeId: string): Promise<PlaceCalendarLookup> {
  const [city, version] = await Promise.all([
    db
      .selectFrom('city')
      .select(['id', 'name', 'time_zone'])
      .where('id', '=', cityId)
      .where('status', '=', 'ACTIF')
      .executeTakeFirst(),
    db.selectFrom('data_version').select('changed_at').where('id', '=', 1).executeTakeFirst(),
  ]);
  if (!city) return { found: 'city-missing' };

  const [place, schedule] = await Promise.all([
    db
      .selectFrom('collection_place')
      .select(['id', 'name'])
      .where('id', '=', placeId)
      .where('city_id', '=', cityId)
      .executeTakeFirst(),
    loadSchedule(db, placeId, cityId, city.time_zone),
  ]);
  if (!place) return { found: 'place-missing' };

  return {
    found: 'place',
    data: {
      city: { id: city.id, name: city.name, timeZone: city.time_zone },
      place: { id: place.id, name: place.name },
      schedule,
      // The row is created by the first migration; the epoch only stands in if someone deleted it.
      dataChangedAt: version?.changed_at ?? new Date(0),
    },
  };
}

/** A place's days and exceptions and its city's waste types, as the calendar engine takes them (three queries at once). */
async function loadSchedule(db: Kysely<DB>, placeId: string, cityId: string, timeZone: string): Promise<PlaceSchedule> {
  const [days, exceptions, wasteTypes] = await Promise.all([
    db
      .selectFrom('collection_day')
      .select(['name', 'waste_type_id', 'biweekly', 'start_date'])
      .where('place_id', '=', placeId)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('collection_exception')
      .select(['date_from', 'date_to', 'waste_type_id', 'name', 'description'])
      .where('place_id', '=', placeId)
      .orderBy('date_from')
      .orderBy('id')
      .execute(),
    db.selectFrom('waste_type').select(['id', 'name', 'color']).where('city_id', '=', cityId).execute(),
  ]);
  return {
    timeZone,
    days: days.map((d) => ({ name: d.name, wasteTypeId: d.waste_type_id, biweekly: d.biweekly, startDate: d.start_date })),
    exceptions: exceptions.map((e) => ({
      dateFrom: e.date_from,
      dateTo: e.date_to,
      wasteTypeId: e.waste_type_id,
      name: e.name,
      description: e.description,
    })),
    wasteTypes: wasteTypes.map((w) => ({ id: w.id, name: w.name, color: w.color })),
  };
}

/** A place of any city, ACTIF or not (the admin preview), with its owner and what the calendar engine needs. */
export async function loadAdminPlaceSchedule(
  db: Kysely<DB>,
  placeId: string,
): Promise<{ owner: PlaceOwner; schedule: PlaceSchedule } | undefined> {
  const place = await db
    .selectFrom('collection_place')
    .innerJoin('city', 'city.id', 'collection_place.city_id')
    .select(['collection_place.id as placeId', 'city.id as cityId', 'city.city_group_id as cityGroupId', 'city.time_zone as timeZone'])
    .where('collection_place.id', '=', placeId)
    .executeTakeFirst();
  if (!place) return undefined;
  const { timeZone, ...owner } = place;
  return { owner, schedule: await loadSchedule(db, placeId, place.cityId, timeZone) };
}

// The admin API's exceptions (CONTRACT section 13): one place's exceptions, read and written one at a time.

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

/** The ids of the waste types of a place's city: those its collections may name. */
export async function placeWasteTypeIds(db: Kysely<DB>, placeId: string): Promise<Set<string>> {
  const city = db.selectFrom('collection_place').select('city_id').where('id', '=', placeId);
  const rows = await db.selectFrom('waste_type').select('id').where('city_id', '=', city).execute();
  return new Set(rows.map((row) => row.id));
}

export const { insert: insertException, update: updateException, remove: deleteException } =
  childRecords('collection_exception', 'place_id', findPlaceOwner);

