// `npm start`'s demo load (src/demo/load.ts): the import runs in a child process, whose memory leaves with it; on the
// embedded database the server's own PGlite is closed for it and reopened after. An import that fails fails the
// start with its own error and leaves the data directory free.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { buildApp } from '../../src/app.ts';
import { holdsEmbeddedDatabase, openDatabase, type Database, type DatabaseKind, type DatabaseOptions } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { DEMO_BUNDLE_PATH, loadDemoDataInChildProcessIfEmpty, loadDemoDataIntoNewDataDir } from '../../src/demo/load.ts';
import { testConfig } from '../helpers/app.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';
import { freePort } from '../helpers/net.ts';
import { startNpmStart, waitReady } from '../helpers/server-process.ts';

const CHILDREN = new URL('../helpers/demo-import-children.ts', import.meta.url);
const BUNDLE = JSON.parse(fs.readFileSync(DEMO_BUNDLE_PATH, 'utf8')) as { cities: { status?: string }[]; cityGroups: unknown[] };
const DEMO_CITIES = BUNDLE.cities.length;
const ACTIVE_CITIES = BUNDLE.cities.filter((c) => c.status !== 'NON_ACTIF').length;

/** Which child process test/helpers/demo-import-children.ts plays, for this test. */
function playChild(t: { after: (fn: () => void) => void }, child: 'recorded' | 'dies', pidFile = ''): void {
  process.env.DEMO_IMPORT_CHILD = child;
  process.env.DEMO_IMPORT_PID_FILE = pidFile;
  t.after(() => {
    delete process.env.DEMO_IMPORT_CHILD;
    delete process.env.DEMO_IMPORT_PID_FILE;
  });
}

/** A pino logger whose lines the test reads. */
function recordingLogger() {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line).msg) });
  return { logger, lines };
}

function tempDir(t: { after: (fn: () => void) => void }, prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** An empty migrated database as the server opens it: PGlite on a data directory, or a PostgreSQL schema. */
async function emptyDatabase(t: { after: (fn: () => Promise<void> | void) => void }, kind: DatabaseKind): Promise<{ database: Database; options: DatabaseOptions }> {
  if (kind === 'postgres') {
    const database = await createTestDatabase('postgres');
    t.after(() => database.close());
    return { database, options: { databaseUrl: process.env.DATABASE_URL!, dataDir: null, schema: database.schema } };
  }
  const options: DatabaseOptions = { databaseUrl: null, dataDir: tempDir(t, 'collecte-demo-load-') };
  const database = await openDatabase(options);
  // Closed by the load when it runs the child; closing again is a no-op.
  t.after(() => database.close());
  await migrateToLatest(database.db);
  return { database, options };
}

async function countCities(database: Database): Promise<number> {
  const row = await database.db.selectFrom('city').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

for (const kind of testDatabaseKinds()) {
  describe(`demo load in a child process (${kind})`, { timeout: 120_000 }, () => {
    it('imports into an empty database from another process, and the app then serves the demo cities', async (t) => {
      const { database, options } = await emptyDatabase(t, kind);
      const pidFile = path.join(tempDir(t, 'collecte-demo-pid-'), 'pid');
      playChild(t, 'recorded', pidFile);
      const { logger, lines } = recordingLogger();
      const loaded = await loadDemoDataInChildProcessIfEmpty(database, {
        databaseOptions: options,
        mediaDir: tempDir(t, 'collecte-demo-media-'),
        logger,
        processFile: CHILDREN,
      });
      if (kind === 'pglite') t.after(() => loaded.database.close());
      assert.equal(loaded.cities, DEMO_CITIES);
      assert.notEqual(Number(fs.readFileSync(pidFile, 'utf8')), process.pid, 'imported by another process');
      assert.deepEqual(lines, [`demo data loaded: ${DEMO_CITIES} cities in ${BUNDLE.cityGroups.length} groups`]);
      if (kind === 'pglite') {
        assert.notEqual(loaded.database, database, 'reopened after the child used the data directory');
        await assert.rejects(countCities(database), 'the one opened before is closed');
      } else {
        assert.equal(loaded.database, database);
      }

      const app = await buildApp({ config: testConfig(), database: loaded.database });
      t.after(() => app.close());
      const cities = await app.inject('/public/cities');
      assert.equal(cities.statusCode, 200);
      assert.equal(cities.json().length, ACTIVE_CITIES);

      // Filled: nothing to do, no child, the same database.
      const again = await loadDemoDataInChildProcessIfEmpty(loaded.database, { databaseOptions: options, mediaDir: '/nonexistent', logger });
      assert.deepEqual(again, { database: loaded.database, cities: 0 });
    });

    it('fails with the import’s own error, and leaves the database empty and free', async (t) => {
      const { database, options } = await emptyDatabase(t, kind);
      const bundlePath = path.join(tempDir(t, 'collecte-demo-bad-'), 'bundle.json');
      fs.writeFileSync(bundlePath, '{"cities": [');
      await assert.rejects(
        loadDemoDataInChildProcessIfEmpty(database, { databaseOptions: options, mediaDir: tempDir(t, 'collecte-demo-media-'), logger: pino({ level: 'silent' }), bundlePath }),
        (err: Error) => {
          assert.equal(err.name, 'BundleValidationError');
          assert.match(err.message, /^The bundle is invalid \(1 fault\):\n\(bundle\): /);
          assert.match(err.stack ?? '', /bundle\/import\.ts/, 'the stack where it was thrown');
          assert.equal((err as Error & { faults: unknown[] }).faults.length, 1, 'its own fields');
          return true;
        },
      );
      if (kind === 'pglite') {
        const reopened = await openDatabase(options);
        t.after(() => reopened.close());
        assert.equal(await countCities(reopened), 0);
      } else {
        assert.equal(await countCities(database), 0);
      }
    });

    it('fails when the child dies without an answer, and leaves the database free', async (t) => {
      const { database, options } = await emptyDatabase(t, kind);
      playChild(t, 'dies');
      await assert.rejects(
        loadDemoDataInChildProcessIfEmpty(database, { databaseOptions: options, mediaDir: '/nonexistent', logger: pino({ level: 'silent' }), processFile: CHILDREN }),
        /^Error: the demo import's process was killed by SIGKILL without an answer$/,
      );
      if (kind === 'pglite') {
        // The child's lock names a process that is gone: the next open takes it over.
        const reopened = await openDatabase(options);
        t.after(() => reopened.close());
        assert.equal(await countCities(reopened), 0);
      }
    });
  });
}

describe('demo load into a new embedded data directory', { timeout: 120_000 }, () => {
  it('makes, migrates and fills the database from another process before anything opens it', async (t) => {
    const dataDir = tempDir(t, 'collecte-demo-new-');
    const options: DatabaseOptions = { databaseUrl: null, dataDir };
    const pidFile = path.join(tempDir(t, 'collecte-demo-pid-'), 'pid');
    playChild(t, 'recorded', pidFile);
    const { logger, lines } = recordingLogger();
    const cities = await loadDemoDataIntoNewDataDir({ databaseOptions: options, mediaDir: tempDir(t, 'collecte-demo-media-'), logger, processFile: CHILDREN });
    assert.equal(cities, DEMO_CITIES);
    assert.notEqual(Number(fs.readFileSync(pidFile, 'utf8')), process.pid, 'imported by another process');
    assert.deepEqual(lines, ['migrations applied', `demo data loaded: ${DEMO_CITIES} cities in ${BUNDLE.cityGroups.length} groups`]);

    const database = await openDatabase(options);
    t.after(() => database.close());
    assert.deepEqual(await migrateToLatest(database.db), [], 'migrated by the child');
    const app = await buildApp({ config: testConfig(), database });
    t.after(() => app.close());
    assert.equal((await app.inject('/public/cities')).json().length, ACTIVE_CITIES);
    // A directory that holds a database is not new: its emptiness is looked at once it is open.
    assert.equal(await loadDemoDataIntoNewDataDir({ databaseOptions: options, mediaDir: '/nonexistent', logger }), null);
  });

  it('fails with the import’s own error and leaves the directory free, its database empty for the next start', async (t) => {
    const dataDir = tempDir(t, 'collecte-demo-new-');
    const bundlePath = path.join(tempDir(t, 'collecte-demo-bad-'), 'bundle.json');
    fs.writeFileSync(bundlePath, '{"cities": [');
    await assert.rejects(
      loadDemoDataIntoNewDataDir({ databaseOptions: { databaseUrl: null, dataDir }, mediaDir: tempDir(t, 'collecte-demo-media-'), logger: pino({ level: 'silent' }), bundlePath }),
      { name: 'BundleValidationError', message: /^The bundle is invalid/ },
    );
    assert.ok(holdsEmbeddedDatabase(dataDir));
    const database = await openDatabase({ databaseUrl: null, dataDir });
    t.after(() => database.close());
    assert.equal(await countCities(database), 0);
  });

  it('leaves PostgreSQL to loadDemoDataInChildProcessIfEmpty', async () => {
    const options: DatabaseOptions = { databaseUrl: 'postgres://127.0.0.1:1/none', dataDir: '/nonexistent' };
    assert.equal(await loadDemoDataIntoNewDataDir({ databaseOptions: options, mediaDir: '/nonexistent', logger: pino({ level: 'silent' }) }), null);
  });
});

/** A PostgreSQL database of the test's own (a first start migrates the default schema), dropped after. */
async function scratchDatabase(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const name = `collecte_first_start_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  t.after(() => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

for (const kind of testDatabaseKinds()) {
  describe(`npm start's first start (${kind})`, { timeout: 180_000 }, () => {
    it('loads the demo data once and serves its cities', async (t) => {
      const env = { DATA_DIR: tempDir(t, 'collecte-first-start-'), DATABASE_URL: kind === 'postgres' ? await scratchDatabase(t) : '' };
      const port = await freePort();
      for (const start of ['first', 'second']) {
        const server = startNpmStart(port, env);
        t.after(() => void server.proc.kill('SIGKILL'));
        await waitReady(port, server);
        const cities = await fetch(`http://127.0.0.1:${port}/public/cities`);
        assert.equal(cities.status, 200);
        assert.equal(((await cities.json()) as unknown[]).length, ACTIVE_CITIES, `${start} start`);
        server.proc.kill('SIGTERM');
        assert.equal(await server.exited, 0, server.output());
        assert.equal(server.output().includes(`demo data loaded: ${DEMO_CITIES} cities`), start === 'first', server.output());
      }
    });
  });
}
