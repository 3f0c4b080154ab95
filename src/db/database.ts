import fs from 'node:fs';
import path from 'node:path';
// PGlite (its WebAssembly PostgreSQL and its JavaScript) is loaded only by a process that opens an embedded database.
import type { PGlite, PGliteOptions } from '@electric-sql/pglite';
import { readInitdbImage } from './pglite-image.ts';
import { DEFAULT_PGLITE_SHARED_BUFFERS_MB } from '../config.ts';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './types.ts';
import { DatabaseUnavailable, isUnavailability } from './errors.ts';

export type DatabaseKind = 'pglite' | 'postgres';

export interface Database {
  readonly db: Kysely<DB>;
  readonly kind: DatabaseKind;
  /** The PostgreSQL schema the tables live in, when not the default one. */
  readonly schema?: string;
  /** The PostgreSQL pool's clients; null on PGlite (one in-process connection). */
  poolStats?(): PoolStats;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; null = embedded PGlite. */
  databaseUrl: string | null;
  /** Directory of the embedded database; null = in memory (tests). */
  dataDir: string | null;
  /** PostgreSQL schema to work in (tests give each file its own). */
  schema?: string;
  /** Connection pool size for PostgreSQL. */
  poolSize?: number;
  /** Timeouts towards PostgreSQL (see PostgresTimeouts); the defaults suit a served request. */
  timeouts?: Partial<PostgresTimeouts>;
  /** Told of each connection fault (a terminated backend, a lost socket), once per fault. */
  onConnectionError?: (err: Error) => void;
  /** The embedded database's shared buffers, in MiB (DEFAULT_PGLITE_SHARED_BUFFERS_MB in config.ts). */
  pgliteSharedBuffersMb?: number;
}

/**
 * How long the service waits for PostgreSQL. Without them a black-holed database holds every request (and SIGTERM)
 * for as long as TCP takes to give up, minutes.
 */
export interface PostgresTimeouts {
  /** Waiting for a pool client, and opening a connection: past it the request answers 503. */
  connectMs: number;
  /**
   * Longest statement, enforced by the server (statement_timeout) and, one second later, by the client for a server
   * that no longer answers at all. 0: none (operator commands such as a national import).
   */
  statementMs: number;
  /** A transaction left idle this long is ended by the server, so a stuck client cannot hold locks or a snapshot. */
  idleInTransactionMs: number;
}

export const DEFAULT_POSTGRES_TIMEOUTS: PostgresTimeouts = { connectMs: 2_000, statementMs: 15_000, idleInTransactionMs: 30_000 };

/** What the pool is doing, for /metrics. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** Raised when another process already holds the embedded database. */
export class DatabaseLockedError extends Error {}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options);
  return openPglite(options.dataDir, options.pgliteSharedBuffersMb ?? DEFAULT_PGLITE_SHARED_BUFFERS_MB);
}

/** How long close() waits for clients still checked out (a request stuck on a dead server) before giving up on them. */
const CLOSE_WAIT_MS = 3_000;

function openPostgres(options: DatabaseOptions): Database {
  const { schema } = options;
  const timeouts = { ...DEFAULT_POSTGRES_TIMEOUTS, ...options.timeouts };
  const pool = new pg.Pool({
    connectionString: options.databaseUrl!,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: timeouts.connectMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs || undefined,
    statement_timeout: timeouts.statementMs || undefined,
    query_timeout: timeouts.statementMs ? timeouts.statementMs + 1_000 : undefined,
    // A dead peer is noticed by TCP keep-alive, not only by the next query.
    keepAlive: true,
    // A per-connection search_path keeps a schema's tables apart from every other schema's.
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  const report = (err: Error) => options.onConnectionError?.(err);
  // A client that loses its server emits 'error'. The pool listens on idle clients only: a client checked out between
  // two queries of a transaction (a snapshot read) would take the process down with it. Every client gets a listener
  // for its whole life; its next query then fails, and the pool drops it when it is released.
  pool.on('connect', (client) => client.on('error', report));
  pool.on('error', report);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: unavailabilityTranslatingPool(pool) }) });
  return {
    db,
    kind: 'postgres',
    schema,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => settleWithin(db.destroy(), CLOSE_WAIT_MS),
  };
}

/**
 * The pool as Kysely sees it, with failures of the database as a service turned into DatabaseUnavailable: a client
 * that cannot be had (timeout, refused, authentication), and a query that failed for a reason other than the
 * statement itself. Errors the server raised about a statement (a constraint, a cast) pass unchanged.
 */
function unavailabilityTranslatingPool(pool: pg.Pool) {
  const wrapped = new WeakMap<pg.PoolClient, pg.PoolClient>();
  const translate = (err: unknown): never => {
    const serverError = err instanceof pg.DatabaseError;
    throw isUnavailability(err, serverError) ? new DatabaseUnavailable(err) : err;
  };
  const wrap = (client: pg.PoolClient): pg.PoolClient => {
    let facade = wrapped.get(client);
    if (!facade) {
      // Same object identity on every checkout: Kysely keeps per-client state in a WeakMap.
      facade = Object.create(client, {
        query: {
          value: (...args: unknown[]) => {
            const result = (client.query as (...a: unknown[]) => unknown)(...args);
            return result instanceof Promise ? result.catch(translate) : result;
          },
        },
        release: { value: (err?: Error | boolean) => client.release(err) },
      }) as pg.PoolClient;
      wrapped.set(client, facade);
    }
    return facade;
  };
  return {
    options: pool.options,
    Client: pg.Client,
    connect: () =>
      pool.connect().then(wrap, (err: unknown) => {
        throw new DatabaseUnavailable(err);
      }),
    end: () => pool.end(),
  };
}

/** Waits for `work`, at most `ms`: closing must not wait on a server that no longer answers. */
async function settleWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work.catch(() => {}), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** Whether `dataDir` holds an embedded database yet: its first open makes one. */
export function holdsEmbeddedDatabase(dataDir: string): boolean {
  return fs.existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'));
}

async function openPglite(dataDir: string | null, sharedBuffersMb: number): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const options = { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffersMb}MB`] };
  let releaseLock = () => {};
  let pglite: PGlite;
  if (dataDir) {
    fs.mkdirSync(dataDir, { recursive: true });
    releaseLock = acquireLock(path.join(dataDir, 'collecte.lock'));
    try {
      pglite = await createPglite(path.join(dataDir, 'pgdata'), options);
    } catch (err) {
      releaseLock();
      throw err;
    }
  } else {
    pglite = await createPglite(null, options);
  }
  const db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite }) });
  let closed = false;
  return {
    db,
    kind: 'pglite',
    async close() {
      if (closed) return;
      closed = true;
      try {
        await db.destroy();
        if (!pglite.closed) await pglite.close();
      } finally {
        releaseLock();
      }
    },
  };
}

/**
 * PGlite on a data directory (null: in memory). A new one starts from the shipped initdb image (pglite-image.ts);
 * an image this PGlite cannot start is set aside, and initdb makes the directory as PGlite does by itself.
 */
export async function createPglite(pgdata: string | null, options: PGliteOptions, initdbImage: () => Blob | null = readInitdbImage): Promise<PGlite> {
  const { PGlite } = await import('@electric-sql/pglite');
  const fresh = pgdata === null || !fs.existsSync(path.join(pgdata, 'PG_VERSION'));
  const image = fresh ? initdbImage() : null;
  if (!image) return pgdata === null ? PGlite.create(options) : PGlite.create(pgdata, options);
  try {
    return pgdata === null ? await PGlite.create({ ...options, loadDataDir: image }) : await PGlite.create(pgdata, { ...options, loadDataDir: image });
  } catch (err) {
    process.emitWarning(`The embedded database's initdb image did not start (${(err as Error).message}): running initdb. Remake it with npm run pglite:image.`);
    if (pgdata !== null) fs.rmSync(pgdata, { recursive: true, force: true });
    return pgdata === null ? PGlite.create(options) : PGlite.create(pgdata, options);
  }
}

/**
 * PGlite is a single-process database: two processes writing the same files would corrupt it. A lock file names its
 * owner, and a lock whose owner is gone is taken over. A pid alone does not prove an owner: in a container the
 * restarted process is PID 1 again, as was the one killed with -9. So the lock also records the machine's boot and the
 * owner's start time (Linux: /proc), and an owner counts only while a process with that pid, started at that time
 * since that boot, exists.
 */
interface LockOwner {
  pid: number;
  bootId: string | null;
  startTime: string | null;
}

function acquireLock(lockPath: string): () => void {
  const me = lockOwner(process.pid);
  const text = JSON.stringify(me);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, text, { flag: 'wx' });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(lockPath, 'utf8') === text) fs.unlinkSync(lockPath);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = readLockOwner(lockPath);
      if (owner && ownerIsAlive(owner)) {
        throw new DatabaseLockedError(
          `The embedded database in ${path.dirname(lockPath)} is already used by process ${owner.pid}. ` +
            'PGlite serves one process only: stop the other one, use another DATA_DIR, or set DATABASE_URL to use PostgreSQL.',
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DatabaseLockedError(`Could not take the lock ${lockPath}`);
}

/** The lock's owner; an older lock holds the bare pid. null when unreadable (a lock cut short by a crash). */
function readLockOwner(lockPath: string): LockOwner | null {
  let raw: string;
  try {
    raw = fs.readFileSync(lockPath, 'utf8').trim();
  } catch {
    return null;
  }
  if (/^\d+$/.test(raw)) return { pid: Number(raw), bootId: null, startTime: null };
  try {
    const parsed = JSON.parse(raw) as Partial<LockOwner>;
    if (!Number.isInteger(parsed.pid) || parsed.pid! <= 0) return null;
    return { pid: parsed.pid!, bootId: parsed.bootId ?? null, startTime: parsed.startTime ?? null };
  } catch {
    return null;
  }
}

function ownerIsAlive(owner: LockOwner): boolean {
  // A lock in this process's own pid without this process's start time was left by an earlier process with that pid.
  if (owner.pid === process.pid && (owner.startTime === null || owner.startTime !== lockOwner(process.pid).startTime)) return false;
  if (!isAlive(owner.pid)) return false;
  const now = lockOwner(owner.pid);
  // Where the system tells neither (no /proc), the pid is all there is to go on.
  if (owner.bootId && now.bootId && owner.bootId !== now.bootId) return false;
  if (owner.startTime && now.startTime && owner.startTime !== now.startTime) return false;
  return true;
}

function lockOwner(pid: number): LockOwner {
  return { pid, bootId: readProc('/proc/sys/kernel/random/boot_id'), startTime: processStartTime(pid) };
}

/** Field 22 of /proc/PID/stat: the process's start, in clock ticks since boot. The name (field 2) may hold spaces. */
function processStartTime(pid: number): string | null {
  const stat = readProc(`/proc/${pid}/stat`);
  if (!stat) return null;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19] ?? null;
}

function readProc(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
