import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import Fastify from 'fastify';
import type { TrustProxy } from '../../src/config.ts';
import { clientAddress, trustProxyOption } from '../../src/http/client-address.ts';

/**
 * The early hits (src/http/request-entry.ts) count a request against its client and give HSTS to HTTPS clients before
 * Fastify has made its request: their reading of the client must be Fastify's own, for every TRUST_PROXY and every
 * X-Forwarded-* a client or a chain of proxies may send.
 */

const ADDRESSES = ['127.0.0.1', '10.0.0.5', '10.0.0.77', '10.1.2.3', '203.0.113.7', '198.51.100.1', '::1', '2001:db8::1', 'fd00::5'];
const TRUSTS: TrustProxy[] = [false, 1, 2, ['10.0.0.0/24'], ['loopback', '10.0.0.5'], ['uniquelocal', '::1']];

describe('the client as the early hits read it', () => {
  for (const trust of TRUSTS) {
    it(`is Fastify's request.ip and request.protocol, TRUST_PROXY ${JSON.stringify(trust)}`, async (t) => {
      const app = Fastify({ trustProxy: trustProxyOption(trust) });
      const client = clientAddress(trust);
      app.get('/', async (request) => ({
        fastify: [request.ip, request.protocol === 'https'],
        early: [client.ip(request.raw), client.isHttps(request.raw)],
      }));
      t.after(() => app.close());
      const address = fc.constantFrom(...ADDRESSES);
      // What proxies and clients really write there: addresses, and now and then something that is not one.
      const hop = fc.oneof({ weight: 8, arbitrary: address }, { weight: 1, arbitrary: fc.constantFrom('unknown', '', '1.2.3', '[::1]:80', '300.1.1.1', ' 10.0.0.5 ') });
      const forwardedFor = fc.option(fc.array(hop, { minLength: 1, maxLength: 4 }).map((list) => list.join(', ')), { nil: undefined });
      const forwardedProto = fc.option(fc.constantFrom('https', 'http', 'http, https', 'https, http', ' https '), { nil: undefined });
      await fc.assert(
        fc.asyncProperty(address, forwardedFor, forwardedProto, async (remoteAddress, xff, proto) => {
          const headers: Record<string, string> = {};
          if (xff !== undefined) headers['x-forwarded-for'] = xff;
          if (proto !== undefined) headers['x-forwarded-proto'] = proto;
          const answer = (await app.inject({ url: '/', remoteAddress, headers })).json() as { fastify: unknown; early: unknown };
          assert.deepEqual(answer.early, answer.fastify);
        }),
        { numRuns: 300 },
      );
    });
  }
});
