import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { memoryWindows, redisWindows, type RateWindows, type RedisLink, type WindowCount } from '../../src/http/rate-windows.ts';
import { startTcpProxy } from '../helpers/tcp-proxy.ts';

/** A Redis connection as redisWindows sees it, recording whether it was told Redis stalled. */
function link(redis: Redis): RedisLink & { stalls: number; up: boolean } {
  return {
    redis,
    stalls: 0,
    up: true,
    get available() {
      return this.up && redis.status === 'ready';
    },
    markStalled() {
      this.stalls++;
      this.up = false;
    },
  };
}

/** The counting rule the limits rest on, in memory (answered at once) and in Redis (when REDIS_URL is set). */

const WINDOW_MS = 60_000;

describe('rate windows in memory', () => {
  it('counts synchronously in a window opened by the first request, and opens a new one once it has passed', () => {
    let now = 1_000_000;
    const windows = memoryWindows(() => now);
    assert.deepEqual(windows.hit('ip:a', WINDOW_MS), { current: 1, ttlMs: 60_000 });
    now += 20_000;
    assert.deepEqual(windows.hit('ip:a', WINDOW_MS), { current: 2, ttlMs: 40_000 }, 'not a promise: no await on the hot path');
    assert.deepEqual(windows.hit('ip:b', WINDOW_MS), { current: 1, ttlMs: 60_000 }, 'each key has its own window');
    now += 40_000;
    assert.deepEqual(windows.hit('ip:a', WINDOW_MS), { current: 1, ttlMs: 60_000 }, 'the window of a has passed');
    assert.deepEqual(windows.hit('ip:b', WINDOW_MS), { current: 2, ttlMs: 20_000 });
  });
});

describe('rate windows in Redis', { skip: !process.env.REDIS_URL && 'REDIS_URL is not set' }, () => {
  it('counts in a window that expires, shared by every client of the same Redis', async (t) => {
    const prefix = `collecte-test:${randomUUID()}:`;
    const one = new Redis(process.env.REDIS_URL!);
    const two = new Redis(process.env.REDIS_URL!);
    t.after(async () => {
      const keys = await one.keys(`${prefix}*`);
      if (keys.length) await one.del(...keys);
      one.disconnect();
      two.disconnect();
    });
    const hit = (windows: RateWindows, key: string, ms: number) => Promise.resolve(windows.hit(key, ms)) as Promise<WindowCount>;
    await Promise.all([one.ping(), two.ping()]); // with the offline queue: waits for the connections
    // A generous wait: a loaded test machine must not turn a slow answer into a count in memory.
    const a = redisWindows(link(one), prefix, 10_000);
    const b = redisWindows(link(two), prefix, 10_000);
    const first = await hit(a, 'ip:a', WINDOW_MS);
    assert.equal(first.current, 1);
    assert.ok(first.ttlMs > 59_000 && first.ttlMs <= 60_000);
    assert.equal((await hit(b, 'ip:a', WINDOW_MS)).current, 2, 'another instance counts in the same window');
    assert.equal((await hit(a, 'ip:c', 200)).current, 1);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await hit(a, 'ip:c', 200)).current, 1, 'a new window once the old one has expired');
  });
});

describe('rate windows while Redis is away', () => {
  it('counts in memory while Redis cannot be reached', async () => {
    // A client that cannot connect and queues nothing: every command fails at once, as during an outage.
    const down = new Redis({ port: 1, lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    down.on('error', () => {});
    try {
      const windows = redisWindows(link(down), 'x:');
      assert.equal((await windows.hit('ip:a', WINDOW_MS)).current, 1);
      assert.equal((await windows.hit('ip:a', WINDOW_MS)).current, 2, 'still limited, per instance');
    } finally {
      down.disconnect();
    }
  });

  it('counts in memory after a short wait when Redis is connected but does not answer, and says it stalled', { skip: !process.env.REDIS_URL && 'REDIS_URL is not set' }, async (t) => {
    const url = new URL(process.env.REDIS_URL!);
    const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 6379) });
    const redis = new Redis({ host: '127.0.0.1', port: proxy.port, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    redis.on('error', () => {});
    t.after(async () => {
      proxy.resume();
      redis.disconnect();
      await proxy.close();
    });
    if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
    const prefix = `collecte-test:${randomUUID()}:`;
    const shared = link(redis);
    // Long enough for a loaded test machine's answers, short enough for the frozen one to be noticed.
    const windows = redisWindows(shared, prefix, 1000);
    assert.equal((await windows.hit('ip:a', WINDOW_MS)).current, 1, 'counted in Redis');

    proxy.freeze();
    // The command is sent and never answered: the request is counted in memory, not held for the command timeout.
    assert.equal((await windows.hit('ip:a', WINDOW_MS)).current, 1, 'counted in memory (its own window)');
    assert.equal(shared.stalls, 1);
    // Once Redis is taken for stalled, counting is synchronous: no promise, no wait at all.
    const next = windows.hit('ip:a', WINDOW_MS);
    assert.ok(!(next instanceof Promise));
    assert.equal((next as WindowCount).current, 2);
  });
});
