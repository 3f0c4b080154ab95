import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { findActiveCity } from '../kernel/cities.ts';
import { sortByText } from '../kernel/french.ts';
import type { CityGuideRows } from '../kernel/sorting-guide.ts';

/** An ACTIF city's searchable rows (five queries, run together), or null when it is unknown or NON_ACTIF. */
export async function loadCityGuide(db: Kysely<DB>, cityId: string): Promise<CityGuideRows | null> {
  const city = await findActiveCity(db, cityId);
  if (!city) return null;
  const [wasteTypes, details, quiz, points, materials] = await Promise.all([
    db.selectFrom('waste_type').select(['id', 'name', 'instructions']).where('city_id', '=', city.id).execute(),
    db
      .selectFrom('waste_type_detail as d')
      .innerJoin('waste_type as w', 'w.id', 'd.waste_type_id')
      .select(['d.id', 'd.waste_type_id', 'd.material', 'd.description', 'd.instructions'])
      .where('w.city_id', '=', city.id)
      .execute(),
    db
      .selectFrom('quiz_question')
      .select(['id', 'material', 'correct_waste_type_id'])
      .where('city_id', '=', city.id)
      .orderBy('order')
      .orderBy('id')
      .execute(),
    db.selectFrom('recycling_point').select(['id', 'name']).where('city_id', '=', city.id).execute(),
    db.selectFrom('recycling_point_material').select(['recycling_point_id', 'waste_type_id']).where('city_id', '=', city.id).execute(),
  ]);
  const taken = new Map<string, string[]>();
  for (const m of materials) taken.set(m.recycling_point_id, [...(taken.get(m.recycling_point_id) ?? []), m.waste_type_id]);
  return {
    city,
    wasteTypes: sortByText(wasteTypes, (w) => w.name),
    details: sortByText(details, (d) => d.material).map((d) => ({
      id: d.id,
      wasteTypeId: d.waste_type_id,
      material: d.material,
      description: d.description,
      instructions: d.instructions,
    })),
    quizMaterials: quiz.map((q) => ({ material: q.material, wasteTypeId: q.correct_waste_type_id })),
    points: sortByText(points, (p) => p.name).map((p) => ({ id: p.id, wasteTypeIds: taken.get(p.id) ?? [] })),
  };
}

/** One day's count of one normalised query in one city. */
export interface SearchCountRow {
  day: string;
  cityId: string;
  query: string;
  found: boolean;
  count: number;
}

/**
 * Adds counts (one statement, whatever their number): a row per (day, city, query) whose count grows; `found` is
 * the latest search's.
 */
export async function addSearchCounts(db: Kysely<DB>, rows: readonly SearchCountRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('search_count')
    .values(rows.map((r) => ({ day: r.day, city_id: r.cityId, query: r.query, found: r.found, count: r.count })))
    .onConflict((oc) =>
      oc.columns(['day', 'city_id', 'query']).doUpdateSet({
        count: sql`search_count.count + excluded.count`,
        found: sql`excluded.found`,
      }),
    )
    .execute();
}

/** A query's searches on one day over the cities read: all of them, and those that found nothing. */
export interface DayQueryCount {
  day: string;
  query: string;
  count: number;
}

/** Most counted queries per day, at most `perDay` each day, most first (then by query). */
async function topPerDay(
  db: Kysely<DB>,
  cityIds: readonly string[] | null,
  from: string,
  to: string,
  perDay: number,
  notFoundOnly: boolean,
): Promise<DayQueryCount[]> {
  const cityFilter = cityIds === null ? sql`TRUE` : cityIds.length === 0 ? sql`FALSE` : sql`s.city_id IN (${sql.join(cityIds)})`;
  const foundFilter = notFoundOnly ? sql`NOT s.found` : sql`TRUE`;
  const { rows } = await sql<{ day: string; query: string; count: string | number }>`
    SELECT day, query, count FROM (
      SELECT s.day::text AS day, s.query, SUM(s.count) AS count,
             ROW_NUMBER() OVER (PARTITION BY s.day ORDER BY SUM(s.count) DESC, s.query) AS rank
      FROM search_count s
      WHERE s.day BETWEEN ${from}::date AND ${to}::date AND ${cityFilter} AND ${foundFilter}
      GROUP BY s.day, s.query
    ) ranked
    WHERE rank <= ${perDay}
    ORDER BY day, rank`.execute(db);
  return rows.map((r) => ({ day: r.day, query: r.query, count: Number(r.count) }));
}

/** The ids of the cities of some groups (null: every city). */
export async function citiesOfGroups(db: Kysely<DB>, groupIds: readonly string[] | null): Promise<string[] | null> {
  if (groupIds === null) return null;
  if (groupIds.length === 0) return [];
  const rows = await db.selectFrom('city').select('id').where('city_group_id', 'in', groupIds).execute();
  return rows.map((r) => r.id);
}

export async function cityGroupExists(db: Kysely<DB>, id: string): Promise<boolean> {
  return (await db.selectFrom('city_group').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** The most searched queries and those that found nothing, per day, over some cities (null: every city). */
/** What the assistant was asked per day: its most asked topics, and its unanswered questions, most first. */
export async function chatAnalytics(
  db: Kysely<DB>,
  cityIds: readonly string[] | null,
  from: string,
  to: string,
  perDay: number,
): Promise<{ topics: DayQueryCount[]; unanswered: DayQueryCount[] }> {
  const cityFilter = cityIds === null ? sql`TRUE` : cityIds.length === 0 ? sql`FALSE` : sql`c.city_id IN (${sql.join(cityIds)})`;
  const ranked = (column: 'topic' | 'question', onlyUnanswered: boolean) => sql<{ day: string; query: string; count: string | number }>`
    SELECT day, query, count FROM (
      SELECT c.day::text AS day, c.${sql.ref(column)} AS query, SUM(c.count) AS count,
             ROW_NUMBER() OVER (PARTITION BY c.day ORDER BY SUM(c.count) DESC, c.${sql.ref(column)}) AS rank
      FROM chat_count c
      WHERE c.day BETWEEN ${from}::date AND ${to}::date AND ${cityFilter} AND ${onlyUnanswered ? sql`c.question <> ''` : sql`TRUE`}
      GROUP BY c.day, c.${sql.ref(column)}
    ) ranked
    WHERE rank <= ${perDay}
    ORDER BY day, rank`.execute(db);
  const [topics, unanswered] = await Promise.all([ranked('topic', false), ranked('question', true)]);
  const rows = (r: { rows: { day: string; query: string; count: string | number }[] }) => r.rows.map((x) => ({ day: x.day, query: x.query, count: Number(x.count) }));
  return { topics: rows(topics), unanswered: rows(unanswered) };
}

export async function searchAnalytics(
  db: Kysely<DB>,
  cityIds: readonly string[] | null,
  from: string,
  to: string,
  perDay: number,
): Promise<{ top: DayQueryCount[]; notFound: DayQueryCount[] }> {
  const [top, notFound] = await Promise.all([
    topPerDay(db, cityIds, from, to, perDay, false),
    topPerDay(db, cityIds, from, to, perDay, true),
  ]);
  return { top, notFound };
}
