import { readdir } from 'node:fs/promises';
import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';

/**
 * The migrations: every `NNNN-name.ts` of ./migrations/, by name, loaded once at the first use. Adding one is adding
 * its file (docs/architecture.md, the recipe); they ship with the service as its other source files do.
 */
let loaded: Promise<Record<string, Migration>> | undefined;
const MIGRATION_FILE = /^(\d{4}-[a-z0-9-]+)\.ts$/;

function migrations(): Promise<Record<string, Migration>> {
  loaded ??= (async () => {
    const folder = new URL('./migrations/', import.meta.url);
    const names = (await readdir(folder)).flatMap((file) => MIGRATION_FILE.exec(file)?.[1] ?? []).sort();
    const modules = await Promise.all(names.map((name) => import(new URL(`${name}.ts`, folder).href) as Promise<Migration>));
    return Object.fromEntries(names.map((name, i) => [name, modules[i]]));
  })();
  return loaded;
}

const provider: MigrationProvider = {
  getMigrations: migrations,
};

/** Brings the schema up to date; Kysely's migration lock makes concurrent starts safe. */
export async function migrateToLatest(db: Kysely<any>, schema?: string): Promise<string[]> {
  if (await isUpToDate(db, schema)) return [];
  // Numbers are handed out to work done in parallel, so a database may have run 0013 before 0011 exists: run the
  // missing ones whatever their place in the order (each migration stands on its own).
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Whether every migration is already recorded: one read, where the migrator would create its tables, take its
 * lock and compare (a few hundred milliseconds of every start on PGlite). Any doubt runs the migrator.
 */
async function isUpToDate(db: Kysely<any>, schema?: string): Promise<boolean> {
  try {
    const table = schema ? sql.id(schema, 'kysely_migration') : sql.id('kysely_migration');
    const { rows } = await sql<{ name: string }>`SELECT name FROM ${table}`.execute(db);
    const applied = new Set(rows.map((r) => r.name));
    return Object.keys(await migrations()).every((name) => applied.has(name));
  } catch {
    return false;
  }
}
