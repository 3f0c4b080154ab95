import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../src/db/types.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';
import { insertCityGroup } from '../helpers/calendar-fixtures.ts';

// The test databases a test file's process keeps from one test to the next (test/helpers/database.ts): each test must
// find what a freshly migrated database holds, whatever the test before it wrote, and a straggler of a finished test
// must never reach the next one's rows.

/** What a test could see of the test before it: rows, the data version, the sequences, the session's settings. */
async function traces(db: Kysely<DB>) {
  const groups = await db.selectFrom('city_group').select('id').execute();
  const { version } = await db.selectFrom('data_version').select('version').executeTakeFirstOrThrow();
  const { rows: [sequence] } = await sql<{ next: string }>`SELECT nextval('conversation_change_seq')::text AS next`.execute(db);
  const { rows: [setting] } = await sql<{ zone: string }>`SELECT current_setting('TimeZone') AS zone`.execute(db);
  const migrations = await db.selectFrom('kysely_migration' as never).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  return { groups: groups.length, version: Number(version), sequence: sequence.next, zone: setting.zone, migrations: (migrations as { n: number }).n };
}

/** Leaves what a test may leave: rows, a moved data version, a drawn sequence, a session setting. */
async function scribble(db: Kysely<DB>) {
  await insertCityGroup(db);
  await db.updateTable('data_version').set({ version: 42 }).execute();
  await sql`SELECT nextval('conversation_change_seq')`.execute(db);
  await sql`SELECT nextval('conversation_change_seq')`.execute(db);
  await sql`SET TimeZone = 'Pacific/Tahiti'`.execute(db);
}

for (const kind of testDatabaseKinds()) {
  describe(`test databases kept between tests (${kind})`, () => {
    it('hands the next test what a fresh database holds, whatever the one before wrote', async () => {
      const first = await createTestDatabase(kind);
      const fresh = await traces(first.db);
      assert.equal(fresh.groups, 0);
      assert.ok(fresh.migrations > 0, 'the migrator’s own rows are there');
      await scribble(first.db);
      const scribbled = await traces(first.db);
      assert.equal(scribbled.groups, 1);
      assert.equal(scribbled.version, 42);
      let schema = first.schema;
      await first.close();

      for (let i = 0; i < 2; i++) {
        const next = await createTestDatabase(kind);
        // Another name on PostgreSQL, whether the schema was kept or made anew.
        if (kind === 'postgres') assert.notEqual(next.schema, schema);
        const seen = await traces(next.db);
        // The session setting is the server's own again: a new connection on PostgreSQL, DISCARD ALL on PGlite.
        assert.deepEqual({ ...seen, zone: undefined }, { ...fresh, zone: undefined });
        if (kind === 'pglite') assert.equal(seen.zone, fresh.zone);
        await scribble(next.db);
        schema = next.schema;
        await next.close();
      }
    });

    it('keeps the embedded database of a finished test for the next test, rather than starting another', { skip: kind !== 'pglite' && 'PGlite alone is kept whole' }, async () => {
      // A PGlite started from the image begins at the image's transaction counter; one kept goes on from where the
      // test before it (and the emptying) left it.
      const counter = async (db: Kysely<DB>) => Number((await sql<{ xid: string }>`SELECT txid_current()::text AS xid`.execute(db)).rows[0].xid);
      const first = await createTestDatabase(kind);
      const before = await counter(first.db);
      await scribble(first.db);
      await first.close();
      const next = await createTestDatabase(kind);
      try {
        assert.ok((await counter(next.db)) > before + 1, 'the next test got the same PGlite, emptied');
      } finally {
        await next.close();
      }
    });

    it('throws away a database whose schema a test changed, and hands the next test a whole one', async () => {
      const first = await createTestDatabase(kind);
      await sql`ALTER TABLE city_group ADD COLUMN scribbled int`.execute(first.db);
      await sql`CREATE INDEX city_group_scribbled ON city_group (scribbled)`.execute(first.db);
      const schema = first.schema;
      await first.close();
      const next = await createTestDatabase(kind);
      if (kind === 'postgres') assert.notEqual(next.schema, schema);
      const { rows } = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM information_schema.columns
        WHERE table_name = 'city_group' AND column_name = 'scribbled' AND table_schema = current_schema()`.execute(next.db);
      assert.equal(rows[0].n, 0, 'the next test never sees the column');
      await next.close();
    });

    it('sees a schema changed in a transaction, a DO block, a SELECT … INTO or after a comment', async () => {
      const changes: [string, (db: Kysely<DB>) => Promise<unknown>][] = [
        ['a transaction', (db) => db.transaction().execute((trx) => sql`CREATE TABLE scribbled (n int)`.execute(trx))],
        ['a DO block', (db) => sql`DO $$ BEGIN EXECUTE 'CREATE TABLE scribbled (n int)'; END $$`.execute(db)],
        ['SELECT … INTO', (db) => sql`SELECT 1 AS n INTO scribbled`.execute(db)],
        ['a leading comment', (db) => sql.raw('/* the test */ -- a line\n  create table scribbled (n int)').execute(db)],
        [
          'a transaction that wrote rows first',
          (db) =>
            db.transaction().execute(async (trx) => {
              await insertCityGroup(trx);
              await sql`CREATE TABLE scribbled (n int)`.execute(trx);
            }),
        ],
      ];
      for (const [how, change] of changes) {
        const first = await createTestDatabase(kind);
        await change(first.db);
        await first.close();
        const next = await createTestDatabase(kind);
        try {
          const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_class WHERE relname = 'scribbled'`.execute(next.db);
          assert.equal(rows[0].n, 0, `a table made in ${how} is gone`);
        } finally {
          await next.close();
        }
      }
    });

    it('hands the next test no planner statistics of the test before, and keeps the database it analyzed', async () => {
      // What the planner knows of city_group: its statistics and the sizes ANALYZE and VACUUM write in place.
      const planner = async (db: Kysely<DB>) =>
        (
          await sql<{ statistics: number; tuples: number; pages: number; visible: number }>`
            SELECT (SELECT count(*)::int FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'city_group') AS statistics,
                   reltuples::float8 AS tuples, relpages AS pages, relallvisible AS visible
              FROM pg_class WHERE oid = 'city_group'::regclass`.execute(db)
        ).rows[0];
      const counter = async (db: Kysely<DB>) => Number((await sql<{ xid: string }>`SELECT txid_current()::text AS xid`.execute(db)).rows[0].xid);
      const first = await createTestDatabase(kind);
      const fresh = await planner(first.db);
      assert.equal(fresh.statistics, 0);
      for (let i = 0; i < 30; i++) await insertCityGroup(first.db, `Groupe ${i}`);
      await sql`VACUUM (ANALYZE) city_group`.execute(first.db);
      const analyzed = await planner(first.db);
      assert.ok(analyzed.statistics > 0 && analyzed.tuples === 30 && analyzed.pages > 0, JSON.stringify(analyzed));
      const before = await counter(first.db);
      await first.close();

      const next = await createTestDatabase(kind);
      try {
        assert.deepEqual(await planner(next.db), fresh);
        if (kind === 'pglite') assert.ok((await counter(next.db)) > before, 'the analyzed PGlite was kept, emptied');
      } finally {
        await next.close();
      }
    });

    it('fails a query of a finished test instead of running it on the next test’s database', async () => {
      const first = await createTestDatabase(kind);
      const straggler = first.db;
      await first.close();
      const next = await createTestDatabase(kind);
      await assert.rejects(insertCityGroup(straggler, 'Tard'));
      assert.equal((await next.db.selectFrom('city_group').select('id').execute()).length, 0);
      await next.close();
    });
  });
}
