import type { Kysely } from 'kysely';
import { TurnBatches, type Waiting } from '../kernel/turn-batches.ts';
import type { DB } from '../db/types.ts';
import { fileRequests, type Filing } from './repository.ts';

type Filed = { reference: string; photos: number };
type Pending = Waiting<Filing, Filed>;

/**
 * Group commit for requests, as for challenge completions (docs/performance.md): the requests that arrive in one turn
 * of the event loop are filed by one statement (`fileRequests`) instead of one each, so that under load one round
 * trip, and on PostgreSQL one commit, serve many. Nothing waits for a batch to fill: a lone request leaves at once.
 * A batch that fails as a whole (a place deleted meanwhile, a deadlock) is filed again one request at a time, so that
 * one bad request fails alone. Missed collections, which may join an open report, take their own path.
 */
export class FilingBatcher {
  readonly #db: Kysely<DB>;
  readonly #batches: TurnBatches<Filing, Filed>;

  /** `maxInFlight`: batches running at once (1 for the single-connection embedded database). */
  constructor(db: Kysely<DB>, maxInFlight: number) {
    this.#db = db;
    this.#batches = new TurnBatches({ write: (batch) => this.#write(batch), maxInFlight });
  }

  file(filing: Filing): Promise<Filed> {
    return this.#batches.submit(filing);
  }

  async #write(batch: Pending[]): Promise<void> {
    try {
      const filed = await fileRequests(this.#db, batch.map((p) => p.item));
      for (const pending of batch) pending.resolve(filed.get(pending.item.id)!);
    } catch (err) {
      if (batch.length === 1) return batch[0].reject(err);
      // One at a time, so that what failed the batch fails its own request only.
      for (const pending of batch) {
        try {
          pending.resolve((await fileRequests(this.#db, [pending.item])).get(pending.item.id)!);
        } catch (alone) {
          pending.reject(alone);
        }
      }
    }
  }
}
