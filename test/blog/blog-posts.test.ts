import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { insertBlogPost, insertCityGroup } from '../helpers/cms-fixtures.ts';

for (const kind of testDatabaseKinds()) {
  describe(`blog posts (${kind})`, () => {
    it('lists published posts only, newest publishedAt first, in the contract shape', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      const group = await insertCityGroup(database.db, { name: 'Brest Métropole', type: 'Métropole' });
      const older = await insertBlogPost(database.db, { cityGroupId: group.id, title: 'Ancien', publishedAt: '2026-01-01T10:00:00.000Z' });
      const newer = await insertBlogPost(database.db, { cityGroupId: group.id, title: 'Récent', publishedAt: '2026-03-01T10:00:00.000Z' });
      const undated = await insertBlogPost(database.db, { cityGroupId: group.id, title: 'Sans date', publishedAt: null });
      await insertBlogPost(database.db, { cityGroupId: group.id, title: 'Brouillon', published: false });

      const res = await app.inject('/public/blog-posts');
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.deepEqual(
        body.map((p: { id: string }) => p.id),
        [newer.id, older.id, undated.id],
      );
      assert.deepEqual(body[0], {
        id: newer.id,
        title: 'Récent',
        content: newer.content,
        published: true,
        publishedAt: '2026-03-01T10:00:00.000Z',
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-02T00:00:00.000Z',
        cityGroup: { id: group.id, name: 'Brest Métropole', type: 'Métropole' },
      });
      assert.equal(body[2].publishedAt, null);
    });

    it('filters by cityGroupId; an unknown group gives [] and a malformed one 400', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      const a = await insertCityGroup(database.db, { name: 'A' });
      const b = await insertCityGroup(database.db, { name: 'B' });
      const postA = await insertBlogPost(database.db, { cityGroupId: a.id });
      await insertBlogPost(database.db, { cityGroupId: b.id });

      const filtered = await app.inject(`/public/blog-posts?cityGroupId=${a.id}`);
      assert.equal(filtered.statusCode, 200);
      assert.deepEqual(
        filtered.json().map((p: { id: string }) => p.id),
        [postA.id],
      );

      const unknown = await app.inject('/public/blog-posts?cityGroupId=00000000-0000-4000-8000-000000000000');
      assert.equal(unknown.statusCode, 200);
      assert.deepEqual(unknown.json(), []);

      const malformed = await app.inject('/public/blog-posts?cityGroupId=brest');
      assert.equal(malformed.statusCode, 400);
      assert.equal(malformed.json().error, 'Bad Request');
      assert.match(malformed.json().message, /cityGroupId/);
    });

    it('answers one published post, and 404 "Article introuvable" for an unpublished or unknown one', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      const group = await insertCityGroup(database.db);
      const post = await insertBlogPost(database.db, { cityGroupId: group.id, content: '# Titre\n\n<Carte />' });
      const draft = await insertBlogPost(database.db, { cityGroupId: group.id, published: false });

      const ok = await app.inject(`/public/blog-posts/${post.id}`);
      assert.equal(ok.statusCode, 200);
      assert.equal(ok.json().id, post.id);
      assert.equal(ok.json().content, '# Titre\n\n<Carte />');

      for (const id of [draft.id, '00000000-0000-4000-8000-000000000000']) {
        const res = await app.inject(`/public/blog-posts/${id}`);
        assert.equal(res.statusCode, 404);
        assert.deepEqual(res.json(), { statusCode: 404, message: 'Article introuvable', error: 'Not Found', code: 'blogPostNotFound', field: null });
      }

      const malformed = await app.inject('/public/blog-posts/42');
      assert.equal(malformed.statusCode, 400);
      assert.match(malformed.json().message, /id/);
    });
  });
}
