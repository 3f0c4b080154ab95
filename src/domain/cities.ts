import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';

/** What every per-city route needs first: the city, when it exists and is ACTIF (public routes answer 404 otherwise). */
export interface ActiveCity {
  id: string;
  name: string;
  /** As stored (Europe/Paris unless the city says otherwise); `resolveTimeZone` (kernel/dates.ts) checks it. */
  timeZone: string;
  /** Its city group; null for a city of none. */
  cityGroupId: string | null;
}

export async function findActiveCity(db: Kysely<DB>, cityId: string): Promise<ActiveCity | null> {
  const city = await db
    .selectFrom('city')
    .select(['id', 'name', 'time_zone', 'city_group_id'])
    .where('id', '=', cityId)
    .where('status', '=', 'ACTIF')
    .executeTakeFirst();
  return city ? { id: city.id, name: city.name, timeZone: city.time_zone, cityGroupId: city.city_group_id } : null;
}

/** A city group as the admin API names it (the parent of posts, sites, media and replies, a move's target): its id. */
export async function findCityGroupRef(db: Kysely<DB>, groupId: string): Promise<{ id: string } | undefined> {
  return db.selectFrom('city_group').select('id').where('id', '=', groupId).executeTakeFirst();
}

/** A city as the admin API scopes what hangs off it (waste types, recycling points, challenges): by its group. */
export interface CityOwner {
  cityId: string;
  cityGroupId: string | null;
}

export async function findCityOwner(db: Kysely<DB>, cityId: string): Promise<CityOwner | undefined> {
  return db.selectFrom('city').select(['id as cityId', 'city_group_id as cityGroupId']).where('id', '=', cityId).executeTakeFirst();
}

/** A record of a city as the owner of what hangs off it (a place's days, a waste type's details, a challenge's badge). */
export type CityChildOwner<K extends string> = CityOwner & { [key in K]: string };

/**
 * Finds a record of a city (a place, a waste type, a challenge) as an owner: its id under `idAs`, its city and the
 * city's group, by which the admin API scopes what hangs off it.
 */
export function cityChildOwner<K extends string>(table: 'collection_place' | 'waste_type' | 'challenge', idAs: K) {
  // The three tables share the columns read here: the builder is typed with one of them.
  const child = table as 'challenge';
  return async (db: Kysely<DB>, id: string): Promise<CityChildOwner<K> | undefined> => {
    const row = await db
      .selectFrom(child)
      .innerJoin('city', 'city.id', `${child}.city_id`)
      .select([`${child}.id as id`, 'city.id as cityId', 'city.city_group_id as cityGroupId'])
      .where(`${child}.id`, '=', id)
      .executeTakeFirst();
    return row && ({ [idAs]: row.id, cityId: row.cityId, cityGroupId: row.cityGroupId } as CityChildOwner<K>);
  };
}

/** A place as the admin API scopes what hangs off it (days, exceptions, locations, streets): by its city's group. */
export type PlaceOwner = CityChildOwner<'placeId'>;
export const findPlaceOwner = cityChildOwner('collection_place', 'placeId');

/** The ids of a city's waste types: what its recycling points' materials and quiz questions may name. */
export async function cityWasteTypeIds(db: Kysely<DB>, cityId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('waste_type').select('id').where('city_id', '=', cityId).execute();
  return new Set(rows.map((row) => row.id));
}

/**
 * The sites that may frame an active city's widgets: its group's `embedOrigins` (none for a city of no group), or
 * null for a city that is unknown or not active.
 */
export async function embedOriginsOfCity(db: Kysely<DB>, cityId: string): Promise<string[] | null> {
  const row = await db
    .selectFrom('city')
    .leftJoin('city_group', 'city_group.id', 'city.city_group_id')
    .select('city_group.embed_origins')
    .where('city.id', '=', cityId)
    .where('city.status', '=', 'ACTIF')
    .executeTakeFirst();
  return row ? (row.embed_origins ?? []) : null;
}

/** Every city group's id: a super admin's reach where a list of groups is needed (the chat console). */
export async function allCityGroupIds(db: Kysely<DB>): Promise<string[]> {
  return (await db.selectFrom('city_group').select('id').orderBy('id').execute()).map((row) => row.id);
}
