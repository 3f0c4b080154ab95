import { createHash, randomBytes } from 'node:crypto';
import { after } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DB } from '../../src/db/types.ts';
import { openDatabase, type Database, type DatabaseKind, type DatabaseOptions } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { moduleGraph } from './import-graph.ts';

/** The databases every test file runs against: PGlite always, PostgreSQL too when DATABASE_URL is set. */
export function testDatabaseKinds(): DatabaseKind[] {
  return process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * The database the browser tests (test/web/, test/console-web/) run against: the embedded one, with or without
 * DATABASE_URL. They check the web apps through the API, and the API's behaviour on each database is the API tests'
 * (which run on both): a second database made every browser file run twice, a third of the CI run's time. The races
 * the browser tests found on PostgreSQL were the web apps' own, timing under load, and load is what the parallel
 * run gives either database.
 */
export function browserDatabaseKinds(): DatabaseKind[] {
  return ['pglite'];
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
  const pooled = await takeSchema(url);
  const { schema } = pooled;
  if (options.seed) {
    const seeding = await openDatabase({ databaseUrl: url, dataDir: null, schema, poolSize: 1 });
    try {
      await options.seed(seeding);
    } finally {
      await seeding.close();
    }
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
  let closed = false;
  return {
    db: database.db,
    kind: 'postgres',
    schema,
    poolStats: database.poolStats,
    async close() {
      if (closed) return;
      closed = true;
      await database.close();
      await releaseSchema(url, pooled);
    },
  };
}

/** One connection for a few statements of the helper's own (creating, recording, dropping schemas). */
async function onConnection<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A new PostgreSQL schema with every migration in it. Kysely's migrator takes some 200 ms a schema, in turns with
 * every other test process (its advisory lock), and lists the tables of every schema of the database to find its
 * own, which fails when another process drops one in the middle ("schema … does not exist"). So it runs once: the
 * statements it sends are recorded, with the schema's name as a placeholder, checked to build the very same schema
 * (see recordMigrations), kept on disk for the other processes, and each test's schema is then made by sending
 * them at once, in one transaction, with no lock.
 */
async function freshSchema(url: string): Promise<string> {
  const schema = schemaName();
  recipe ??= loadRecipe(url);
  const script = await recipe;
  if (script !== null) {
    await onConnection(url, (client) => client.query(script.replaceAll(SCHEMA_PLACEHOLDER, schema)));
    return schema;
  }
  // No recipe to trust: the migrator itself, tried again when a schema dropped meanwhile made its listing fail.
  await retried(async () => {
    await onConnection(url, (client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE; CREATE SCHEMA "${schema}"`));
    await migrateSchema(url, schema);
  });
  return schema;
}

/** A new schema's name: `test_`, the time, and random letters; letters, digits and underscores. */
const schemaName = () => `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;

/** The schema's name in a recorded script; schemas are named `test_…`, letters, digits and underscores. */
const SCHEMA_PLACEHOLDER = '__collecte_test_schema__';

let recipe: Promise<string | null> | undefined;

async function migrateSchema(url: string, schema: string, log?: (query: { sql: string; parameters: readonly unknown[] }) => void): Promise<void> {
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1, options: `-c search_path=${schema}` }) }),
    log: log && ((event) => void (event.level === 'query' && log(event.query))),
  });
  try {
    await migrateToLatest(db, schema);
  } finally {
    await db.destroy();
  }
}

async function retried<T>(work: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (attempt >= attempts) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

/** The recorded script for this server's version and these migrations, from disk or made and written there. */
async function loadRecipe(url: string): Promise<string | null> {
  const version = await onConnection(url, async (client) => (await client.query<{ v: string }>("SELECT current_setting('server_version_num') AS v")).rows[0].v);
  const file = path.join(CACHE_DIR, `postgres-migrations-${migrationsKey(['pg', 'kysely'])}-${version}.sql`);
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  let script: string | null;
  try {
    script = await retried(() => recordMigrations(url));
  } catch (err) {
    process.stderr.write(`Could not record the migrations' statements (${(err as Error).message}): each test migrates its schema\n`);
    return null;
  }
  if (script !== null) writeAtomically(file, script, 'postgres-migrations-');
  else process.stderr.write(`The migrations' statements, sent again, did not make the same schema: each test migrates its schema\n`);
  return script;
}

/**
 * The migrator run on a schema of its own, its statements kept but for what only reads (the catalog listings, its
 * own bookkeeping tables) and its lock; then the script made of them is run on a second schema, and the two schemas
 * compared (tables, columns, constraints, indexes, functions, triggers, sequences, row counts). null when they differ
 * or a statement cannot be written out: each test then runs the migrator.
 */
async function recordMigrations(url: string): Promise<string | null> {
  const suffix = `${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const migrated = `test_migrated_${suffix}`;
  const replayed = `test_replayed_${suffix}`;
  const statements: string[] = [];
  let writable = true;
  try {
    await onConnection(url, (client) => client.query(`CREATE SCHEMA "${migrated}"`));
    await migrateSchema(url, migrated, (query) => {
      const text = query.sql.trim();
      if (/^(begin|commit|rollback)$/i.test(text)) return;
      if (/^with set_timeout as|pg_advisory_(xact_)?(un)?lock/i.test(text)) return;
      if (/^select\b/i.test(text) && (/"pg_catalog"\./.test(text) || /^select\b[^;]*\bfrom "[^"]+"\."kysely_migration(_lock)?"/i.test(text))) return;
      const inlined = inlineParameters(text, query.parameters);
      if (inlined === null) writable = false;
      else statements.push(inlined.replaceAll(`"${migrated}"`, `"${SCHEMA_PLACEHOLDER}"`));
    });
    if (!writable || statements.some((statement) => statement.includes(migrated))) return null;
    const script = [
      'BEGIN',
      `CREATE SCHEMA "${SCHEMA_PLACEHOLDER}"`,
      `SET LOCAL search_path TO "${SCHEMA_PLACEHOLDER}"`,
      ...statements,
      'COMMIT',
    ].join(';\n') + ';\n';
    await onConnection(url, (client) => client.query(script.replaceAll(SCHEMA_PLACEHOLDER, replayed)));
    const [expected, actual] = await onConnection(url, async (client) => [await schemaShape(client, migrated), await schemaShape(client, replayed)]);
    return expected.length > 0 && expected.join('\n') === actual.join('\n') ? script : null;
  } finally {
    await onConnection(url, (client) => client.query(`DROP SCHEMA IF EXISTS "${migrated}" CASCADE; DROP SCHEMA IF EXISTS "${replayed}" CASCADE`));
  }
}

/** The statement with its parameters written as literals; null for a value that has no plain literal. */
function inlineParameters(text: string, parameters: readonly unknown[]): string | null {
  if (parameters.length === 0) return text;
  const literals: string[] = [];
  for (const value of parameters) {
    if (value === null) literals.push('NULL');
    else if (typeof value === 'string') literals.push(pg.Client.prototype.escapeLiteral(value));
    else if (typeof value === 'number' && Number.isFinite(value)) literals.push(String(value));
    else if (typeof value === 'boolean') literals.push(value ? 'TRUE' : 'FALSE');
    else return null;
  }
  return text.replace(/\$(\d+)\b/g, (match, n: string) => literals[Number(n) - 1] ?? match);
}

/** Everything a schema is made of, one line per object, its own name written as a placeholder. */
async function schemaShape(client: pg.Client, schema: string): Promise<string[]> {
  const { rows } = await client.query<{ kind: string; item: string }>(
    `SELECT kind, item FROM (
       SELECT 'relation' AS kind, c.relname || ' ' || c.relkind::text || ' ' || c.relpersistence::text AS item
         FROM pg_class c WHERE c.relnamespace = $1::text::regnamespace
       UNION ALL
       SELECT 'column', c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull::text
              || ' ' || a.attidentity::text || a.attgenerated::text || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
         FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
         LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
         WHERE c.relnamespace = $1::text::regnamespace AND a.attnum > 0 AND NOT a.attisdropped
       UNION ALL
       SELECT 'constraint', k.conname || ' ' || coalesce(c.relname, '') || ' ' || pg_get_constraintdef(k.oid)
         FROM pg_constraint k LEFT JOIN pg_class c ON c.oid = k.conrelid WHERE k.connamespace = $1::text::regnamespace
       UNION ALL
       SELECT 'index', pg_get_indexdef(i.indexrelid)
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relnamespace = $1::text::regnamespace
       UNION ALL
       SELECT 'function', pg_get_functiondef(p.oid) FROM pg_proc p WHERE p.pronamespace = $1::text::regnamespace
       UNION ALL
       SELECT 'trigger', pg_get_triggerdef(t.oid)
         FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE c.relnamespace = $1::text::regnamespace AND NOT t.tgisinternal
       UNION ALL
       SELECT 'sequence', s.sequencename || ' ' || s.data_type || ' ' || s.start_value || ' ' || s.increment_by || ' '
              || coalesce(s.last_value::text, '-')
         FROM pg_sequences s WHERE s.schemaname = $1::text
       UNION ALL
       SELECT 'rows', c.relname || ' ' || (xpath('/row/n/text()',
                query_to_xml(format('SELECT count(*) AS n FROM %I.%I', $1::text, c.relname), false, true, '')))[1]::text
         FROM pg_class c WHERE c.relnamespace = $1::text::regnamespace AND c.relkind IN ('r', 'p')
     ) shape ORDER BY kind, item`,
    [schema],
  );
  return rows.map((row) => `${row.kind} ${row.item.replaceAll(schema, SCHEMA_PLACEHOLDER)}`);
}

/**
 * A migrated, empty embedded database, copied for each test: starting PGlite from a data directory image skips
 * initdb and the migrations, about two seconds. The image is made once for all test processes and kept on disk,
 * under a name that changes with the migrations' code and PGlite's version, so that each test file's process reads it
 * rather than making its own; a process that finds none makes it and writes it for the others. It holds the one
 * database PGlite opens (`postgres`): template0 and template1, which nothing opens, are dropped, a third less to copy
 * at every start.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const CACHE_DIR = path.join(ROOT, 'node_modules/.cache/collecte-test');
const MIGRATIONS = path.join(ROOT, 'src/db/migrate.ts');

async function makeTemplate(): Promise<Uint8Array<ArrayBuffer>> {
  const pglite = await PGlite.create();
  const db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite }) });
  await migrateToLatest(db);
  for (const name of ['template0', 'template1']) {
    // Apart: DROP DATABASE refuses to run in the transaction a string of statements makes.
    await pglite.exec(`UPDATE pg_database SET datistemplate = false WHERE datname = '${name}'`);
    await pglite.exec(`DROP DATABASE ${name}`);
  }
  await pglite.exec('CHECKPOINT');
  const image = await pglite.dumpDataDir('none');
  await db.destroy();
  return new Uint8Array(await image.arrayBuffer());
}

/**
 * A name for what the migrations make: a hash of every module they load and of the versions of the packages they
 * load, and of the given ones.
 */
function migrationsKey(packages: string[]): string {
  const hash = createHash('sha256');
  const graph = moduleGraph(MIGRATIONS);
  // This file too: how the image and the script are made is part of what they are.
  for (const file of [...graph.files, import.meta.filename].sort()) {
    hash.update(`${path.relative(ROOT, file)}\0`);
    hash.update(fs.readFileSync(file));
    hash.update('\0');
  }
  const names = new Set([...packages, ...graph.packages].map(packageName).filter((name) => !name.startsWith('node:')));
  for (const name of [...names].sort()) hash.update(`${name}@${packageVersion(name)}\0`);
  return hash.digest('hex').slice(0, 20);
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function packageVersion(name: string): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/**
 * Written whole or not at all (to a file of this process's own, then renamed), and the older files of the same kind
 * removed. A read-only or full disk leaves nothing: the caller keeps its copy, and the next process makes its own.
 */
function writeAtomically(file: string, data: string | Uint8Array, prefix: string): void {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    fs.writeFileSync(temporary, data);
    fs.renameSync(temporary, file);
    for (const name of fs.readdirSync(CACHE_DIR)) {
      if (name.startsWith(prefix) && !name.endsWith('.tmp') && name !== path.basename(file)) fs.rmSync(path.join(CACHE_DIR, name), { force: true });
    }
  } catch {
    fs.rmSync(temporary, { force: true });
  }
}

/**
 * PGlite reads the image with `arrayBuffer()` at every start. A Blob gives its bytes back piece by piece (some 40 ms
 * for the image); this one copies one buffer whole.
 */
class ImageBlob extends Blob {
  readonly #bytes: Uint8Array<ArrayBuffer>;

  constructor(bytes: Uint8Array<ArrayBuffer>) {
    super([bytes]);
    this.#bytes = bytes;
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    return this.#bytes.slice().buffer;
  }
}

async function loadTemplate(): Promise<{ image: Blob; file: string | null }> {
  const file = path.join(CACHE_DIR, `pglite-template-${migrationsKey(['@electric-sql/pglite'])}.tar`);
  try {
    return { image: new ImageBlob(new Uint8Array(fs.readFileSync(file))), file };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const bytes = await makeTemplate();
  writeAtomically(file, bytes, 'pglite-template-');
  return { image: new ImageBlob(bytes), file: null };
}

let template: Promise<{ image: Blob; file: string | null }> | undefined;

/**
 * PostgreSQL's shared buffers for a test's PGlite: a test's database holds a few hundred rows, and setting up the
 * default 128 MB of buffers was half of each start. Only the cache's size changes; the planner does not count it.
 */
const START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

async function startFromTemplate(): Promise<PGlite> {
  template ??= loadTemplate();
  const { image, file } = await template;
  try {
    return await PGlite.create({ loadDataDir: image, startParams: START_PARAMS });
  } catch (err) {
    if (file === null) throw err;
    // An image on disk that does not start (damaged, or written by hand): made again, once, and replaced.
    fs.rmSync(file, { force: true });
    template = loadTemplate();
    return PGlite.create({ loadDataDir: (await template).image, startParams: START_PARAMS });
  }
}

/**
 * A migrated database emptied for the next test, on either database: what the migrations left besides empty tables,
 * read once per process from a fresh one, put back after every table is emptied. A test's database may only be
 * emptied, not thrown away, when the test changed nothing but rows: a fingerprint of the catalogs (the rows of the
 * schema's tables, columns, defaults, constraints, indexes, functions, triggers, types, sequences, rules and
 * statistics: added, removed or rewritten) taken after the last emptying tells.
 */
interface Session {
  rows<R>(text: string, params?: unknown[]): Promise<R[]>;
  /** Several statements in one string. */
  run(text: string): Promise<void>;
}

const pgliteSession = (pglite: Pick<PGlite, 'query' | 'exec'>): Session => ({
  rows: async <R,>(text: string, params?: unknown[]) => (await pglite.query<R>(text, params)).rows,
  run: async (text) => void (await pglite.exec(text)),
});

const pgSession = (client: pg.Client): Session => ({
  rows: async <R,>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as R[],
  run: async (text) => void (await client.query(text)),
});

/** What a fresh migrated schema holds besides empty tables. */
interface Pristine {
  /** Every table to empty (quoted names): all but the migrator's own, whose rows stay. */
  tables: string[];
  /** The rows the migrations wrote, by table. */
  rows: { table: string; json: string }[];
  /** Every sequence's state. */
  sequences: { name: string; value: string; called: boolean }[];
  /** What the planner knows of each relation's size (pg_class), as JSON: ANALYZE and VACUUM change it in place. */
  sizes: string;
}

const MIGRATOR_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function readPristine(session: Session, schema: string): Promise<Pristine> {
  const relations = await session.rows<{ name: string; kind: string }>(
    `SELECT c.relname AS name, c.relkind::text AS kind FROM pg_class c WHERE c.relnamespace = $1::text::regnamespace AND c.relkind IN ('r', 'p', 'S') ORDER BY 1`,
    [schema],
  );
  const tables = relations.filter((r) => r.kind !== 'S' && !MIGRATOR_TABLES.has(r.name)).map((r) => quoted(r.name));
  const rows: Pristine['rows'] = [];
  for (const table of tables) {
    const [held] = await session.rows<{ json: string | null }>(`SELECT json_agg(t)::text AS json FROM ${quoted(schema)}.${table} t`);
    if (held.json !== null) rows.push({ table, json: held.json });
  }
  const sequences: Pristine['sequences'] = [];
  for (const { name } of relations.filter((r) => r.kind === 'S')) {
    const [state] = await session.rows<{ value: string; called: boolean }>(`SELECT last_value::text AS value, is_called AS called FROM ${quoted(schema)}.${quoted(name)}`);
    sequences.push({ name: quoted(name), ...state });
  }
  const [statistics] = await session.rows<{ n: number }>(`SELECT count(*)::int AS n FROM pg_statistic WHERE starelid IN (SELECT oid FROM pg_class WHERE relnamespace = $1::text::regnamespace)`, [schema]);
  // Emptying deletes the planner's statistics (below): a schema the migrations left some in is not one it can restore.
  if (statistics.n !== 0) throw new Error(`The migrations left planner statistics in ${schema}: the test databases cannot be emptied`);
  const [sizes] = await session.rows<{ json: string }>(
    `SELECT json_agg(json_build_object('relname', relname, 'reltuples', reltuples, 'relpages', relpages, 'relallvisible', relallvisible))::text AS json
       FROM pg_class WHERE relnamespace = $1::text::regnamespace`,
    [schema],
  );
  return { tables, rows, sequences, sizes: sizes.json };
}

/**
 * The catalogs' rows that make the schema, counted and their transaction ids summed: DDL or a replaced function
 * change it; writing rows does not, nor do ANALYZE and VACUUM, whose planner statistics emptying puts back. `global`
 * adds what PGlite's one database holds outside the schema (other schemas, settings, roles, extensions); a PostgreSQL
 * server shares those with every other test process.
 */
function fingerprintQuery(global: boolean): string {
  const inSchema = (catalog: string, where: string) =>
    `(SELECT count(*) || ':' || coalesce(sum(x.xmin::text::bigint), 0) FROM ${catalog} WHERE ${where})`;
  const ofRelation = (column: string) => `${column} IN (SELECT oid FROM pg_class WHERE relnamespace = $1::text::regnamespace)`;
  const parts = [
    inSchema('pg_class x', 'x.relnamespace = $1::text::regnamespace'),
    inSchema('pg_attribute x', ofRelation('x.attrelid')),
    inSchema('pg_attrdef x', ofRelation('x.adrelid')),
    inSchema('pg_constraint x', 'x.connamespace = $1::text::regnamespace'),
    inSchema('pg_index x', ofRelation('x.indrelid')),
    inSchema('pg_proc x', 'x.pronamespace = $1::text::regnamespace'),
    inSchema('pg_trigger x', ofRelation('x.tgrelid')),
    inSchema('pg_type x', 'x.typnamespace = $1::text::regnamespace'),
    inSchema('pg_sequence x', ofRelation('x.seqrelid')),
    inSchema('pg_rewrite x', ofRelation('x.ev_class')),
  ];
  if (global) {
    for (const catalog of ['pg_namespace', 'pg_db_role_setting', 'pg_authid', 'pg_extension', 'pg_event_trigger']) parts.push(inSchema(`${catalog} x`, 'true'));
  }
  return `SELECT concat_ws(' ', ${parts.join(', ')}) AS fingerprint`;
}

async function fingerprintOf(session: Session, schema: string, global: boolean): Promise<string> {
  return (await session.rows<{ fingerprint: string }>(fingerprintQuery(global), [schema]))[0].fingerprint;
}

/**
 * Every table's rows deleted, the migrations' rows and every sequence (identities too) put back, in one transaction.
 * DELETE rather than TRUNCATE: a test leaves a few rows, and TRUNCATE gives each table and index a new file, about a
 * second for the schema on either database, where DELETE takes some 5 ms on PostgreSQL and 60 on PGlite. As a
 * replica applying rows would, so that neither foreign keys nor triggers (the request counts, the change numbers) act.
 *
 * The planner's view goes back too, so that a query plan never depends on the test before (an import analyzes the
 * tables it filled): the statistics ANALYZE gathered are deleted, and each relation's size in pg_class (reltuples,
 * relpages, relallvisible, which ANALYZE and VACUUM write in place) set back to the migrations'. Answers whether a
 * size was set back: that rewrites pg_class rows, and the caller takes the fingerprint again.
 */
async function emptySchema(session: Session, schema: string, { tables, rows, sequences, sizes }: Pristine, statistics = true): Promise<boolean> {
  const s = quoted(schema);
  await session.run(`BEGIN; SET LOCAL session_replication_role = replica; ${tables.map((table) => `DELETE FROM ${s}.${table}`).join('; ')}`);
  try {
    for (const { table, json } of rows) {
      await session.rows(`INSERT INTO ${s}.${table} OVERRIDING SYSTEM VALUE SELECT * FROM json_populate_recordset(NULL::${s}.${table}, $1::json)`, [json]);
    }
    // Every sequence in one statement: one round trip rather than one per sequence.
    if (sequences.length > 0) await session.rows(`SELECT ${sequences.map(({ name, value, called }) => `setval('${s}.${name}', ${value}, ${called})`).join(', ')}`);
    let resized = false;
    if (statistics) {
      await session.rows(`DELETE FROM pg_statistic WHERE starelid IN (SELECT oid FROM pg_class WHERE relnamespace = $1::text::regnamespace)`, [schema]);
      const set = await session.rows(
        `UPDATE pg_class c SET reltuples = p.reltuples, relpages = p.relpages, relallvisible = p.relallvisible
           FROM json_to_recordset($2::json) AS p(relname name, reltuples real, relpages integer, relallvisible integer)
          WHERE c.relnamespace = $1::text::regnamespace AND c.relname = p.relname
            AND (c.reltuples, c.relpages, c.relallvisible) IS DISTINCT FROM (p.reltuples, p.relpages, p.relallvisible)
         RETURNING c.oid`,
        [schema, sizes],
      );
      resized = set.length > 0;
    }
    await session.run('COMMIT');
    return resized;
  } catch (err) {
    await session.run('ROLLBACK');
    throw err;
  }
}

/**
 * Starting PGlite, even from the image, is most of what a short test costs (unpacking the image into its in-memory
 * file system, instantiating 9 MiB of WebAssembly, the collection of the one before): each test file's process keeps
 * the PGlite of a finished test and empties it for the next one, in some 60 ms, its session reset too (`DISCARD ALL`:
 * settings, prepared statements, advisory locks, temporary tables). One the test changed beyond its rows is closed.
 *
 * What the test holds is a lease on it: closing the test's database (or the Kysely on it) closes the lease only, and a
 * query made on a closed lease fails as one made on a closed PGlite does, so that a straggler of a finished test never
 * reaches the next test's rows.
 */
interface PooledPglite {
  pglite: PGlite;
  /** The catalogs' fingerprint when it was last emptied. */
  fingerprint: string;
}

/** Kept for the next test; more than two at a time (tests that run several databases at once) are closed. */
const MAX_IDLE = 2;
const idlePglites: PooledPglite[] = [];
let pglitePristine: Promise<Pristine> | undefined;

/**
 * Empties a PGlite as the image left it; false when it cannot be (changed beyond its rows, or closed). The catalogs'
 * fingerprint (some 35 ms) is taken only when the test sent a statement that may have changed them, its statistics
 * put back only when it may have gathered some (see Lease).
 */
async function emptiedPglite(pooled: PooledPglite, sent: Sent): Promise<boolean> {
  const { pglite } = pooled;
  if (pglite.closed) return false;
  const session = pgliteSession(pglite);
  try {
    // A transaction the test left open: PGlite has one session, and this is it.
    await session.run('ROLLBACK');
    await session.run('DISCARD ALL');
    if (sent.schema && (await fingerprintOf(session, 'public', true)) !== pooled.fingerprint) return false;
    // Emptying writes rows, sequences and statistics: the fingerprint stays the one just checked, unless relations'
    // sizes were set back in pg_class.
    if (await emptySchema(session, 'public', await pglitePristine!, sent.statistics)) pooled.fingerprint = await fingerprintOf(session, 'public', true);
    return true;
  } catch {
    return false;
  }
}

async function releasedPglite(pooled: PooledPglite, sent: Sent): Promise<void> {
  if (idlePglites.length < MAX_IDLE && (await emptiedPglite(pooled, sent))) idlePglites.push(pooled);
  else if (!pooled.pglite.closed) await pooled.pglite.close();
}

async function startPooled(): Promise<PooledPglite> {
  const pglite = await startFromTemplate();
  const session = pgliteSession(pglite);
  pglitePristine ??= readPristine(session, 'public');
  await pglitePristine;
  return { pglite, fingerprint: await fingerprintOf(session, 'public', true) };
}

/**
 * What a test's statements may have changed besides rows, read from their text: the schema (any statement but those
 * that only read or write rows, or run a transaction), and the planner's statistics (ANALYZE, VACUUM). A statement
 * whose text is not at hand (the wire protocol's bytes) counts as changing both. A function called by a query could
 * change the schema unseen; the migrations define none that does (no dynamic SQL).
 */
interface Sent {
  schema: boolean;
  statistics: boolean;
}

/** A statement's first word, when it reads or writes rows only, or runs a transaction or a cursor. */
const ROWS_ONLY = /^(select|insert|update|delete|merge|with|values|table|begin|start|commit|end|rollback|abort|savepoint|release|show|explain|prepare|execute|deallocate|listen|unlisten|notify|declare|fetch|move|close|lock|copy|set|reset)$/i;

function note(sent: Sent, text: unknown): void {
  const statements = typeof text === 'string' ? text : Array.isArray(text) ? text.join('') : null;
  if (statements === null) {
    sent.schema = sent.statistics = true;
    return;
  }
  if (/\b(analyze|vacuum)\b/i.test(statements)) sent.statistics = true;
  // Every statement's first word, a statement starting at the text's start or after a semicolon (one inside a string
  // starts a fragment that is not a statement: at worst a needless fingerprint). SELECT … INTO makes a table, an
  // INSERT … INTO does not.
  for (const fragment of statements.split(';')) {
    const start = fragment.replace(/^(\s|\(|--[^\n]*\n?|\/\*[\s\S]*?\*\/)+/, '');
    const word = /^[a-z]+/i.exec(start)?.[0];
    if (word === undefined) continue;
    if (!ROWS_ONLY.test(word) || (/^(select|with)$/i.test(word) && count(start, /\binto\b/gi) > count(start, /\b(insert|merge)\s+into\b/gi))) sent.schema = true;
  }
}

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

/** The methods that send statements: their first argument is the text (a string, or a template's strings). */
const SENDING = ['query', 'exec', 'sql', 'describeQuery', 'execProtocol', 'execProtocolRaw', 'execProtocolStream'];

/**
 * The PGlite as a test sees it: closing it closes the lease, after which every query fails as on a closed PGlite. It
 * notes what the test's statements may have changed (Sent), those of transactions too.
 */
function leased(pglite: PGlite): { pglite: PGlite; end(): void; sent: Sent } {
  let closed = false;
  const sent: Sent = { schema: false, statistics: false };
  const refused = () => Promise.reject(new Error('PGlite is closed'));
  // A method of `self`, bound to it; one that sends statements notes their text first.
  const method = (self: object, property: string | symbol, value: (...args: unknown[]) => unknown) =>
    SENDING.includes(String(property)) ? (...args: unknown[]) => (note(sent, args[0]), value.apply(self, args)) : value.bind(self);
  const noting = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(inner, property) {
        const value: unknown = Reflect.get(inner, property, inner);
        return typeof value === 'function' ? method(inner, property, value as (...args: unknown[]) => unknown) : value;
      },
    });
  const proxy = new Proxy(pglite, {
    get(target, property) {
      if (property === 'closed') return closed || target.closed;
      if (property === 'close') return async () => void (closed = true);
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (closed && [...SENDING, 'transaction', 'listen'].includes(String(property))) return refused;
      if (property === 'transaction') {
        return <R,>(work: (tx: object) => Promise<R>) => target.transaction((tx) => work(noting(tx)));
      }
      return method(target, property, value as (...args: unknown[]) => unknown);
    },
  });
  return { pglite: proxy, end: () => void (closed = true), sent };
}

async function freshPglite(): Promise<Database> {
  const pooled = idlePglites.pop() ?? (await startPooled());
  const lease = leased(pooled.pglite);
  const db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite: lease.pglite }) });
  let closed = false;
  return {
    db,
    kind: 'pglite',
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
      lease.end();
      await releasedPglite(pooled, lease.sent);
    },
  };
}

/**
 * On PostgreSQL, a test's schema is kept likewise for the next test of the process once the test's connections are
 * closed, emptied in one transaction rather than dropped, and another made by the recorded script; one changed beyond
 * its rows is dropped. The emptying waits two seconds at most for a lock a straggling connection holds, then drops it.
 * The kept schema is then renamed: a straggler of the finished test (its Kysely opens a new connection on its old
 * `search_path`) finds no table there, as when the schema was dropped, rather than the next test's rows.
 */
interface PooledSchema {
  schema: string;
  fingerprint: string;
}

const idleSchemas: PooledSchema[] = [];
let schemaPristine: Promise<Pristine> | undefined;

async function takeSchema(url: string): Promise<PooledSchema> {
  const kept = idleSchemas.pop();
  if (kept) return kept;
  const schema = await freshSchema(url);
  return onConnection(url, async (client) => {
    const session = pgSession(client);
    schemaPristine ??= readPristine(session, schema);
    await schemaPristine;
    return { schema, fingerprint: await fingerprintOf(session, schema, false) };
  });
}

async function releaseSchema(url: string, pooled: PooledSchema): Promise<void> {
  const kept = await onConnection(url, async (client) => {
    const { schema } = pooled;
    const session = pgSession(client);
    try {
      if (idleSchemas.length >= MAX_IDLE || (await fingerprintOf(session, schema, false)) !== pooled.fingerprint) return false;
      await session.run(`SET lock_timeout = '2s'`);
      await emptySchema(session, schema, await schemaPristine!);
      const renamed = schemaName();
      await session.run(`ALTER SCHEMA ${quoted(schema)} RENAME TO ${quoted(renamed)}; RESET lock_timeout`);
      pooled.schema = renamed;
      pooled.fingerprint = await fingerprintOf(session, renamed, false);
      return true;
    } catch {
      return false;
    }
  }).catch(() => false);
  if (kept) idleSchemas.push(pooled);
  else await onConnection(url, (client) => client.query(`DROP SCHEMA IF EXISTS ${quoted(pooled.schema)} CASCADE`));
}

/**
 * Kept databases are closed, kept schemas dropped, when the file's tests are done: an open PGlite keeps the process
 * alive (PostgreSQL's timers), and a schema left behind would stay in the test database. A hook of the root test, so
 * that it runs once, after every test of the file.
 */
after(async () => {
  for (const { pglite } of idlePglites.splice(0)) if (!pglite.closed) await pglite.close();
  const schemas = idleSchemas.splice(0).map((pooled) => quoted(pooled.schema));
  const url = process.env.DATABASE_URL;
  if (url && schemas.length > 0) await onConnection(url, (client) => client.query(`DROP SCHEMA IF EXISTS ${schemas.join(', ')} CASCADE`));
});
