import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { contentAdminApp as setup, inject, storedVersion } from '../helpers/content-admin-fixtures.ts';

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
const NOT_FOUND = { statusCode: 404, message: 'Article introuvable', error: 'Not Found', code: 'blogPostNotFound', field: null };
const GROUP_NOT_FOUND = { statusCode: 404, message: 'Groupe de villes introuvable', error: 'Not Found', code: 'cityGroupNotFound', field: null };
/** A move to a group out of reach names the body's field. */
const MOVE_NOT_FOUND = { ...GROUP_NOT_FOUND, field: 'cityGroupId' };
const POSTS = `/admin/city-groups/${ids.group}/blog-posts`;
const CONTENT = '# Collecte du verre\n\n:::tip\nRincez vos bocaux.\n:::\n\n<Calendrier ville="brest" />\n';

const publicIds = async (app: FastifyInstance) => (await app.inject('/public/blog-posts')).json().map((p: { id: string }) => p.id);
const auditOf = async (app: FastifyInstance, headers: Record<string, string>, id: string) =>
  (await inject(app, headers, 'GET', `/admin/audit?entity=blogPost&entityId=${id}`)).json().data;

for (const kind of testDatabaseKinds()) {
  describe(`/admin blog posts (${kind})`, () => {
    it('writes a draft, publishes it, takes it back and deletes it; the public blog follows each write, each audited', async (t) => {
      const clock = fixedClock('2026-11-20T09:00:00.000Z');
      const { app, asEditor } = await setup(t, kind, { clock });

      const created = await inject(app, asEditor, 'POST', POSTS, { title: 'Le verre', content: CONTENT });
      assert.equal(created.statusCode, 201, created.body);
      const draft = created.json();
      assert.deepEqual({ ...draft, id: undefined }, {
        id: undefined, title: 'Le verre', content: CONTENT, published: false, publishedAt: null,
        createdAt: '2026-11-20T09:00:00.000Z', updatedAt: '2026-11-20T09:00:00.000Z',
        cityGroup: { id: ids.group, name: 'Brest Métropole', type: 'Métropole' }, cityGroupId: ids.group,
      });
      assert.deepEqual(await publicIds(app), [], 'a draft is not public');
      assert.equal((await app.inject(`/public/blog-posts/${draft.id}`)).statusCode, 404);

      const list = await inject(app, asEditor, 'GET', `${POSTS}?pageSize=5`);
      assert.deepEqual(list.json(), { data: [draft], meta: { page: 1, pageSize: 5, total: 1, totalPages: 1 } });
      const read = await inject(app, asEditor, 'GET', `/admin/blog-posts/${draft.id}`);
      assert.deepEqual(read.json(), draft, 'the admin API shows drafts');
      assert.equal(read.headers.etag, created.headers.etag);

      clock.set('2026-11-20T09:10:00.000Z');
      const published = await inject(app, { ...asEditor, 'if-match': String(read.headers.etag) }, 'PATCH', `/admin/blog-posts/${draft.id}`, { published: true });
      assert.equal(published.statusCode, 200, published.body);
      assert.equal(published.json().publishedAt, '2026-11-20T09:10:00.000Z', 'published without a date: now');
      assert.deepEqual(await publicIds(app), [draft.id], 'public at once on this instance');
      assert.equal((await app.inject(`/public/blog-posts/${draft.id}`)).json().title, 'Le verre');

      const stale = await inject(app, { ...asEditor, 'if-match': String(read.headers.etag) }, 'PATCH', `/admin/blog-posts/${draft.id}`, { title: 'x' });
      assert.equal(stale.statusCode, 412);
      clock.set('2026-11-20T09:11:00.000Z');
      const unpublished = await inject(app, { ...asEditor, 'if-match': String(published.headers.etag) }, 'PATCH', `/admin/blog-posts/${draft.id}`, { published: false });
      assert.equal(unpublished.statusCode, 200);
      assert.deepEqual(await publicIds(app), [], 'unpublishing hides it at once');
      assert.equal((await app.inject(`/public/blog-posts/${draft.id}`)).statusCode, 404);

      clock.set('2026-11-20T09:12:00.000Z');
      const deleted = await inject(app, { ...asEditor, 'if-match': String(unpublished.headers.etag) }, 'DELETE', `/admin/blog-posts/${draft.id}`);
      assert.equal(deleted.statusCode, 204);
      assert.deepEqual((await inject(app, asEditor, 'GET', `/admin/blog-posts/${draft.id}`)).json(), NOT_FOUND);

      const audit = await auditOf(app, asEditor, draft.id);
      assert.deepEqual(audit.map((a: { action: string }) => a.action), ['delete', 'update', 'update', 'create']);
      assert.equal(audit[2].before.published, false);
      assert.equal(audit[2].after.published, true);
      assert.equal(audit[0].userName, 'Éditrice');
    });

    it('refuses content that is not MDX with the line and column, naming content, writing nothing', async (t) => {
      const { app, db, asEditor } = await setup(t, kind);
      const version = await storedVersion(db);
      const message =
        'Le champ «\u00a0content\u00a0» n’est pas du MDX valide (ligne 3, colonne 5)\u00a0: ' +
        'Unexpected end of file in expression, expected a corresponding closing brace for `{`.';
      const refused = await inject(app, asEditor, 'POST', POSTS, { title: 'Cassé', content: '# Titre\n\nb {x\n' });
      assert.deepEqual(refused.json(), { statusCode: 400, error: 'Bad Request', message, code: 'validation', field: 'content' });
      assert.equal((await db.selectFrom('blog_post').select('id').execute()).length, 0);

      const written = await inject(app, asEditor, 'POST', POSTS, { title: 'Bon', content: CONTENT });
      const created = written.json();
      const ifMatch = { ...asEditor, 'if-match': String(written.headers.etag) };
      const patched = await inject(app, ifMatch, 'PATCH', `/admin/blog-posts/${created.id}`, { content: '# Titre\n\nb {x\n', published: true });
      assert.deepEqual(patched.json(), { statusCode: 400, error: 'Bad Request', message, code: 'validation', field: 'content' });
      assert.deepEqual((await inject(app, asEditor, 'GET', `/admin/blog-posts/${created.id}`)).json(), created);
      assert.equal(await storedVersion(db), version + 1, 'only the good post moved the data version');
      assert.equal((await auditOf(app, asEditor, created.id)).length, 1);

      const untitled = await inject(app, asEditor, 'POST', POSTS, { title: '', content: CONTENT });
      assert.equal(untitled.statusCode, 400);
      assert.match(untitled.json().message, /title/);
    });

    it('needs a token (401) and BLOG_POSTS (403); another group’s posts answer 404, a move to it too', async (t) => {
      const { app, db, asRoot, asEditor, asOutsider, asManager } = await setup(t, kind);
      const written = await inject(app, asEditor, 'POST', POSTS, { title: 'Brest', content: CONTENT });
      const post = written.json();
      // Every write below carries the post's very ETag: what refuses it is the rights, not the version.
      const ifMatch = { 'if-match': String(written.headers.etag) };
      const body = { title: 'x', content: 'x' };
      assert.equal((await inject(app, {}, 'GET', POSTS)).statusCode, 401);
      const forbidden = await inject(app, asManager, 'POST', POSTS, body);
      assert.deepEqual(forbidden.json(), {
        statusCode: 403, error: 'Forbidden', message: 'Votre compte n’a pas la permission BLOG_POSTS.', code: 'adminPermission', field: null,
      });

      assert.deepEqual((await inject(app, asOutsider, 'GET', POSTS)).json(), GROUP_NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsider, 'POST', POSTS, body)).json(), GROUP_NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsider, 'GET', `/admin/blog-posts/${post.id}`)).json(), NOT_FOUND);
      assert.deepEqual((await inject(app, { ...asOutsider, ...ifMatch }, 'PATCH', `/admin/blog-posts/${post.id}`, { title: 'x' })).json(), NOT_FOUND);
      assert.deepEqual((await inject(app, { ...asOutsider, ...ifMatch }, 'DELETE', `/admin/blog-posts/${post.id}`)).json(), NOT_FOUND);
      assert.deepEqual((await inject(app, { ...asEditor, ...ifMatch }, 'PATCH', `/admin/blog-posts/${post.id}`, { cityGroupId: ids.emptyGroup })).json(), MOVE_NOT_FOUND);
      assert.deepEqual((await inject(app, { ...asEditor, ...ifMatch }, 'PATCH', `/admin/blog-posts/${post.id}`, { cityGroupId: UNKNOWN })).json(), MOVE_NOT_FOUND);
      assert.deepEqual((await inject(app, asRoot, 'POST', `/admin/city-groups/${UNKNOWN}/blog-posts`, body)).json(), GROUP_NOT_FOUND);
      assert.deepEqual((await inject(app, asRoot, 'GET', `/admin/blog-posts/${UNKNOWN}`)).json(), NOT_FOUND);
      const rows = await db.selectFrom('blog_post').select(['id', 'city_group_id', 'title']).execute();
      assert.deepEqual(rows, [{ id: post.id, city_group_id: ids.group, title: 'Brest' }], 'nothing refused was written');

      const moved = await inject(app, { ...asRoot, ...ifMatch }, 'PATCH', `/admin/blog-posts/${post.id}`, { cityGroupId: ids.emptyGroup });
      assert.equal(moved.json().cityGroup.name, 'Aber Communauté', 'a super admin moves it');
      assert.equal((await inject(app, asOutsider, 'GET', `/admin/blog-posts/${post.id}`)).statusCode, 200);
      assert.equal((await inject(app, asEditor, 'GET', `/admin/blog-posts/${post.id}`)).statusCode, 404);
    });

    it('shows a scheduled post at its time on every instance, with no write then; unpublishing hides it on both', async (t) => {
      const clock = fixedClock('2026-11-20T09:59:20.000Z');
      const { app: one, db, asEditor, secondInstance } = await setup(t, kind, { clock });
      const two = await secondInstance();
      const written = await inject(one, asEditor, 'POST', POSTS, { title: 'Programmé', content: CONTENT });
      const post = written.json();
      const scheduled = await inject(one, { ...asEditor, 'if-match': String(written.headers.etag) }, 'PATCH', `/admin/blog-posts/${post.id}`, {
        published: true, publishedAt: '2026-11-20T10:00:00.000Z',
      });
      assert.equal(scheduled.json().publishedAt, '2026-11-20T10:00:00.000Z');
      assert.equal(scheduled.json().published, true);
      await two.dataVersion.refresh(); // the other instance's poll beat

      clock.set('2026-11-20T09:59:40.000Z');
      for (const app of [one, two]) {
        assert.deepEqual(await publicIds(app), [], 'not before its time');
        assert.equal((await app.inject(`/public/blog-posts/${post.id}`)).statusCode, 404);
        const hits = app.metrics.cacheHits;
        const again = await app.inject('/public/blog-posts');
        assert.equal(app.metrics.cacheHits, hits + 1, 'the answer is cached meanwhile');
        assert.equal(again.headers['cache-control'], 'public, max-age=20', 'clients keep it no longer than its time');
      }
      const version = await storedVersion(db);

      clock.set('2026-11-20T10:00:00.000Z');
      for (const app of [one, two]) {
        assert.deepEqual(await publicIds(app), [post.id], 'public at 10:00 on each instance');
        assert.equal((await app.inject(`/public/blog-posts/${post.id}`)).statusCode, 200);
      }
      assert.equal(await storedVersion(db), version, 'without any write');

      const hidden = await inject(one, { ...asEditor, 'if-match': String(scheduled.headers.etag) }, 'PATCH', `/admin/blog-posts/${post.id}`, { published: false });
      assert.equal(hidden.statusCode, 200, hidden.body);
      await two.dataVersion.refresh();
      for (const app of [one, two]) assert.deepEqual(await publicIds(app), [], 'unpublished: hidden on each instance');
    });
  });
}
