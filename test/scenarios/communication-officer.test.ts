import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { importBundle } from '../../src/bundle/import.ts';
import { DEMO_BUNDLE_PATH } from '../../src/demo/load.ts';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { authEnv, createAccount, loginHeaders } from '../helpers/auth-fixtures.ts';
import { testDatabaseKinds } from '../helpers/database.ts';

/**
 * A scenario of a working week, as Brest Métropole's communication officer lives it: on Monday she uploads a photo,
 * drafts a post around it, reads it back, and schedules it for Wednesday 8 a.m.; citizens see nothing until then, and
 * the post, with its photo, at 8 a.m. sharp, without anyone touching anything at 8. Demo data, the admin API and the
 * public API only; the form is encoded by the platform's FormData, as a browser would.
 */

const MONDAY = '2026-11-23T09:00:00.000Z';
const WEDNESDAY_8AM = '2026-11-25T07:00:00.000Z';
const BREST_METROPOLE = '6257598e-116b-5090-9b09-374e65036c9b';
const PHOTO = path.join(path.dirname(DEMO_BUNDLE_PATH), 'media', 'banniere-tri-brest.jpg');

async function multipart(fields: Record<string, string>, file: { bytes: Buffer; name: string; type: string }) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const request = new Request('http://collecte.test/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

for (const kind of testDatabaseKinds()) {
  describe(`a communication officer drafts, previews and schedules a post with a photo (${kind})`, () => {
    it('shows nothing to citizens before its time, and the post with its photo at its time', async (t) => {
      const mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'collecte-scenario-'));
      t.after(() => fs.rm(mediaDir, { recursive: true, force: true }));
      const clock = fixedClock(MONDAY);
      const { app, database } = await buildTestApp(t, kind, { env: { ...authEnv, MEDIA_DIR: mediaDir }, clock });
      const demo = JSON.parse(await fs.readFile(DEMO_BUNDLE_PATH, 'utf8'));
      await importBundle(database, demo, { baseDir: path.dirname(DEMO_BUNDLE_PATH), mediaDir, now: new Date(MONDAY) });
      await createAccount(database.db, {
        email: 'communication@brest-metropole.fr',
        name: 'Soizic Quéré',
        permissions: ['BLOG_POSTS', 'CMS'],
        cityGroupIds: [BREST_METROPOLE],
      });
      let asOfficer = await loginHeaders(app, 'communication@brest-metropole.fr');
      const admin = (method: string, url: string, payload?: object, headers: Record<string, string> = {}) =>
        app.inject({ method: method as 'GET', url, headers: { ...asOfficer, ...headers }, ...(payload ? { payload } : {}) });
      const publicPosts = async () => ((await app.inject(`/public/blog-posts?cityGroupId=${BREST_METROPOLE}`)).json() as { id: string }[]).map((p) => p.id);
      const postsBefore = await publicPosts();

      // The photo, uploaded as the console's form sends it (she works for one group: no cityGroupId needed).
      const photo = await fs.readFile(PHOTO);
      const form = await multipart({ alt: 'Le nouveau bac jaune devant la mairie de Brest', public: 'true' }, { bytes: photo, name: 'bac-jaune.jpg', type: 'image/jpeg' });
      const uploaded = await app.inject({ method: 'POST', url: '/admin/media', headers: { ...asOfficer, 'content-type': form.contentType }, payload: form.payload });
      assert.equal(uploaded.statusCode, 201, uploaded.body);
      const media = uploaded.json();
      assert.equal(media.cityGroupId, BREST_METROPOLE);
      const photoUrl = `/public/cms/media/${media.id}/file`;

      // The draft: saved, not published.
      const content = [
        '# Le bac jaune change de couvercle',
        '',
        `![${media.alt}](${photoUrl})`,
        '',
        'À partir du **1er décembre**, tous les emballages se trient : pots, barquettes et films compris.',
      ].join('\n');
      const drafted = await admin('POST', `/admin/city-groups/${BREST_METROPOLE}/blog-posts`, { title: 'Tous les emballages se trient', content, published: false });
      assert.equal(drafted.statusCode, 201, drafted.body);
      const post = drafted.json();
      assert.equal(post.published, false);
      assert.deepEqual(await publicPosts(), postsBefore, 'a draft is not public');
      assert.equal((await app.inject(`/public/blog-posts/${post.id}`)).statusCode, 404);

      // She reads her draft back, as the console's preview shows it.
      const preview = await admin('GET', `/admin/blog-posts/${post.id}`);
      assert.equal(preview.statusCode, 200);
      assert.equal(preview.json().content, content);
      assert.equal((await app.inject(photoUrl)).statusCode, 200, 'the photo is public before the post is');

      // Scheduled for Wednesday 8 a.m., under the version she read.
      const scheduled = await admin('PATCH', `/admin/blog-posts/${post.id}`, { published: true, publishedAt: WEDNESDAY_8AM }, { 'if-match': String(preview.headers.etag) });
      assert.equal(scheduled.statusCode, 200, scheduled.body);
      assert.deepEqual(await publicPosts(), postsBefore, 'a post scheduled for later is not public yet');
      clock.set('2026-11-25T06:59:59.000Z');
      assert.deepEqual(await publicPosts(), postsBefore, 'not a second early');
      assert.equal((await app.inject(`/public/blog-posts/${post.id}`)).statusCode, 404);

      // Wednesday, 8 a.m.: there, first of the list, with its photo; nobody wrote anything at 8.
      clock.set('2026-11-25T07:00:00.500Z');
      assert.deepEqual(await publicPosts(), [post.id, ...postsBefore]);
      const published = await app.inject(`/public/blog-posts/${post.id}`);
      assert.equal(published.statusCode, 200);
      assert.equal(published.json().content, content);
      assert.equal(published.json().publishedAt, WEDNESDAY_8AM);
      const served = await app.inject(photoUrl);
      assert.equal(served.statusCode, 200);
      assert.equal(served.headers['content-type'], 'image/jpeg');
      assert.deepEqual(served.rawPayload, photo);

      // Back at her desk on Wednesday (Monday's 15-minute token long expired), the audit log has her three writes.
      assert.equal((await admin('GET', `/admin/blog-posts/${post.id}`)).statusCode, 401);
      asOfficer = await loginHeaders(app, 'communication@brest-metropole.fr');
      const audit = await admin('GET', `/admin/audit?entity=blogPost&entityId=${post.id}`);
      assert.deepEqual((audit.json().data as { action: string }[]).map((e) => e.action).sort(), ['create', 'update']);
      const mediaAudit = await admin('GET', `/admin/audit?entity=media&entityId=${media.id}`);
      assert.deepEqual((mediaAudit.json().data as { action: string; userName: string }[]).map((e) => [e.action, e.userName]), [['create', 'Soizic Quéré']]);
    });
  });
}
