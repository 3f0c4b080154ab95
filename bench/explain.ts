/**
 * EXPLAIN ANALYZE of every query GET /public/cities/:id sends for one city, on the database of DATABASE_URL
 * (or the PGlite of DATA_DIR): proves the per-city path uses indexes at national scale. Prints each query's
 * plan and flags sequential scans.  Usage: DATABASE_URL=… node bench/explain.ts [cityId]
 */
import { Kysely, PGliteDialect, PostgresDialect, sql, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import path from 'node:path';
import type { DB } from '../src/db/types.ts';
import { findCities } from '../src/domain/city-model/read.ts';

const captured: CompiledQuery[] = [];
const dialect = process.env.DATABASE_URL
  ? new PostgresDialect({ pool: new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 }) })
  : new PGliteDialect({ pglite: await PGlite.create(path.join(process.env.DATA_DIR ?? './data', 'pgdata')) });
const db = new Kysely<DB>({ dialect, log: (event) => void captured.push(event.query) });

const cityId =
  process.argv.slice(2).find((a) => !a.startsWith("--")) ??
  (await db.selectFrom('city').select('id').where('status', '=', 'ACTIF').orderBy('name', 'desc').limit(1).executeTakeFirstOrThrow()).id;
if (!process.argv.includes("--no-analyze")) await sql`ANALYZE`.execute(db);
captured.length = 0;
const [city] = await findCities(db, { id: cityId }, new Date());
console.log(`city ${city?.name} (${cityId}): ${captured.length} statements`);
let scans = 0;
for (const query of captured) {
  if (!/^\s*select/i.test(query.sql)) continue;
  const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>({ ...query, sql: `EXPLAIN ANALYZE ${query.sql}`, query: query.query });
  const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
  // A sequential scan of a table of a few pages (a handful of city groups) is the right plan; of a large one, not.
  const seq = [...plan.matchAll(/Seq Scan on (\w+).*actual time=\S+ rows=(\d+)/g)].find((m) => Number(m[2]) > 1000);
  if (seq) scans++;
  console.log(`\n${seq ? 'SEQ SCAN ' : 'indexed  '}${query.sql.replace(/\s+/g, ' ').slice(0, 160)}\n${plan}`);
}
console.log(`\n${scans} of the city's queries scan a table`);
await db.destroy();
process.exitCode = scans ? 1 : 0;
