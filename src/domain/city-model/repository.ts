import type { Kysely, Selectable } from 'kysely';
import type { AttachedLocationTable, CityTable, CollectionDayTable, CollectionExceptionTable, CollectionPlaceTable, DB, QuizQuestionTable, RecyclingPointTable, WasteTypeDetailTable, WasteTypeTable } from '../../db/types.ts';
import { availableChallengesByCity } from '../challenges.ts';
import { sortByText } from '../../kernel/french.ts';

/**
 * The rows of the published city (schemas.ts): one query per table for a list of cities, whatever their number.
 * Only ACTIF cities are ever read; mapper.ts shapes the rows.
 */

/**
 * Cities loaded per round of per-table queries when reading many of them: bounds the memory of one round
 * and the number of query parameters (an id list per table), whatever the number of cities.
 */
export const CITY_BATCH_SIZE = 200;

export type CityRow = Selectable<CityTable> & { group_name: string | null; group_type: string | null };

export interface CityRows {
  /** In the order of the ids asked for. */
  cities: CityRow[];
  wasteTypes: Selectable<WasteTypeTable>[];
  details: Selectable<WasteTypeDetailTable>[];
  places: Selectable<CollectionPlaceTable>[];
  days: Selectable<CollectionDayTable>[];
  exceptions: Selectable<CollectionExceptionTable>[];
  locations: Selectable<AttachedLocationTable>[];
  points: Selectable<RecyclingPointTable>[];
  questions: Selectable<QuizQuestionTable>[];
  challenges: Awaited<ReturnType<typeof availableChallengesByCity>>;
}

/** The ids of every ACTIF city in the public list's order: French collation of the name, then id. */
export async function listActiveCityIds(db: Kysely<DB>): Promise<string[]> {
  const rows = await db.selectFrom('city').select(['id', 'name']).where('status', '=', 'ACTIF').execute();
  return sortByText(rows, (c) => c.name).map((c) => c.id);
}

/** The ACTIF cities among `ids`, in the order of `ids`, with their group's name and type. */
async function activeCityRows(db: Kysely<DB>, ids: readonly string[]): Promise<CityRow[]> {
  const rows = await db
    .selectFrom('city')
    .leftJoin('city_group', 'city_group.id', 'city.city_group_id')
    .selectAll('city')
    .select(['city_group.name as group_name', 'city_group.type as group_type'])
    .where('city.id', 'in', [...ids])
    .where('city.status', '=', 'ACTIF')
    .execute();
  const position = new Map(ids.map((id, i) => [id, i]));
  return rows.sort((a, b) => position.get(a.id)! - position.get(b.id)!);
}

/** The ids of the waste types of `cityIds`, as a subquery. */
function wasteTypesOf(db: Kysely<DB>, cityIds: string[]) {
  return db.selectFrom('waste_type').select('id').where('city_id', 'in', cityIds);
}

/** The ids of the collection places of `cityIds`, as a subquery. */
function placesOf(db: Kysely<DB>, cityIds: string[]) {
  return db.selectFrom('collection_place').select('id').where('city_id', 'in', cityIds);
}

/**
 * Every row of the ACTIF cities among `ids` (callers bound `ids` by CITY_BATCH_SIZE), in a fixed number of
 * queries: the cities, then one query per table for all of them at once. Null when none of them is ACTIF.
 */
export async function readCityRows(db: Kysely<DB>, ids: readonly string[], now: Date): Promise<CityRows | null> {
  if (ids.length === 0) return null;
  const cities = await activeCityRows(db, ids);
  if (cities.length === 0) return null;
  const found = cities.map((c) => c.id);
  const [wasteTypes, details, places, days, exceptions, locations, points, questions, challenges] = await Promise.all([
    db.selectFrom('waste_type').selectAll().where('city_id', 'in', found).execute(),
    db.selectFrom('waste_type_detail').selectAll().where('waste_type_id', 'in', wasteTypesOf(db, found)).execute(),
    db.selectFrom('collection_place').selectAll().where('city_id', 'in', found).execute(),
    db.selectFrom('collection_day').selectAll().where('place_id', 'in', placesOf(db, found)).execute(),
    db.selectFrom('collection_exception').selectAll().where('place_id', 'in', placesOf(db, found)).execute(),
    db.selectFrom('attached_location').selectAll().where('place_id', 'in', placesOf(db, found)).execute(),
    db.selectFrom('recycling_point').selectAll().where('city_id', 'in', found).execute(),
    db.selectFrom('quiz_question').selectAll().where('city_id', 'in', found).execute(),
    availableChallengesByCity(db, found, now),
  ]);
  return { cities, wasteTypes, details, places, days, exceptions, locations, points, questions, challenges };
}
