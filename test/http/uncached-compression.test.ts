import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { encode } from '../../src/http/conditional.ts';
import { buildTestApp } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids, seedCities, uuid } from '../helpers/city-fixtures.ts';
import { authApp, createAccount, loginHeaders } from '../helpers/auth-fixtures.ts';

/** The ETag of a body as the edge makes it: a SHA-256 of the bytes sent, and the coding for a compressed one. */
const etagOf = (body: Buffer, coding?: 'br' | 'gzip') =>
  `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}${coding ? `-${coding}` : ''}"`;

for (const kind of testDatabaseKinds()) {
  describe(`uncached answers compressed off the event loop (${kind})`, () => {
    it('compresses a large admin listing with br and gzip: the same bytes, validators and headers as a compression on the spot', async (t) => {
      const { app, database } = await authApp(t, kind);
      await createAccount(database.db, { email: 'root@collecte.fr', name: 'Root', superAdmin: true, permissions: [] });
      const asRoot = await loginHeaders(app, 'root@collecte.fr');
      // About 100 KB of JSON that compresses to several of zlib's output chunks (random text compresses poorly).
      await database.db
        .insertInto('waste_type_detail')
        .values(
          Array.from({ length: 100 }, (_, i) => ({
            id: uuid(),
            waste_type_id: ids.wasteEmb,
            material: `Matériau ${String(i).padStart(3, '0')}`,
            description: randomBytes(400).toString('base64'),
            instructions: 'Bien vidé, sans bouchon',
            image_url: null,
          })),
        )
        .execute();
      const url = `/admin/waste-types/${ids.wasteEmb}/details?pageSize=100`;

      const plain = await app.inject({ url, headers: asRoot });
      assert.equal(plain.statusCode, 200);
      assert.ok(plain.rawPayload.length > 60_000, `${plain.rawPayload.length} bytes`);
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.equal(plain.headers.vary, 'Accept-Encoding');
      assert.equal(plain.headers.etag, etagOf(plain.rawPayload));
      assert.equal(plain.headers['cache-control'], 'no-store');
      assert.equal(plain.headers['access-control-allow-origin'], undefined);

      for (const coding of ['br', 'gzip'] as const) {
        const headers = { ...asRoot, 'accept-encoding': coding };
        const res = await app.inject({ url, headers });
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['content-encoding'], coding);
        assert.equal(res.headers.vary, 'Accept-Encoding');
        assert.equal(res.headers['cache-control'], 'no-store');
        assert.equal(res.headers['content-length'], String(res.rawPayload.length));
        const decoded = coding === 'br' ? brotliDecompressSync(res.rawPayload) : gunzipSync(res.rawPayload);
        assert.deepEqual(decoded, plain.rawPayload, `${coding}: decodes to the plain body`);
        // Byte for byte what the synchronous compression (the cache's variants) makes, hence the same ETag as before.
        assert.deepEqual(res.rawPayload, encode(plain.rawPayload, coding));
        assert.equal(res.headers.etag, etagOf(res.rawPayload, coding));
        assert.ok(res.rawPayload.length < plain.rawPayload.length);

        const notModified = await app.inject({ url, headers: { ...headers, 'if-none-match': String(res.headers.etag) } });
        assert.equal(notModified.statusCode, 304);
        assert.equal(notModified.body, '');
        assert.equal(notModified.headers['content-length'], undefined);
        assert.equal(notModified.headers.etag, res.headers.etag);
        // The plain representation's tag does not match the compressed one.
        const plainTag: string = String(plain.headers.etag);
        assert.equal((await app.inject({ url, headers: { ...headers, 'if-none-match': plainTag } })).statusCode, 200);

        const head = await app.inject({ method: 'HEAD', url, headers });
        assert.equal(head.statusCode, 200);
        assert.equal(head.body, '');
        assert.equal(head.headers['content-encoding'], coding);
        assert.equal(head.headers.etag, res.headers.etag);
      }

      // Many at once: each answer whole and right.
      const many = await Promise.all(Array.from({ length: 12 }, (_, i) => app.inject({ url, headers: { ...asRoot, 'accept-encoding': i % 2 ? 'gzip' : 'br' } })));
      for (const [i, res] of many.entries()) {
        const decoded = i % 2 ? gunzipSync(res.rawPayload) : brotliDecompressSync(res.rawPayload);
        assert.deepEqual(decoded, plain.rawPayload);
      }
    });

    it('leaves small answers and what the client does not accept uncompressed', async (t) => {
      const { app, database } = await authApp(t, kind);
      await createAccount(database.db, { email: 'root@collecte.fr', name: 'Root', superAdmin: true, permissions: [] });
      const asRoot = await loginHeaders(app, 'root@collecte.fr');
      const small = await app.inject({ url: `/admin/waste-types/${ids.wasteEmb}`, headers: { ...asRoot, 'accept-encoding': 'br' } });
      assert.equal(small.statusCode, 200);
      assert.ok(small.rawPayload.length < 1024);
      assert.equal(small.headers['content-encoding'], undefined);
      assert.equal(small.headers.vary, 'Accept-Encoding');
      const refused = await app.inject({ url: `/admin/waste-types/${ids.wasteEmb}/details`, headers: { ...asRoot, 'accept-encoding': 'br;q=0, gzip;q=0' } });
      assert.equal(refused.headers['content-encoding'], undefined);
    });

    it('compresses public reads the same way when the response cache is off', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { env: { RESPONSE_CACHE: 'false' } });
      await seedCities(database.db);
      const plain = await app.inject('/public/cities');
      assert.ok(plain.rawPayload.length >= 1024);
      for (const coding of ['br', 'gzip'] as const) {
        const res = await app.inject({ url: '/public/cities', headers: { 'accept-encoding': coding } });
        assert.equal(res.headers['content-encoding'], coding);
        assert.equal(res.headers['cache-control'], 'public, max-age=60');
        assert.equal(res.headers['access-control-allow-origin'], '*');
        assert.deepEqual(res.rawPayload, encode(plain.rawPayload, coding));
        assert.equal(res.headers.etag, etagOf(res.rawPayload, coding));
      }
    });
  });
}
