import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';
import { importBundleFile } from '../../src/bundle/import.ts';
import type { Database } from '../../src/db/database.ts';
import { StreamVersionMoved, startCitiesStream } from '../../src/cities/stream.ts';
import { ResponseCache, MAX_ENTRY_BYTES } from '../../src/http/response-cache.ts';

const DEMO = path.resolve(import.meta.dirname, '../../demo/bundle.json');
/** A date inside the demo's challenge windows. */
const NOW = '2026-11-20T10:00:00.000Z';

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

const serialize = (city: unknown) => JSON.stringify(city);

for (const kind of testDatabaseKinds()) {
  describe(`GET /public/cities streamed above CITIES_STREAM_THRESHOLD (${kind})`, () => {
    let database: Database;
    let mediaDir: string;
    let built: FastifyInstance;
    let streamed: FastifyInstance;
    const clock = fixedClock(NOW);
    const cleanups: (() => Promise<void>)[] = [];
    after(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    before(async () => {
      database = await createTestDatabase(kind);
      mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'collecte-stream-media-'));
      await importBundleFile(database, DEMO, { mediaDir, now: new Date(NOW) });
      cleanups.push(async () => {
        await database.close();
        await fs.rm(mediaDir, { recursive: true, force: true });
      });
      const holder = { after: (fn: () => Promise<void>) => void cleanups.push(fn) };
      ({ app: built } = await buildTestApp(holder, kind, { database, clock }));
      ({ app: streamed } = await buildTestApp(holder, kind, { database, clock, env: { CITIES_STREAM_THRESHOLD: '5' } }));
    });

    it('streams the very bytes the built list has', async () => {
      clock.set(NOW);
      const a = await built.inject('/public/cities');
      const b = await streamed.inject('/public/cities');
      assert.equal(a.statusCode, 200);
      assert.equal(b.statusCode, 200);
      assert.ok(JSON.parse(a.body).length > 5, 'the demo has more ACTIF cities than the lowered threshold');
      assert.ok(JSON.parse(a.body).some((c: { challenges: unknown[] }) => c.challenges.length > 0));
      assert.equal(b.body, a.body);
      // Built: a known length; streamed: chunked, never a whole-body length.
      assert.ok(a.headers['content-length']);
      assert.equal(b.headers['content-length'], undefined);
      assert.equal(b.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(b.headers['cache-control'], 'public, max-age=60');
      assert.equal(b.headers.vary, 'Accept-Encoding');
      assert.match(String(b.headers.etag), /^"[A-Za-z0-9_-]{27}"$/);
    });

    it('compresses the stream with gzip and brotli on request, each with its own ETag', async () => {
      clock.set(NOW);
      const plain = await streamed.inject('/public/cities');
      const br = await streamed.inject({ url: '/public/cities', headers: { 'accept-encoding': 'br' } });
      const gz = await streamed.inject({ url: '/public/cities', headers: { 'accept-encoding': 'gzip' } });
      assert.equal(br.headers['content-encoding'], 'br');
      assert.equal(gz.headers['content-encoding'], 'gzip');
      assert.equal(brotliDecompressSync(br.rawPayload).toString(), plain.body);
      assert.equal(gunzipSync(gz.rawPayload).toString(), plain.body);
      assert.equal(br.headers.etag, `${String(plain.headers.etag).slice(0, -1)}-br"`);
      assert.equal(gz.headers.etag, `${String(plain.headers.etag).slice(0, -1)}-gzip"`);
    });

    it('answers 304 with no body on If-None-Match, per coding', async () => {
      clock.set(NOW);
      const plain = await streamed.inject('/public/cities');
      const again = await streamed.inject({ url: '/public/cities', headers: { 'if-none-match': String(plain.headers.etag) } });
      assert.equal(again.statusCode, 304);
      assert.equal(again.body, '');
      assert.equal(again.headers.etag, plain.headers.etag);
      const br = await streamed.inject({ url: '/public/cities', headers: { 'accept-encoding': 'br' } });
      const brAgain = await streamed.inject({
        url: '/public/cities',
        headers: { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) },
      });
      assert.equal(brAgain.statusCode, 304);
      // The identity tag does not validate the brotli representation.
      const mixed = await streamed.inject({
        url: '/public/cities',
        headers: { 'accept-encoding': 'br', 'if-none-match': String(plain.headers.etag) },
      });
      assert.equal(mixed.statusCode, 200);
    });

    it('answers HEAD with the headers and no body', async () => {
      clock.set(NOW);
      const plain = await streamed.inject('/public/cities');
      const head = await streamed.inject({ method: 'HEAD', url: '/public/cities' });
      assert.equal(head.statusCode, 200);
      assert.equal(head.body, '');
      assert.equal(head.headers.etag, plain.headers.etag);
    });

    it('changes its ETag when data_version moves or a challenge window opens or closes', async () => {
      clock.set(NOW);
      const first = await streamed.inject('/public/cities');
      const { rows } = await sql<{ end_date: Date }>`
        SELECT end_date FROM challenge WHERE end_date > ${new Date(NOW)} ORDER BY end_date LIMIT 1
      `.execute(database.db);
      assert.ok(rows[0], 'the demo has a challenge that ends after NOW');
      // Still before the end: same validator, 304.
      clock.set(new Date(new Date(rows[0].end_date).getTime() - 1000).toISOString());
      const before = await streamed.inject({ url: '/public/cities', headers: { 'if-none-match': String(first.headers.etag) } });
      assert.equal(before.statusCode, 304);
      // Past the end: the challenge leaves the body, the validator changes.
      clock.set(new Date(new Date(rows[0].end_date).getTime() + 1000).toISOString());
      const later = await streamed.inject({ url: '/public/cities', headers: { 'if-none-match': String(first.headers.etag) } });
      assert.equal(later.statusCode, 200);
      assert.notEqual(later.headers.etag, first.headers.etag);
      assert.notEqual(later.body, first.body);
      assert.equal(later.body, (await built.inject('/public/cities')).body);

      clock.set(NOW);
      await streamed.dataChanged();
      const moved = await streamed.inject({ url: '/public/cities', headers: { 'if-none-match': String(first.headers.etag) } });
      assert.equal(moved.statusCode, 200);
      assert.notEqual(moved.headers.etag, first.headers.etag);
    });

    it('never keeps the streamed body in the response cache', async () => {
      clock.set(NOW);
      const first = JSON.parse((await streamed.inject('/public/cities')).body);
      // A change that does not move data_version: a cached body would hide it.
      await database.db.updateTable('city').set({ population: 4242 }).where('id', '=', first[0].id).execute();
      const second = JSON.parse((await streamed.inject('/public/cities')).body);
      assert.equal(second[0].population, 4242);
    });

    it('gives the same bytes in small batches as in one', async () => {
      const now = new Date(NOW);
      const whole = await startCitiesStream(database, now, 1000);
      const small = await startCitiesStream(database, now, 3);
      assert.equal(small.etag, whole.etag);
      const a = await readAll(whole.open(serialize, 'identity', (err) => assert.fail(err)));
      const b = await readAll(small.open(serialize, 'identity', (err) => assert.fail(err)));
      assert.ok(JSON.parse(b.toString()).length > 3);
      assert.equal(b.toString(), a.toString());
    });

    // Each batch is read on its own short snapshot (no connection is held while the client reads), checked against
    // the version the ETag was made at: on both databases a change mid-stream aborts rather than mixing two versions.
    it('aborts a stream whose data changes between batches, rather than mixing two versions', async () => {
      const now = new Date(NOW);
      const expected = (await readAll((await startCitiesStream(database, now, 3)).open(serialize, 'identity', assert.fail))).toString();
      const stream = await startCitiesStream(database, now, 3);
      const errors: Error[] = [];
      const body = stream.open(serialize, 'identity', (err) => errors.push(err));
      const iterator = body[Symbol.asyncIterator]();
      const firstChunk = await iterator.next();
      assert.equal(firstChunk.done, false);
      const firstCityId = JSON.parse(expected)[0].id;
      await database.db.updateTable('city').set({ name: 'Zzz renommée' }).where('id', '=', firstCityId).execute();
      await sql`UPDATE data_version SET version = version + 1 WHERE id = 1`.execute(database.db);
      await assert.rejects(async () => {
        for (let next = await iterator.next(); !next.done; next = await iterator.next());
      }, StreamVersionMoved);
    });
  });
}

describe('response cache entry size cap', () => {
  it('does not keep a body larger than MAX_ENTRY_BYTES, and keeps one at the cap', () => {
    const cache = new ResponseCache();
    const entry = (key: string, size: number) => ({
      key, version: 1, expiresAt: Infinity, compressible: true, headers: ['content-type', 'application/json'],
      identity: { body: Buffer.alloc(size), etag: '"x"', ok: [], notModified: [] }, variants: {},
    });
    cache.set('/big', entry('/big', MAX_ENTRY_BYTES + 1));
    assert.equal(cache.get('/big', 1, 0), undefined);
    cache.set('/fits', entry('/fits', MAX_ENTRY_BYTES));
    assert.ok(cache.get('/fits', 1, 0));
  });
});
