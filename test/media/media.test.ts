import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { buildTestApp } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { insertMedia, makeMediaDir } from '../helpers/cms-fixtures.ts';

/** A real photo-like JPEG, 2000×1500, with a gradient so that the encoder has something to do. */
async function bigJpeg(): Promise<Buffer> {
  const width = 2000;
  const height = 1500;
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[i] = (x * 255) / width;
      raw[i + 1] = (y * 255) / height;
      raw[i + 2] = ((x + y) * 7) % 256;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 80 }).toBuffer();
}

const PDF = Buffer.from('%PDF-1.4\n% Calendrier de collecte 2026\n' + 'x'.repeat(2000) + '\n%%EOF\n');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

for (const kind of testDatabaseKinds()) {
  describe(`CMS media (${kind})`, () => {
    it('answers the metadata of a public media with absolute paths; thumbnailUrl null for a non-image', async (t) => {
      const dir = makeMediaDir(t);
      const { app, database } = await buildTestApp(t, kind, { env: { MEDIA_DIR: dir } });
      const photo = await insertMedia(database.db, dir, {
        bytes: Buffer.from('not decoded here'),
        mimeType: 'image/jpeg',
        filename: 'affiche.jpg',
        width: 2000,
        height: 1500,
        alt: 'Affiche de la collecte',
      });
      const pdf = await insertMedia(database.db, dir, { bytes: PDF, mimeType: 'application/pdf', filename: 'calendrier.pdf' });

      const res = await app.inject(`/public/cms/media/${photo.id}`);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), {
        id: photo.id,
        filename: 'affiche.jpg',
        mimeType: 'image/jpeg',
        size: 16,
        width: 2000,
        height: 1500,
        alt: 'Affiche de la collecte',
        url: `/public/cms/media/${photo.id}/file`,
        thumbnailUrl: `/public/cms/media/${photo.id}/thumbnail`,
        createdAt: '2026-01-01T00:00:00.000Z',
      });

      const doc = (await app.inject(`/public/cms/media/${pdf.id}`)).json();
      assert.equal(doc.thumbnailUrl, null);
      assert.equal(doc.width, null);
      assert.equal(doc.alt, null);
      for (const url of [`/public/cms/media/${pdf.id}/thumbnail`, `/public/cms/media/${pdf.id}/file?thumb=1`]) {
        const none = await app.inject(url);
        assert.equal(none.statusCode, 404, url);
        assert.equal(none.json().error, 'Not Found');
      }
    });

    it('streams the file with its type, length, strong ETag, Cache-Control and Accept-Ranges; 304 on If-None-Match', async (t) => {
      const dir = makeMediaDir(t);
      const { app, database } = await buildTestApp(t, kind, { env: { MEDIA_DIR: dir } });
      const pdf = await insertMedia(database.db, dir, { bytes: PDF, mimeType: 'application/pdf', filename: 'calendrier 2026.pdf' });

      const res = await app.inject(`/public/cms/media/${pdf.id}/file`);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.rawPayload, PDF);
      assert.equal(res.headers['content-type'], 'application/pdf');
      assert.equal(res.headers['content-length'], String(PDF.length));
      assert.equal(res.headers.etag, `"${sha(PDF)}"`);
      assert.match(res.headers['cache-control'] as string, /^public, max-age=\d+/);
      assert.equal(res.headers['accept-ranges'], 'bytes');
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.match(res.headers['content-disposition'] as string, /^inline; filename="calendrier 2026.pdf"/);

      const again = await app.inject({ url: `/public/cms/media/${pdf.id}/file`, headers: { 'if-none-match': `"${sha(PDF)}"` } });
      assert.equal(again.statusCode, 304);
      assert.equal(again.rawPayload.length, 0);
      assert.equal(again.headers.etag, `"${sha(PDF)}"`);

      const changed = await app.inject({ url: `/public/cms/media/${pdf.id}/file`, headers: { 'if-none-match': '"autre"' } });
      assert.equal(changed.statusCode, 200);

      const head = await app.inject({ method: 'HEAD', url: `/public/cms/media/${pdf.id}/file` });
      assert.equal(head.statusCode, 200);
      assert.equal(head.headers['content-length'], String(PDF.length));
      assert.equal(head.rawPayload.length, 0);
    });

    it('honours Range: exact bytes with 206 and Content-Range, 416 past the end, whole body for several ranges', async (t) => {
      const dir = makeMediaDir(t);
      const { app, database } = await buildTestApp(t, kind, { env: { MEDIA_DIR: dir } });
      const pdf = await insertMedia(database.db, dir, { bytes: PDF, mimeType: 'application/pdf' });
      const url = `/public/cms/media/${pdf.id}/file`;
      const size = PDF.length;

      const cases: Array<[string, number, number]> = [
        ['bytes=0-9', 0, 9],
        ['bytes=100-199', 100, 199],
        [`bytes=${size - 5}-`, size - 5, size - 1],
        ['bytes=-7', size - 7, size - 1],
        [`bytes=10-${size + 1000}`, 10, size - 1],
      ];
      for (const [range, start, end] of cases) {
        const res = await app.inject({ url, headers: { range } });
        assert.equal(res.statusCode, 206, range);
        assert.deepEqual(res.rawPayload, PDF.subarray(start, end + 1), range);
        assert.equal(res.headers['content-range'], `bytes ${start}-${end}/${size}`, range);
        assert.equal(res.headers['content-length'], String(end - start + 1), range);
      }

      for (const range of [`bytes=${size}-`, `bytes=${size + 10}-${size + 20}`, 'bytes=-0']) {
        const res = await app.inject({ url, headers: { range } });
        assert.equal(res.statusCode, 416, range);
        assert.equal(res.headers['content-range'], `bytes */${size}`, range);
        assert.equal(res.json().statusCode, 416);
      }

      for (const range of ['bytes=0-1,5-9', 'items=0-5', 'bytes=9-2', 'bytes=abc']) {
        const res = await app.inject({ url, headers: { range } });
        assert.equal(res.statusCode, 200, range);
        assert.deepEqual(res.rawPayload, PDF, range);
      }

      const staleIfRange = await app.inject({ url, headers: { range: 'bytes=0-9', 'if-range': '"ancienne-version"' } });
      assert.equal(staleIfRange.statusCode, 200);
      assert.equal(staleIfRange.rawPayload.length, size);
      const freshIfRange = await app.inject({ url, headers: { range: 'bytes=0-9', 'if-range': `"${sha(PDF)}"` } });
      assert.equal(freshIfRange.statusCode, 206);
    });

    it('makes a real thumbnail of a 2000×1500 JPEG: at most 320 px, aspect kept, cached on disk, same bytes for thumb=1', async (t) => {
      const dir = makeMediaDir(t);
      const { app, database } = await buildTestApp(t, kind, { env: { MEDIA_DIR: dir } });
      const jpeg = await bigJpeg();
      const photo = await insertMedia(database.db, dir, { bytes: jpeg, mimeType: 'image/jpeg', filename: 'photo.jpg', width: 2000, height: 1500 });
      const url = `/public/cms/media/${photo.id}/thumbnail`;

      // Concurrent first requests share one cache file and all get the same complete image.
      const first = await Promise.all([1, 2, 3, 4].map(() => app.inject(url)));
      for (const res of first) {
        assert.equal(res.statusCode, 200);
        assert.deepEqual(res.rawPayload, first[0].rawPayload);
      }
      const thumb = first[0];
      assert.equal(thumb.headers['content-type'], 'image/jpeg');
      assert.equal(thumb.headers['content-length'], String(thumb.rawPayload.length));
      assert.equal(thumb.headers.etag, `"${sha(thumb.rawPayload)}"`);
      assert.ok(thumb.rawPayload.length < jpeg.length / 10);

      const meta = await sharp(thumb.rawPayload).metadata();
      assert.equal(meta.format, 'jpeg');
      assert.ok(meta.width! <= 320 && meta.height! <= 320);
      assert.equal(Math.max(meta.width!, meta.height!), 320);
      assert.equal(meta.width! / meta.height!, 2000 / 1500);
      const stats = await sharp(thumb.rawPayload).stats();
      assert.equal(stats.channels.length, 3);

      const cached = fs.readdirSync(path.join(dir, 'thumbs'));
      assert.equal(cached.length, 1, `one cache file, no temporary leftovers: ${cached}`);
      assert.deepEqual(fs.readFileSync(path.join(dir, 'thumbs', cached[0])), thumb.rawPayload);

      const viaFile = await app.inject(`/public/cms/media/${photo.id}/file?thumb=1`);
      assert.equal(viaFile.statusCode, 200);
      assert.deepEqual(viaFile.rawPayload, thumb.rawPayload);
      assert.equal(viaFile.headers.etag, thumb.headers.etag);

      // Served from the cache: the source is no longer needed.
      fs.rmSync(path.join(dir, photo.id));
      const fromCache = await app.inject(url);
      assert.equal(fromCache.statusCode, 200);
      assert.deepEqual(fromCache.rawPayload, thumb.rawPayload);
      const notModified = await app.inject({ url, headers: { 'if-none-match': thumb.headers.etag as string } });
      assert.equal(notModified.statusCode, 304);
    });

    it('answers the same 404 for private and unknown media on all three endpoints', async (t) => {
      const dir = makeMediaDir(t);
      const { app, database } = await buildTestApp(t, kind, { env: { MEDIA_DIR: dir } });
      const secret = await insertMedia(database.db, dir, { bytes: await sharp({ create: { width: 40, height: 30, channels: 3, background: '#336699' } }).png().toBuffer(), mimeType: 'image/png', public: false });
      const unknown = '00000000-0000-4000-8000-000000000000';

      for (const suffix of ['', '/file', '/file?thumb=1', '/thumbnail']) {
        const hidden = await app.inject(`/public/cms/media/${secret.id}${suffix}`);
        const missing = await app.inject(`/public/cms/media/${unknown}${suffix}`);
        assert.equal(hidden.statusCode, 404, suffix);
        assert.deepEqual(hidden.json(), { statusCode: 404, message: 'Média introuvable', error: 'Not Found', code: 'mediaNotFound', field: null });
        assert.equal(hidden.body, missing.body, suffix);
        assert.equal(hidden.headers['content-type'], missing.headers['content-type']);
      }
      assert.equal(fs.existsSync(path.join(dir, 'thumbs')), false, 'no thumbnail made for a private image');
    });

    it('answers 404, never 500, for a public media whose file is missing on disk', async (t) => {
      const dir = makeMediaDir(t);
      const { app, database } = await buildTestApp(t, kind, { env: { MEDIA_DIR: dir } });
      const lost = await insertMedia(database.db, dir, { bytes: PDF, mimeType: 'application/pdf', writeFile: false });
      const lostImage = await insertMedia(database.db, dir, { bytes: Buffer.from('x'), mimeType: 'image/png', writeFile: false });

      assert.equal((await app.inject(`/public/cms/media/${lost.id}`)).statusCode, 200);
      for (const url of [`/public/cms/media/${lost.id}/file`, `/public/cms/media/${lostImage.id}/thumbnail`, `/public/cms/media/${lostImage.id}/file?thumb=1`]) {
        const res = await app.inject(url);
        assert.equal(res.statusCode, 404, url);
        assert.deepEqual(res.json(), { statusCode: 404, message: 'Média introuvable', error: 'Not Found', code: 'mediaNotFound', field: null });
      }
    });

    it('rejects a path-traversal id with 400 and never reads outside MEDIA_DIR', async (t) => {
      const root = makeMediaDir(t);
      const dir = path.join(root, 'media');
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(root, 'secret.txt'), 'ne pas lire');
      const { app } = await buildTestApp(t, kind, { env: { MEDIA_DIR: dir } });

      for (const id of ['..%2F..%2Fetc%2Fpasswd', '..%2Fsecret.txt', '..', 'secret.txt', '%2E%2E%2Fsecret.txt']) {
        for (const suffix of ['', '/file', '/thumbnail']) {
          const res = await app.inject(`/public/cms/media/${id}${suffix}`);
          assert.ok([400, 404].includes(res.statusCode), `${id}${suffix}: ${res.statusCode}`);
          assert.doesNotMatch(res.body, /ne pas lire|root:/);
        }
      }
      const res = await app.inject('/public/cms/media/..%2F..%2Fetc%2Fpasswd/file');
      assert.equal(res.statusCode, 400);
      assert.match(res.json().message, /« id »/);
      assert.equal((await app.inject('/public/cms/media/00000000-0000-4000-8000-000000000000/file?thumb=yes')).statusCode, 400);
    });
  });
}
