import { sql, type Kysely } from 'kysely';
import type { DB, GeoJsonArea } from '../db/types.ts';
import type { Position } from '../kernel/geo.ts';
import type { StreetSide } from '../kernel/street-rules.ts';

/**
 * What GET /public/places/lookup reads (docs/api.md, from an address to a collection place): a city's street rules and attached locations, matched
 * in code (lookup.ts); places whose area box holds a position and attached locations in a box, through the GiST
 * indexes of migration 0008. Only ACTIF cities' places.
 */

type Db = Kysely<DB>;

/** The place a match leads to, with its city. */
export interface LookupPlaceRow {
  city_id: string;
  city_name: string;
  place_id: string;
  place_name: string;
}

export interface StreetRuleRow extends LookupPlaceRow {
  street: string;
  street_key: string;
  from_number: number | null;
  to_number: number | null;
  side: StreetSide;
}

export interface LocationRow extends LookupPlaceRow {
  name: string;
  latitude: number;
  longitude: number;
}

export interface AreaRow extends LookupPlaceRow {
  area: GeoJsonArea;
}

function placesOfActiveCities(db: Db) {
  return db
    .selectFrom('collection_place as p')
    .innerJoin('city as c', 'c.id', 'p.city_id')
    .where('c.status', '=', 'ACTIF')
    .select(['c.id as city_id', 'c.name as city_name', 'p.id as place_id', 'p.name as place_name']);
}

/** Every street rule of a city's places (a commune holds tens to a few thousand). */
export function findStreetRulesOfCity(db: Db, cityId: string): Promise<StreetRuleRow[]> {
  return placesOfActiveCities(db)
    .innerJoin('place_street as s', 's.place_id', 'p.id')
    .where('p.city_id', '=', cityId)
    .select(['s.street', 's.street_key', 's.from_number', 's.to_number', 's.side'])
    .execute() as Promise<StreetRuleRow[]>;
}

/** Every attached location of a city's places. */
export function findLocationsOfCity(db: Db, cityId: string): Promise<LocationRow[]> {
  return placesOfActiveCities(db)
    .innerJoin('attached_location as l', 'l.place_id', 'p.id')
    .where('p.city_id', '=', cityId)
    .select(['l.name', 'l.latitude', 'l.longitude'])
    .execute();
}

/**
 * The query of places whose area's bounding box holds a position. The position is written as a box of one point:
 * GiST's box operator class indexes `box @> box`, not `box @> point` (which would scan every place with an area).
 */
export function placesWithAreaBoxAt(db: Db, at: Position, cityId: string | null) {
  let query = placesOfActiveCities(db)
    .select('p.area')
    .where('p.area', 'is not', null)
    .where(
      sql<boolean>`box(point(p.area_min_lon, p.area_min_lat), point(p.area_max_lon, p.area_max_lat)) @> box(point(${at.lon}, ${at.lat}), point(${at.lon}, ${at.lat}))`,
    );
  if (cityId !== null) query = query.where('p.city_id', '=', cityId);
  return query;
}

/** Places whose area's bounding box holds a position (the polygon itself is the caller's test). */
export function findPlacesWithAreaBoxAt(db: Db, at: Position, cityId: string | null): Promise<AreaRow[]> {
  return placesWithAreaBoxAt(db, at, cityId).execute() as Promise<AreaRow[]>;
}

/** Every ACTIF place's area with its bounding box (the generated columns of migration 0008), for the area index. */
export function findActiveAreas(db: Db): Promise<(AreaRow & { min_lat: number; max_lat: number; min_lon: number; max_lon: number })[]> {
  return placesOfActiveCities(db)
    .where('p.area', 'is not', null)
    .select(['p.area', 'p.area_min_lat as min_lat', 'p.area_max_lat as max_lat', 'p.area_min_lon as min_lon', 'p.area_max_lon as max_lon'])
    .execute() as Promise<(AreaRow & { min_lat: number; max_lat: number; min_lon: number; max_lon: number })[]>;
}

/** The query of attached locations inside a box of positions (GiST point_ops indexes `point <@ box`). */
export function locationsInBox(db: Db, box: { minLat: number; maxLat: number; minLon: number; maxLon: number }, cityId: string | null) {
  let query = placesOfActiveCities(db)
    .innerJoin('attached_location as l', 'l.place_id', 'p.id')
    .select(['l.name', 'l.latitude', 'l.longitude'])
    .where(
      sql<boolean>`point(l.longitude, l.latitude) <@ box(point(${box.minLon}, ${box.minLat}), point(${box.maxLon}, ${box.maxLat}))`,
    );
  if (cityId !== null) query = query.where('p.city_id', '=', cityId);
  return query;
}

/** Attached locations inside a box of positions. */
export function findLocationsInBox(
  db: Db,
  box: { minLat: number; maxLat: number; minLon: number; maxLon: number },
  cityId: string | null,
): Promise<LocationRow[]> {
  return locationsInBox(db, box, cityId).execute();
}

/** Every ACTIF city with its group's name, for the commune search (search.ts). */
export function findActiveCommunes(db: Db): Promise<{ id: string; name: string; group_name: string | null }[]> {
  return db
    .selectFrom('city as c')
    .leftJoin('city_group as g', 'g.id', 'c.city_group_id')
    .where('c.status', '=', 'ACTIF')
    .select(['c.id', 'c.name', 'g.name as group_name'])
    .execute();
}

/**
 * The postal addresses the service publishes (recycling points', the groups' contact): the commune search reads the
 * postcodes written beside commune names in them (`…, 29200 Brest`), the city model holding no postcode.
 */
export async function findPublishedAddresses(db: Db): Promise<string[]> {
  const [points, groups] = await Promise.all([
    db.selectFrom('recycling_point').where('address', 'is not', null).select('address').execute(),
    db.selectFrom('city_group').where('contact_address', 'is not', null).select('contact_address').execute(),
  ]);
  return [...points.map((row) => row.address!), ...groups.map((row) => row.contact_address!)];
}

/** Every street rule of every ACTIF city's places: the address search across communes (search.ts), when they are few. */
export function findStreetRulesOfActiveCities(db: Db): Promise<StreetRuleRow[]> {
  return placesOfActiveCities(db)
    .innerJoin('place_street as s', 's.place_id', 'p.id')
    .select(['s.street', 's.street_key', 's.from_number', 's.to_number', 's.side'])
    .execute() as Promise<StreetRuleRow[]>;
}

/** Every attached location of every ACTIF city's places. */
export function findLocationsOfActiveCities(db: Db): Promise<LocationRow[]> {
  return placesOfActiveCities(db).innerJoin('attached_location as l', 'l.place_id', 'p.id').select(['l.name', 'l.latitude', 'l.longitude']).execute();
}
