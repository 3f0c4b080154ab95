import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { buildTestApp } from '../helpers/app.ts';
import { seedCities } from '../helpers/city-fixtures.ts';
import { negotiateEncoding, etagMatches } from '../../src/http/conditional.ts';

describe('conditional and compressed responses', () => {
  it('negotiates the coding from Accept-Encoding with q-values', () => {
    assert.equal(negotiateEncoding(undefined), 'identity');
    assert.equal(negotiateEncoding('gzip, deflate, br'), 'br');
    assert.equal(negotiateEncoding('gzip;q=1, br;q=0.5'), 'gzip');
    assert.equal(negotiateEncoding('br;q=0, gzip;q=0'), 'identity');
    assert.equal(negotiateEncoding('deflate'), 'identity');
    assert.equal(etagMatches('"a", "b"', '"b"'), true);
    assert.equal(etagMatches('W/"b"', '"b"'), true);
    assert.equal(etagMatches('"c"', '"b"'), false);
  });

  it('sends strong ETags, 304 on a match, and gzip/brotli bodies that decode to the same JSON', async (t) => {
    const { app, database } = await buildTestApp(t, 'pglite');
    await seedCities(database.db);
    const plain = await app.inject('/public/cities');
    assert.equal(plain.statusCode, 200);
    const etag = plain.headers.etag as string;
    assert.match(etag, /^"[^"]+"$/, 'a strong ETag');
    assert.equal(plain.headers['cache-control'], 'public, max-age=60');
    assert.equal(plain.headers.vary, 'Accept-Encoding');
    assert.equal(plain.headers['content-encoding'], undefined);

    const again = await app.inject({ url: '/public/cities', headers: { 'if-none-match': etag } });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
    assert.equal(again.headers.etag, etag);

    const gz = await app.inject({ url: '/public/cities', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.deepEqual(JSON.parse(gunzipSync(gz.rawPayload).toString()), plain.json());
    const br = await app.inject({ url: '/public/cities', headers: { 'accept-encoding': 'br' } });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.deepEqual(JSON.parse(brotliDecompressSync(br.rawPayload).toString()), plain.json());
    assert.ok(br.rawPayload.length < plain.rawPayload.length);

    // Each representation has its own validator, and each revalidates.
    assert.notEqual(br.headers.etag, etag);
    assert.notEqual(br.headers.etag, gz.headers.etag);
    const brAgain = await app.inject({ url: '/public/cities', headers: { 'accept-encoding': 'br', 'if-none-match': br.headers.etag as string } });
    assert.equal(brAgain.statusCode, 304);
  });

  it('changes the ETag when the data changes', async (t) => {
    const { app, database } = await buildTestApp(t, 'pglite');
    await seedCities(database.db);
    const before = await app.inject('/public/city-groups');
    await database.db.updateTable('city_group').set({ name: 'Brest Métropole Océane' }).where('code', '=', 'BM').execute();
    await app.dataChanged();
    const after = await app.inject({ url: '/public/city-groups', headers: { 'if-none-match': before.headers.etag as string } });
    assert.equal(after.statusCode, 200);
    assert.notEqual(after.headers.etag, before.headers.etag);
  });

  it('keeps errors uncached and open to any origin', async (t) => {
    const { app } = await buildTestApp(t, 'pglite');
    const res = await app.inject({ url: '/public/cities/00000000-0000-4000-8000-000000000000', headers: { origin: 'https://ville.example' } });
    assert.equal(res.statusCode, 404);
    assert.equal(res.headers.etag, undefined);
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
  });
});
