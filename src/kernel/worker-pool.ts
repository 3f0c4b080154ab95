import { parentPort, Worker } from 'node:worker_threads';

/**
 * A small pool of worker threads, each running one job at a time: CPU-bound work (the built-in assistant's text
 * matching, the MDX compiler) runs beside the event loop instead of on it. Workers start on first need and are
 * replaced when one dies or overruns its time; the queue of jobs waiting for a worker is bounded, so that a flood is
 * refused at once rather than queued without end. No HTTP here: the caller decides what a refusal answers.
 */

/** The job was not taken: every worker is busy and the queue is full, or the pool is closing. */
export class PoolBusyError extends Error {}

/** The job's worker died or overran its time: the job has no result, the worker is replaced. */
export class WorkerFailedError extends Error {}

/** The job overran its time (jobTimeoutMs): a WorkerFailedError that says it was the job's own doing. */
export class WorkerTimeoutError extends WorkerFailedError {}

export interface WorkerPoolOptions {
  /** The worker's module; it calls `serveJobs` with the function that does the work. */
  file: URL;
  /** Worker threads at most. */
  size: number;
  /** Jobs waiting for a free worker at most; one more is refused with PoolBusyError. */
  maxQueue: number;
  /** A job running longer than this is given up (WorkerTimeoutError) and its worker terminated. */
  jobTimeoutMs: number;
  /**
   * An idle worker does not keep the process alive (a busy one does, until its job ends): for a pool that lives as
   * long as the process and that nothing closes, so that a command that used it still exits when its work is done.
   */
  unrefWhenIdle?: boolean;
  /** Told when a worker starts, and why one stopped unexpectedly (for the log). */
  onWorkerStart?: (threadId: number) => void;
  onWorkerFailure?: (err: Error, threadId: number) => void;
}

export interface WorkerPool<I, O> {
  run(input: I): Promise<O>;
  /** Refuses new jobs, fails the waiting and running ones with PoolBusyError, and stops every worker. */
  close(): Promise<void>;
}

interface Job<I, O> {
  input: I;
  resolve(output: O): void;
  reject(err: Error): void;
}

/** What a worker says: it is ready (its modules are loaded), or the result of one job. */
type WorkerMessage<O> = { ready: true } | { output: O } | { error: string };

interface Slot<I, O> {
  worker: Worker;
  /** The worker has loaded its modules: a job's time runs from then, not from the thread's start. */
  ready: boolean;
  job: Job<I, O> | null;
  timer: NodeJS.Timeout | undefined;
}

export function createWorkerPool<I, O>(options: WorkerPoolOptions): WorkerPool<I, O> {
  return new Pool<I, O>(options);
}

/** The pool: each worker is a slot, free (idle) or running one job; jobs wait in a bounded queue. */
class Pool<I, O> implements WorkerPool<I, O> {
  readonly #options: WorkerPoolOptions;
  readonly #slots = new Set<Slot<I, O>>();
  readonly #idle: Slot<I, O>[] = [];
  readonly #queue: Job<I, O>[] = [];
  #closed = false;

  constructor(options: WorkerPoolOptions) {
    this.#options = options;
  }

  run(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      const job: Job<I, O> = { input, resolve, reject };
      if (this.#closed) return reject(new PoolBusyError('the pool is closed'));
      const free = this.#idle.pop() ?? (this.#slots.size < this.#options.size ? this.#spawn() : null);
      if (free) this.#start(free, job);
      else if (this.#queue.length < this.#options.maxQueue) this.#queue.push(job);
      else reject(new PoolBusyError(`${this.#slots.size} workers busy and ${this.#queue.length} jobs waiting`));
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.reject(new PoolBusyError('the pool is closing'));
    this.#idle.length = 0;
    await Promise.all([...this.#slots].map((slot) => slot.worker.terminate()));
  }

  /** Ends the slot's job, if it still has one, with `settle`. */
  #finish(slot: Slot<I, O>, settle: (job: Job<I, O>) => void): void {
    const job = slot.job;
    if (!job) return;
    clearTimeout(slot.timer);
    slot.job = null;
    settle(job);
  }

  /** Times the slot's job from now: past jobTimeoutMs it fails and the worker is replaced. */
  #time(slot: Slot<I, O>): void {
    slot.timer = setTimeout(() => {
      const err = new WorkerTimeoutError(`worker job ran longer than ${this.#options.jobTimeoutMs} ms`);
      // Out of the pool at once: a late answer must not make it free again. Its exit brings a replacement.
      this.#slots.delete(slot);
      this.#finish(slot, (j) => j.reject(err));
      this.#options.onWorkerFailure?.(err, slot.worker.threadId);
      void slot.worker.terminate();
    }, this.#options.jobTimeoutMs);
  }

  #start(slot: Slot<I, O>, job: Job<I, O>): void {
    slot.job = job;
    if (this.#options.unrefWhenIdle) slot.worker.ref();
    // A worker still loading keeps the job in its port and is timed once ready.
    if (slot.ready) this.#time(slot);
    slot.worker.postMessage(job.input);
  }

  /** A free worker takes the next waiting job, or waits for one. */
  #release(slot: Slot<I, O>): void {
    const next = this.#queue.shift();
    if (next) return this.#start(slot, next);
    this.#idle.push(slot);
    if (this.#options.unrefWhenIdle) slot.worker.unref();
  }

  #spawn(): Slot<I, O> {
    const worker = new Worker(this.#options.file);
    const slot: Slot<I, O> = { worker, ready: false, job: null, timer: undefined };
    this.#slots.add(slot);
    this.#options.onWorkerStart?.(worker.threadId);
    const threadId = worker.threadId;
    worker.on('message', (result: WorkerMessage<O>) => this.#onMessage(slot, result));
    worker.on('error', (err) => this.#options.onWorkerFailure?.(err, threadId));
    worker.on('exit', (code) => this.#onExit(slot, threadId, code));
    return slot;
  }

  #onMessage(slot: Slot<I, O>, result: WorkerMessage<O>): void {
    if ('ready' in result) {
      slot.ready = true;
      if (slot.job) this.#time(slot);
      return;
    }
    this.#finish(slot, (job) => ('output' in result ? job.resolve(result.output) : job.reject(new Error(result.error))));
    if (this.#slots.has(slot) && !this.#closed) this.#release(slot);
  }

  #onExit(slot: Slot<I, O>, threadId: number, code: number): void {
    this.#slots.delete(slot);
    const at = this.#idle.indexOf(slot);
    if (at >= 0) this.#idle.splice(at, 1);
    this.#finish(slot, (job) => {
      if (this.#closed) return job.reject(new PoolBusyError('the pool is closing'));
      const err = new WorkerFailedError(`worker exited with code ${code}`);
      this.#options.onWorkerFailure?.(err, threadId);
      job.reject(err);
    });
    // A replacement takes over the jobs that were waiting for this worker.
    if (!this.#closed && this.#queue.length > 0) this.#start(this.#spawn(), this.#queue.shift()!);
  }
}

/** In a worker module: answers every job the pool sends with `work`'s result, or the error it threw. */
export function serveJobs<I, O>(work: (input: I) => O): void {
  if (!parentPort) throw new Error('serveJobs runs in a worker thread');
  const port = parentPort;
  port.on('message', (input: I) => {
    let result: WorkerMessage<O>;
    try {
      result = { output: work(input) };
    } catch (err) {
      result = { error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
    }
    port.postMessage(result);
  });
  port.postMessage({ ready: true } satisfies WorkerMessage<O>);
}
