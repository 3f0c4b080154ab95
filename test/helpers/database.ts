import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { DB } from '../../src/db/types.ts';
import { openDatabase, type Database, type DatabaseKind, type DatabaseOptions } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

/** The databases every test file runs against: PGlite always, PostgreSQL too when DATABASE_URL is set. */
export function testDatabaseKinds(): DatabaseKind[] {
  return process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * A fresh, migrated database: an in-memory PGlite, or a PostgreSQL schema of its own that is dropped on close,
 * so test files never see each other's rows.
 */
export interface TestDatabaseOptions extends Pick<DatabaseOptions, 'poolSize' | 'timeouts' | 'onConnectionError'> {
  /** PostgreSQL: connect through this local port (a TCP proxy the test controls) rather than to the server itself. */
  viaPort?: number;
  /** PostgreSQL: the connections' application_name, to find them in pg_stat_activity. */
  applicationName?: string;
  /**
   * Rows to write before the database is handed over, through a connection with the default timeouts: a test that
   * gives the service short timeouts (to see a black-holed server fail fast) must not see its own setup time out.
   */
  seed?: (database: Database) => Promise<void>;
}

export async function createTestDatabase(kind: DatabaseKind, options: TestDatabaseOptions = {}): Promise<Database> {
  if (kind === 'pglite') {
    const database = await freshPglite();
    await options.seed?.(database);
    return database;
  }
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required for PostgreSQL tests');
  const schema = `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = await openDatabase({ databaseUrl: url, dataDir: null, poolSize: 1 });
  await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(admin.db);
  await admin.close();
  const migrating = await openDatabase({ databaseUrl: url, dataDir: null, schema, poolSize: 1 });
  try {
    await withSchemaLock(url, () => migrateToLatest(migrating.db, schema));
    await options.seed?.(migrating);
  } finally {
    await migrating.close();
  }
  const appUrl = new URL(url);
  if (options.viaPort) {
    appUrl.hostname = '127.0.0.1';
    appUrl.port = String(options.viaPort);
  }
  if (options.applicationName) appUrl.searchParams.set('application_name', options.applicationName);
  const database = await openDatabase({
    databaseUrl: appUrl.toString(),
    dataDir: null,
    schema,
    poolSize: options.poolSize ?? 20,
    timeouts: options.timeouts,
    onConnectionError: options.onConnectionError,
  });
  return {
    db: database.db,
    kind: 'postgres',
    schema,
    poolStats: database.poolStats,
    async close() {
      await database.close();
      const cleanup = await openDatabase({ databaseUrl: url, dataDir: null, poolSize: 1 });
      await withSchemaLock(url, () => sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(cleanup.db));
      await cleanup.close();
    },
  };
}

/**
 * Kysely's migrator lists the tables of every schema to find its own; a schema dropped by another test process
 * in the middle of that listing makes it fail ("schema … does not exist"). Migrations and drops therefore take
 * turns, through a PostgreSQL advisory lock shared by every test process.
 */
async function withSchemaLock<T>(url: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(72150001)');
    return await work();
  } finally {
    await client.query('SELECT pg_advisory_unlock(72150001)').catch(() => {});
    await client.end();
  }
}

/**
 * A migrated, empty embedded database made once per test process and copied for each test: starting PGlite from a
 * data directory image skips initdb and the migrations, about a second per test.
 */
let template: Promise<Blob> | undefined;

async function makeTemplate(): Promise<Blob> {
  const pglite = await PGlite.create();
  const db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite }) });
  await migrateToLatest(db);
  const image = await pglite.dumpDataDir('none');
  await db.destroy();
  return image;
}

async function freshPglite(): Promise<Database> {
  template ??= makeTemplate();
  const pglite = await PGlite.create({ loadDataDir: await template });
  const db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite }) });
  return {
    db,
    kind: 'pglite',
    async close() {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}
