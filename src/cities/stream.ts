import { createHash } from 'node:crypto';
import { Readable, pipeline, type Transform } from 'node:stream';
import { constants as zlib, createBrotliCompress, createGzip } from 'node:zlib';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { DB } from '../db/types.ts';
import { readSnapshot } from '../db/snapshot.ts';
import type { Encoding } from '../http/conditional.ts';
import { CITY_BATCH_SIZE, listActiveCityIds } from '../domain/city-model/repository.ts';
import { loadCities } from '../domain/city-model/read.ts';
import type { CityApi } from '../domain/city-model/schemas.ts';
import { readDataVersion } from '../db/data-version.ts';

/**
 * GET /public/cities at national scale: the body (about 90 KB per demo-like city, near a gigabyte for every
 * commune of France) is never built whole. The sorted list of ACTIF ids is read, then the nested data of
 * each batch of CITY_BATCH_SIZE cities with the same per-table queries as the built list (loadCities), and
 * the items are written one batch at a time into a Readable that only reads the next batch when the client
 * (or the compressor) has taken the previous one. The bytes are the built list's bytes.
 *
 * Consistency: each batch is read on its own short REPEATABLE READ snapshot that also reads data_version; if it moved
 * since the ETag was computed, the stream is aborted (the client sees a broken transfer, never a body that mixes two
 * versions under one validator) and a warning is logged. No database connection is held between two batches: a client
 * reading slowly (or not at all) holds memory for at most one batch ahead, never a connection or a snapshot — ten
 * slow readers once kept every PostgreSQL connection "idle in transaction" and starved every other read.
 * The number of streams sent at once is bounded by the route (CITIES_MAX_STREAMS).
 *
 * Validator: the body changes only when data_version moves or a challenge's availability window opens or
 * closes (the only time-dependent part). The strong ETag hashes data_version with the latest start date and
 * the latest end date already passed: for fixed data, those two pick out the set of available challenges.
 */

/** A read of many batches, one snapshot per batch, each checked against the version the validator was made at. */
interface BatchReader {
  /** Runs a read in its own snapshot; throws StreamVersionMoved when data_version is no longer the pinned one. */
  read<T>(fn: (db: Kysely<DB>) => Promise<T>): Promise<T>;
  pin(version: number): void;
}

export class StreamVersionMoved extends Error {}

function openReader(database: Database): BatchReader {
  let pinned: number | null = null;
  return {
    read: (fn) =>
      readSnapshot(database.db, async (trx) => {
        if (pinned !== null) {
          const now = await readDataVersion(trx);
          if (now !== pinned) throw new StreamVersionMoved(`data_version moved from ${pinned} to ${now} during the stream`);
        }
        return fn(trx);
      }),
    pin: (v) => void (pinned = v),
  };
}


/** What the validator depends on, read on the stream's snapshot. */
async function readValidator(db: Kysely<DB>, now: Date): Promise<{ version: number; etag: string }> {
  const [version, bounds] = await Promise.all([
    readDataVersion(db),
    sql<{ last_start: Date | string | null; last_end: Date | string | null }>`
      SELECT (SELECT max(start_date) FROM challenge WHERE start_date <= ${now}) AS last_start,
             (SELECT max(end_date) FROM challenge WHERE end_date < ${now}) AS last_end
    `.execute(db),
  ]);
  const { last_start, last_end } = bounds.rows[0] ?? { last_start: null, last_end: null };
  const stamp = (d: Date | string | null) => (d === null ? '-' : new Date(d).toISOString());
  const hash = createHash('sha256').update(`cities-stream|${version}|${stamp(last_start)}|${stamp(last_end)}`).digest('base64url');
  return { version, etag: `"${hash.slice(0, 27)}"` };
}

export interface CitiesStream {
  /** The strong ETag of the identity representation; codings append `-br` / `-gzip` as elsewhere. */
  etag: string;
  /** The body, in the asked coding; reading it runs the batches. */
  open(serialize: (city: CityApi) => string, encoding: Encoding, onAbort: (err: Error) => void): Readable;
}

/** Starts a streamed read of every ACTIF city: the validator now, the body when `open` is called. */
export async function startCitiesStream(database: Database, now: Date, batchSize = CITY_BATCH_SIZE): Promise<CitiesStream> {
  const reader = openReader(database);
  const validator = await reader.read((db) => readValidator(db, now));
  reader.pin(validator.version);
  return {
    etag: validator.etag,
    open(serialize, encoding, onAbort) {
      async function* body(): AsyncGenerator<string> {
        const ids = await reader.read((db) => listActiveCityIds(db));
        yield '[';
        let first = true;
        for (let i = 0; i < ids.length; i += batchSize) {
          const cities = await reader.read((db) => loadCities(db, ids.slice(i, i + batchSize), now));
          let chunk = '';
          for (const city of cities) {
            chunk += (first ? '' : ',') + serialize(city);
            first = false;
          }
          if (chunk) yield chunk;
        }
        yield ']';
      }
      const source = Readable.from(body(), { objectMode: false });
      let done = false;
      const finish = (err?: Error | null) => {
        if (done) return;
        done = true;
        if (err) onAbort(err);
      };
      if (encoding === 'identity') {
        source.once('error', finish);
        source.once('close', () => finish());
        return source;
      }
      const compressor: Transform =
        encoding === 'br'
          ? createBrotliCompress({ params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } })
          : createGzip({ level: 6 });
      return pipeline(source, compressor, (err) => finish(err));
    },
  };
}
