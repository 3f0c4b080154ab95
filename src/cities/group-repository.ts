import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { CityGroupTable, CityTable, DB } from '../db/types.ts';
import { pageOf, type PageRequest } from '../kernel/pagination.ts';
import { sortByText } from '../kernel/french.ts';
import { recordsById } from '../db/records.ts';

/**
 * The admin API's city groups and cities (docs/api.md, the admin API), read and written one at a time. Lists are read whole
 * and sorted by the kernel's French rule (the database's collation is not the contract's), then paged: a country has
 * a few thousand cities at most, a group a few hundred.
 */

export type CityGroupRow = Selectable<CityGroupTable>;
export type CityRow = Selectable<CityTable>;
type CityGroupValues = Omit<Insertable<CityGroupTable>, 'id' | 'created_at'>;
type CityValues = Omit<Insertable<CityTable>, 'id' | 'created_at'>;

const groups = recordsById('city_group');
const cities = recordsById('city');

export const findCityGroup = groups.find;

/** One page of the groups among `scope` (null: every group), by name. */
export async function listCityGroups(db: Kysely<DB>, page: PageRequest, scope: readonly string[] | null) {
  if (scope !== null && scope.length === 0) return { rows: [], total: 0 };
  const rows = await db
    .selectFrom('city_group')
    .selectAll()
    .$if(scope !== null, (qb) => qb.where('id', 'in', scope!))
    .execute();
  return pageOf(sortByText(rows, (g) => g.name), page);
}

export const insertCityGroup = (db: Kysely<DB>, id: string, values: CityGroupValues, now: Date): Promise<CityGroupRow> =>
  groups.insert(db, { id, ...values, created_at: now, updated_at: now });
export const updateCityGroup: (db: Kysely<DB>, id: string, values: CityGroupValues) => Promise<CityGroupRow> = groups.update;
export const deleteCityGroup = groups.remove;

/**
 * What a group holds that its deletion would lose: its cities (left without a group), its blog posts and the chat
 * conversations of its cities (deleted with it), its sites (left without a group).
 */
export async function countCityGroupHoldings(db: Kysely<DB>, id: string) {
  const { rows } = await sql<{ cities: string; posts: string; sites: string; conversations: string }>`
    SELECT (SELECT count(*) FROM city WHERE city_group_id = ${id}) AS cities,
           (SELECT count(*) FROM blog_post WHERE city_group_id = ${id}) AS posts,
           (SELECT count(*) FROM site WHERE city_group_id = ${id}) AS sites,
           (SELECT count(*) FROM conversation WHERE city_group_id = ${id}) AS conversations
  `.execute(db);
  const [r] = rows;
  return { cities: Number(r.cities), posts: Number(r.posts), sites: Number(r.sites), conversations: Number(r.conversations) };
}

export async function cityGroupExists(db: Kysely<DB>, id: string): Promise<boolean> {
  return (await db.selectFrom('city_group').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

export const findCity = cities.find;

/** One page of a group's cities, ACTIF or not, by name. */
export async function listGroupCities(db: Kysely<DB>, groupId: string, page: PageRequest) {
  const rows = await db.selectFrom('city').selectAll().where('city_group_id', '=', groupId).execute();
  return pageOf(sortByText(rows, (c) => c.name), page);
}

export const insertCity = (db: Kysely<DB>, id: string, values: CityValues, now: Date): Promise<CityRow> =>
  cities.insert(db, { id, ...values, created_at: now, updated_at: now });
export const updateCity: (db: Kysely<DB>, id: string, values: CityValues) => Promise<CityRow> = cities.update;
export const deleteCity = cities.remove;

/** What a city holds that its deletion would delete with it (every foreign key to a city cascades). */
export async function countCityHoldings(db: Kysely<DB>, id: string) {
  const { rows } = await sql<Record<'wasteTypes' | 'places' | 'points' | 'questions' | 'challenges' | 'conversations', string>>`
    SELECT (SELECT count(*) FROM waste_type WHERE city_id = ${id}) AS "wasteTypes",
           (SELECT count(*) FROM collection_place WHERE city_id = ${id}) AS places,
           (SELECT count(*) FROM recycling_point WHERE city_id = ${id}) AS points,
           (SELECT count(*) FROM quiz_question WHERE city_id = ${id}) AS questions,
           (SELECT count(*) FROM challenge WHERE city_id = ${id}) AS challenges,
           (SELECT count(*) FROM conversation WHERE city_id = ${id}) AS conversations
  `.execute(db);
  return Object.fromEntries(Object.entries(rows[0]).map(([k, v]) => [k, Number(v)])) as Record<keyof (typeof rows)[0], number>;
}
