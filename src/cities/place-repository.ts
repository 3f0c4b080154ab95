import type { Insertable, Kysely, Selectable } from 'kysely';
import type { AttachedLocationTable, CollectionDayTable, CollectionPlaceTable, DB, WasteTypeDetailTable } from '../db/types.ts';
import { pageOf, type PageRequest } from '../kernel/pagination.ts';
import { sortByText } from '../kernel/french.ts';
import { findCityOwner, findPlaceOwner, type CityOwner } from '../domain/cities.ts';

/**
 * The admin API's waste-type details, collection places, collection days and attached locations (CONTRACT section 13),
 * read and written one at a time, each found with the owner whose group decides who may see it.
 */

export type DetailRow = Selectable<WasteTypeDetailTable>;
export type PlaceRow = Selectable<CollectionPlaceTable>;
export type DayRow = Selectable<CollectionDayTable>;
export type LocationRow = Selectable<AttachedLocationTable>;

/** A waste type as the parent of its details: its city and the city's group. */
export interface WasteTypeOwner extends CityOwner {
  wasteTypeId: string;
}

export async function findWasteTypeOwner(db: Kysely<DB>, wasteTypeId: string): Promise<WasteTypeOwner | undefined> {
  return db
    .selectFrom('waste_type')
    .innerJoin('city', 'city.id', 'waste_type.city_id')
    .select(['waste_type.id as wasteTypeId', 'city.id as cityId', 'city.city_group_id as cityGroupId'])
    .where('waste_type.id', '=', wasteTypeId)
    .executeTakeFirst();
}

// Waste-type details

export async function findDetail(db: Kysely<DB>, id: string, options: { forUpdate?: boolean } = {}) {
  const row = await db.selectFrom('waste_type_detail').selectAll().where('id', '=', id).$if(options.forUpdate === true, (qb) => qb.forUpdate()).executeTakeFirst();
  const owner = row && (await findWasteTypeOwner(db, row.waste_type_id));
  return row && owner && { row, owner };
}

/** One page of a waste type's details by material (French), then id. */
export async function listDetails(db: Kysely<DB>, wasteTypeId: string, page: PageRequest) {
  const rows = await db.selectFrom('waste_type_detail').selectAll().where('waste_type_id', '=', wasteTypeId).execute();
  return pageOf(sortByText(rows, (d) => d.material), page);
}

type DetailValues = Omit<Insertable<WasteTypeDetailTable>, 'id' | 'waste_type_id'>;

export async function insertDetail(db: Kysely<DB>, id: string, wasteTypeId: string, values: DetailValues): Promise<DetailRow> {
  return db.insertInto('waste_type_detail').values({ id, waste_type_id: wasteTypeId, ...values }).returningAll().executeTakeFirstOrThrow();
}

export async function updateDetail(db: Kysely<DB>, id: string, values: DetailValues): Promise<DetailRow> {
  return db.updateTable('waste_type_detail').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteDetail(db: Kysely<DB>, id: string): Promise<void> {
  await db.deleteFrom('waste_type_detail').where('id', '=', id).execute();
}

// Collection places

export async function findPlace(db: Kysely<DB>, id: string, options: { forUpdate?: boolean } = {}) {
  const row = await db.selectFrom('collection_place').selectAll().where('id', '=', id).$if(options.forUpdate === true, (qb) => qb.forUpdate()).executeTakeFirst();
  const owner = row && (await findCityOwner(db, row.city_id));
  return row && owner && { row, owner };
}

/** One page of a city's places by name (French), then id. */
export async function listPlaces(db: Kysely<DB>, cityId: string, page: PageRequest) {
  const rows = await db.selectFrom('collection_place').selectAll().where('city_id', '=', cityId).execute();
  return pageOf(sortByText(rows, (p) => p.name), page);
}

/** What the places' admin shape holds: their days, exceptions and locations, and the names their days are ordered by. */
export async function placeChildren(db: Kysely<DB>, placeIds: string[]) {
  if (placeIds.length === 0) return { days: [], exceptions: [], locations: [], typeNames: new Map<string, string>() };
  const [days, exceptions, locations, types] = await Promise.all([
    db.selectFrom('collection_day').selectAll().where('place_id', 'in', placeIds).execute(),
    db.selectFrom('collection_exception').selectAll().where('place_id', 'in', placeIds).execute(),
    db.selectFrom('attached_location').selectAll().where('place_id', 'in', placeIds).execute(),
    db
      .selectFrom('waste_type')
      .select(['id', 'name'])
      .where('city_id', 'in', db.selectFrom('collection_place').select('city_id').where('id', 'in', placeIds))
      .execute(),
  ]);
  return { days, exceptions, locations, typeNames: new Map(types.map((t) => [t.id, t.name])) };
}

/** A place's name, and its area as text with its bounding box (src/bundle/city-rows.ts areaColumns). */
type PlaceValues = Omit<Insertable<CollectionPlaceTable>, 'id' | 'city_id'>;

export async function insertPlace(db: Kysely<DB>, id: string, cityId: string, values: PlaceValues): Promise<PlaceRow> {
  return db.insertInto('collection_place').values({ id, city_id: cityId, ...values }).returningAll().executeTakeFirstOrThrow();
}

export async function updatePlace(db: Kysely<DB>, id: string, values: PlaceValues): Promise<PlaceRow> {
  return db.updateTable('collection_place').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Deletes a place with its days, exceptions, attached locations and street rules (their foreign keys cascade). */
export async function deletePlace(db: Kysely<DB>, id: string): Promise<void> {
  await db.deleteFrom('collection_place').where('id', '=', id).execute();
}

// Collection days

export async function findDay(db: Kysely<DB>, id: string, options: { forUpdate?: boolean } = {}) {
  const row = await db.selectFrom('collection_day').selectAll().where('id', '=', id).$if(options.forUpdate === true, (qb) => qb.forUpdate()).executeTakeFirst();
  const owner = row && (await findPlaceOwner(db, row.place_id));
  return row && owner && { row, owner };
}

/** Every day of a place (a week holds a handful), unsorted: the mapper puts them in the public order. */
export async function placeDays(db: Kysely<DB>, placeId: string): Promise<DayRow[]> {
  return db.selectFrom('collection_day').selectAll().where('place_id', '=', placeId).execute();
}

/** The names of a city's waste types, by id: a place's days are ordered by them. */
export async function wasteTypeNames(db: Kysely<DB>, cityId: string): Promise<Map<string, string>> {
  const rows = await db.selectFrom('waste_type').select(['id', 'name']).where('city_id', '=', cityId).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

type DayValues = Omit<Insertable<CollectionDayTable>, 'id' | 'place_id'>;

export async function insertDay(db: Kysely<DB>, id: string, placeId: string, values: DayValues): Promise<DayRow> {
  return db.insertInto('collection_day').values({ id, place_id: placeId, ...values }).returningAll().executeTakeFirstOrThrow();
}

export async function updateDay(db: Kysely<DB>, id: string, values: DayValues): Promise<DayRow> {
  return db.updateTable('collection_day').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteDay(db: Kysely<DB>, id: string): Promise<void> {
  await db.deleteFrom('collection_day').where('id', '=', id).execute();
}

// Attached locations

export async function findLocation(db: Kysely<DB>, id: string, options: { forUpdate?: boolean } = {}) {
  const row = await db.selectFrom('attached_location').selectAll().where('id', '=', id).$if(options.forUpdate === true, (qb) => qb.forUpdate()).executeTakeFirst();
  const owner = row && (await findPlaceOwner(db, row.place_id));
  return row && owner && { row, owner };
}

/** One page of a place's attached locations by name (French), then id. */
export async function listLocations(db: Kysely<DB>, placeId: string, page: PageRequest) {
  const rows = await db.selectFrom('attached_location').selectAll().where('place_id', '=', placeId).execute();
  return pageOf(sortByText(rows, (l) => l.name), page);
}

type LocationValues = Omit<Insertable<AttachedLocationTable>, 'id' | 'place_id'>;

export async function insertLocation(db: Kysely<DB>, id: string, placeId: string, values: LocationValues): Promise<LocationRow> {
  return db.insertInto('attached_location').values({ id, place_id: placeId, ...values }).returningAll().executeTakeFirstOrThrow();
}

export async function updateLocation(db: Kysely<DB>, id: string, values: LocationValues): Promise<LocationRow> {
  return db.updateTable('attached_location').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteLocation(db: Kysely<DB>, id: string): Promise<void> {
  await db.deleteFrom('attached_location').where('id', '=', id).execute();
}
