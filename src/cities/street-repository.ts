import type { Kysely, Selectable } from 'kysely';
import type { DB, StreetRuleTable } from '../db/types.ts';
import { childRecords } from '../db/child-records.ts';
import { compareFrench, compareIds } from '../kernel/french.ts';
import { findPlaceOwner } from '../domain/cities.ts';

/** A place's street rules (docs/api.md, from an address to a collection place) as the admin API reads and writes them, one at a time. */

export type StreetRuleRow = Selectable<StreetRuleTable>;

/** A place's rules in the order a plaque reader expects: street (French), then the first number (open start first), then id. */
export function sortStreetRules(rows: StreetRuleRow[]): StreetRuleRow[] {
  return rows.sort(
    (a, b) =>
      compareFrench(a.street, b.street) ||
      (a.from_number ?? 0) - (b.from_number ?? 0) ||
      compareIds(a, b),
  );
}

/** The rules of the given places, for the admin place shape. */
export async function placesStreetRules(db: Kysely<DB>, placeIds: string[]): Promise<StreetRuleRow[]> {
  if (placeIds.length === 0) return [];
  return sortStreetRules(await db.selectFrom('place_street').selectAll().where('place_id', 'in', placeIds).execute());
}

/**
 * Serialises the writes of a city's street rules: two agents adding the same numbers of a street to two places at
 * once would each see no overlap. The city row is locked until the transaction ends (NO KEY UPDATE: it does not
 * block the rows that merely reference the city).
 */
export async function lockCityStreets(trx: Kysely<DB>, cityId: string): Promise<void> {
  await trx.selectFrom('city').select('id').where('id', '=', cityId).forNoKeyUpdate().execute();
}

/** The rules of a street (by key) held by the city's places other than `placeId`, with their place's name. */
export async function otherPlacesRules(trx: Kysely<DB>, cityId: string, placeId: string, key: string) {
  return trx
    .selectFrom('place_street as r')
    .innerJoin('collection_place as p', 'p.id', 'r.place_id')
    .select(['r.id', 'r.street', 'r.from_number', 'r.to_number', 'r.side', 'p.id as placeId', 'p.name as placeName'])
    .where('p.city_id', '=', cityId)
    .where('p.id', '!=', placeId)
    .where('r.street_key', '=', key)
    .orderBy('r.id')
    .execute();
}

/** A place's rules, listed as a plaque reader expects (a place holds tens to a few hundred: read whole, sorted, paged). */
export const { find: findStreetRule, list: listStreetRules, insert: insertStreetRule, update: updateStreetRule, remove: deleteStreetRule } =
  childRecords('place_street', 'place_id', findPlaceOwner, sortStreetRules);

