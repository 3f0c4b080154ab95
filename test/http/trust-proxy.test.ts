import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, testConfig } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ConfigError } from '../../src/config.ts';

/** The load balancer in front of the service, as the service's socket sees it. */
const BALANCER = '10.0.0.5';
const LIMIT = 5;

/** How many requests the client IP counted for this request has left: the bucket it was counted in. */
async function remaining(app: FastifyInstance, remoteAddress: string, forwardedFor?: string): Promise<number> {
  const res = await app.inject({
    url: '/public/city-groups',
    remoteAddress,
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  });
  assert.ok(res.statusCode === 200 || res.statusCode === 429, `${res.statusCode} ${res.body}`);
  return Number(res.headers['x-ratelimit-remaining']);
}

describe('TRUST_PROXY parsing', () => {
  it('trusts no proxy by default, one hop for true, a hop count, or a list of addresses and CIDR ranges; refuses the rest', () => {
    for (const raw of [undefined, '', 'false', 'no', 'off', '0']) {
      assert.equal(testConfig(raw === undefined ? {} : { TRUST_PROXY: raw }).trustProxy, false, String(raw));
    }
    for (const raw of ['true', 'TRUE', 'yes', 'on', '1']) assert.equal(testConfig({ TRUST_PROXY: raw }).trustProxy, 1, raw);
    assert.equal(testConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
    assert.deepEqual(testConfig({ TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,::1 , fd00::/8,loopback' }).trustProxy, [
      '10.0.0.5',
      '10.1.0.0/16',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    // A value it cannot read, or a range that holds every address, stops the start naming the variable.
    for (const raw of ['maybe', '11', '-1', '10.0.0.300', '10.0.0.0/33', '::1/129', '0.0.0.0/0', '::/0', '10.0.0.5,', 'proxy.example', '10.0.0.0/8 10.1.0.0/16']) {
      assert.throws(
        () => testConfig({ TRUST_PROXY: raw }),
        (err: unknown) => err instanceof ConfigError && /TRUST_PROXY/.test(err.message),
        raw,
      );
    }
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`client address behind proxies (${kind})`, () => {
    it('with TRUST_PROXY=true counts the address the balancer saw, whatever the client put on the left of X-Forwarded-For', async (t) => {
      const { app } = await buildTestApp(t, kind, { env: { RATE_LIMIT_MAX: String(LIMIT), TRUST_PROXY: 'true' } });
      assert.equal(await remaining(app, BALANCER, '203.0.113.7'), LIMIT - 1);
      // A client that sends its own X-Forwarded-For: the balancer appends the address it saw to it.
      assert.equal(await remaining(app, BALANCER, '198.51.100.1, 203.0.113.7'), LIMIT - 2);
      assert.equal(await remaining(app, BALANCER, '198.51.100.2, 198.51.100.3, 203.0.113.7'), LIMIT - 3);
      // Another client behind the same balancer has a budget of its own.
      assert.equal(await remaining(app, BALANCER, '203.0.113.8'), LIMIT - 1);
    });

    it('with a hop count trusts that many proxies, from the nearest', async (t) => {
      const { app } = await buildTestApp(t, kind, { env: { RATE_LIMIT_MAX: String(LIMIT), TRUST_PROXY: '2' } });
      // client -> CDN (adds the client) -> balancer (adds the CDN) -> service
      assert.equal(await remaining(app, BALANCER, '198.51.100.1, 203.0.113.7, 192.0.2.10'), LIMIT - 1);
      assert.equal(await remaining(app, BALANCER, '198.51.100.2, 203.0.113.7, 192.0.2.10'), LIMIT - 2);
      assert.equal(await remaining(app, BALANCER, '203.0.113.7, 192.0.2.11'), LIMIT - 3);
    });

    it('with a list of proxies takes X-Forwarded-For only from a listed proxy, and only up to the first address not listed', async (t) => {
      const { app } = await buildTestApp(t, kind, { env: { RATE_LIMIT_MAX: String(LIMIT), TRUST_PROXY: '10.0.0.0/24, 2001:db8::1' } });
      assert.equal(await remaining(app, BALANCER, '203.0.113.7'), LIMIT - 1);
      assert.equal(await remaining(app, '10.0.0.6', '198.51.100.1, 203.0.113.7'), LIMIT - 2, 'the forged left part is not the client');
      assert.equal(await remaining(app, '2001:db8::1', '203.0.113.7'), LIMIT - 3);
      // A chain of listed proxies is walked through.
      assert.equal(await remaining(app, BALANCER, '203.0.113.7, 10.0.0.9'), LIMIT - 4);

      // A client outside the list that sends the header is counted by its own address, whatever it claims.
      assert.equal(await remaining(app, '10.0.1.5', '203.0.113.50'), LIMIT - 1);
      assert.equal(await remaining(app, '10.0.1.5', '203.0.113.51'), LIMIT - 2);
      assert.equal(await remaining(app, '10.0.1.5'), LIMIT - 3);
    });
  });
}
