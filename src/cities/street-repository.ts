import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DB, StreetRuleTable } from '../db/types.ts';
import { compareFrench } from '../kernel/french.ts';
import { pageOf, type PageRequest } from '../kernel/pagination.ts';
import { findPlaceOwner } from '../domain/cities.ts';

/** A place's street rules (CONTRACT section 11) as the admin API reads and writes them, one at a time. */

export type StreetRuleRow = Selectable<StreetRuleTable>;

export async function findStreetRule(db: Kysely<DB>, id: string, options: { forUpdate?: boolean } = {}) {
  const row = await db.selectFrom('place_street').selectAll().where('id', '=', id).$if(options.forUpdate === true, (qb) => qb.forUpdate()).executeTakeFirst();
  const owner = row && (await findPlaceOwner(db, row.place_id));
  return row && owner && { row, owner };
}

/** A place's rules in the order a plaque reader expects: street (French), then the first number (open start first), then id. */
export function sortStreetRules(rows: StreetRuleRow[]): StreetRuleRow[] {
  return rows.sort(
    (a, b) =>
      compareFrench(a.street, b.street) ||
      (a.from_number ?? 0) - (b.from_number ?? 0) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/** One page of a place's rules (a place holds tens to a few hundred: read whole, sorted, paged). */
export async function listStreetRules(db: Kysely<DB>, placeId: string, page: PageRequest) {
  const rows = await db.selectFrom('place_street').selectAll().where('place_id', '=', placeId).execute();
  return pageOf(sortStreetRules(rows), page);
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

type StreetRuleValues = Omit<Insertable<StreetRuleTable>, 'id' | 'place_id'>;

export async function insertStreetRule(db: Kysely<DB>, id: string, placeId: string, values: StreetRuleValues): Promise<StreetRuleRow> {
  return db.insertInto('place_street').values({ id, place_id: placeId, ...values }).returningAll().executeTakeFirstOrThrow();
}

export async function updateStreetRule(db: Kysely<DB>, id: string, values: StreetRuleValues): Promise<StreetRuleRow> {
  return db.updateTable('place_street').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteStreetRule(db: Kysely<DB>, id: string): Promise<void> {
  await db.deleteFrom('place_street').where('id', '=', id).execute();
}
