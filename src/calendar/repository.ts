import type { Insertable, Kysely, Selectable } from 'kysely';
import type { CollectionExceptionTable, DB } from '../db/types.ts';
import { pageWindow, type PageRequest } from '../kernel/pagination.ts';
import type { PlaceSchedule } from '../kernel/collection-calendar.ts';

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

  const [place, days, exceptions, wasteTypes] = await Promise.all([
    db
      .selectFrom('collection_place')
      .select(['id', 'name'])
      .where('id', '=', placeId)
      .where('city_id', '=', cityId)
      .executeTakeFirst(),
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
  if (!place) return { found: 'place-missing' };

  return {
    found: 'place',
    data: {
      city: { id: city.id, name: city.name, timeZone: city.time_zone },
      place: { id: place.id, name: place.name },
      schedule: {
        timeZone: city.time_zone,
        days: days.map((d) => ({ name: d.name, wasteTypeId: d.waste_type_id, biweekly: d.biweekly, startDate: d.start_date })),
        exceptions: exceptions.map((e) => ({
          dateFrom: e.date_from,
          dateTo: e.date_to,
          wasteTypeId: e.waste_type_id,
          name: e.name,
          description: e.description,
        })),
        wasteTypes: wasteTypes.map((w) => ({ id: w.id, name: w.name, color: w.color })),
      },
      // The row is created by the first migration; the epoch only stands in if someone deleted it.
      dataChangedAt: version?.changed_at ?? new Date(0),
    },
  };
}

// The admin API's exceptions (CONTRACT section 13): one place's exceptions, read and written one at a time.

export type ExceptionRow = Selectable<CollectionExceptionTable>;
type ExceptionValues = Omit<Insertable<CollectionExceptionTable>, 'id' | 'place_id'>;

/** A place with what its writes need: its city (whose waste types it may name) and the city's group. */
export interface PlaceOwner {
  placeId: string;
  cityId: string;
  cityGroupId: string | null;
}

export async function findPlaceOwner(db: Kysely<DB>, placeId: string): Promise<PlaceOwner | undefined> {
  return db
    .selectFrom('collection_place')
    .innerJoin('city', 'city.id', 'collection_place.city_id')
    .select(['collection_place.id as placeId', 'city.id as cityId', 'city.city_group_id as cityGroupId'])
    .where('collection_place.id', '=', placeId)
    .executeTakeFirst();
}

export async function cityWasteTypeIds(db: Kysely<DB>, cityId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('waste_type').select('id').where('city_id', '=', cityId).execute();
  return new Set(rows.map((row) => row.id));
}

/** One page of a place's exceptions by dateFrom, then id, and their total. */
export async function listPlaceExceptions(db: Kysely<DB>, placeId: string, page: PageRequest): Promise<{ rows: ExceptionRow[]; total: number }> {
  const matching = db.selectFrom('collection_exception').where('place_id', '=', placeId);
  const [{ total }] = await matching.select((eb) => eb.fn.countAll<string>().as('total')).execute();
  const window = pageWindow(page, Number(total));
  if (!window) return { rows: [], total: Number(total) };
  const rows = await matching.selectAll().orderBy('date_from').orderBy('id').limit(window.limit).offset(window.offset).execute();
  return { rows, total: Number(total) };
}

/** An exception and its place's owner; locked until the end of the transaction with `forUpdate`. */
export async function findException(
  db: Kysely<DB>,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<{ row: ExceptionRow; owner: PlaceOwner } | undefined> {
  const found = await db
    .selectFrom('collection_exception')
    .selectAll()
    .where('id', '=', id)
    .$if(options.forUpdate === true, (qb) => qb.forUpdate())
    .executeTakeFirst();
  if (!found) return undefined;
  const owner = await findPlaceOwner(db, found.place_id);
  return owner && { row: found, owner };
}

export async function insertException(db: Kysely<DB>, id: string, placeId: string, values: ExceptionValues): Promise<ExceptionRow> {
  return db.insertInto('collection_exception').values({ id, place_id: placeId, ...values }).returningAll().executeTakeFirstOrThrow();
}

export async function updateException(db: Kysely<DB>, id: string, values: ExceptionValues): Promise<ExceptionRow> {
  return db.updateTable('collection_exception').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteException(db: Kysely<DB>, id: string): Promise<void> {
  await db.deleteFrom('collection_exception').where('id', '=', id).execute();
}
