/** Largest batch by default: past a few dozen rows a statement gains little, and one slow batch would delay many answers. */
const MAX_BATCH = 64;

/** An item waiting in a batch, with the hands that settle its answer. */
export interface Waiting<I, R> {
  item: I;
  resolve(answer: R): void;
  reject(err: unknown): void;
}

export interface TurnBatchesOptions<I, R> {
  write: (batch: Waiting<I, R>[]) => Promise<void>;
  maxInFlight: number;
  maxBatch?: number;
  accepts?: (batch: readonly Waiting<I, R>[], item: I) => boolean;
}

/**
 * Group commit's scheduling, for writes that share a statement when they arrive together (challenge completions,
 * residents' requests): what is submitted in one turn of the event loop leaves after that turn's I/O, in batches of at
 * most `maxBatch`, with at most `maxInFlight` batches running at once; nothing waits for a batch to fill, so a lone
 * write leaves at once. `write` owns each batch's outcome (it settles every item's answer itself); `accepts` lets a
 * batch refuse an item that must wait for the next one (two completions of one record never share a batch).
 */
export class TurnBatches<I, R> {
  readonly #write: (batch: Waiting<I, R>[]) => Promise<void>;
  readonly #maxInFlight: number;
  readonly #maxBatch: number;
  readonly #accepts: (batch: readonly Waiting<I, R>[], item: I) => boolean;
  #queue: Waiting<I, R>[] = [];
  #inFlight = 0;
  #scheduled = false;

  constructor(options: TurnBatchesOptions<I, R>) {
    this.#write = options.write;
    this.#maxInFlight = options.maxInFlight;
    this.#maxBatch = options.maxBatch ?? MAX_BATCH;
    this.#accepts = options.accepts ?? (() => true);
  }

  /** The item's answer, once the batch it joins is written. */
  submit(item: I): Promise<R> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      this.#schedule();
    });
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
  #takeBatch(): Waiting<I, R>[] {
    const batch: Waiting<I, R>[] = [];
    const rest: Waiting<I, R>[] = [];
    for (const waiting of this.#queue) {
      if (batch.length < this.#maxBatch && this.#accepts(batch, waiting.item)) batch.push(waiting);
      else rest.push(waiting);
    }
    this.#queue = rest;
    return batch;
  }
}
