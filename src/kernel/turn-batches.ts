/**
 * Group commit's scheduling, for writes that share a statement when they arrive together (challenge completions,
 * residents' requests): what is queued in one turn of the event loop leaves after that turn's I/O, in batches of at
 * most `maxBatch`, with at most `maxInFlight` batches running at once; nothing waits for a batch to fill, so a lone
 * write leaves at once. `write` owns each batch's outcome (it resolves or rejects every item itself); `accepts` lets a
 * batch refuse an item that must wait for the next one (two completions of one record never share a batch).
 */
export class TurnBatches<T> {
  readonly #write: (batch: T[]) => Promise<void>;
  readonly #maxInFlight: number;
  readonly #maxBatch: number;
  readonly #accepts: (batch: readonly T[], item: T) => boolean;
  #queue: T[] = [];
  #inFlight = 0;
  #scheduled = false;

  constructor(options: { write: (batch: T[]) => Promise<void>; maxInFlight: number; maxBatch: number; accepts?: (batch: readonly T[], item: T) => boolean }) {
    this.#write = options.write;
    this.#maxInFlight = options.maxInFlight;
    this.#maxBatch = options.maxBatch;
    this.#accepts = options.accepts ?? (() => true);
  }

  push(item: T): void {
    this.#queue.push(item);
    this.#schedule();
  }

  #schedule() {
    if (this.#scheduled || this.#inFlight >= this.#maxInFlight || this.#queue.length === 0) return;
    this.#scheduled = true;
    // After the I/O of this turn: the writes that arrived together leave together.
    setImmediate(() => {
      this.#scheduled = false;
      while (this.#inFlight < this.#maxInFlight && this.#queue.length > 0) {
        this.#inFlight += 1;
        void this.#write(this.#takeBatch()).finally(() => {
          this.#inFlight -= 1;
          this.#schedule();
        });
      }
    });
  }

  /** Up to `maxBatch` queued items the batch accepts, oldest first; the others stay queued in order. */
  #takeBatch(): T[] {
    const batch: T[] = [];
    const rest: T[] = [];
    for (const item of this.#queue) {
      if (batch.length < this.#maxBatch && this.#accepts(batch, item)) batch.push(item);
      else rest.push(item);
    }
    this.#queue = rest;
    return batch;
  }
}
