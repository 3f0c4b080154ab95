import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { insertPage, insertSite } from '../helpers/cms-fixtures.ts';

const NOW = '2026-06-01T12:00:00.000Z';

for (const kind of testDatabaseKinds()) {
  describe(`CMS pages (${kind})`, () => {
    it('lists the published pages of a site, newest publishedAt first, in the envelope and the contract shape', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { clock: fixedClock(NOW) });
      const site = await insertSite(database.db, { slug: 'ville' });
      const other = await insertSite(database.db, { slug: 'autre' });
      const old = await insertPage(database.db, { siteId: site.id, title: 'Ancienne', publishedAt: '2026-01-01T00:00:00.000Z' });
      const recent = await insertPage(database.db, {
        siteId: site.id,
        title: 'Récente',
        slug: 'recente',
        content: '# Récente\n\n<Carte />',
        seoTitle: 'Récente | Ville',
        seoDescription: 'Une page récente',
        publishedAt: '2026-05-01T00:00:00.000Z',
      });
      const exactlyNow = await insertPage(database.db, { siteId: site.id, title: 'Maintenant', publishedAt: NOW });
      await insertPage(database.db, { siteId: site.id, title: 'Future', publishedAt: '2026-06-01T12:00:00.001Z' });
      await insertPage(database.db, { siteId: site.id, title: 'Brouillon', publishedAt: null });
      await insertPage(database.db, { siteId: other.id, title: 'Ailleurs' });

      const res = await app.inject('/public/cms/sites/ville/pages');
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.deepEqual(body.meta, { page: 1, pageSize: 20, total: 3, totalPages: 1 });
      assert.deepEqual(
        body.data.map((p: { id: string }) => p.id),
        [exactlyNow.id, recent.id, old.id],
      );
      assert.deepEqual(body.data[1], {
        id: recent.id,
        siteId: site.id,
        title: 'Récente',
        slug: 'recente',
        content: '# Récente\n\n<Carte />',
        seoTitle: 'Récente | Ville',
        seoDescription: 'Une page récente',
        publishedAt: '2026-05-01T00:00:00.000Z',
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-04T00:00:00.000Z',
      });
      assert.equal(body.data[0].seoTitle, null);

      const paged = await app.inject('/public/cms/sites/ville/pages?page=2&pageSize=2');
      assert.deepEqual(paged.json().meta, { page: 2, pageSize: 2, total: 3, totalPages: 2 });
      assert.deepEqual(
        paged.json().data.map((p: { id: string }) => p.id),
        [old.id],
      );
      assert.equal((await app.inject('/public/cms/sites/ville/pages?pageSize=101')).statusCode, 400);
    });

    it('serves one page only once published; a page whose publishedAt passes while the app runs appears', async (t) => {
      const clock = fixedClock(NOW);
      const { app, database } = await buildTestApp(t, kind, { clock });
      const site = await insertSite(database.db, { slug: 'ville' });
      const soon = await insertPage(database.db, { siteId: site.id, title: 'Bientôt', publishedAt: '2026-06-02T08:00:00.000Z' });
      const draft = await insertPage(database.db, { siteId: site.id, publishedAt: null });

      for (const id of [soon.id, draft.id, '00000000-0000-4000-8000-000000000000']) {
        const res = await app.inject(`/public/cms/pages/${id}`);
        assert.equal(res.statusCode, 404);
        assert.deepEqual(res.json(), { statusCode: 404, message: 'Page introuvable', error: 'Not Found', code: 'pageNotFound', field: null });
      }
      assert.equal((await app.inject('/public/cms/sites/ville/pages')).json().meta.total, 0);

      clock.set('2026-06-02T08:00:00.000Z');
      const res = await app.inject(`/public/cms/pages/${soon.id}`);
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().title, 'Bientôt');
      assert.equal(res.json().publishedAt, '2026-06-02T08:00:00.000Z');
      const list = await app.inject('/public/cms/sites/ville/pages');
      assert.deepEqual(
        list.json().data.map((p: { id: string }) => p.id),
        [soon.id],
      );
      assert.equal((await app.inject(`/public/cms/pages/${draft.id}`)).statusCode, 404);
    });

    it('answers 400 for a malformed page id and 404 for an unknown site on every route under it', async (t) => {
      const { app } = await buildTestApp(t, kind);
      const bad = await app.inject('/public/cms/pages/page-1');
      assert.equal(bad.statusCode, 400);
      assert.match(bad.json().message, /« id »/);

      for (const url of [
        '/public/cms/sites/inconnu/pages',
        '/public/cms/sites/inconnu/menus',
        '/public/cms/sites/inconnu/menus/header',
      ]) {
        const res = await app.inject(url);
        assert.equal(res.statusCode, 404, url);
        assert.deepEqual(res.json(), { statusCode: 404, message: 'Site introuvable', error: 'Not Found', code: 'siteNotFound', field: null });
      }
      for (const url of ['/public/cms/apps/inconnu', '/public/cms/apps/inconnu/menus/by-id/00000000-0000-4000-8000-000000000000']) {
        const res = await app.inject(url);
        assert.equal(res.statusCode, 404, url);
        assert.equal(res.json().message, 'Application introuvable');
      }
    });
  });
}
