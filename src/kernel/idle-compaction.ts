import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Gives the memory of start-up and of a burst of traffic back to the system once the process is idle.
 *
 * V8 grows its young generation while a process allocates fast (start-up, or a burst of requests) and keeps it, with
 * the pages it touched, after the work is done: on the demo data a server rests at about 175 MiB on PostgreSQL where
 * the same heap, collected as V8 does under memory pressure (every available garbage, the young generation shrunk),
 * holds about 135. Such a collection stops the process for 50–150 ms, so it runs only once the event loop has been
 * idle for a whole sampling interval after some activity, and at most once per `minGapMs`. Serving keeps V8's default
 * young generation, which a cached read at the wire's speed needs (docs/operating.md, Memory).
 */

export interface IdlePolicy {
  /** Event-loop utilisation (0–1) of an interval below which the interval is idle. */
  idleBelow: number;
  /** Utilisation above which an interval counts as activity worth compacting after. */
  busyAbove: number;
  /** The least time between two compactions. */
  minGapMs: number;
}

export interface IdleState {
  /** Activity since the last compaction (start-up counts as such). */
  dirty: boolean;
  /** When the last compaction ran, or -Infinity. */
  lastAt: number;
}

export const DEFAULT_IDLE_POLICY: IdlePolicy = { idleBelow: 0.02, busyAbove: 0.1, minGapMs: 60_000 };

/** One interval's verdict: compact now or not, and the state after it. */
export function judgeInterval(policy: IdlePolicy, state: IdleState, utilization: number, now: number): { compact: boolean; state: IdleState } {
  if (utilization > policy.busyAbove) return { compact: false, state: { ...state, dirty: true } };
  if (state.dirty && utilization < policy.idleBelow && now - state.lastAt >= policy.minGapMs) {
    return { compact: true, state: { dirty: false, lastAt: now } };
  }
  return { compact: false, state };
}

type GcFunction = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

let gcFunction: GcFunction | null = null;

/**
 * V8's own `gc`, made available to this process without a command-line flag: `--expose-gc` set at run time applies
 * to contexts made after it, so a new context hands it over.
 */
function lastResortGc(): GcFunction {
  if (!gcFunction) {
    v8.setFlagsFromString('--expose-gc');
    gcFunction = vm.runInNewContext('gc') as GcFunction;
  }
  return gcFunction;
}

/** A full collection of every available garbage, as V8 does under memory pressure; returns its duration in ms. */
export function compactNow(): number {
  const started = performance.now();
  lastResortGc()({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return performance.now() - started;
}

export interface IdleCompaction {
  /** Compactions run so far. */
  readonly count: number;
  stop(): void;
}

/** Samples the event loop every `intervalMs` and compacts as `judgeInterval` says; the timer keeps no process alive. */
export function startIdleCompaction(
  options: { intervalMs?: number; policy?: IdlePolicy; onCompaction?: (ms: number) => void } = {},
): IdleCompaction {
  const policy = options.policy ?? DEFAULT_IDLE_POLICY;
  let state: IdleState = { dirty: true, lastAt: -Infinity };
  let count = 0;
  let previous = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const current = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(current, previous);
    previous = current;
    const verdict = judgeInterval(policy, state, utilization, performance.now());
    state = verdict.state;
    if (!verdict.compact) return;
    const ms = compactNow();
    count++;
    options.onCompaction?.(ms);
    // The collection's own pause is not activity to compact after.
    previous = performance.eventLoopUtilization();
  }, options.intervalMs ?? 2_000);
  timer.unref();
  return {
    get count() {
      return count;
    },
    stop: () => clearInterval(timer),
  };
}
