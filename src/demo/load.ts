import { fork } from 'node:child_process';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { DatabaseLockedError, holdsEmbeddedDatabase, openDatabase, type Database, type DatabaseOptions } from '../db/database.ts';

/** The demo data set (built by `npm run demo:build`), shipped with the code. */
export const DEMO_BUNDLE_PATH = path.resolve(import.meta.dirname, '..', '..', 'demo', 'bundle.json');

const IMPORT_PROCESS = new URL('./import-process.ts', import.meta.url);

/** What the import's child process is sent: plain values (structured clone). */
export interface DemoImportJob {
  database: Omit<DatabaseOptions, 'onConnectionError'>;
  /** Migrate the database first (a new embedded one). */
  migrate: boolean;
  bundlePath: string;
  mediaDir: string;
  now: Date;
}

/** What it says first: its modules are loaded and it listens for the job. */
export interface DemoImportReady {
  ready: true;
}

/** What it answers: the migrations it applied and the counts the log line gives, or the import's error as plain values. */
export type DemoImportOutcome = { applied: string[]; counts: DemoCounts } | { error: ImportError };

type DemoImported = Extract<DemoImportOutcome, { counts: DemoCounts }>;

interface DemoCounts {
  cities: number;
  cityGroups: number;
}

interface ImportError {
  name: string;
  message: string;
  stack: string | undefined;
  /** Its own enumerable fields (`code`, `faults`…). */
  fields: Record<string, unknown>;
  /** A DatabaseLockedError, which the start prints as a sentence (src/startup-error.ts). */
  locked: boolean;
}

/**
 * Loads the demo bundle when the database holds no city yet, so that `npm start` on a fresh clone
 * serves real communes. A database that already has cities (demo or real) is left alone.
 * Answers the number of cities loaded (0 when nothing was done). The import runs in this process, whose memory keeps
 * what it loaded: `npm start` uses loadDemoDataInChildProcessIfEmpty.
 */
export async function loadDemoDataIfEmpty(
  database: Database,
  config: Config,
  logger: Logger,
  bundlePath: string = DEMO_BUNDLE_PATH,
): Promise<number> {
  if (!(await hasNoCity(database))) return 0;
  return importHere(database, config.mediaDir, logger, bundlePath);
}

export interface DemoLoadOptions {
  /** How `database` was opened: the child process opens its own connection so, and the embedded one is reopened so. */
  databaseOptions: DatabaseOptions;
  mediaDir: string;
  logger: Logger;
  bundlePath?: string;
  /** The child process's module (tests give one that dies). */
  processFile?: URL;
}

export interface DemoLoad {
  /** The database to go on with: `database` itself, or on the embedded database the one reopened after the import. */
  database: Database;
  /** Cities loaded (0 when the database already had some). */
  cities: number;
}

/**
 * `npm start`'s first start on the embedded database, its data directory holding no database yet: the import's child
 * process (see loadDemoDataInChildProcessIfEmpty) makes the database, migrates it and fills it, before this process
 * opens it. This process thus never opens it twice, nor keeps the memory of a new database's migrations. Answers the
 * number of cities loaded, or null when there is nothing such to do: on PostgreSQL, or a data directory that holds a
 * database (whether that one is empty is loadDemoDataInChildProcessIfEmpty's question, once it is open and migrated).
 */
export async function loadDemoDataIntoNewDataDir(options: DemoLoadOptions): Promise<number | null> {
  const { onConnectionError: _, ...plain } = options.databaseOptions;
  if (plain.databaseUrl || plain.dataDir === null || holdsEmbeddedDatabase(plain.dataDir)) return null;
  const bundlePath = options.bundlePath ?? DEMO_BUNDLE_PATH;
  const job: DemoImportJob = { database: plain, migrate: true, bundlePath, mediaDir: options.mediaDir, now: new Date() };
  const { applied, counts } = await runImportProcess(options.processFile ?? IMPORT_PROCESS, job);
  if (applied.length) options.logger.info({ applied }, 'migrations applied');
  logLoaded(options.logger, counts, bundlePath);
  return counts.cities;
}

/**
 * loadDemoDataIfEmpty with the import in a child process, so that what it loads (validation, the MDX compiler,
 * sharp), the parsed bundle, the import's garbage and on the embedded database its own PGlite leave with the process
 * instead of staying in the server for its whole life. A worker thread would not do: its isolate goes, but the C
 * library keeps much of what the thread allocated (25 to 50 MiB more at rest after a first start on PostgreSQL,
 * bench/memory.ts).
 *
 * The child opens its own connection. PGlite serves one process at a time on a data directory: on the embedded
 * database `database` is closed before the child opens the directory, and reopened after it; only when there is
 * something to import, so that a later start pays nothing. When the import fails the error is the import's,
 * `database` is closed on the embedded database, and the data directory is free (the child closed it, or died and
 * left a lock that the next open takes over).
 */
export async function loadDemoDataInChildProcessIfEmpty(database: Database, options: DemoLoadOptions): Promise<DemoLoad> {
  if (!(await hasNoCity(database))) return { database, cities: 0 };
  const { onConnectionError: _, ...plain } = options.databaseOptions;
  const bundlePath = options.bundlePath ?? DEMO_BUNDLE_PATH;
  const embedded = !plain.databaseUrl;
  if (embedded && plain.dataDir === null) {
    // An in-memory PGlite cannot be shared with another process: the import runs here.
    return { database, cities: await importHere(database, options.mediaDir, options.logger, bundlePath) };
  }
  const job: DemoImportJob = {
    // One connection runs the import's transaction; a second spares it a wait on anything else.
    database: { ...plain, schema: plain.schema ?? database.schema, poolSize: 2 },
    migrate: false,
    bundlePath,
    mediaDir: options.mediaDir,
    now: new Date(),
  };
  if (embedded) await database.close();
  const { counts } = await runImportProcess(options.processFile ?? IMPORT_PROCESS, job);
  const current = embedded ? await openDatabase(options.databaseOptions) : database;
  logLoaded(options.logger, counts, bundlePath);
  return { database: current, cities: counts.cities };
}

/** Runs the import's child process to its end: what it answered, or its error thrown here. */
function runImportProcess(file: URL, job: DemoImportJob): Promise<DemoImported> {
  return new Promise((resolve, reject) => {
    // The same node and flags as this process; `advanced`: the job and the answer are structured clones (a Date).
    const child = fork(file, [], { serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let outcome: DemoImportOutcome | null = null;
    let failure: Error | null = null;
    child.on('message', (message: DemoImportReady | DemoImportOutcome) => {
      if ('ready' in message) {
        child.send(job, (err) => {
          if (err) failure ??= err;
        });
      } else {
        outcome = message;
      }
    });
    child.on('error', (err) => (failure ??= err));
    // Settled once the process is gone (or never started): so is its hold on the database.
    child.on('close', (code, signal) => {
      if (outcome && 'counts' in outcome) return resolve(outcome);
      if (outcome) return reject(rebuildError(outcome.error));
      const end = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      reject(failure ?? new Error(`the demo import's process ${end} without an answer`));
    });
  });
}

/** The child's error as thrown here: the same message, stack and fields; a DatabaseLockedError stays one. */
function rebuildError(error: ImportError): Error {
  const err = Object.assign(error.locked ? new DatabaseLockedError(error.message) : new Error(error.message), error.fields);
  err.name = error.name;
  if (error.stack) err.stack = error.stack;
  return err;
}

async function importHere(database: Database, mediaDir: string, logger: Logger, bundlePath: string): Promise<number> {
  // Loaded only here: the import (validation, MDX compiler) costs start-up time that a filled database never needs.
  const { importBundleFile } = await import('../bundle/import.ts');
  const summary = await importBundleFile(database, bundlePath, { mediaDir, now: new Date() });
  logLoaded(logger, summary.counts, bundlePath);
  return summary.counts.cities;
}

async function hasNoCity(database: Database): Promise<boolean> {
  const row = await database.db
    .selectFrom('city')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n) === 0;
}

function logLoaded(logger: Logger, counts: DemoCounts, bundlePath: string): void {
  logger.info(
    { cities: counts.cities, cityGroups: counts.cityGroups, bundle: bundlePath },
    `demo data loaded: ${counts.cities} cities in ${counts.cityGroups} groups`,
  );
}
