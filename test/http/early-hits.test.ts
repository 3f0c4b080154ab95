import { describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { testConfig } from '../helpers/app.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';
import { ids, seedCities } from '../helpers/city-fixtures.ts';
import type { DatabaseKind } from '../../src/db/database.ts';

/**
 * Cached reads over real sockets, as browsers and apps send them: once a URL's answer is cached and has been served
 * from the cache, the next requests for it are answered before Fastify's router (src/http/request-entry.ts). Whatever
 * path answers, a client must see the same answer, be counted the same, and /metrics must say the same.
 * (`app.inject` calls Fastify directly: these tests listen on a port.)
 */

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const HSTS = 'max-age=31536000';

interface Served {
  app: FastifyInstance;
  send(path: string, headers?: Record<string, string>, method?: string): Promise<Answer>;
  /** Requests Fastify itself answered (its onResponse hooks ran), by method and URL. */
  routed: string[];
}

async function serve(t: TestContext, kind: DatabaseKind, env: Record<string, string> = {}, logger?: pino.Logger): Promise<Served> {
  const database = await createTestDatabase(kind);
  await seedCities(database.db);
  const app = await buildApp({ config: testConfig(env), database, logger });
  const routed: string[] = [];
  app.addHook('onResponse', (request, _reply, done) => {
    routed.push(`${request.method} ${request.url}`);
    done();
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  t.after(async () => {
    agent.destroy();
    await app.close();
    await database.close();
  });
  const { port } = app.server.address() as AddressInfo;
  const send = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    new Promise<Answer>((resolve, reject) => {
      const request = http.request({ host: '127.0.0.1', port, path, method, headers, agent }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      });
      request.on('error', reject);
      request.end();
    });
  return { app, send, routed };
}

/** An answer's headers but those that differ between any two answers: the date and this request's rate-limit figures. */
function stableHeaders(answer: Answer): IncomingHttpHeaders {
  const { date: _date, 'x-ratelimit-remaining': _remaining, 'x-ratelimit-reset': _reset, ...rest } = answer.headers;
  return rest;
}

const metric = (text: string, name: string, labels: Record<string, string>): number[] =>
  text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
    .map((line) => Number(line.slice(line.lastIndexOf(' ') + 1)));

for (const kind of testDatabaseKinds()) {
  describe(`cached reads answered before the router (${kind})`, () => {
    it('answers a URL once it has been served from the cache, with the same bytes and headers, in every coding, 304 and HEAD included', async (t) => {
      const { send, routed } = await serve(t, kind);
      for (const path of ['/public/city-groups', `/public/cities/${ids.brest}`]) {
        const before = routed.length;
        const filled = await send(path);
        assert.equal(filled.status, 200, filled.body.toString());
        const answers = [filled];
        for (let i = 0; i < 4; i++) answers.push(await send(path));
        assert.deepEqual(routed.slice(before), [`GET ${path}`, `GET ${path}`], 'Fastify answers the first read and the first hit, no more');
        for (const answer of answers.slice(1)) {
          assert.equal(answer.status, 200);
          assert.deepEqual(answer.body, filled.body);
          assert.deepEqual(stableHeaders(answer), stableHeaders(filled));
        }
        const etag = String(filled.headers.etag);
        const notModified = await send(path, { 'if-none-match': etag });
        assert.equal(notModified.status, 304);
        assert.equal(notModified.body.length, 0);
        assert.equal(notModified.headers.etag, etag);
        assert.equal(notModified.headers['content-type'], undefined);

        // The other codings, from the same entry: compressed once, then the same bytes at each read.
        for (const coding of ['br', 'gzip']) {
          const first = await send(path, { 'accept-encoding': coding });
          const again = await send(path, { 'accept-encoding': coding });
          assert.equal(first.headers['content-encoding'], filled.body.length >= 1024 ? coding : undefined, path);
          assert.deepEqual(again.body, first.body);
          assert.deepEqual(stableHeaders(again), stableHeaders(first));
          assert.equal((await send(path, { 'accept-encoding': coding, 'if-none-match': String(first.headers.etag) })).status, 304);
        }

        // HEAD is a route of its own: Fastify answers its first read from the cache, the next ones come before it.
        const headsBefore = routed.length;
        for (let i = 0; i < 3; i++) {
          const head = await send(path, {}, 'HEAD');
          assert.equal(head.status, 200);
          assert.equal(head.body.length, 0);
          assert.deepEqual(stableHeaders(head), stableHeaders(filled));
        }
        assert.deepEqual(routed.slice(headsBefore), [`HEAD ${path}`]);
      }

      // Another spelling of a cached URL (a trailing slash, a parameter the route does not declare, as a newsletter's
      // link adds): the first hook finds its entry, and the spelling is known from then on.
      const other = `/public/cities/${ids.brest}/?utm_source=lettre`;
      const before = routed.length;
      const lower = await send(`/public/cities/${ids.brest}`);
      for (let i = 0; i < 3; i++) assert.deepEqual((await send(other)).body, lower.body);
      assert.deepEqual(routed.slice(before), [`GET ${other}`]);
    });

    it('counts each read once against its client, and answers the 429 of the contract past the limit', async (t) => {
      const { send, routed } = await serve(t, kind, { RATE_LIMIT_MAX: '6' });
      const remaining: number[] = [];
      for (let i = 0; i < 6; i++) {
        const answer = await send('/public/city-groups');
        assert.equal(answer.status, 200);
        assert.equal(answer.headers['x-ratelimit-limit'], '6');
        remaining.push(Number(answer.headers['x-ratelimit-remaining']));
      }
      assert.deepEqual(remaining, [5, 4, 3, 2, 1, 0]);
      assert.equal(routed.length, 2, 'four of the six came before the router');
      const refused = await send('/public/city-groups');
      assert.equal(refused.status, 429);
      assert.equal(refused.headers['x-ratelimit-remaining'], '0');
      assert.ok(Number(refused.headers['retry-after']) >= 1);
      assert.equal(refused.headers['access-control-allow-origin'], '*');
      const body = JSON.parse(refused.body.toString()) as { code: string; message: string };
      assert.equal(body.code, 'rateLimited');
      assert.match(body.message, /Trop de requêtes/);
      // Another URL of the public API shares the budget; the API's documentation is not counted.
      assert.equal((await send(`/public/cities/${ids.brest}`)).status, 429);
      for (let i = 0; i < 3; i++) assert.equal((await send('/openapi.json')).status, 200);
      assert.equal((await send('/openapi.json')).headers['x-ratelimit-remaining'], undefined);
    });

    it('reads the client and its scheme as Fastify does: behind a trusted proxy, each forwarded client its own budget, HSTS over HTTPS', async (t) => {
      const { send, routed } = await serve(t, kind, { RATE_LIMIT_MAX: '100', TRUST_PROXY: 'loopback' });
      const from = (client: string, https = false) => ({ 'x-forwarded-for': client, ...(https ? { 'x-forwarded-proto': 'https' } : {}) });
      const seen: string[] = [];
      for (let i = 0; i < 4; i++) {
        const a = await send('/public/city-groups', from('203.0.113.7'));
        seen.push(`a${a.headers['x-ratelimit-remaining']}`);
        assert.equal(a.headers['strict-transport-security'], undefined);
      }
      for (let i = 0; i < 3; i++) {
        const b = await send('/public/city-groups', from('198.51.100.1, 203.0.113.8', true));
        seen.push(`b${b.headers['x-ratelimit-remaining']}`);
        assert.equal(b.headers['strict-transport-security'], HSTS);
      }
      assert.deepEqual(seen, ['a99', 'a98', 'a97', 'a96', 'b99', 'b98', 'b97']);
      assert.equal(routed.length, 2, 'the first read and the first hit');

      // Without TRUST_PROXY, the headers a client writes are its own words: one budget, the socket's; no HSTS.
      const direct = await serve(t, kind, { RATE_LIMIT_MAX: '100' });
      const counted: string[] = [];
      for (const client of ['203.0.113.7', '203.0.113.8', '203.0.113.9', '203.0.113.10']) {
        const answer = await direct.send('/public/city-groups', from(client, true));
        counted.push(String(answer.headers['x-ratelimit-remaining']));
        assert.equal(answer.headers['strict-transport-security'], undefined);
      }
      assert.deepEqual(counted, ['99', '98', '97', '96']);
    });

    it('shares the budget of two instances on one Redis, the reads answered before the router counted in it', { skip: !process.env.REDIS_URL && 'REDIS_URL is not set' }, async (t) => {
      const url = process.env.REDIS_URL!;
      const prefix = `collecte-test:${randomUUID()}:`;
      t.after(async () => {
        const redis = new Redis(url);
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length) await redis.del(...keys);
        redis.disconnect();
      });
      // A loaded test machine must not turn a slow answer into a count in memory.
      const env = { REDIS_URL: url, REDIS_KEY_PREFIX: prefix, REDIS_WAIT_MS: '10000', RATE_LIMIT_MAX: '10' };
      const one = await serve(t, kind, env);
      const two = await serve(t, kind, env);
      const seen: string[] = [];
      for (let i = 0; i < 12; i++) {
        const answer = await (i % 2 ? two : one).send('/public/city-groups');
        seen.push(`${answer.status} ${answer.headers['x-ratelimit-remaining']}`);
      }
      assert.deepEqual(seen, ['200 9', '200 8', '200 7', '200 6', '200 5', '200 4', '200 3', '200 2', '200 1', '200 0', '429 0', '429 0']);
      assert.equal(one.routed.length + two.routed.length, 6, 'each instance: the first read, the first hit, and its 429');
    });

    it('serves the new answer as soon as public data changes', async (t) => {
      const { app, send } = await serve(t, kind);
      const first = await send('/public/city-groups');
      await send('/public/city-groups');
      assert.deepEqual((await send('/public/city-groups')).body, first.body);
      await app.db.updateTable('city_group').set({ name: 'Renommée' }).where('id', '=', ids.group).execute();
      await app.dataChanged();
      const after = await send('/public/city-groups');
      assert.match(after.body.toString(), /Renommée/);
      assert.notEqual(after.headers.etag, first.headers.etag);
    });

    it('counts the answers in /metrics under their route and method, each series once', async (t) => {
      const { send } = await serve(t, kind);
      for (let i = 0; i < 5; i++) assert.equal((await send('/public/city-groups')).status, 200);
      for (let i = 0; i < 3; i++) assert.equal((await send('/public/city-groups', {}, 'HEAD')).status, 200);
      const text = (await send('/metrics')).body.toString();
      assert.deepEqual(metric(text, 'collecte_http_requests_total', { method: 'GET', route: '/public/city-groups', status: '200' }), [5]);
      assert.deepEqual(metric(text, 'collecte_http_requests_total', { method: 'HEAD', route: '/public/city-groups', status: '200' }), [3]);
      assert.deepEqual(metric(text, 'collecte_http_request_duration_seconds_count', { method: 'GET', route: '/public/city-groups' }), [5]);
      assert.deepEqual(metric(text, 'collecte_http_request_duration_seconds_count', { method: 'HEAD', route: '/public/city-groups' }), [3]);
      assert.ok(metric(text, 'collecte_http_request_duration_seconds_sum', { method: 'GET', route: '/public/city-groups' })[0] > 0);
      assert.match(text, /^collecte_cache_hits_total 7$/m, 'every read but the first came from the cache');
    });

    it('leaves every request to Fastify when each request is logged', async (t) => {
      const lines: string[] = [];
      const sink = new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(...chunk.toString().split('\n').filter(Boolean));
          done();
        },
      });
      const { send, routed } = await serve(t, kind, { LOG_LEVEL: 'info' }, pino({ level: 'info' }, sink));
      for (let i = 0; i < 4; i++) assert.equal((await send('/public/city-groups')).status, 200);
      assert.equal(routed.length, 4);
      // The log line is written as the answer finishes, which may come just after the client has read it.
      for (let wait = 0; wait < 100 && lines.filter((line) => line.includes('request completed')).length < 4; wait++) await new Promise((r) => setTimeout(r, 20));
      const completed = lines.map((line) => JSON.parse(line) as { msg: string; reqId?: string }).filter((entry) => entry.msg === 'request completed');
      assert.equal(completed.length, 4);
      assert.equal(new Set(completed.map((entry) => entry.reqId)).size, 4, 'each with its own request id');
    });
  });
}
