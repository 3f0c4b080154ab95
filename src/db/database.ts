import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './types.ts';

export type DatabaseKind = 'pglite' | 'postgres';

export interface Database {
  readonly db: Kysely<DB>;
  readonly kind: DatabaseKind;
  /** The PostgreSQL schema the tables live in, when not the default one. */
  readonly schema?: string;
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
}

/** Raised when another process already holds the embedded database. */
export class DatabaseLockedError extends Error {}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.schema, options.poolSize ?? 10);
  return openPglite(options.dataDir);
}

function openPostgres(databaseUrl: string, schema: string | undefined, poolSize: number): Database {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: poolSize,
    // A per-connection search_path keeps a schema's tables apart from every other schema's.
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client that loses its server emits 'error'; without a listener it would kill the process.
  pool.on('error', () => {});
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return { db, kind: 'postgres', schema, close: () => db.destroy() };
}

async function openPglite(dataDir: string | null): Promise<Database> {
  let releaseLock = () => {};
  let pglite: PGlite;
  if (dataDir) {
    fs.mkdirSync(dataDir, { recursive: true });
    releaseLock = acquireLock(path.join(dataDir, 'collecte.lock'));
    try {
      pglite = await PGlite.create(path.join(dataDir, 'pgdata'));
    } catch (err) {
      releaseLock();
      throw err;
    }
  } else {
    pglite = await PGlite.create();
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
 * PGlite is a single-process database: two processes writing the same files would corrupt it.
 * A lock file holding the owner's pid refuses the second one; a lock left by a dead process is taken over.
 */
function acquireLock(lockPath: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(lockPath, 'utf8') === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(fs.readFileSync(lockPath, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) {
        throw new DatabaseLockedError(
          `The embedded database in ${path.dirname(lockPath)} is already used by process ${owner}. ` +
            'PGlite serves one process only: stop the other one, use another DATA_DIR, or set DATABASE_URL to use PostgreSQL.',
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DatabaseLockedError(`Could not take the lock ${lockPath}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
