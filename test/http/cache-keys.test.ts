import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { insertSite } from '../helpers/cms-fixtures.ts';
import { insertCalendarCity } from '../helpers/calendar-fixtures.ts';
import type { FastifyInstance } from 'fastify';

/**
 * The response cache is keyed on the route and the parameters it declares, never on the raw URL: distinct URLs that
 * the route answers alike share one entry, so a stream of them cannot grow the process; an answer built from a
 * request header (an app's apiUrl from Host) is never served to a request that sent another one.
 */

const NOW = '2026-06-01T12:00:00.000Z';

async function metric(app: FastifyInstance, name: string): Promise<number> {
  const text = (await app.inject('/metrics')).body;
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  assert.ok(line, `${name} is exported`);
  return Number(line.split(' ')[1]);
}

for (const kind of testDatabaseKinds()) {
  describe(`response cache keys (${kind})`, () => {
    it('keeps one entry for URLs that differ only by undeclared query parameters or the letter case of an id', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { clock: fixedClock(NOW), env: { RATE_LIMIT_MAX: '0' } });
      const cityId = await insertCalendarCity(database.db);
      const first = await app.inject(`/public/cities/${cityId}`);
      assert.equal(first.statusCode, 200);
      const entries = await metric(app, 'collecte_cache_entries');
      const bytes = await metric(app, 'collecte_cache_bytes');

      for (let i = 0; i < 200; i++) {
        // 15 KB of junk in a parameter the route does not declare, and ids in upper case.
        const junk = randomBytes(7_500).toString('hex');
        const id = i % 2 ? cityId.toUpperCase() : cityId;
        const res = await app.inject(`/public/cities/${id}?x=${junk}&i=${i}`);
        assert.equal(res.statusCode, 200);
        assert.equal(res.body, first.body);
      }
      assert.equal(await metric(app, 'collecte_cache_entries'), entries, 'no entry per distinct URL');
      assert.equal(await metric(app, 'collecte_cache_bytes'), bytes, 'no key of 15 KB kept');
      assert.ok((await metric(app, 'collecte_cache_hits_total')) >= 200, 'each of them answered from the one entry');
    });

    it('still tells apart the values of a declared query parameter', async (t) => {
      const { app } = await buildTestApp(t, kind, { clock: fixedClock(NOW) });
      const sites = await app.inject('/public/cms/sites?type=SITE');
      const apps = await app.inject('/public/cms/sites?type=APP');
      const bad = await app.inject('/public/cms/sites?type=NOPE');
      assert.equal(sites.statusCode, 200);
      assert.equal(apps.statusCode, 200);
      assert.equal(bad.statusCode, 400, 'not the cached answer of another value');
      assert.equal((await app.inject('/public/cms/sites?type=NOPE')).statusCode, 400);
    });

    it('never serves an app configuration built from a forged Host to another client', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { clock: fixedClock(NOW) });
      await insertSite(database.db, { name: 'Brest Tri', slug: 'brest-tri', type: 'APP' });
      const forged = await app.inject({ url: '/public/cms/apps/brest-tri', headers: { host: 'evil.example' } });
      assert.equal(forged.json().apiUrl, 'http://evil.example/public');
      const honest = await app.inject({ url: '/public/cms/apps/brest-tri', headers: { host: 'collecte.brest.fr' } });
      assert.equal(honest.statusCode, 200);
      assert.equal(honest.json().apiUrl, 'http://collecte.brest.fr/public');
      // X-Forwarded-Host counts only from a trusted proxy, and there is none here.
      const relayed = await app.inject({
        url: '/public/cms/apps/brest-tri',
        headers: { host: 'collecte.brest.fr', 'x-forwarded-host': 'evil.example' },
      });
      assert.equal(relayed.json().apiUrl, 'http://collecte.brest.fr/public');
      // A Host that is no host name is refused rather than written into a URL.
      const broken = await app.inject({ url: '/public/cms/apps/brest-tri', headers: { host: 'evil.example/@x' } });
      assert.equal(broken.statusCode, 400);
      assert.match(broken.json().message, /Host/);
    });

    it('never serves an app configuration built for plain HTTP to a client a trusted proxy says came over HTTPS, nor the reverse', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { clock: fixedClock(NOW), env: { TRUST_PROXY: '10.0.0.0/24' } });
      await insertSite(database.db, { name: 'Brest Tri', slug: 'brest-tri', type: 'APP' });
      const through = (proto: string) =>
        app.inject({
          url: '/public/cms/apps/brest-tri',
          remoteAddress: '10.0.0.5',
          headers: { host: 'collecte.brest.fr', 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': proto },
        });
      // Anyone may reach the balancer over plain HTTP first: its answer must not downgrade the apps that use HTTPS.
      assert.equal((await through('http')).json().apiUrl, 'http://collecte.brest.fr/public');
      assert.equal((await through('https')).json().apiUrl, 'https://collecte.brest.fr/public');
      assert.equal((await through('http')).json().apiUrl, 'http://collecte.brest.fr/public');
    });

    it('with PUBLIC_BASE_URL, the Host header plays no part at all', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { clock: fixedClock(NOW), env: { PUBLIC_BASE_URL: 'https://collecte.example.fr' } });
      await insertSite(database.db, { name: 'Brest Tri', slug: 'brest-tri', type: 'APP' });
      for (const host of ['evil.example', 'collecte.brest.fr', 'evil.example/@x']) {
        const res = await app.inject({ url: '/public/cms/apps/brest-tri', headers: { host } });
        assert.equal(res.statusCode, 200);
        assert.equal(res.json().apiUrl, 'https://collecte.example.fr/public');
      }
    });
  });
}
