import { sql, type Kysely } from 'kysely';
import type { DB } from './types.ts';

/**
 * autovacuum's rule for when a table's planner statistics are stale, with PostgreSQL's defaults: more rows changed
 * than autovacuum_analyze_threshold (50) plus autovacuum_analyze_scale_factor (a tenth) of the rows the table held
 * when last analyzed (none when it never was).
 */
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE_FACTOR = 0.1;

/**
 * Refreshes the planner statistics of the tables a write changed enough to move them, now rather than when
 * autovacuum comes by: PGlite runs no autovacuum, and on PostgreSQL it comes late after a large import, while without
 * statistics the per-city reads hash-join whole tables instead of using their indexes. `changes` holds the rows each
 * table had inserted, updated or deleted. A small edit analyzes nothing (ANALYZE costs some 200 ms on the embedded
 * database even for a few rows), as autovacuum would not; the requests' and the chat's tables, which residents write
 * row by row, have their own hourly maintenance. Answers the tables analyzed.
 */
export async function refreshStatistics(db: Kysely<DB>, changes: ReadonlyMap<string, number>): Promise<string[]> {
  const changed = [...changes].filter(([, rows]) => rows > ANALYZE_THRESHOLD);
  if (changed.length === 0) return [];
  // reltuples is -1 for a table never analyzed nor vacuumed: no rows known.
  const { rows } = await sql<{ name: string; tuples: number }>`
    SELECT t.name, greatest(c.reltuples, 0)::float8 AS tuples
      FROM unnest(${changed.map(([table]) => table)}::text[]) AS t(name)
      JOIN pg_class c ON c.oid = to_regclass(quote_ident(t.name))`.execute(db);
  const known = new Map(rows.map((row) => [row.name, Number(row.tuples)]));
  const stale = changed.filter(([table, count]) => known.has(table) && count > ANALYZE_THRESHOLD + ANALYZE_SCALE_FACTOR * known.get(table)!).map(([table]) => table);
  if (stale.length > 0) await sql`ANALYZE ${sql.join(stale.map((table) => sql.id(table)))}`.execute(db);
  return stale;
}
