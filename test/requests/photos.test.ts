import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/types.ts';
import sharp from 'sharp';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { fixedClock } from '../helpers/app.ts';
import { device, fileRequest, MONDAY_AFTERNOON, requestsApp } from '../helpers/request-fixtures.ts';

/**
 * Photos of requests (docs/api.md, resident requests): re-encoded with every metadata removed (the EXIF position
 * above all), never on a public URL, seen by staff; refused when they are no photo or too big; an upload cut off
 * mid-way leaves nothing behind; a photo no request takes within 24 hours cannot be attached any more.
 */

/** A multipart/form-data body with one file part, and its Content-Type. */
function form(bytes: Buffer, name = 'file', options: { close?: boolean } = {}): { payload: Buffer; contentType: string } {
  const boundary = `----collecte${randomBytes(8).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
  const tail = options.close === false ? '' : `\r\n--${boundary}--\r\n`;
  return { payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(tail)]), contentType: `multipart/form-data; boundary=${boundary}` };
}

const upload = (app: FastifyInstance, bytes: Buffer, name?: string, options?: { close?: boolean }) => {
  const { payload, contentType } = form(bytes, name, options);
  return app.inject({ method: 'POST', url: '/public/requests/photos', headers: { 'content-type': contentType }, payload });
};

/** A phone's photo: a JPEG carrying its camera and the GPS position where it was taken. */
async function phonePhoto(width = 640, height = 480): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#7a9a3b' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Model X', Copyright: 'Jeanne Dupont' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 23/1 2400/100', GPSLongitudeRef: 'W', GPSLongitude: '4/1 29/1 1500/100' },
    })
    .toBuffer();
}

const photoRows = async (db: Kysely<DB>) =>
  Number((await db.selectFrom('request_photo').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);

for (const kind of testDatabaseKinds()) {
  describe(`photos of requests (${kind})`, () => {
    it('stores a photo without its metadata, counts it on the request, and shows it to staff only', async (t) => {
      const clock = fixedClock(MONDAY_AFTERNOON);
      const { app, asAgent, asOutsider } = await requestsApp(t, kind, { clock });
      const original = await phonePhoto();
      const meta = await sharp(original).metadata();
      assert.ok(meta.exif && meta.exif.includes(Buffer.from('PhoneMaker')), 'the fixture carries EXIF');

      const uploaded = await upload(app, original);
      assert.equal(uploaded.statusCode, 201, uploaded.body);
      const { id: photoId } = uploaded.json();
      const filed = await fileRequest(app, {
        deviceId: device(1), cityId: ids.brest, typeCode: 'depot-sauvage', latitude: 48.39, longitude: -4.48,
        description: 'Des gravats au bord du chemin.', photoIds: [photoId],
      });
      assert.equal(filed.statusCode, 201, filed.body);
      assert.equal(filed.json().photoCount, 1);
      assert.equal(JSON.stringify(filed.json()).includes(photoId), false, 'a resident’s answer names no photo URL');

      const staff = await app.inject({ url: `/admin/requests/${filed.json().id}`, headers: asAgent });
      assert.equal(staff.statusCode, 200);
      const [photo] = staff.json().photos;
      assert.deepEqual(photo, { id: photoId, url: `/admin/requests/${filed.json().id}/photos/${photoId}` });
      const bytes = await app.inject({ url: photo.url, headers: asAgent });
      assert.equal(bytes.statusCode, 200);
      assert.equal(bytes.headers['content-type'], 'image/jpeg');
      assert.match(String(bytes.headers['cache-control']), /no-store/);
      const stored = await sharp(bytes.rawPayload).metadata();
      assert.equal(stored.format, 'jpeg');
      assert.equal(stored.exif, undefined, 'no EXIF left');
      assert.equal(stored.icc, undefined);
      assert.equal(stored.xmp, undefined);
      assert.deepEqual([stored.width, stored.height], [640, 480]);
      for (const secret of ['PhoneMaker', 'Jeanne Dupont', 'GPS']) assert.equal(bytes.rawPayload.includes(Buffer.from(secret)), false, secret);

      assert.equal((await app.inject({ url: photo.url })).statusCode, 401, 'no public way to it');
      assert.equal((await app.inject({ url: photo.url, headers: asOutsider })).statusCode, 404);
      // A photo taken by one request cannot be taken by another.
      const again = await fileRequest(app, {
        deviceId: device(2), cityId: ids.brest, typeCode: 'autre', description: 'Même photo.', photoIds: [photoId],
      });
      assert.deepEqual([again.statusCode, again.json().field], [400, 'photoIds[0]']);
    });

    it('refuses what is no photo, too many pixels or too many bytes, and stores nothing then', async (t) => {
      const { app, db } = await requestsApp(t, kind);
      const notAnImage = await upload(app, Buffer.from('<html><script>alert(1)</script></html>'));
      assert.deepEqual([notAnImage.statusCode, notAnImage.json().code, notAnImage.json().field], [400, 'photoType', 'file']);
      const gif = await upload(app, await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } }).gif().toBuffer());
      assert.equal(gif.json().code, 'photoType');
      // 8000 × 5001 pixels: past 40 megapixels, although the PNG of one colour is small.
      const huge = await sharp({ create: { width: 8000, height: 5001, channels: 3, background: '#fff' } }).png().toBuffer();
      const tooManyPixels = await upload(app, huge);
      assert.deepEqual([tooManyPixels.statusCode, tooManyPixels.json().code], [400, 'photoPixels']);
      const tooBig = await upload(app, Buffer.concat([await phonePhoto(16, 16), randomBytes(10 * 1024 * 1024)]));
      assert.deepEqual([tooBig.statusCode, tooBig.json().code], [413, 'photoTooLarge']);
      const wrongPart = await upload(app, await phonePhoto(16, 16), 'image');
      assert.deepEqual([wrongPart.statusCode, wrongPart.json().field], [400, 'file']);
      const unfinished = await upload(app, await phonePhoto(16, 16), 'file', { close: false });
      assert.equal(unfinished.statusCode, 400);
      const png = await upload(app, await sharp({ create: { width: 30, height: 20, channels: 4, background: '#ff000080' } }).png().toBuffer());
      assert.equal(png.statusCode, 201, 'a PNG is taken (and stored as a JPEG)');
      assert.equal(await photoRows(db), 1);
    });

    it('keeps nothing of an upload whose sender goes away mid-way', async (t) => {
      const { app, db } = await requestsApp(t, kind);
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      const { payload, contentType } = form(await phonePhoto(1200, 900));
      const socket = net.connect(port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write(`POST /public/requests/photos HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${contentType}\r\nContent-Length: ${payload.length}\r\n\r\n`);
      socket.write(payload.subarray(0, Math.floor(payload.length / 2)));
      await new Promise((resolve) => setTimeout(resolve, 100));
      socket.destroy();
      // The server is still there and answers; nothing of the half photo was stored.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const health = await fetch(`http://127.0.0.1:${port}/health`);
      assert.equal(health.status, 200);
      assert.equal(await photoRows(db), 0);
    });

    it('lets a photo be attached within 24 hours of its upload only', async (t) => {
      const clock = fixedClock(MONDAY_AFTERNOON);
      const { app } = await requestsApp(t, kind, { clock });
      const { id } = (await upload(app, await phonePhoto(32, 32))).json();
      clock.set('2026-12-01T13:00:01.000Z');
      const late = await fileRequest(app, { deviceId: device(1), cityId: ids.brest, typeCode: 'autre', description: 'Photo d’hier.', photoIds: [id] });
      assert.deepEqual([late.statusCode, late.json().field], [400, 'photoIds[0]']);
    });
  });
}
