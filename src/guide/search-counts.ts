import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import type { Server } from 'node:http';
import { addSearchCounts, type SearchCountRow } from './repository.ts';

/**
 * How often the counts gathered in memory are written. Batched rather than written one by one after each answer:
 * a search then costs no database round trip at all (on the embedded database every query runs on the event loop,
 * and a burst of keystrokes is one upsert per distinct query and second instead of one per keystroke), and a
 * database error cannot fail or slow a search. At most this much of counting is lost if the process dies.
 */
const FLUSH_INTERVAL_MS = 1000;
/** Distinct (day, city, query) kept while the database refuses them; past it new ones are dropped (and logged). */
const MAX_PENDING = 10_000;

/**
 * A search as the analytics show it to the city's staff (migration 0025): the words as typed, lower case, accents and
 * apostrophes kept (« capsule de café », « pot d’échappement »), other punctuation and repeated spaces gone; null
 * when nothing is left. Counting stays on the folded query, so « Café » and « cafe » are one row shown one way.
 */
export function shownQuery(text: string): string | null {
  const shown = text
    .normalize('NFC')
    .toLocaleLowerCase('fr')
    .replace(/[^\p{L}\p{N}'’-]+/gu, ' ')
    .trim()
    .slice(0, 100)
    .trim();
  return shown === '' ? null : shown;
}

/** The sorting guide's search counts, gathered in memory and written every FLUSH_INTERVAL_MS. */
export class SearchCounts {
  readonly #db: Kysely<DB>;
  readonly #log: FastifyBaseLogger;
  #pending = new Map<string, SearchCountRow>();
  #writing: Promise<void> = Promise.resolve();
  readonly #timer: NodeJS.Timeout;

  constructor(db: Kysely<DB>, log: FastifyBaseLogger) {
    this.#db = db;
    this.#log = log;
    this.#timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS);
    this.#timer.unref();
  }

  /** Counts one search (`count` of them, one by default). Never throws, never waits. */
  add(row: Omit<SearchCountRow, 'count'>, count = 1): void {
    const key = `${row.day}\u0000${row.cityId}\u0000${row.query}`;
    const known = this.#pending.get(key);
    if (known) {
      known.count += count;
      known.found = row.found;
      known.shown = row.shown ?? known.shown;
    } else if (this.#pending.size < MAX_PENDING) {
      this.#pending.set(key, { ...row, count });
    } else {
      this.#log.warn({ query: row.query }, 'search counts: too many waiting to be written, one search not counted');
    }
  }

  /** Writes what was gathered (after any write under way); on a database error logs it and keeps the counts for the next beat. */
  flush(): Promise<void> {
    this.#writing = this.#writing.then(async () => {
      if (this.#pending.size === 0) return;
      const batch = [...this.#pending.values()];
      this.#pending = new Map();
      try {
        await addSearchCounts(this.#db, batch);
      } catch (err) {
        this.#log.error({ err, rows: batch.length }, 'search counts: write failed, kept for the next flush');
        for (const row of batch) this.add(row, row.count);
      }
    });
    return this.#writing;
  }

  /** Stops the beat and writes what is left. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }
}

/**
 * The one SearchCounts of an application, by its server (the same object in every encapsulated context of one
 * application, another in the next): the public search adds to it and the admin analytics route writes it before
 * reading, and the two are mounted under different prefixes (/public, /admin), hence encapsulated apart.
 */
const countsByApp = new WeakMap<Server, SearchCounts>();

export function searchCountsOf(app: FastifyInstance): SearchCounts {
  let counts = countsByApp.get(app.server);
  if (!counts) {
    const created = new SearchCounts(app.db, app.log);
    counts = created;
    countsByApp.set(app.server, created);
    app.addHook('onClose', async () => {
      countsByApp.delete(app.server);
      await created.close();
    });
  }
  return counts;
}
