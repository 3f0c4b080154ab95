import { randomInt, randomUUID } from 'node:crypto';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../src/db/types.ts';
import { openDatabase } from '../src/db/database.ts';
import { timedLoops } from './processes.ts';

/**
 * Resident requests (`--only requests`, wired in bench/run.ts).
 *
 * Creation: POST /public/requests of type `autre` in a demo city (no calendar rule applies), each with a device of
 * its own so the per-device limit never answers 429, against its baseline: one bare INSERT of the same
 * resident_request row per request, sent straight through the same driver (Kysely on PGlite or pg) at the same
 * concurrency, no HTTP (as bench/raw-upsert.ts does for completions).
 *
 * The staff queue: SEED_REQUESTS rows written by set-based SQL (generate_series) over the demo groups, cities and
 * types, with a year of created_at and a mix of statuses, each with its author as follower and its history; then
 * GET /admin/requests by group, a page spread over the whole queue per request, plain, `status=RECUE` and
 * `overdue=true`.
 */

/** The rows of the staff queue case. */
export const SEED_REQUESTS = 100_000;
/** Every row the bench writes carries a device id starting with this, so that a PostgreSQL database can be cleaned. */
const DEVICE_PREFIX = 'bench-req-';

/** The body of the k-th creation: a device of its own, a type without calendar rule. */
export function creationBody(cityId: string): string {
  return JSON.stringify({
    deviceId: `${DEVICE_PREFIX}${randomUUID()}`,
    cityId,
    typeCode: 'autre',
    description: 'Le couvercle du bac jaune ne ferme plus depuis la dernière collecte.',
  });
}

/**
 * The creation's baseline: the same resident_request row (group, city, type `autre`, a unique reference, RECUE, the
 * description, a device) inserted bare, one statement per request, by `concurrency` loops for `durationS` seconds.
 */
export async function measureRawRequestInserts(options: {
  databaseUrl: string | null;
  dataDir: string;
  cityId: string;
  concurrency: number;
  warmupS: number;
  durationS: number;
}): Promise<{ rps: number; p50: number; p99: number }> {
  const database = await openDatabase({ databaseUrl: options.databaseUrl, dataDir: path.resolve(options.dataDir), poolSize: 10 });
  const { db } = database;
  try {
    const { city_group_id: groupId, type_id: typeId } = await db
      .selectFrom('city as c')
      .innerJoin('request_type as t', 't.city_group_id', 'c.city_group_id')
      .select(['t.city_group_id', 't.id as type_id'])
      .where('c.id', '=', options.cityId)
      .where('t.code', '=', 'autre')
      .executeTakeFirstOrThrow();
    // References the service's counter never reaches (it starts at 1 per group and year): 1999-<9 digits>.
    let n = randomInt(100_000_000, 900_000_000);
    const insert = () => {
      const now = new Date();
      return db
        .insertInto('resident_request')
        .values({
          id: randomUUID(),
          city_group_id: groupId,
          city_id: options.cityId,
          type_id: typeId,
          reference: `1999-${n++}`,
          status: 'RECUE',
          place_id: null,
          waste_type_id: null,
          date: null,
          recycling_point_id: null,
          latitude: null,
          longitude: null,
          address: null,
          description: 'Le couvercle du bac jaune ne ferme plus depuis la dernière collecte.',
          email: null,
          attributes: '{}',
          planned_for: null,
          duplicate_key: null,
          device_id: `${DEVICE_PREFIX}raw-${randomUUID()}`,
          created_at: now,
          updated_at: now,
          due_at: new Date(now.getTime() + 120 * 3_600_000),
        })
        .execute();
    };
    await timedLoops(options.concurrency, options.warmupS, insert);
    return await timedLoops(options.concurrency, options.durationS, insert);
  } finally {
    await database.close();
  }
}

/**
 * Writes `count` requests in three statements (requests, their authors as followers, their histories): spread over
 * the ACTIF cities of a group in turn and over each group's types, created over the last year; those of the last
 * two weeks mostly open (40 % RECUE, 30 % EN_COURS, 15 % PLANIFIEE, 15 % RESOLUE), older ones mostly closed (85 %
 * RESOLUE, 7 % REJETEE, 5 % ANNULEE, 3 % left open and so overdue). Answers each group's count.
 */
export async function seedRequests(db: Kysely<DB>, count: number): Promise<{ groupId: string; total: number }[]> {
  await sql`
    WITH c AS (
      SELECT id, city_group_id, (row_number() OVER (ORDER BY id) - 1)::int AS k, (count(*) OVER ())::int AS n
      FROM city WHERE status = 'ACTIF' AND city_group_id IS NOT NULL
    ), t AS (
      SELECT id, city_group_id, code, target_hours, (row_number() OVER (PARTITION BY city_group_id ORDER BY code) - 1)::int AS k,
             (count(*) OVER (PARTITION BY city_group_id))::int AS n
      FROM request_type
    ), s AS (
      SELECT i, now() - random() * interval '365 days' AS created_at, random() AS u, random() AS v
      FROM generate_series(1, ${count}::int) AS i
    ), r AS (
      SELECT s.i, s.created_at, s.v, c.id AS city_id, c.city_group_id, t.id AS type_id, t.code, t.target_hours,
             CASE WHEN s.created_at > now() - interval '14 days' THEN
                    CASE WHEN s.u < 0.40 THEN 'RECUE' WHEN s.u < 0.70 THEN 'EN_COURS' WHEN s.u < 0.85 THEN 'PLANIFIEE' ELSE 'RESOLUE' END
                  ELSE
                    CASE WHEN s.u < 0.01 THEN 'RECUE' WHEN s.u < 0.02 THEN 'EN_COURS' WHEN s.u < 0.03 THEN 'PLANIFIEE'
                         WHEN s.u < 0.88 THEN 'RESOLUE' WHEN s.u < 0.95 THEN 'REJETEE' ELSE 'ANNULEE' END
             END AS status
      FROM s
      JOIN c ON c.k = s.i % c.n
      JOIN t ON t.city_group_id = c.city_group_id AND t.k = (s.i / c.n) % t.n
    ), dated AS (
      SELECT r.*,
             CASE WHEN status IN ('RESOLUE', 'REJETEE', 'ANNULEE') THEN least(now(), created_at + v * interval '10 days') END AS closed_at,
             CASE WHEN status = 'RECUE' THEN created_at ELSE least(now(), created_at + v * interval '10 days') END AS updated_at
      FROM r
    )
    INSERT INTO resident_request
      (id, city_group_id, city_id, type_id, reference, status, description, attributes, planned_for, duplicate_key,
       device_id, created_at, updated_at, closed_at, due_at)
    SELECT gen_random_uuid(), city_group_id, city_id, type_id,
           to_char(created_at, 'YYYY') || '-' || (1000000 + i)::text,
           status, 'Demande de banc n° ' || i, '{}',
           CASE WHEN status = 'PLANIFIEE' THEN (now() + interval '3 days')::date END,
           CASE WHEN code = 'collecte-non-effectuee' THEN ${DEVICE_PREFIX} || 'seed|' || i END,
           ${DEVICE_PREFIX} || 'seed-' || i, created_at, updated_at, closed_at, created_at + target_hours * interval '1 hour'
    FROM dated
  `.execute(db);
  await sql`
    INSERT INTO request_follower (request_id, device_id, created_at)
    SELECT id, device_id, created_at FROM resident_request WHERE device_id LIKE ${`${DEVICE_PREFIX}seed-%`}
  `.execute(db);
  await sql`
    INSERT INTO request_update (id, request_id, at, kind, status)
    SELECT gen_random_uuid(), id, created_at, 'STATUS', 'RECUE' FROM resident_request WHERE device_id LIKE ${`${DEVICE_PREFIX}seed-%`}
    UNION ALL
    SELECT gen_random_uuid(), id, updated_at, 'STATUS', status FROM resident_request
    WHERE device_id LIKE ${`${DEVICE_PREFIX}seed-%`} AND status <> 'RECUE'
  `.execute(db);
  const groups = await db
    .selectFrom('resident_request')
    .select(['city_group_id as groupId', (eb) => eb.fn.countAll<string>().as('total')])
    .groupBy('city_group_id')
    .orderBy('city_group_id')
    .execute();
  return groups.map((g) => ({ groupId: g.groupId, total: Number(g.total) }));
}

/** Removes every request the bench wrote (PostgreSQL: the database outlives the run); followers and histories go with them. */
export async function removeBenchRequests(db: Kysely<DB>): Promise<number> {
  const result = await db.deleteFrom('resident_request').where('device_id', 'like', `${DEVICE_PREFIX}%`).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The staff queue's cases: the group's queue (its first five pages, what an agent reads, and any page), its RECUE
 * requests and its overdue ones (any page). `firstPages`: the pages drawn from, null for all of them.
 */
export const QUEUE_CASES = [
  { name: 'queue, pages 1-5', query: '', firstPages: 5 },
  { name: 'queue, any page', query: '', firstPages: null },
  { name: 'status=RECUE, any page', query: '&status=RECUE', firstPages: null },
  { name: 'overdue=true, any page', query: '&overdue=true', firstPages: null },
] as const;

/**
 * The k-th request of a case: the groups in turn, and a page spread over the group's list (a prime stride), so that
 * deep pages (a large OFFSET) are measured as often as the first ones.
 */
export function queuePath(caseQuery: string, pages: { groupId: string; totalPages: number }[], firstPages: number | null, k: number): string {
  const { groupId, totalPages } = pages[k % pages.length];
  const page = 1 + ((Math.floor(k / pages.length) * 7919) % Math.max(Math.min(totalPages, firstPages ?? totalPages), 1));
  return `/admin/requests?cityGroupId=${groupId}${caseQuery}&page=${page}`;
}
