import { describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import type { DB } from '../../src/db/types.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { inject } from '../helpers/admin-fixtures.ts';
import { authApp, createAccount, loginHeaders } from '../helpers/auth-fixtures.ts';
import { makeMediaDir } from '../helpers/cms-fixtures.ts';

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
const NOT_FOUND = { statusCode: 404, message: 'Média introuvable', error: 'Not Found', code: 'mediaNotFound', field: null };
const GROUP_NOT_FOUND = { statusCode: 404, message: 'Groupe de villes introuvable', error: 'Not Found', code: 'cityGroupNotFound', field: 'cityGroupId' };

type FormPart = { name: string; value: string } | { name: string; filename: string; bytes: Buffer; type?: string };

/** A multipart/form-data body as a browser sends it, and its Content-Type. */
function form(parts: FormPart[]): { payload: Buffer; contentType: string } {
  const boundary = `----collecte${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const head = 'filename' in part
      ? `Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type ?? 'application/octet-stream'}`
      : `Content-Disposition: form-data; name="${part.name}"`;
    chunks.push(Buffer.from(`--${boundary}\r\n${head}\r\n\r\n`), 'filename' in part ? part.bytes : Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

const upload = (app: FastifyInstance, headers: Record<string, string>, parts: FormPart[]) => {
  const { payload, contentType } = form(parts);
  return app.inject({ method: 'POST', url: '/admin/media', headers: { ...headers, 'content-type': contentType }, payload });
};

const png = (width = 640, height = 480) =>
  sharp({ create: { width, height, channels: 3, background: { r: 0, g: 96, b: 122 } } }).png().toBuffer();

const SVG = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?>\n<!-- Logo de la collecte -->\n' +
    '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60" viewBox="0 0 120 60">' +
    '<rect width="120" height="60" fill="#00607A"/><script>alert(document.domain)</script></svg>\n',
);

/** Every file in the media folder, thumbnails and temporary files included. */
const filesIn = (dir: string): string[] =>
  fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => fs.statSync(path.join(dir, f)).isFile()) : [];

const mediaCount = async (db: Kysely<DB>) => Number((await db.selectFrom('media').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);

/** Waits for a condition the server reaches on its own (a file appearing or going); fails after 10 s. */
async function eventually(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.fail(`never happened: ${what}`);
}

/**
 * The cities' fixtures and five logged-in agents: a super admin (no group), a CMS agent of `ids.group`, a CMS agent of
 * `ids.emptyGroup` only, a CMS agent of both groups, and an editor of `ids.group` holding BLOG_POSTS alone.
 */
async function setup(t: TestContext, kind: Parameters<typeof authApp>[1], env: Record<string, string> = {}) {
  const mediaDir = makeMediaDir(t);
  const { app, database } = await authApp(t, kind, { env: { MEDIA_DIR: mediaDir, ...env } });
  const db = database.db;
  await createAccount(db, { email: 'root@collecte.fr', name: 'Root', superAdmin: true, permissions: [] });
  await createAccount(db, { email: 'com@brest.fr', name: 'Chargée de communication', permissions: ['CMS'] });
  await createAccount(db, { email: 'outsider@aber.fr', name: 'Aber Agent', permissions: ['CMS'], cityGroupIds: [ids.emptyGroup] });
  await createAccount(db, { email: 'both@collecte.fr', name: 'Deux groupes', permissions: ['CMS'], cityGroupIds: [ids.group, ids.emptyGroup] });
  await createAccount(db, { email: 'editor@brest.fr', name: 'Éditrice', permissions: ['BLOG_POSTS'] });
  const [asRoot, asCms, asOutsider, asBoth, asEditor] = await Promise.all(
    ['root@collecte.fr', 'com@brest.fr', 'outsider@aber.fr', 'both@collecte.fr', 'editor@brest.fr'].map((email) => loginHeaders(app, email)),
  );
  return { app, db, mediaDir, asRoot, asCms, asOutsider, asBoth, asEditor };
}

for (const kind of testDatabaseKinds()) {
  describe(`/admin/media (${kind})`, () => {
    it('uploads a file, serves it publicly with the type read from its bytes, changes and deletes it, each write audited', async (t) => {
      const { app, db, mediaDir, asCms } = await setup(t, kind);
      const bytes = await png();
      const created = await upload(app, asCms, [
        { name: 'alt', value: 'Bac jaune devant une maison' },
        { name: 'file', filename: 'bac jaune.png', bytes, type: 'image/png' },
        { name: 'public', value: 'true' },
      ]);
      assert.equal(created.statusCode, 201, created.body);
      const media = created.json();
      assert.ok(created.headers.etag);
      assert.deepEqual(media, {
        id: media.id, filename: 'bac jaune.png', mimeType: 'image/png', size: bytes.length, width: 640, height: 480,
        alt: 'Bac jaune devant une maison', url: `/public/cms/media/${media.id}/file`, thumbnailUrl: `/public/cms/media/${media.id}/thumbnail`,
        createdAt: media.createdAt, public: true, cityGroupId: ids.group, updatedAt: media.createdAt,
      });
      assert.deepEqual(filesIn(mediaDir), [media.id], 'the file alone, under its id, no temporary file left');
      assert.deepEqual(fs.readFileSync(path.join(mediaDir, media.id)), bytes);

      const file = await app.inject(media.url);
      assert.equal(file.statusCode, 200);
      assert.deepEqual(file.rawPayload, bytes);
      assert.equal(file.headers['content-type'], 'image/png');
      assert.match(String(file.headers['content-disposition']), /^inline; filename="bac jaune.png"/);
      const thumbnail = await app.inject(media.thumbnailUrl);
      assert.equal(thumbnail.statusCode, 200);
      assert.equal((await sharp(thumbnail.rawPayload).metadata()).width, 320);
      assert.deepEqual((await app.inject(`/public/cms/media/${media.id}`)).json().alt, 'Bac jaune devant une maison');

      const list = await inject(app, asCms, 'GET', '/admin/media');
      assert.equal(list.statusCode, 200);
      assert.deepEqual(list.json(), { data: [media], meta: { page: 1, pageSize: 20, total: 1, totalPages: 1 } });
      const read = await inject(app, asCms, 'GET', `/admin/media/${media.id}`);
      assert.deepEqual(read.json(), media);
      const etag = String(read.headers.etag);

      const changed = await inject(app, { ...asCms, 'if-match': etag }, 'PATCH', `/admin/media/${media.id}`, {
        alt: null, public: false, filename: 'bac-jaune.png',
      });
      assert.equal(changed.statusCode, 200, changed.body);
      const after: Record<string, unknown> = changed.json();
      assert.deepEqual({ ...after, updatedAt: undefined }, { ...media, alt: null, public: false, filename: 'bac-jaune.png', updatedAt: undefined });
      assert.deepEqual((await app.inject(media.url)).json(), NOT_FOUND, 'private now: the public answer follows at once');
      const stale = await inject(app, { ...asCms, 'if-match': etag }, 'PATCH', `/admin/media/${media.id}`, { public: true });
      assert.equal(stale.statusCode, 412);

      const audit = await inject(app, asCms, 'GET', `/admin/audit?entity=media&entityId=${media.id}`);
      assert.deepEqual(audit.json().data.map((e: { action: string }) => e.action), ['update', 'create']);
      const [update, create] = audit.json().data;
      assert.deepEqual(create.before, null);
      assert.deepEqual(create.after, media);
      assert.deepEqual(update.before, media);
      assert.equal(update.after.public, false);
      assert.equal(create.userName, 'Chargée de communication');

      const deleted = await inject(app, { ...asCms, 'if-match': String(changed.headers.etag) }, 'DELETE', `/admin/media/${media.id}`);
      assert.equal(deleted.statusCode, 204, deleted.body);
      assert.deepEqual((await inject(app, asCms, 'GET', `/admin/media/${media.id}`)).json(), NOT_FOUND);
      assert.deepEqual(filesIn(mediaDir), [], 'the file and its thumbnail are gone from MEDIA_DIR');
      const entries = await db.selectFrom('audit_entry').select(['action', 'city_group_ids']).where('entity_id', '=', media.id).execute();
      assert.deepEqual(entries.map((e) => `${e.action} ${e.city_group_ids.join()}`).sort(), [
        `create ${ids.group}`, `delete ${ids.group}`, `update ${ids.group}`,
      ]);
    });

    it('reads the type from the bytes: a PNG named .svg is a PNG, an SVG named .png is an SVG served as a sandboxed attachment', async (t) => {
      const { app, asCms } = await setup(t, kind);
      const bytes = await png(40, 30);
      const pngAsSvg = await upload(app, asCms, [
        { name: 'file', filename: 'logo.svg', bytes, type: 'image/svg+xml' }, { name: 'public', value: 'true' },
      ]);
      assert.equal(pngAsSvg.statusCode, 201, pngAsSvg.body);
      assert.equal(pngAsSvg.json().mimeType, 'image/png');
      const pngFile = await app.inject(pngAsSvg.json().url);
      assert.equal(pngFile.headers['content-type'], 'image/png');
      assert.deepEqual(pngFile.rawPayload, bytes);

      const svgAsPng = await upload(app, asCms, [
        { name: 'file', filename: 'photo.png', bytes: SVG, type: 'image/png' }, { name: 'public', value: 'true' },
      ]);
      assert.equal(svgAsPng.statusCode, 201, svgAsPng.body);
      const svg = svgAsPng.json();
      assert.deepEqual([svg.mimeType, svg.width, svg.height], ['image/svg+xml', 120, 60]);
      const svgFile = await app.inject(svg.url);
      assert.equal(svgFile.statusCode, 200);
      assert.equal(svgFile.headers['content-type'], 'image/svg+xml');
      assert.match(String(svgFile.headers['content-disposition']), /^attachment; filename="photo.png"/);
      assert.match(String(svgFile.headers['content-security-policy']), /\bsandbox\b/);
      assert.equal(svgFile.headers['x-content-type-options'], 'nosniff');
      assert.deepEqual(svgFile.rawPayload, SVG);
      const thumbnail = await app.inject(svg.thumbnailUrl);
      assert.equal(thumbnail.statusCode, 200);
      assert.equal(thumbnail.headers['content-type'], 'image/png', 'the thumbnail of an SVG is a raster image');
      assert.match(String(thumbnail.headers['content-disposition']), /^inline/);
    });

    it('never lets an SVG draw another media file into its thumbnail', async (t) => {
      const { app, asCms } = await setup(t, kind);
      const red = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 255, g: 0, b: 0 } } }).png().toBuffer();
      const secret = (await upload(app, asCms, [{ name: 'file', filename: 'secret.png', bytes: red }])).json();
      assert.equal(secret.public, false);
      const svg = Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="64">' +
          `<rect width="64" height="64" fill="#ffffff"/><image x="0" y="0" width="64" height="64" href="${secret.id}" xlink:href="${secret.id}"/></svg>`,
      );
      const thief = (await upload(app, asCms, [{ name: 'file', filename: 'vol.svg', bytes: svg }, { name: 'public', value: 'true' }])).json();
      const thumbnail = await app.inject(thief.thumbnailUrl);
      assert.equal(thumbnail.statusCode, 200);
      const { channels } = await sharp(thumbnail.rawPayload).stats();
      assert.ok(channels[1].mean > 200, `the thumbnail is the white rectangle alone (green mean ${channels[1].mean})`);
    });

    it('refuses a file of no accepted type (415) and an image it cannot read (400), storing nothing', async (t) => {
      const { app, db, mediaDir, asCms } = await setup(t, kind);
      const html = await upload(app, asCms, [
        { name: 'file', filename: 'logo.svg', bytes: Buffer.from('<html><body><svg></svg><script>alert(1)</script></body></html>'), type: 'image/svg+xml' },
      ]);
      assert.equal(html.statusCode, 415, html.body);
      assert.equal(html.json().error, 'Unsupported Media Type');
      assert.match(html.json().message, /^Le champ «\u00a0file\u00a0» doit être une image PNG, JPEG, GIF, WebP, AVIF ou SVG, ou un document PDF/);
      const truncated = await upload(app, asCms, [{ name: 'file', filename: 'coupé.png', bytes: (await png()).subarray(0, 40) }]);
      assert.equal(truncated.statusCode, 400, truncated.body);
      assert.match(truncated.json().message, /«\u00a0file\u00a0» n’est pas une image lisible/);
      const empty = await upload(app, asCms, [{ name: 'file', filename: 'vide.pdf', bytes: Buffer.alloc(0) }]);
      assert.equal(empty.statusCode, 400);
      assert.match(empty.json().message, /«\u00a0file\u00a0» est un fichier vide/);
      const pdf = await upload(app, asCms, [{ name: 'file', filename: 'calendrier.bin', bytes: Buffer.from('%PDF-1.4\n%%EOF\n') }]);
      assert.equal(pdf.statusCode, 201, pdf.body);
      assert.deepEqual([pdf.json().mimeType, pdf.json().thumbnailUrl, pdf.json().public], ['application/pdf', null, false]);
      assert.equal(await mediaCount(db), 1);
      assert.deepEqual(filesIn(mediaDir), [pdf.json().id]);
    });

    it('answers 413 past MEDIA_MAX_BYTES while the file streams in, storing nothing', async (t) => {
      const { app, db, mediaDir, asCms } = await setup(t, kind, { MEDIA_MAX_BYTES: '2048' });
      const big = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(64 * 1024, 'x')]);
      const res = await upload(app, asCms, [{ name: 'file', filename: 'gros.pdf', bytes: big }, { name: 'alt', value: 'Trop gros' }]);
      assert.equal(res.statusCode, 413, res.body);
      assert.deepEqual(res.json(), {
        statusCode: 413, error: 'Payload Too Large',
        message: 'Le champ «\u00a0file\u00a0» dépasse la taille maximale de 2\u00a0Kio (MEDIA_MAX_BYTES).',
        code: 'mediaTooLarge', field: 'file',
      });
      assert.equal(await mediaCount(db), 0);
      assert.deepEqual(filesIn(mediaDir), []);
      const justFits = await upload(app, asCms, [{ name: 'file', filename: 'juste.pdf', bytes: big.subarray(0, 2048) }]);
      assert.equal(justFits.statusCode, 201, 'exactly MEDIA_MAX_BYTES is accepted');
      assert.equal(justFits.json().size, 2048);
    });

    it('stores nothing when the sender goes away in the middle of the file', async (t) => {
      const { app, db, mediaDir, asCms } = await setup(t, kind);
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as net.AddressInfo;
      const { payload, contentType } = form([
        { name: 'public', value: 'true' },
        { name: 'file', filename: 'affiche.pdf', bytes: Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(512 * 1024)]) },
      ]);
      const socket = net.connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST /admin/media HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${asCms.authorization}\r\n` +
          `Content-Type: ${contentType}\r\nContent-Length: ${payload.length}\r\n\r\n`,
      );
      socket.write(payload.subarray(0, payload.length / 2));
      // The server has started writing the file under its temporary name: the upload is well under way.
      await eventually(() => filesIn(mediaDir).some((f) => f.endsWith('.part') && fs.statSync(path.join(mediaDir, f)).size > 0), 'a partial file');
      socket.destroy();
      await eventually(() => filesIn(mediaDir).length === 0, 'the partial file removed');
      assert.equal(await mediaCount(db), 0);
      // The server still answers, and the next upload goes through.
      const next = await upload(app, asCms, [{ name: 'file', filename: 'affiche.pdf', bytes: Buffer.from('%PDF-1.4\n%%EOF\n') }]);
      assert.equal(next.statusCode, 201);
    });

    it('answers 400 in French for a form without a file, with two files, or that is not multipart, storing nothing', async (t) => {
      const { app, db, mediaDir, asCms, asRoot, asBoth } = await setup(t, kind);
      const noFile = await upload(app, asCms, [{ name: 'alt', value: 'Sans fichier' }]);
      assert.equal(noFile.statusCode, 400);
      assert.match(noFile.json().message, /^Le champ «\u00a0file\u00a0» est obligatoire/);
      const textFile = await upload(app, asCms, [{ name: 'file', value: 'pas un fichier' }]);
      assert.equal(textFile.statusCode, 400);
      assert.match(textFile.json().message, /^Le champ «\u00a0file\u00a0» est obligatoire/);
      const pdf = Buffer.from('%PDF-1.4\n%%EOF\n');
      const two = await upload(app, asCms, [
        { name: 'file', filename: 'a.pdf', bytes: pdf }, { name: 'file', filename: 'b.pdf', bytes: pdf },
      ]);
      assert.equal(two.statusCode, 400, two.body);
      assert.match(two.json().message, /^Le champ «\u00a0file\u00a0» ne contient qu’un seul fichier/);
      const otherName = await upload(app, asCms, [{ name: 'image', filename: 'a.pdf', bytes: pdf }]);
      assert.equal(otherName.statusCode, 400);
      assert.match(otherName.json().message, /champ «\u00a0file\u00a0», pas dans «\u00a0image\u00a0»/);
      const json = await inject(app, asCms, 'POST', '/admin/media', { file: 'x' });
      assert.equal(json.statusCode, 400);
      assert.match(json.json().message, /multipart\/form-data/);
      const badPublic = await upload(app, asCms, [{ name: 'file', filename: 'a.pdf', bytes: pdf }, { name: 'public', value: 'oui' }]);
      assert.equal(badPublic.statusCode, 400);
      assert.match(badPublic.json().message, /^Le champ «\u00a0public\u00a0» doit valoir/);
      const badGroup = await upload(app, asCms, [{ name: 'cityGroupId', value: 'brest' }, { name: 'file', filename: 'a.pdf', bytes: pdf }]);
      assert.equal(badGroup.statusCode, 400);
      assert.match(badGroup.json().message, /^Le champ «\u00a0cityGroupId\u00a0»/);
      const nul = await upload(app, asCms, [{ name: 'file', filename: 'a.pdf', bytes: pdf }, { name: 'alt', value: 'a\u0000b' }]);
      assert.equal(nul.statusCode, 400);
      assert.match(nul.json().message, /alt/);
      for (const agent of [asRoot, asBoth]) {
        const which = await upload(app, agent, [{ name: 'file', filename: 'a.pdf', bytes: pdf }]);
        assert.equal(which.statusCode, 400, 'an agent of several groups (or none) names the group');
        assert.match(which.json().message, /^Le champ «\u00a0cityGroupId\u00a0» est obligatoire/);
      }
      assert.equal(await mediaCount(db), 0);
      assert.deepEqual(filesIn(mediaDir), []);
      const named = await upload(app, asBoth, [{ name: 'file', filename: 'a.pdf', bytes: pdf }, { name: 'cityGroupId', value: ids.emptyGroup }]);
      assert.equal(named.statusCode, 201, named.body);
      assert.equal(named.json().cityGroupId, ids.emptyGroup);
    });

    it('needs a token (401) and the CMS permission (403); another group’s media answer 404 everywhere', async (t) => {
      const { app, db, mediaDir, asCms, asOutsider, asEditor, asRoot } = await setup(t, kind);
      const pdf = Buffer.from('%PDF-1.4\n%%EOF\n');
      const uploaded = await upload(app, asCms, [{ name: 'file', filename: 'a.pdf', bytes: pdf }]);
      const media = uploaded.json();

      const anonymous = await upload(app, {}, [{ name: 'file', filename: 'a.pdf', bytes: pdf }]);
      assert.equal(anonymous.statusCode, 401);
      assert.equal((await app.inject(`/admin/media/${media.id}`)).statusCode, 401);
      const editor = await upload(app, asEditor, [{ name: 'file', filename: 'a.pdf', bytes: pdf }]);
      assert.deepEqual(editor.json(), { statusCode: 403, message: 'Votre compte n’a pas la permission CMS.', error: 'Forbidden', code: 'adminPermission', field: null });
      assert.equal((await inject(app, asEditor, 'GET', '/admin/media')).statusCode, 403);
      assert.equal((await inject(app, asEditor, 'DELETE', `/admin/media/${media.id}`)).statusCode, 403);

      assert.deepEqual((await inject(app, asOutsider, 'GET', '/admin/media')).json().data, [], 'not listed outside its group');
      for (const [method, body] of [['GET', undefined], ['PATCH', { public: true }], ['DELETE', undefined]] as const) {
        const headers = method === 'GET' ? asOutsider : { ...asOutsider, 'if-match': '*' };
        const res = await inject(app, headers, method, `/admin/media/${media.id}`, body);
        assert.deepEqual(res.json(), NOT_FOUND, method);
      }
      assert.deepEqual((await inject(app, asCms, 'GET', `/admin/media/${UNKNOWN}`)).json(), NOT_FOUND);
      const intoOther = await upload(app, asOutsider, [{ name: 'cityGroupId', value: ids.group }, { name: 'file', filename: 'b.pdf', bytes: pdf }]);
      assert.deepEqual(intoOther.json(), GROUP_NOT_FOUND);
      const moved = await inject(app, { ...asCms, 'if-match': String(uploaded.headers.etag) }, 'PATCH', `/admin/media/${media.id}`, { cityGroupId: ids.emptyGroup });
      assert.deepEqual(moved.json(), GROUP_NOT_FOUND);
      assert.deepEqual((await inject(app, asRoot, 'GET', `/admin/media/${media.id}`)).json(), media, 'nothing changed');
      assert.equal(await mediaCount(db), 1);
      assert.deepEqual(filesIn(mediaDir), [media.id]);
      assert.ok(fs.existsSync(path.join(mediaDir, media.id)), 'a refused deletion keeps the file');
    });

    it('serves a private file and its thumbnail to the agents of its group only, never to the public or to a cache', async (t) => {
      const { app, asCms, asOutsider, asEditor, asRoot } = await setup(t, kind);
      const bytes = await png(800, 400);
      const media = (await upload(app, asCms, [{ name: 'alt', value: 'Plan de tournée (interne)' }, { name: 'file', filename: 'plan.png', bytes }])).json();
      assert.equal(media.public, false);
      assert.equal((await app.inject(`/public/cms/media/${media.id}/file`)).statusCode, 404, 'private: not public');

      for (const headers of [asCms, asRoot]) {
        const file = await app.inject({ url: `/admin/media/${media.id}/file`, headers });
        assert.equal(file.statusCode, 200);
        assert.ok(file.rawPayload.equals(bytes));
        assert.equal(file.headers['content-type'], 'image/png');
        assert.equal(file.headers['cache-control'], 'private, no-cache');
        const again = await app.inject({ url: `/admin/media/${media.id}/file`, headers: { ...headers, 'if-none-match': String(file.headers.etag) } });
        assert.equal(again.statusCode, 304);
      }
      const thumb = await app.inject({ url: `/admin/media/${media.id}/file?thumb=1`, headers: asCms });
      assert.equal(thumb.statusCode, 200);
      const { width, height } = await sharp(thumb.rawPayload).metadata();
      assert.deepEqual([width, height], [320, 160]);
      const range = await app.inject({ url: `/admin/media/${media.id}/file`, headers: { ...asCms, range: 'bytes=0-7' } });
      assert.equal(range.statusCode, 206);
      assert.ok(range.rawPayload.equals(bytes.subarray(0, 8)));

      assert.equal((await app.inject(`/admin/media/${media.id}/file`)).statusCode, 401);
      assert.equal((await app.inject({ url: `/admin/media/${media.id}/file`, headers: asEditor })).statusCode, 403);
      assert.deepEqual((await app.inject({ url: `/admin/media/${media.id}/file`, headers: asOutsider })).json(), NOT_FOUND);
      assert.deepEqual((await app.inject({ url: `/admin/media/${UNKNOWN}/file`, headers: asCms })).json(), NOT_FOUND);
      const badId = await app.inject({ url: '/admin/media/nope/file', headers: asCms });
      assert.equal(badId.statusCode, 400);
    });
  });
}
