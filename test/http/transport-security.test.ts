import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { seedCities } from '../helpers/city-fixtures.ts';

const BALANCER = '10.0.0.5';
const HSTS = 'max-age=31536000';

/** A request as the balancer forwards it: over HTTPS (X-Forwarded-Proto: https) or plain HTTP. */
function through(app: FastifyInstance, url: string, https: boolean, headers: Record<string, string> = {}, remoteAddress = BALANCER) {
  return app.inject({ url, remoteAddress, headers: { ...headers, 'x-forwarded-for': '203.0.113.7', ...(https ? { 'x-forwarded-proto': 'https' } : {}) } });
}

for (const kind of testDatabaseKinds()) {
  describe(`Strict-Transport-Security (${kind})`, () => {
    it('is on every answer to an HTTPS request, cached answers and 304s included, and never on plain HTTP ones', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { env: { TRUST_PROXY: '10.0.0.0/24' } });
      await seedCities(database.db);

      // The cache is filled by an HTTPS request: the plain-HTTP hits after it must not inherit its HSTS.
      const filled = await through(app, '/public/city-groups', true);
      assert.equal(filled.statusCode, 200);
      assert.equal(filled.headers['strict-transport-security'], HSTS);
      // Served from the cache from here on: a change not announced to the app is not seen.
      await database.db.updateTable('city_group').set({ name: 'Renommée en douce' }).execute();
      const plainHit = await through(app, '/public/city-groups', false);
      assert.deepEqual(plainHit.rawPayload, filled.rawPayload, 'a cache hit');
      assert.equal(plainHit.headers['strict-transport-security'], undefined);
      const httpsHit = await through(app, '/public/city-groups', true);
      assert.deepEqual(httpsHit.rawPayload, filled.rawPayload, 'a cache hit');
      assert.equal(httpsHit.headers['strict-transport-security'], HSTS);
      const notModified = await through(app, '/public/city-groups', true, { 'if-none-match': String(filled.headers.etag) });
      assert.equal(notModified.statusCode, 304);
      assert.equal(notModified.headers['strict-transport-security'], HSTS);
      assert.equal((await through(app, '/public/city-groups', false, { 'if-none-match': String(filled.headers.etag) })).headers['strict-transport-security'], undefined);

      // The other way round: filled over plain HTTP, then hit over HTTPS.
      const plainFill = await through(app, '/public/cities', false);
      assert.equal(plainFill.headers['strict-transport-security'], undefined);
      assert.equal((await through(app, '/public/cities', true)).headers['strict-transport-security'], HSTS);

      // Answers that are not cached reads: errors, the docs, probes, the console's 401.
      for (const url of ['/public/nulle-part', '/public/cities/pas-un-uuid', '/health', '/docs', '/openapi.json', '/chat/inbox']) {
        assert.equal((await through(app, url, true)).headers['strict-transport-security'], HSTS, `https ${url}`);
        assert.equal((await through(app, url, false)).headers['strict-transport-security'], undefined, `http ${url}`);
      }
    });

    it('believes X-Forwarded-Proto only from a trusted proxy', async (t) => {
      const listed = await buildTestApp(t, kind, { env: { TRUST_PROXY: '10.0.0.0/24' } });
      assert.equal((await through(listed.app, '/health', true)).headers['strict-transport-security'], HSTS, 'from the listed balancer');
      const direct = await through(listed.app, '/health', true, {}, '198.51.100.9');
      assert.equal(direct.statusCode, 200);
      assert.equal(direct.headers['strict-transport-security'], undefined, 'a client outside the list cannot ask for HSTS');

      const untrusting = await buildTestApp(t, kind);
      assert.equal((await through(untrusting.app, '/health', true)).headers['strict-transport-security'], undefined, 'no TRUST_PROXY');
    });

    it('reaches the client over a real connection, on a cache hit too', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { env: { TRUST_PROXY: 'loopback' } });
      await seedCities(database.db);
      await app.listen({ port: 0, host: '127.0.0.1' });
      const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      for (const attempt of ['fill', 'hit']) {
        const https = await fetch(`${origin}/public/city-groups`, { headers: { 'x-forwarded-proto': 'https' } });
        assert.equal(https.status, 200, attempt);
        assert.equal(https.headers.get('strict-transport-security'), HSTS, attempt);
        await https.arrayBuffer();
        const plain = await fetch(`${origin}/public/city-groups`);
        assert.equal(plain.headers.get('strict-transport-security'), null, attempt);
        await plain.arrayBuffer();
      }
    });
  });
}
