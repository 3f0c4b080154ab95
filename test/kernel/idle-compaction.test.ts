import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { compactNow, DEFAULT_IDLE_POLICY, judgeInterval, type IdleState } from '../../src/kernel/idle-compaction.ts';

/** When a process gives its unused memory back: after activity, once idle, never twice within the gap. */
describe('idle compaction', () => {
  const policy = DEFAULT_IDLE_POLICY;
  const start: IdleState = { dirty: true, lastAt: -Infinity };

  it('compacts once after start-up, at the first idle interval, and not again while nothing happens', () => {
    let state = start;
    const verdicts: boolean[] = [];
    // Busy start, a middling interval, then idle ones.
    for (const [i, utilization] of [0.9, 0.05, 0.01, 0.0, 0.01].entries()) {
      const v = judgeInterval(policy, state, utilization, 100_000 + i * 2_000);
      verdicts.push(v.compact);
      state = v.state;
    }
    assert.deepEqual(verdicts, [false, false, true, false, false]);
  });

  it('compacts again after a burst, but not within the least gap of the last compaction', () => {
    let state: IdleState = { dirty: false, lastAt: 100_000 };
    state = judgeInterval(policy, state, 0.6, 110_000).state;
    assert.equal(state.dirty, true, 'a burst makes the process worth compacting');
    assert.equal(judgeInterval(policy, state, 0.0, 120_000).compact, false, 'only 20 s after the last one');
    const later = judgeInterval(policy, state, 0.0, 100_000 + policy.minGapMs);
    assert.equal(later.compact, true);
    assert.deepEqual(later.state, { dirty: false, lastAt: 100_000 + policy.minGapMs });
  });

  it('takes light traffic for neither activity nor rest', () => {
    const state: IdleState = { dirty: false, lastAt: 0 };
    const light = judgeInterval(policy, state, 0.05, 500_000);
    assert.deepEqual(light, { compact: false, state });
    const afterBurst = { dirty: true, lastAt: 0 };
    assert.equal(judgeInterval(policy, afterBurst, 0.05, 500_000).compact, false, 'a process still serving is not interrupted');
  });

  it('runs a real full collection without the --expose-gc flag', async () => {
    assert.equal(typeof (globalThis as { gc?: unknown }).gc, 'undefined', 'this process was started without --expose-gc');
    const majors: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors.push(entry.duration);
    });
    observer.observe({ entryTypes: ['gc'] });
    const ms = compactNow();
    compactNow();
    await new Promise((r) => setTimeout(r, 50));
    observer.disconnect();
    assert.ok(ms >= 0);
    assert.ok(majors.length >= 2, `major collections seen: ${majors.length}`);
  });
});
