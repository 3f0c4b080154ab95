import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { repeating } from '../../src/kernel/repeating.ts';

/** A promise and the hands that settle it. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('repeating: a pass run again after each one ends', () => {
  it('runs at once, then again after each pass, never two at a time, and hands each result over', async () => {
    let inPass = 0;
    let most = 0;
    const results: number[] = [];
    const third = deferred();
    let n = 0;
    const repeat = repeating(
      async () => {
        inPass++;
        most = Math.max(most, inPass);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inPass--;
        return ++n;
      },
      1,
      {
        passed: (result) => {
          results.push(result);
          if (result === 3) third.resolve();
        },
        failed: (err) => assert.fail(err as Error),
      },
    );
    repeat.start();
    repeat.start(); // a second start while started changes nothing
    await third.promise;
    await repeat.stop();
    assert.deepEqual(results.slice(0, 3), [1, 2, 3]);
    assert.equal(most, 1);
  });

  it('hands a failed pass to `failed` and tries again at the next turn', async () => {
    const seen: string[] = [];
    const again = deferred();
    let n = 0;
    const repeat = repeating(
      async () => {
        n++;
        if (n === 1) throw new Error('base arrêtée');
        return n;
      },
      1,
      {
        passed: (result) => {
          seen.push(`passed ${result}`);
          again.resolve();
        },
        failed: (err) => seen.push(`failed ${(err as Error).message}`),
      },
    );
    repeat.start();
    await again.promise;
    await repeat.stop();
    assert.deepEqual(seen.slice(0, 2), ['failed base arrêtée', 'passed 2']);
  });

  it('a result its handler cannot take is a failure, not an unhandled rejection', async () => {
    const failures: string[] = [];
    const failed = deferred();
    const repeat = repeating(async () => 1, 60_000, {
      passed: () => {
        throw new Error('journal plein');
      },
      failed: (err) => {
        failures.push((err as Error).message);
        failed.resolve();
      },
    });
    repeat.start();
    await failed.promise;
    await repeat.stop();
    assert.deepEqual(failures, ['journal plein']);
  });

  it('stop waits for the pass under way and no pass starts after it', async () => {
    const started = deferred();
    const release = deferred();
    let passes = 0;
    let finished = false;
    const repeat = repeating(
      async () => {
        passes++;
        started.resolve();
        await release.promise;
        finished = true;
      },
      1,
      { passed: () => {}, failed: (err) => assert.fail(err as Error) },
    );
    repeat.start();
    await started.promise;
    let stopped = false;
    const stopping = repeat.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(stopped, false, 'stop must wait for the pass under way');
    release.resolve();
    await stopping;
    assert.equal(finished, true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(passes, 1, 'no pass after stop');
  });

  it('starts again after a stop', async () => {
    let passes = 0;
    const second = deferred();
    const repeat = repeating(
      async () => {
        passes++;
        if (passes === 2) second.resolve();
      },
      60_000,
      { passed: () => {}, failed: (err) => assert.fail(err as Error) },
    );
    repeat.start();
    await new Promise((resolve) => setTimeout(resolve, 10));
    await repeat.stop();
    assert.equal(passes, 1);
    repeat.start();
    await second.promise;
    await repeat.stop();
    assert.equal(passes, 2);
  });
});
