import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { terminateBackends } from '../helpers/terminate-backends.ts';
import { buildApp } from '../../src/app.ts';
import { importBundleFile } from '../../src/bundle/import.ts';
import type { Database } from '../../src/db/database.ts';
import { startCitiesStream } from '../../src/cities/stream.ts';
import { fixedClock, testConfig } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabaseOptions } from '../helpers/database.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { freePort } from '../helpers/net.ts';
import { spawn } from 'node:child_process';

/**
 * The faults of a real PostgreSQL, injected without touching the shared server: its backends terminated with
 * pg_terminate_backend (only this test's own connections, found by application_name), and a TCP proxy the test
 * controls between the service and the server (freeze: a black hole; cut: every connection reset).
 * An unhandled 'error' event of a pg client would end this test process: surviving is part of each assertion.
 */

const DATABASE_URL = process.env.DATABASE_URL;
const DEMO = path.resolve(import.meta.dirname, '../../demo/bundle.json');
const NOW = '2026-11-20T10:00:00.000Z';
const BREST = '0d8a9bc9-104b-5b64-a127-357bd85689ee';
/** Short timeouts, so that a black-holed database answers 503 quickly in tests. */
const TIMEOUTS = { connectMs: 800, statementMs: 1_500, idleInTransactionMs: 5_000 };
/**
 * For the slow readers: a pool of one connection that streams read in turn, and a wait for it long enough for a loaded
 * machine (800 ms once refused a read queued behind two streams' batches). A stream that held the connection would
 * still fail the other reads, well before the server's idle-in-transaction timeout could free it.
 */
const SLOW_READER_TIMEOUTS = { connectMs: 5_000, statementMs: 15_000, idleInTransactionMs: 60_000 };

interface Service {
  app: FastifyInstance;
  database: Database;
  mediaDir: string;
  close(): Promise<void>;
}

async function startService(options: TestDatabaseOptions, env: Record<string, string> = {}, clock = fixedClock(NOW)): Promise<Service> {
  const mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'collecte-faults-'));
  const database = await createTestDatabase('postgres', {
    ...options,
    seed: async (seeding) => {
      await importBundleFile(seeding, DEMO, { mediaDir, now: new Date(NOW) });
    },
  });
  const app = await buildApp({ config: testConfig({ MEDIA_DIR: mediaDir, ...env }), database, clock });
  await app.ready();
  return {
    app,
    database,
    mediaDir,
    async close() {
      await app.close();
      await database.close();
      await fs.rm(mediaDir, { recursive: true, force: true });
    },
  };
}

/** A city id of the demo, read through the API. */
async function cityIds(app: FastifyInstance): Promise<string[]> {
  const res = await app.inject('/public/city-groups');
  return (JSON.parse(res.body) as { cities: { id: string }[] }[]).flatMap((g) => g.cities.map((c) => c.id));
}

async function backendStates(applicationName: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT state FROM pg_stat_activity WHERE application_name = $1', [applicationName]);
    return rows.map((r) => String(r.state));
  } finally {
    await client.end();
  }
}

function assertUnavailable(res: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  assert.equal(res.statusCode, 503, res.body);
  assert.match(String(res.headers['retry-after']), /^\d+$/);
  const body = JSON.parse(res.body);
  assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'field', 'message', 'statusCode']);
  assert.equal(body.error, 'Service Unavailable');
  assert.equal(body.code, 'unavailable');
  assert.equal(body.field, null);
  assert.match(body.message, /indisponible/);
}

async function waitUntil(check: () => Promise<boolean>, what: string, attempts = 100): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`never happened: ${what}`);
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

const appName = () => `collecte-test-${randomBytes(4).toString('hex')}`;

describe('PostgreSQL faults', { skip: DATABASE_URL ? false : 'needs DATABASE_URL' }, () => {
  describe('terminated backends (a restart, a failover, pg_terminate_backend)', () => {
    const name = appName();
    let service: Service;
    before(async () => {
      service = await startService({ applicationName: name, timeouts: TIMEOUTS }, { RATE_LIMIT_MAX: '0' });
    });
    after(() => service.close());

    it('rides through under load: failing requests answer 503, nothing stored is lost, /ready goes green again', async () => {
      const { app } = service;
      const clock = app.clock as ReturnType<typeof fixedClock>;
      const ids = await cityIds(app);
      const challenges = JSON.parse((await app.inject(`/public/challenges/${BREST}`)).body) as { id: string; requiredChallengeId: string | null }[];
      const open = challenges.find((c) => c.requiredChallengeId === null)!;
      const stored = await app.inject({
        method: 'POST',
        url: '/public/challenges/complete',
        payload: { deviceId: 'device-before-fault', challengeId: open.id, score: 80 },
      });
      assert.equal(stored.statusCode, 201, stored.body);

      let running = true;
      const statuses = new Map<number, number>();
      const load = async (worker: number) => {
        let i = 0;
        while (running) {
          i++;
          // Uncached snapshot reads (the clock moves past the cache's expiry), plain reads and writes.
          clock.set(new Date(Date.parse(NOW) + (worker * 1000 + i) * 61_000).toISOString());
          const res =
            i % 3 === 0
              ? await app.inject(`/public/chat/availability?cityId=${ids[i % ids.length]}`)
              : i % 3 === 1
                ? await app.inject(`/public/cities/${ids[(i + worker) % ids.length]}`)
                : await app.inject({ method: 'POST', url: '/public/challenges/complete', payload: { deviceId: `device-${worker}-${i}`, challengeId: open.id, score: 50 } });
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          if (res.statusCode >= 500) assertUnavailable(res);
        }
      };
      const workers = [0, 1, 2, 3, 4, 5].map(load);
      let terminated = 0;
      for (let round = 0; round < 6; round++) {
        await new Promise((r) => setTimeout(r, 150));
        terminated += await terminateBackends(name);
      }
      await new Promise((r) => setTimeout(r, 300));
      running = false;
      await Promise.all(workers);
      clock.set(NOW);

      assert.ok(terminated > 0, 'the service had connections to terminate');
      for (const status of statuses.keys()) assert.ok([200, 201, 503].includes(status), `unexpected status ${status}: ${[...statuses]}`);
      assert.ok((statuses.get(200) ?? 0) + (statuses.get(201) ?? 0) > 0);

      await waitUntil(async () => (await app.inject('/ready')).statusCode === 200, '/ready green again');
      const progress = JSON.parse((await app.inject('/public/challenges/progress/device-before-fault')).body) as { score: number }[];
      assert.equal(progress.length, 1, 'the completion stored before the fault is still there');
      assert.equal(progress[0].score, 80);
      assert.equal((await app.inject(`/public/cities/${ids[0]}`)).statusCode, 200);
    });
  });

  describe('a database that stops answering (black hole) or resets every connection', () => {
    const name = appName();
    let proxy: TcpProxy;
    let service: Service;
    before(async () => {
      const url = new URL(DATABASE_URL!);
      proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
      service = await startService({ applicationName: name, viaPort: proxy.port, timeouts: TIMEOUTS, poolSize: 4 });
    });
    after(async () => {
      proxy.resume();
      await service.close();
      await proxy.close();
    });

    it('answers /ready, uncached reads and writes at once with 503, serves the last good cached answers, and recovers', async () => {
      const { app } = service;
      const clock = app.clock as ReturnType<typeof fixedClock>;
      const [first, second] = await cityIds(app);
      const good = await app.inject(`/public/cities/${first}`);
      assert.equal(good.statusCode, 200);

      proxy.freeze();
      // Past the cache's 60 s: the entry is stale, and the database does not answer.
      clock.set('2026-11-20T10:05:00.000Z');
      const ready = await app.inject('/ready');
      assert.equal(ready.statusCode, 503);
      assert.equal(JSON.parse(ready.body).error, 'Service Unavailable');

      const stale = await app.inject(`/public/cities/${first}`);
      assert.equal(stale.statusCode, 200, 'the last good answer (stale-if-error)');
      assert.equal(stale.body, good.body);
      assert.equal(stale.headers.etag, good.headers.etag);
      assert.ok(stale.headers['x-ratelimit-remaining'], 'counted like any answer');
      // A client holding it revalidates to a 304.
      const revalidated = await app.inject({ url: `/public/cities/${first}`, headers: { 'if-none-match': String(good.headers.etag) } });
      assert.equal(revalidated.statusCode, 304);

      assertUnavailable(await app.inject(`/public/cities/${second}`));
      assertUnavailable(
        await app.inject({ method: 'POST', url: '/public/challenges/complete', payload: { deviceId: 'device-frozen-1', challengeId: second, score: 5 } }),
      );

      // A reset of every connection (a restart) answers the same way.
      proxy.cut();
      assertUnavailable(await app.inject(`/public/cities/${second}`));
      assert.equal((await app.inject('/ready')).statusCode, 503);

      proxy.resume();
      await waitUntil(async () => (await app.inject('/ready')).statusCode === 200, '/ready green after the outage');
      const fresh = await app.inject(`/public/cities/${second}`);
      assert.equal(fresh.statusCode, 200);
      clock.set(NOW);
    });

    it('closes while the database is black-holed: requests in flight end, the pool does not hold the stop', async () => {
      const url = new URL(DATABASE_URL!);
      const ownProxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
      const own = await startService({ applicationName: appName(), viaPort: ownProxy.port, timeouts: TIMEOUTS, poolSize: 2 });
      const [id] = await cityIds(own.app);
      ownProxy.freeze();
      (own.app.clock as ReturnType<typeof fixedClock>).set('2026-11-20T11:00:00.000Z');
      const inFlight = own.app.inject(`/public/cities/${id}?fresh=1`).then((r) => r.statusCode);
      await new Promise((r) => setTimeout(r, 100));
      await own.app.close();
      await own.database.close();
      assert.ok([200, 503].includes(await inFlight));
      ownProxy.resume();
      await ownProxy.close();
      await fs.rm(own.mediaDir, { recursive: true, force: true });
    });
  });
});

describe('a real process on a stalled PostgreSQL', { skip: DATABASE_URL ? false : 'needs DATABASE_URL' }, () => {
  it('answers /ready with 503 and stops on SIGTERM while the database does not answer', async (t) => {
    const url = new URL(DATABASE_URL!);
    const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    // The service's own schema: created and migrated here, named in the connection string's options.
    const database = await createTestDatabase('postgres');
    t.after(async () => {
      proxy.resume();
      await proxy.close();
      await database.close();
    });
    const serviceUrl = new URL(DATABASE_URL!);
    serviceUrl.hostname = '127.0.0.1';
    serviceUrl.port = String(proxy.port);
    serviceUrl.searchParams.set('options', `-c search_path=${database.schema}`);
    const port = await freePort();
    const child = spawn(process.execPath, ['src/cli.ts', 'serve'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: {
        ...process.env,
        DATABASE_URL: serviceUrl.toString(),
        REDIS_URL: '',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        DATABASE_CONNECT_TIMEOUT_MS: '500',
        DATABASE_STATEMENT_TIMEOUT_MS: '1000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    t.after(() => child.kill('SIGKILL'));
    await waitUntil(async () => {
      try {
        return (await fetch(`http://127.0.0.1:${port}/ready`)).status === 200;
      } catch {
        return false;
      }
    }, `the service is ready: ${output}`, 300);

    proxy.freeze();
    assert.equal((await fetch(`http://127.0.0.1:${port}/ready`)).status, 503);
    const inFlight = fetch(`http://127.0.0.1:${port}/public/city-groups`).then((r) => r.status, () => 0);
    await new Promise((r) => setTimeout(r, 100));
    child.kill('SIGTERM');
    // fetch keeps its connection alive: once answered, it must not hold the stop until its keep-alive timeout.
    assert.equal(await inFlight, 503, 'the request in flight is answered, not dropped');
    assert.equal(await exited, 0, output);
    assert.match(output, /database/i, 'the outage is in the log');
  });
});

for (const kind of DATABASE_URL ? (['pglite', 'postgres'] as const) : (['pglite'] as const)) {
  describe(`slow readers of the streamed city list (${kind})`, () => {
    const name = appName();
    let database: Database;
    let mediaDir: string;
    before(async () => {
      database = await createTestDatabase(kind, { applicationName: name, poolSize: 1, timeouts: SLOW_READER_TIMEOUTS });
      mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'collecte-slow-'));
      await importBundleFile(database, DEMO, { mediaDir, now: new Date(NOW) });
    });
    after(async () => {
      await database.close();
      await fs.rm(mediaDir, { recursive: true, force: true });
    });

    it('holds no database connection while its reader waits: other reads get the only pool connection', async () => {
      // Three batches of one city; the reader takes the first chunk, then stops reading.
      const stream = await startCitiesStream(database, new Date(NOW), 1);
      const body = stream.open((city) => JSON.stringify(city), 'identity', () => {});
      const first = await new Promise<Buffer>((resolve) => body.once('data', resolve));
      body.pause();
      assert.ok(first.length > 0);
      await new Promise((r) => setTimeout(r, 100));
      if (kind === 'postgres') {
        const states = await backendStates(name);
        assert.ok(!states.includes('idle in transaction'), `no connection waits on the reader: ${states}`);
      }
      // With a pool of one connection, a read held by the stream would wait for it, then fail.
      const rows = await database.db.selectFrom('city').select('id').limit(3).execute();
      assert.equal(rows.length, 3);
      body.destroy();
    });

    it('bounds the streams sent at once, and serves other reads while its clients read nothing', async () => {
      const app = await buildApp({
        config: testConfig({ MEDIA_DIR: mediaDir, CITIES_STREAM_THRESHOLD: '0', CITIES_MAX_STREAMS: '2' }),
        database,
        clock: fixedClock(NOW),
      });
      await app.ready();
      try {
        // Two clients that take the headers and then read nothing: their answers stay in flight, held by backpressure.
        const slow = await Promise.all([1, 2].map(() => app.inject({ url: '/public/cities', payloadAsStream: true })));
        for (const res of slow) assert.equal(res.statusCode, 200);
        const refused = await app.inject('/public/cities');
        assert.equal(refused.statusCode, 503);
        assert.equal(refused.headers['retry-after'], '10');
        assert.match(JSON.parse(refused.body).message, /indisponible/);

        // The pool has one connection: a stream holding it would starve every other read.
        const [id] = await cityIds(app);
        assert.equal((await app.inject(`/public/cities/${id}`)).statusCode, 200);
        assert.equal((await app.inject(`/public/chat/availability?cityId=${id}`)).statusCode, 200);
        assert.equal((await app.inject('/ready')).statusCode, 200);
        if (kind === 'postgres') {
          const states = await backendStates(name);
          assert.ok(!states.includes('idle in transaction'), `no connection waits on a reader: ${states}`);
        }

        // Once a client has read its answer, its slot is given back.
        const whole = await readAll(slow[0].stream());
        assert.equal(JSON.parse(whole.toString()).length, (await cityIds(app)).length);
        await waitUntil(async () => (await app.inject('/public/cities')).statusCode === 200, 'a stream accepted again');
        await readAll(slow[1].stream());
      } finally {
        await app.close();
      }
    });
  });
}
