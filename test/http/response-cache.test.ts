import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';
import { ids, seedCities } from '../helpers/city-fixtures.ts';
import { countingDatabase } from '../helpers/query-counter.ts';

for (const kind of testDatabaseKinds()) {
  describe(`cached public reads (${kind})`, () => {
    it('serves a repeated read from memory: no query, same bytes and validator', async (t) => {
      const base = await createTestDatabase(kind);
      t.after(() => base.close());
      await seedCities(base.db);
      const { counter, database } = countingDatabase(base);
      const { app } = await buildTestApp(t, kind, { database });

      const first = await app.inject({ url: `/public/cities/${ids.brest}`, headers: { 'accept-encoding': 'br' } });
      assert.equal(first.statusCode, 200);
      counter.queries = 0;
      const second = await app.inject({ url: `/public/cities/${ids.brest}`, headers: { 'accept-encoding': 'br' } });
      const plain = await app.inject({ url: `/public/cities/${ids.brest}` });
      assert.equal(counter.queries, 0, 'no query for a cached body (the version poller aside)');
      assert.deepEqual(second.rawPayload, first.rawPayload);
      assert.equal(second.headers.etag, first.headers.etag);
      assert.equal(second.headers['content-encoding'], 'br');
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.equal(plain.json().name, 'Brest');
      assert.equal(second.headers['cache-control'], 'public, max-age=60');
      assert.equal(second.headers['content-type'], first.headers['content-type']);
    });

    it('answers a hit with the headers of the first answer, and HEAD and 304 from the same entry', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      await seedCities(database.db);
      // What differs from one answer to the next: the time, the connection, and this request's place in its budget.
      const stable = (headers: Record<string, unknown>) => {
        const { date: _d, connection: _c, 'x-ratelimit-remaining': _r, 'x-ratelimit-reset': _s, ...rest } = headers;
        return rest;
      };
      // A HEAD fills the cache first: the GET after it must carry the very same validators.
      const head = await app.inject({ method: 'HEAD', url: '/public/cities', headers: { 'accept-encoding': 'br' } });
      assert.equal(head.statusCode, 200);
      assert.equal(head.body, '');
      for (const encoding of ['br', 'gzip', 'identity']) {
        const headers = { 'accept-encoding': encoding };
        const first = await app.inject({ url: '/public/cities', headers });
        const hit = await app.inject({ url: '/public/cities', headers });
        assert.equal(hit.statusCode, 200);
        assert.deepEqual(stable(hit.headers), stable(first.headers), `${encoding}: same headers from the cache`);
        assert.deepEqual(hit.rawPayload, first.rawPayload);
        if (encoding === 'identity') assert.ok(hit.json().some((city: { name: string }) => city.name === 'Brest'), 'the body the HEAD computed');
        assert.equal(hit.headers['content-length'], String(hit.rawPayload.length));
        assert.equal(hit.headers['access-control-allow-origin'], '*');
        assert.equal(hit.headers['x-content-type-options'], 'nosniff');
        assert.equal(hit.headers['x-ratelimit-limit'], '600');
        assert.equal(Number(hit.headers['x-ratelimit-remaining']), Number(first.headers['x-ratelimit-remaining']) - 1, 'a hit is counted');

        const headHit = await app.inject({ method: 'HEAD', url: '/public/cities', headers });
        assert.equal(headHit.body, '');
        assert.deepEqual(stable(headHit.headers), stable(first.headers), `${encoding}: HEAD says what GET sends`);

        const notModified = await app.inject({ url: '/public/cities', headers: { ...headers, 'if-none-match': String(first.headers.etag) } });
        assert.equal(notModified.statusCode, 304);
        assert.equal(notModified.body, '');
        assert.equal(notModified.headers.etag, first.headers.etag);
        assert.equal(notModified.headers.vary, 'Accept-Encoding');
        assert.equal(notModified.headers['cache-control'], 'public, max-age=60');
        assert.equal(notModified.headers['access-control-allow-origin'], '*');
        // RFC 9110 8.6: a 304 carries no length other than the 200's, and describes no body.
        assert.equal(notModified.headers['content-length'], undefined);
        assert.equal(notModified.headers['content-type'], undefined);
      }
      assert.equal(head.headers.etag, (await app.inject({ url: '/public/cities', headers: { 'accept-encoding': 'br' } })).headers.etag);
    });

    it('serves new data once the data version moves, on every instance sharing the database', async (t) => {
      const { app: one, database } = await buildTestApp(t, kind);
      const { app: two } = await buildTestApp(t, kind, { database });
      await seedCities(database.db);
      const before = (await one.inject('/public/city-groups')).json();
      assert.equal((await two.inject('/public/city-groups')).json()[1].name, 'Brest Métropole');

      await database.db.updateTable('city_group').set({ name: 'Brest Métropole Océane' }).where('id', '=', ids.group).execute();
      // Without a version change the cached body stands (it is the same snapshot for everyone)...
      assert.deepEqual((await one.inject('/public/city-groups')).json(), before);
      // ...and once a writer records the change, this instance serves it at once, the other within a second.
      await two.dataChanged();
      assert.equal((await two.inject('/public/city-groups')).json()[1].name, 'Brest Métropole Océane');
      let seen = '';
      const start = Date.now();
      while (Date.now() - start < 1500) {
        seen = (await one.inject('/public/city-groups')).json()[1].name;
        if (seen === 'Brest Métropole Océane') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(seen, 'Brest Métropole Océane');
    });

    it('computes a body again once the clock passes its expiry', async (t) => {
      const clock = fixedClock('2026-11-23T08:00:00.000Z');
      const { app, database } = await buildTestApp(t, kind, { clock });
      await seedCities(database.db);
      const first = (await app.inject('/public/city-groups')).json();
      await database.db.updateTable('city_group').set({ name: 'Renommée' }).where('id', '=', ids.group).execute();
      clock.set('2026-11-23T08:00:30.000Z');
      assert.deepEqual((await app.inject('/public/city-groups')).json(), first, 'still fresh after 30 s');
      clock.set('2026-11-23T08:01:01.000Z');
      assert.equal((await app.inject('/public/city-groups')).json()[1].name, 'Renommée', 'recomputed after 60 s');
    });

    it('never caches errors or per-device answers', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      const missing = await app.inject(`/public/cities/${ids.brest}`);
      assert.equal(missing.statusCode, 404);
      await seedCities(database.db);
      assert.equal((await app.inject(`/public/cities/${ids.brest}`)).statusCode, 200, 'a 404 was not kept');
    });
  });
}
