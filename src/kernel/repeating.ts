/**
 * A pass run now and then again `intervalMs` after each one ends (the requests' worker, the reminders' worker, the
 * chat's retention): never two at once, a failed pass logged by `failed` and tried again at the next turn. `stop`
 * clears the next turn and waits for the pass under way, so that what it writes is written before the database
 * closes.
 */
export interface Repeating {
  start(): void;
  stop(): Promise<void>;
}

/** A worker built on it: `tick` runs one pass at once (tests, the CLI), beside the repeated ones. */
export interface Ticking<T> extends Repeating {
  tick(): Promise<T>;
}

export function repeating<T>(
  pass: () => Promise<T>,
  intervalMs: number,
  done: { passed(result: T): void; failed(err: unknown): void },
): Repeating {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  const loop = () => {
    running = pass()
      .then(done.passed)
      .catch(done.failed)
      .finally(() => {
        running = null;
        if (timer !== null) timer = setTimeout(loop, intervalMs);
      });
  };
  return {
    start() {
      if (timer !== null) return;
      timer = setTimeout(loop, 0);
    },
    async stop() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}
