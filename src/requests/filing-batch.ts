import type { Kysely } from 'kysely';
import { TurnBatches } from '../kernel/turn-batches.ts';
import type { DB } from '../db/types.ts';
import { fileRequests, type Filing } from './repository.ts';

/** Largest batch: past a few dozen rows a statement gains little, and one slow batch would delay many answers. */
const MAX_BATCH = 64;

type Filed = { reference: string; photos: number };

interface Pending {
  filing: Filing;
  resolve(filed: Filed): void;
  reject(err: unknown): void;
}

/**
 * Group commit for requests, as for challenge completions (docs/performance.md): the requests that arrive in one turn
 * of the event loop are filed by one statement (`fileRequests`) instead of one each, so that under load one round
 * trip, and on PostgreSQL one commit, serve many. Nothing waits for a batch to fill: a lone request leaves at once.
 * A batch that fails as a whole (a place deleted meanwhile, a deadlock) is filed again one request at a time, so that
 * one bad request fails alone. Missed collections, which may join an open report, take their own path.
 */
export class FilingBatcher {
  readonly #db: Kysely<DB>;
  readonly #batches: TurnBatches<Pending>;

  /** `maxInFlight`: batches running at once (1 for the single-connection embedded database). */
  constructor(db: Kysely<DB>, maxInFlight: number) {
    this.#db = db;
    this.#batches = new TurnBatches<Pending>({ write: (batch) => this.#write(batch), maxInFlight, maxBatch: MAX_BATCH });
  }

  file(filing: Filing): Promise<Filed> {
    return new Promise((resolve, reject) => this.#batches.push({ filing, resolve, reject }));
  }

  async #write(batch: Pending[]): Promise<void> {
    try {
      const filed = await fileRequests(this.#db, batch.map((p) => p.filing));
      for (const pending of batch) pending.resolve(filed.get(pending.filing.id)!);
    } catch (err) {
      if (batch.length === 1) return batch[0].reject(err);
      // One at a time, so that what failed the batch fails its own request only.
      for (const pending of batch) {
        try {
          pending.resolve((await fileRequests(this.#db, [pending.filing])).get(pending.filing.id)!);
        } catch (alone) {
          pending.reject(alone);
        }
      }
    }
  }
}
