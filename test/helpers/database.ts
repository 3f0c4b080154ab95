import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { openDatabase, type Database, type DatabaseKind } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

/** The databases every test file runs against: PGlite always, PostgreSQL too when DATABASE_URL is set. */
export function testDatabaseKinds(): DatabaseKind[] {
  return process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * A fresh, migrated database: an in-memory PGlite, or a PostgreSQL schema of its own that is dropped on close,
 * so test files never see each other's rows.
 */
export async function createTestDatabase(kind: DatabaseKind): Promise<Database> {
  if (kind === 'pglite') {
    const database = await openDatabase({ databaseUrl: null, dataDir: null });
    await migrateToLatest(database.db);
    return database;
  }
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required for PostgreSQL tests');
  const schema = `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = await openDatabase({ databaseUrl: url, dataDir: null, poolSize: 1 });
  await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(admin.db);
  await admin.close();
  const database = await openDatabase({ databaseUrl: url, dataDir: null, schema, poolSize: 20 });
  await migrateToLatest(database.db, schema);
  return {
    db: database.db,
    kind: 'postgres',
    schema,
    async close() {
      await database.close();
      const cleanup = await openDatabase({ databaseUrl: url, dataDir: null, poolSize: 1 });
      await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(cleanup.db);
      await cleanup.close();
    },
  };
}
