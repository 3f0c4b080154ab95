import { describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildApp } from '../../src/app.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { testConfig } from '../helpers/app.ts';
import { freePort } from '../helpers/net.ts';
import { startTcpProxy } from '../helpers/tcp-proxy.ts';

/**
 * The rate limits do not depend on the database, so they run on PGlite only; the Redis cases run when
 * REDIS_URL is set (shared counters) or when a redis-server binary can be started (outage).
 */

async function appWith(
  t: TestContext,
  env: Record<string, string>,
  shared?: Awaited<ReturnType<typeof createTestDatabase>>,
  logger?: FastifyBaseLogger,
) {
  const database = shared ?? (await createTestDatabase('pglite'));
  const app = await buildApp({ config: testConfig(env), database, logger });
  // A stand-in for the chat routes: the named 20-per-minute rule keyed by the body's deviceId.
  app.post('/public/__chat-probe', { config: { audience: 'public' } }, async (request, reply) => {
    const body = request.body as { deviceId?: string } | undefined;
    await app.chatRateLimit(request, reply, body?.deviceId ?? null);
    return { ok: true };
  });
  await app.ready();
  t.after(async () => {
    await app.close();
    if (!shared) await database.close();
  });
  return { app, database };
}

const get = (app: FastifyInstance, url = '/public/city-groups') => app.inject({ method: 'GET', url });

/** The contract's 429: its French body, and a Retry-After within the one-minute window. */
function assertTooManyRequests(res: Awaited<ReturnType<typeof get>>) {
  assert.equal(res.statusCode, 429);
  assert.deepEqual(res.json(), {
    statusCode: 429,
    message: 'Trop de requêtes : réessayez dans quelques instants.',
    error: 'Too Many Requests',
    code: 'rateLimited',
    field: null,
  });
  const retryAfter = Number(res.headers['retry-after']);
  assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
}

async function deleteKeys(url: string, prefix: string) {
  const redis = new Redis(url);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
}

describe('rate limits', () => {
  it('announces the general limit on every /public response and counts down to a 429', async (t) => {
    const { app } = await appWith(t, { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_S: '60' });
    const before = Math.floor(Date.now() / 1000);
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await get(app, i === 2 ? '/public/unknown-route' : '/public/city-groups');
      assert.equal(res.headers['x-ratelimit-limit'], '3');
      remaining.push(String(res.headers['x-ratelimit-remaining']));
      const reset = Number(res.headers['x-ratelimit-reset']);
      assert.ok(reset >= before && reset <= before + 61, `reset ${reset} is a Unix time within the window`);
    }
    assert.deepEqual(remaining, ['2', '1', '0']);
    const limited = await get(app);
    assertTooManyRequests(limited);
    assert.equal(limited.headers['access-control-allow-origin'], '*', 'CORS on errors too');
    // Outside /public (health probes) nothing is counted.
    assert.equal((await app.inject('/health')).statusCode, 200);
    assert.equal((await app.inject('/health')).headers['x-ratelimit-limit'], undefined);
  });

  it('turns the general limit and its headers off with RATE_LIMIT_MAX=0', async (t) => {
    const { app } = await appWith(t, { RATE_LIMIT_MAX: '0' });
    for (let i = 0; i < 5; i++) {
      const res = await get(app);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['x-ratelimit-limit'], undefined);
    }
  });

  it('counts the chat rule per device, 20 per minute, whatever RATE_LIMIT_MAX says', async (t) => {
    const { app } = await appWith(t, { RATE_LIMIT_MAX: '0' });
    const send = (deviceId?: string) =>
      app.inject({ method: 'POST', url: '/public/__chat-probe', payload: deviceId ? { deviceId } : {} });
    for (let i = 0; i < 20; i++) {
      const res = await send('device-aaaaaaaa');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['x-ratelimit-limit'], '20');
      assert.equal(res.headers['x-ratelimit-remaining'], String(19 - i));
    }
    const limited = await send('device-aaaaaaaa');
    assert.equal(limited.statusCode, 429);
    assert.ok(Number(limited.headers['retry-after']) >= 1);
    assert.equal((await send('device-bbbbbbbb')).statusCode, 200, 'another device has its own budget');
    assert.equal((await send()).headers['x-ratelimit-remaining'], '19', 'no deviceId: counted per IP');
  });

  it('counts chat requests per client IP too, so that rotating device ids do not escape', async (t) => {
    const { app } = await appWith(t, { RATE_LIMIT_MAX: '0', CHAT_IP_MAX: '5' });
    const send = (deviceId: string, remoteAddress = '203.0.113.7') =>
      app.inject({ method: 'POST', url: '/public/__chat-probe', payload: { deviceId }, remoteAddress });
    for (let i = 0; i < 5; i++) {
      const res = await send(`rotating-device-${i}`);
      assert.equal(res.statusCode, 200);
      // The headers keep describing the device's own limit.
      assert.equal(res.headers['x-ratelimit-limit'], '20');
      assert.equal(res.headers['x-ratelimit-remaining'], '19');
    }
    const limited = await send('rotating-device-5');
    assertTooManyRequests(limited);
    assert.equal(limited.headers['x-ratelimit-limit'], '20');
    assert.equal((await send('rotating-device-6', '203.0.113.8')).statusCode, 200, 'another IP has its own budget');
  });

  /** Two instances on one Redis, under a key prefix of their own that is deleted after the test. */
  async function twoInstances(t: TestContext, env: Record<string, string>) {
    const url = process.env.REDIS_URL!;
    const prefix = `collecte-test:${randomUUID()}:`;
    t.after(() => deleteKeys(url, prefix));
    // What is tested is the sharing: a loaded test machine must not turn a slow answer into a count in memory.
    const shared = { REDIS_URL: url, REDIS_KEY_PREFIX: prefix, REDIS_WAIT_MS: '10000', ...env };
    const { app: one, database } = await appWith(t, shared);
    const { app: two } = await appWith(t, shared, database);
    return { one, two };
  }

  it('shares one budget between two instances on one Redis', { skip: !process.env.REDIS_URL && 'REDIS_URL is not set' }, async (t) => {
    const { one, two } = await twoInstances(t, { RATE_LIMIT_MAX: '6', RATE_LIMIT_WINDOW_S: '60' });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await get(i % 2 ? two : one)).statusCode);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 429, 429]);
  });

  it('shares the chat budget per IP between two instances on one Redis', { skip: !process.env.REDIS_URL && 'REDIS_URL is not set' }, async (t) => {
    const { one, two } = await twoInstances(t, { RATE_LIMIT_MAX: '0', CHAT_IP_MAX: '3' });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const app = i % 2 ? two : one;
      statuses.push((await app.inject({ method: 'POST', url: '/public/__chat-probe', payload: { deviceId: `shared-ip-device-${i}` } })).statusCode);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
  });

  it('serves requests while Redis is down and counts again once it is back', async (t) => {
    if (spawnSync('redis-server', ['--version']).status !== 0) return t.skip('no redis-server binary');
    const port = await freePort();
    const start = () => {
      const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
        stdio: 'ignore',
      });
      return proc;
    };
    let server = start();
    t.after(() => server.kill('SIGKILL'));
    const url = `redis://127.0.0.1:${port}`;
    const waitUp = async () => {
      for (let i = 0; i < 100; i++) {
        const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
        probe.on('error', () => {});
        try {
          await probe.connect();
          await probe.ping();
          probe.disconnect();
          return;
        } catch {
          probe.disconnect();
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      throw new Error('redis-server did not start');
    };
    await waitUp();
    const logs: { level: number; msg: string }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => logs.push(JSON.parse(line)) });
    // A wait long enough for a loaded test machine's Redis answers (a dead Redis refuses at once).
    const { app } = await appWith(t, { REDIS_URL: url, RATE_LIMIT_MAX: '100', REDIS_WAIT_MS: '1000' }, undefined, logger);
    assert.equal((await get(app)).headers['x-ratelimit-remaining'], '99');
    assert.equal((await get(app)).headers['x-ratelimit-remaining'], '98');

    server.kill('SIGKILL');
    await new Promise((r) => server.once('exit', r));
    for (let i = 0; i < 3; i++) {
      const res = await get(app);
      assert.equal(res.statusCode, 200, 'fail open');
    }

    server = start();
    await waitUp();
    // The client reconnects on its own; counting resumes (a fresh server starts from zero).
    let remaining = '';
    for (let i = 0; i < 60 && remaining !== '98'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      remaining = String((await get(app)).headers['x-ratelimit-remaining']);
    }
    assert.ok(['99', '98'].includes(remaining), `counting resumed (remaining ${remaining})`);
    assert.equal((await get(app)).headers['x-ratelimit-remaining'], String(Number(remaining) - 1));
    const warnings = logs.filter((l) => l.level === 40 && /Redis is unreachable/.test(l.msg));
    assert.equal(warnings.length, 1, 'one warning for the outage, however many reconnection attempts failed');
    assert.ok(logs.some((l) => /Redis is back/.test(l.msg)));
  });

  it('a stalled Redis (connected, never answering) is noticed once, logged once, and counting moves to memory until it answers', { skip: !process.env.REDIS_URL && 'REDIS_URL is not set' }, async (t) => {
    const url = new URL(process.env.REDIS_URL!);
    const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 6379) });
    const prefix = `collecte-test:${randomUUID()}:`;
    t.after(async () => {
      proxy.resume();
      await proxy.close();
      await deleteKeys(process.env.REDIS_URL!, prefix);
    });
    const logs: { level: number; msg: string }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => logs.push(JSON.parse(line)) });
    // A wait long enough for a loaded test machine's Redis answers, short enough for the frozen one to be noticed.
    const env = { REDIS_URL: `redis://127.0.0.1:${proxy.port}`, REDIS_KEY_PREFIX: prefix, RATE_LIMIT_MAX: '100', REDIS_WAIT_MS: '1000' };
    const { app } = await appWith(t, env, undefined, logger);
    assert.equal((await get(app)).headers['x-ratelimit-remaining'], '99');
    // A cached read: the cache answers it in the first hook, after the count.
    assert.equal((await get(app)).headers['x-ratelimit-remaining'], '98');

    proxy.freeze();
    const during: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await get(app);
      assert.equal(res.statusCode, 200);
      during.push(String(res.headers['x-ratelimit-remaining']));
    }
    // Counted in this instance's memory (a window of its own), not waved through uncounted.
    assert.deepEqual(during, ['99', '98', '97', '96', '95']);
    assert.equal(logs.filter((l) => l.level === 40 && /Redis is unreachable/.test(l.msg)).length, 1, 'one warning for the stall');

    proxy.resume();
    let remaining = '';
    for (let i = 0; i < 60 && !logs.some((l) => /Redis is back/.test(l.msg)); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(logs.some((l) => /Redis is back/.test(l.msg)), 'its return is logged');
    remaining = String((await get(app)).headers['x-ratelimit-remaining']);
    // Back in Redis: the shared window holds the two requests counted before the stall, and the one whose command was
    // sent when Redis stalled and delivered on its return (counted in memory too: once twice, never none). Memory would say 94.
    assert.ok(['97', '96'].includes(remaining), remaining);
  });
});
