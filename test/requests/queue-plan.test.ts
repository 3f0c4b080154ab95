import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CompiledQuery, sql, type Kysely, type KyselyPlugin, type QueryId, type RootOperationNode } from 'kysely';
import type { DB } from '../../src/db/types.ts';
import { findOpenDuplicate, listRequests, requestsOfDevice } from '../../src/requests/repository.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';
import { ids, seedCities } from '../helpers/city-fixtures.ts';

/**
 * The plans of the requests' reads (src/requests/repository.ts) on a table large enough for the planner to choose
 * (20,000 requests over 20 groups, statistics taken): the statements the repository's functions really send are
 * captured and explained, and each must go through its index of migration 0020. EXPLAIN is PostgreSQL's planner on
 * both databases (PGlite is PostgreSQL), so both are checked.
 */

const REQUESTS = 20_000;
const GROUPS = 20;
const NOW = new Date('2026-11-30T13:00:00.000Z');

/** The statements `work` sends through `db`, compiled as they were sent. */
async function statementsOf(db: Kysely<DB>, work: (db: Kysely<DB>) => Promise<unknown>): Promise<CompiledQuery[]> {
  const sent: { node: RootOperationNode; queryId: QueryId }[] = [];
  const recorder: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      sent.push({ node, queryId });
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  await work(db.withPlugin(recorder));
  return sent.map(({ node, queryId }) => db.getExecutor().compileQuery(node, queryId));
}

/** Each statement's plan (EXPLAIN, with its parameters), one string per statement. */
async function plansOf(db: Kysely<DB>, work: (db: Kysely<DB>) => Promise<unknown>): Promise<string[]> {
  const plans: string[] = [];
  for (const statement of await statementsOf(db, work)) {
    const { rows } = await db.executeQuery<Record<string, string>>(CompiledQuery.raw(`EXPLAIN ${statement.sql}`, [...statement.parameters]));
    plans.push(`${statement.sql}\n${rows.map((row) => Object.values(row).join(' ')).join('\n')}`);
  }
  return plans;
}

/**
 * Besides the fixtures' two groups, 18 more with a city each; REQUESTS requests spread evenly over the 20 groups and
 * their types, a year of created_at, one in six still open (the status turns with neither the group nor the type, so
 * that every group has open requests of every type); every missed collection with its key, every request with
 * its author as follower. Then ANALYZE, as autovacuum (PostgreSQL) or the import (PGlite) would.
 */
async function seedQueue(db: Kysely<DB>): Promise<void> {
  await seedCities(db);
  await sql`
    INSERT INTO city_group (id, name, type, code, siren)
    SELECT gen_random_uuid(), 'Groupe ' || g, 'Communauté de communes', 'G' || g, (200000000 + g)::text FROM generate_series(3, ${GROUPS}) AS g
  `.execute(db);
  await sql`
    INSERT INTO city (id, name, country, status, city_group_id)
    SELECT gen_random_uuid(), 'Ville de ' || g.name, 'France', 'ACTIF', g.id FROM city_group g WHERE g.id NOT IN (${ids.group}, ${ids.emptyGroup})
  `.execute(db);
  await sql`
    WITH c AS (
      SELECT DISTINCT ON (city_group_id) id, city_group_id, (dense_rank() OVER (ORDER BY city_group_id) - 1)::int AS k
      FROM city WHERE status = 'ACTIF' AND city_group_id IS NOT NULL ORDER BY city_group_id, id
    ), t AS (
      SELECT id, city_group_id, code, target_hours, (row_number() OVER (PARTITION BY city_group_id ORDER BY code) - 1)::int AS k,
             (count(*) OVER (PARTITION BY city_group_id))::int AS n
      FROM request_type
    ), r AS (
      SELECT i, c.id AS city_id, c.city_group_id, t.id AS type_id, t.code, t.target_hours,
             ${NOW}::timestamptz - (i % 365) * interval '1 day' - (i % 1440) * interval '1 minute' AS created_at,
             (ARRAY['RECUE', 'RESOLUE', 'RESOLUE', 'REJETEE', 'RESOLUE', 'ANNULEE'])[1 + (i / (${GROUPS} * 8)) % 6] AS status
      FROM generate_series(1, ${REQUESTS}::int) AS i
      JOIN c ON c.k = i % ${GROUPS}
      JOIN t ON t.city_group_id = c.city_group_id AND t.k = (i / ${GROUPS}) % t.n
    )
    INSERT INTO resident_request
      (id, city_group_id, city_id, type_id, reference, status, description, duplicate_key, device_id, created_at, updated_at, closed_at, due_at)
    SELECT gen_random_uuid(), city_group_id, city_id, type_id, '2026-' || lpad(i::text, 6, '0'), status, 'Demande ' || i,
           CASE WHEN code = 'collecte-non-effectuee' THEN 'key-' || i END, 'device-' || i, created_at, created_at,
           CASE WHEN status <> 'RECUE' THEN created_at + interval '1 day' END, created_at + target_hours * interval '1 hour'
    FROM r
  `.execute(db);
  await sql`INSERT INTO request_follower (request_id, device_id, created_at) SELECT id, device_id, created_at FROM resident_request`.execute(db);
  await sql`ANALYZE`.execute(db);
}

for (const kind of testDatabaseKinds()) {
  describe(`resident requests' plans (${kind})`, () => {
    it('reads the queue, a status, a missed collection’s open report and a device’s list through their indexes', async (t) => {
      const database = await createTestDatabase(kind);
      t.after(() => database.close());
      const db = database.db;
      await seedQueue(db);
      const { key, deviceId } = (await db
        .selectFrom('resident_request')
        .select(['duplicate_key as key', 'device_id as deviceId'])
        .where('city_group_id', '=', ids.group)
        .where('status', '=', 'RECUE')
        .where('duplicate_key', 'is not', null)
        .executeTakeFirstOrThrow()) as { key: string; deviceId: string };

      const queue = await plansOf(db, (db) => listRequests(db, { groupIds: [ids.group], now: NOW }, { page: 2, pageSize: 20 }));
      assert.equal(queue.length, 3, 'the total, the page’s ids, its rows');
      assert.match(queue[0], /request_count/, queue[0]);
      assert.match(queue[1], /resident_request_queue_idx/, queue[1]);
      assert.match(queue[2], /resident_request_pkey/, queue[2]);

      const received = await plansOf(db, (db) => listRequests(db, { groupIds: [ids.group], status: 'RECUE', now: NOW }, { page: 2, pageSize: 20 }));
      assert.equal(received.length, 3, 'the total, the page’s ids, its rows');
      // An open status is found by its own index or among the open requests' (their due times): either reads no other.
      assert.match(received[1], /resident_request_(status|overdue)_idx/, received[1]);
      const resolved = await plansOf(db, (db) => listRequests(db, { groupIds: [ids.group], status: 'RESOLUE', now: NOW }, { page: 2, pageSize: 20 }));
      assert.match(resolved[1], /resident_request_status_idx/, resolved[1]);
      // With a filter the counters do not hold, the total is counted through the index too.
      const ofType = await plansOf(db, (db) => listRequests(db, { groupIds: [ids.group], status: 'RECUE', typeCode: 'bac-vole', now: NOW }, { page: 1, pageSize: 20 }));
      assert.match(ofType[0], /resident_request_(status|overdue)_idx/, ofType[0]);

      // The overdue ones: their count reads the open requests' due times only; their page, those or the queue's order
      // (with a LIMIT, walking the queue until 20 are found may be cheaper: the planner chooses by the statistics).
      const overdue = await plansOf(db, (db) => listRequests(db, { groupIds: [ids.group], overdue: true, now: NOW }, { page: 1, pageSize: 20 }));
      assert.match(overdue[0], /resident_request_overdue_idx/, overdue[0]);
      assert.match(overdue[1], /resident_request_(overdue|queue)_idx/, overdue[1]);

      const [duplicate] = await plansOf(db, (db) => findOpenDuplicate(db, key));
      assert.match(duplicate, /resident_request_open_duplicate_idx/, duplicate);

      const [ofDevice] = await plansOf(db, (db) => requestsOfDevice(db, deviceId, 100));
      assert.match(ofDevice, /request_follower_device_idx/, ofDevice);
    });
  });
}
