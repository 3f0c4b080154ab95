import type { Insertable, Kysely, Selectable } from 'kysely';
import type { CityGroupTable, CityTable, DB } from '../db/types.ts';
import { pageOf, type PageRequest } from '../kernel/pagination.ts';
import { sortByText } from '../kernel/french.ts';
import { countReferences, recordsById } from '../db/records.ts';

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
export const listCityGroups = async (db: Kysely<DB>, page: PageRequest, scope: readonly string[] | null) =>
  pageOf(sortByText(await groups.within(db, 'id', scope), (g) => g.name), page);

export const insertCityGroup = (db: Kysely<DB>, id: string, values: CityGroupValues, now: Date): Promise<CityGroupRow> =>
  groups.insert(db, { id, ...values, created_at: now, updated_at: now });
export const updateCityGroup: (db: Kysely<DB>, id: string, values: CityGroupValues) => Promise<CityGroupRow> = groups.update;
export const deleteCityGroup = groups.remove;

/**
 * What a group holds that its deletion would lose: its cities (left without a group), its blog posts and the chat
 * conversations of its cities (deleted with it), its sites (left without a group).
 */
export const countCityGroupHoldings = (db: Kysely<DB>, id: string) =>
  countReferences(db, id, {
    cities: 'city.city_group_id', posts: 'blog_post.city_group_id', sites: 'site.city_group_id',
    conversations: 'conversation.city_group_id',
  });

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
export const countCityHoldings = (db: Kysely<DB>, id: string) =>
  countReferences(db, id, {
    wasteTypes: 'waste_type.city_id', places: 'collection_place.city_id', points: 'recycling_point.city_id',
    questions: 'quiz_question.city_id', challenges: 'challenge.city_id', conversations: 'conversation.city_id',
  });
