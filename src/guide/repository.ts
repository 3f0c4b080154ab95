import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { findActiveCity } from '../domain/cities.ts';
import { sortByText } from '../kernel/french.ts';
import type { CityGuideRows } from '../domain/sorting-guide.ts';

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
  /** The latest search of it as typed (`shownQuery`); null when not known. */
  shown: string | null;
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
    .values(rows.map((r) => ({ day: r.day, city_id: r.cityId, query: r.query, shown: r.shown, found: r.found, count: r.count })))
    .onConflict((oc) =>
      oc.columns(['day', 'city_id', 'query']).doUpdateSet({
        count: sql`search_count.count + excluded.count`,
        found: sql`excluded.found`,
        shown: sql`coalesce(excluded.shown, search_count.shown)`,
      }),
    )
    .execute();
}

/** A query's searches on one day over the cities read: all of them, and those that found nothing. */
export interface DayQueryCount {
  day: string;
  query: string;
  /** How citizens typed it (the search counts' `shown` of the most counted city); the query itself when not known. */
  label: string;
  count: number;
}

/** What a ranking counts: a table of counts, the column ranked, and which of its rows. */
interface Counted {
  table: 'search_count' | 'chat_count';
  column: 'query' | 'topic' | 'question';
  only: 'all' | 'notFound' | 'unanswered';
}

/** Most counted values of a column per day, at most `perDay` each day, most first (then by value). */
async function topPerDay(
  db: Kysely<DB>,
  counted: Counted,
  cityIds: readonly string[] | null,
  from: string,
  to: string,
  perDay: number,
): Promise<DayQueryCount[]> {
  const cityFilter = cityIds === null ? sql`TRUE` : cityIds.length === 0 ? sql`FALSE` : sql`s.city_id IN (${sql.join(cityIds)})`;
  const only = { all: sql`TRUE`, notFound: sql`NOT s.found`, unanswered: sql`s.question <> ''` }[counted.only];
  const value = sql.ref(`s.${counted.column}`);
  const shown = counted.table === 'search_count' ? sql`(array_agg(s.shown ORDER BY s.count DESC) FILTER (WHERE s.shown IS NOT NULL))[1]` : sql`NULL`;
  const { rows } = await sql<{ day: string; query: string; shown: string | null; count: string | number }>`
    SELECT day, query, shown, count FROM (
      SELECT s.day::text AS day, ${value} AS query, ${shown} AS shown, SUM(s.count) AS count,
             ROW_NUMBER() OVER (PARTITION BY s.day ORDER BY SUM(s.count) DESC, ${value}) AS rank
      FROM ${sql.table(counted.table)} s
      WHERE s.day BETWEEN ${from}::date AND ${to}::date AND ${cityFilter} AND ${only}
      GROUP BY s.day, ${value}
    ) ranked
    WHERE rank <= ${perDay}
    ORDER BY day, rank`.execute(db);
  return rows.map((r) => ({ day: r.day, query: r.query, label: r.shown ?? r.query, count: Number(r.count) }));
}

/** The ids of the cities of some groups (null: every city). */
export async function citiesOfGroups(db: Kysely<DB>, groupIds: readonly string[] | null): Promise<string[] | null> {
  if (groupIds === null) return null;
  if (groupIds.length === 0) return [];
  const rows = await db.selectFrom('city').select('id').where('city_group_id', 'in', groupIds).execute();
  return rows.map((r) => r.id);
}

/** What the assistant was asked per day: its most asked topics, and its unanswered questions, most first. */
export async function chatAnalytics(
  db: Kysely<DB>,
  cityIds: readonly string[] | null,
  from: string,
  to: string,
  perDay: number,
): Promise<{ topics: DayQueryCount[]; unanswered: DayQueryCount[] }> {
  const [topics, unanswered] = await Promise.all([
    topPerDay(db, { table: 'chat_count', column: 'topic', only: 'all' }, cityIds, from, to, perDay),
    topPerDay(db, { table: 'chat_count', column: 'question', only: 'unanswered' }, cityIds, from, to, perDay),
  ]);
  return { topics, unanswered };
}

/** The most searched queries and those that found nothing, per day, over some cities (null: every city). */
export async function searchAnalytics(
  db: Kysely<DB>,
  cityIds: readonly string[] | null,
  from: string,
  to: string,
  perDay: number,
): Promise<{ top: DayQueryCount[]; notFound: DayQueryCount[] }> {
  const [top, notFound] = await Promise.all([
    topPerDay(db, { table: 'search_count', column: 'query', only: 'all' }, cityIds, from, to, perDay),
    topPerDay(db, { table: 'search_count', column: 'query', only: 'notFound' }, cityIds, from, to, perDay),
  ]);
  return { top, notFound };
}

export interface RequestDayCount {
  day: string;
  typeCode: string;
  typeName: string;
  created: number;
  closed: number;
  medianHoursToClose: number | null;
}

/**
 * Residents' requests per day (each city's own) and type, over some cities (null: every city): how many were created,
 * how many closed, and the median time those took to close, in hours (one decimal). Read from the requests' dates
 * and status alone, which retention keeps.
 */
export async function requestAnalytics(db: Kysely<DB>, cityIds: readonly string[] | null, from: string, to: string): Promise<RequestDayCount[]> {
  if (cityIds !== null && cityIds.length === 0) return [];
  const cities = cityIds === null ? sql`true` : sql`r.city_id = ANY(${[...cityIds]}::uuid[])`;
  // Instants a day wider than the range on each side: every time zone's day of the range is within.
  const since = new Date(Date.parse(`${from}T00:00:00Z`) - 86_400_000);
  const until = new Date(Date.parse(`${to}T00:00:00Z`) + 2 * 86_400_000);
  const { rows } = await sql<{ day: string; code: string; name: string; created: string; closed: string; median: number | null }>`
    WITH created AS (
      SELECT (r.created_at AT TIME ZONE c.time_zone)::date::text AS day, r.type_id, count(*) AS n
      FROM resident_request r JOIN city c ON c.id = r.city_id
      WHERE ${cities} AND r.created_at >= ${since} AND r.created_at < ${until}
      GROUP BY 1, 2
    ), closed AS (
      SELECT (r.closed_at AT TIME ZONE c.time_zone)::date::text AS day, r.type_id, count(*) AS n,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM r.closed_at - r.created_at) / 3600) AS median
      FROM resident_request r JOIN city c ON c.id = r.city_id
      WHERE ${cities} AND r.closed_at >= ${since} AND r.closed_at < ${until}
      GROUP BY 1, 2
    )
    SELECT coalesce(a.day, b.day) AS day, t.code, t.name, coalesce(a.n, 0) AS created, coalesce(b.n, 0) AS closed, b.median
    FROM created a FULL JOIN closed b ON a.day = b.day AND a.type_id = b.type_id
    JOIN request_type t ON t.id = coalesce(a.type_id, b.type_id)
    WHERE coalesce(a.day, b.day) BETWEEN ${from} AND ${to}
    ORDER BY 1, 2
  `.execute(db);
  return rows.map((row) => ({
    day: row.day,
    typeCode: row.code,
    typeName: row.name,
    created: Number(row.created),
    closed: Number(row.closed),
    medianHoursToClose: row.median === null ? null : Math.round(Number(row.median) * 10) / 10,
  }));
}
