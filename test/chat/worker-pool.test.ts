import { describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createWorkerPool, PoolBusyError, WorkerFailedError, type WorkerPoolOptions } from '../../src/chat/worker-pool.ts';
import { ASSISTANT_RETRY_AFTER_S, answerInWorker, type AssistantPool } from '../../src/chat/assistant-pool.ts';
import { DomainError, errors } from '../../src/kernel/errors.ts';
import type { PoolTestJob } from './fixtures/pool-worker.ts';

/** The worker pool with a real worker thread (test/chat/fixtures/pool-worker.ts); no database involved. */

const WORKER = new URL('./fixtures/pool-worker.ts', import.meta.url);

function pool(t: TestContext, options: Partial<WorkerPoolOptions> = {}) {
  const failures: string[] = [];
  const started: number[] = [];
  const p = createWorkerPool<PoolTestJob, string>({
    file: WORKER,
    size: 1,
    maxQueue: 1,
    jobTimeoutMs: 30_000,
    onWorkerStart: (id) => started.push(id),
    onWorkerFailure: (err) => failures.push(err.message),
    ...options,
  });
  t.after(() => p.close());
  return { pool: p, failures, started };
}

/** A job that holds its worker until `release()`. */
function holder() {
  const flag = new SharedArrayBuffer(4);
  return {
    job: { kind: 'hold', flag } as PoolTestJob,
    release: () => {
      Atomics.store(new Int32Array(flag), 0, 1);
      Atomics.notify(new Int32Array(flag), 0);
    },
  };
}

describe('worker pool', () => {
  it('answers jobs in a worker thread, starting workers only when needed', async (t) => {
    const { pool: p, started } = pool(t, { size: 2 });
    assert.deepEqual(started, [], 'no worker before the first job');
    assert.equal(await p.run({ kind: 'echo', value: 'bonjour' }), 'bonjour');
    assert.equal(await p.run({ kind: 'echo', value: 'encore' }), 'encore');
    assert.equal(started.length, 1, 'a free worker is reused');
  });

  it('queues up to maxQueue jobs behind busy workers and refuses the next one at once', async (t) => {
    const { pool: p } = pool(t, { size: 1, maxQueue: 1 });
    const hold = holder();
    const running = p.run(hold.job);
    const queued = p.run({ kind: 'echo', value: 'queued' });
    await assert.rejects(p.run({ kind: 'echo', value: 'refused' }), PoolBusyError);
    hold.release();
    assert.equal(await running, 'released');
    assert.equal(await queued, 'queued');
    assert.equal(await p.run({ kind: 'echo', value: 'after' }), 'after');
  });

  it('rejects a job whose work throws, and keeps the worker', async (t) => {
    const { pool: p, started } = pool(t);
    await assert.rejects(p.run({ kind: 'throw' }), (err: Error) => !(err instanceof WorkerFailedError) && /this job fails/.test(err.message));
    assert.equal(await p.run({ kind: 'echo', value: 'still here' }), 'still here');
    assert.equal(started.length, 1);
  });

  it('replaces a worker that crashes: its job fails, the waiting job is answered by the new one', async (t) => {
    const { pool: p, started, failures } = pool(t, { size: 1, maxQueue: 1 });
    const crashed = p.run({ kind: 'crash' });
    const waiting = p.run({ kind: 'echo', value: 'answered' });
    await assert.rejects(crashed, WorkerFailedError);
    assert.equal(await waiting, 'answered');
    assert.equal(started.length, 2);
    assert.deepEqual(failures, ['worker exited with code 3']);
  });

  it('gives up a job that never finishes and replaces its worker', async (t) => {
    const { pool: p, started, failures } = pool(t, { jobTimeoutMs: 200 });
    await assert.rejects(p.run({ kind: 'spin' }), WorkerFailedError);
    assert.equal(await p.run({ kind: 'echo', value: 'next' }), 'next');
    assert.equal(started.length, 2);
    assert.match(failures[0], /longer than 200 ms/);
  });

  it('makes a full queue and a failed worker the contract’s 503, with Retry-After, for the assistant', async (t) => {
    const { pool: p } = pool(t, { size: 1, maxQueue: 0 });
    // The assistant's pool is this pool with another worker: the same refusals reach the citizen the same way.
    const assistants = p as unknown as AssistantPool;
    const unavailable = (message: string) => (err: unknown) =>
      err instanceof DomainError && err.statusCode === 503 && err.message === message && err.headers['retry-after'] === String(ASSISTANT_RETRY_AFTER_S);
    const hold = holder();
    const running = p.run(hold.job);
    await assert.rejects(answerInWorker(assistants, { kind: 'echo', value: 'refused' } as never), unavailable(errors.assistantBusy(ASSISTANT_RETRY_AFTER_S).message));
    hold.release();
    assert.equal(await running, 'released');
    await assert.rejects(answerInWorker(assistants, { kind: 'crash' } as never), unavailable(errors.assistantFailed(ASSISTANT_RETRY_AFTER_S).message));
  });

  it('fails running and waiting jobs on close, refuses new ones, and stops its workers', async (t) => {
    const { pool: p } = pool(t, { size: 1, maxQueue: 1 });
    const refused = Promise.all([
      assert.rejects(p.run(holder().job), PoolBusyError),
      assert.rejects(p.run({ kind: 'echo', value: 'never' }), PoolBusyError),
    ]);
    await p.close();
    await refused;
    await assert.rejects(p.run({ kind: 'echo', value: 'late' }), PoolBusyError);
  });
});
