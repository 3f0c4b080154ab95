import type { Kysely, Selectable } from 'kysely';
import type { AttachedLocationTable, CollectionDayTable, CollectionPlaceTable, DB, WasteTypeDetailTable } from '../db/types.ts';
import { childRecords } from '../db/child-records.ts';
import { sortByText } from '../kernel/french.ts';
import { cityChildOwner, findCityOwner, findPlaceOwner, type CityChildOwner } from '../domain/cities.ts';

/**
 * The admin API's waste-type details, collection places, collection days and attached locations (docs/api.md, the admin API),
 * read and written one at a time, each found with the owner whose group decides who may see it.
 */

export type DetailRow = Selectable<WasteTypeDetailTable>;
export type PlaceRow = Selectable<CollectionPlaceTable>;
export type DayRow = Selectable<CollectionDayTable>;
export type LocationRow = Selectable<AttachedLocationTable>;

/** A waste type as the parent of its details: its city and the city's group. */
export type WasteTypeOwner = CityChildOwner<'wasteTypeId'>;
export const findWasteTypeOwner = cityChildOwner('waste_type', 'wasteTypeId');

// Waste-type details

/** A waste type's details, listed by material (French), then id. */
export const { find: findDetail, list: listDetails, insert: insertDetail, update: updateDetail, remove: deleteDetail } =
  childRecords('waste_type_detail', 'waste_type_id', findWasteTypeOwner, (rows) => sortByText(rows, (d) => d.material));

// Collection places

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

/**
 * A city's places, listed by name (French), then id. A place's values are its name, and its area as text with its
 * bounding box (src/bundle/city-rows.ts areaColumns). It is deleted with its days, exceptions, attached locations and
 * street rules (their foreign keys cascade).
 */
export const { find: findPlace, list: listPlaces, insert: insertPlace, update: updatePlace, remove: deletePlace } =
  childRecords('collection_place', 'city_id', findCityOwner, (rows) => sortByText(rows, (p) => p.name));

// Collection days

/** The names of a city's waste types, by id: a place's days are ordered by them. */
export async function wasteTypeNames(db: Kysely<DB>, cityId: string): Promise<Map<string, string>> {
  const rows = await db.selectFrom('waste_type').select(['id', 'name']).where('city_id', '=', cityId).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** A place's days, read whole (a week holds a handful) and unsorted: the mapper puts them in the public order. */
export const { find: findDay, under: placeDays, insert: insertDay, update: updateDay, remove: deleteDay } =
  childRecords('collection_day', 'place_id', findPlaceOwner);

// Attached locations

/** A place's attached locations, listed by name (French), then id. */
export const { find: findLocation, list: listLocations, insert: insertLocation, update: updateLocation, remove: deleteLocation } =
  childRecords('attached_location', 'place_id', findPlaceOwner, (rows) => sortByText(rows, (l) => l.name));

