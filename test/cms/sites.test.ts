import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { insertCityGroup, insertSite } from '../helpers/cms-fixtures.ts';

for (const kind of testDatabaseKinds()) {
  describe(`CMS sites (${kind})`, () => {
    it('lists sites by name in the listing envelope, with the contract shape', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      const group = await insertCityGroup(database.db, { name: 'Brest Métropole', type: 'Métropole' });
      const zeta = await insertSite(database.db, { name: 'Zeta', slug: 'zeta' });
      const ecole = await insertSite(database.db, {
        name: 'École',
        slug: 'ecole',
        domain: 'ecole.example.fr',
        settings: { locale: 'fr', analytics: { enabled: false } },
        cityGroupId: group.id,
      });
      const alpha = await insertSite(database.db, { name: 'alpha', slug: 'alpha', type: 'APP' });

      const res = await app.inject('/public/cms/sites');
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.deepEqual(body.meta, { page: 1, pageSize: 20, total: 3, totalPages: 1 });
      assert.deepEqual(
        body.data.map((s: { id: string }) => s.id),
        [alpha.id, ecole.id, zeta.id],
      );
      assert.deepEqual(body.data[1], {
        id: ecole.id,
        name: 'École',
        slug: 'ecole',
        type: 'SITE',
        domain: 'ecole.example.fr',
        settings: { locale: 'fr', analytics: { enabled: false } },
        cityGroup: { id: group.id, name: 'Brest Métropole', type: 'Métropole' },
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-03T00:00:00.000Z',
      });
      assert.equal(body.data[0].cityGroup, null);
      assert.equal(body.data[0].domain, null);
      assert.deepEqual(body.data[0].settings, {});
    });

    it('pages the listing: totalPages = ceil(total / pageSize), a page past the end is empty', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      for (let i = 1; i <= 5; i++) await insertSite(database.db, { name: `Site ${i}`, slug: `site-${i}` });

      const second = await app.inject('/public/cms/sites?page=2&pageSize=2');
      assert.equal(second.statusCode, 200);
      assert.deepEqual(second.json().meta, { page: 2, pageSize: 2, total: 5, totalPages: 3 });
      assert.deepEqual(
        second.json().data.map((s: { slug: string }) => s.slug),
        ['site-3', 'site-4'],
      );

      const last = await app.inject('/public/cms/sites?page=3&pageSize=2');
      assert.deepEqual(
        last.json().data.map((s: { slug: string }) => s.slug),
        ['site-5'],
      );

      const past = await app.inject('/public/cms/sites?page=99&pageSize=2');
      assert.equal(past.statusCode, 200);
      assert.deepEqual(past.json(), { data: [], meta: { page: 99, pageSize: 2, total: 5, totalPages: 3 } });

      // Past the page bound (100,000) is no longer a page past the end but a bad parameter.
      const huge = await app.inject('/public/cms/sites?page=100000000000000000000');
      assert.equal(huge.statusCode, 400);
      assert.match(huge.json().message, /« page »/);

      const all = await app.inject('/public/cms/sites?pageSize=100');
      assert.deepEqual(all.json().meta, { page: 1, pageSize: 100, total: 5, totalPages: 1 });
    });

    it('answers an empty listing with total 0 and totalPages 0', async (t) => {
      const { app } = await buildTestApp(t, kind);
      const res = await app.inject('/public/cms/sites');
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { data: [], meta: { page: 1, pageSize: 20, total: 0, totalPages: 0 } });
    });

    it('rejects a page or pageSize that is not a whole number in range, naming the parameter', async (t) => {
      const { app } = await buildTestApp(t, kind);
      const cases: Array<[string, string]> = [
        ['page=0', 'page'],
        ['page=-1', 'page'],
        ['page=1.5', 'page'],
        ['page=abc', 'page'],
        ['page=', 'page'],
        ['pageSize=0', 'pageSize'],
        ['pageSize=101', 'pageSize'],
        ['pageSize=2.5', 'pageSize'],
        ['pageSize=vingt', 'pageSize'],
      ];
      for (const [query, name] of cases) {
        const res = await app.inject(`/public/cms/sites?${query}`);
        assert.equal(res.statusCode, 400, query);
        assert.equal(res.json().error, 'Bad Request');
        assert.ok(res.json().message.includes(`« ${name} »`), `${query}: ${res.json().message}`);
      }
    });

    it('filters by type SITE or APP and rejects any other type', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      const site = await insertSite(database.db, { name: 'Site', slug: 'site' });
      const mobile = await insertSite(database.db, { name: 'Appli', slug: 'appli', type: 'APP' });

      const apps = await app.inject('/public/cms/sites?type=APP');
      assert.deepEqual(
        apps.json().data.map((s: { id: string }) => s.id),
        [mobile.id],
      );
      assert.equal(apps.json().meta.total, 1);
      const sites = await app.inject('/public/cms/sites?type=SITE');
      assert.deepEqual(
        sites.json().data.map((s: { id: string }) => s.id),
        [site.id],
      );

      for (const bad of ['app', 'BLOG', '']) {
        const res = await app.inject(`/public/cms/sites?type=${bad}`);
        assert.equal(res.statusCode, 400, bad);
        assert.match(res.json().message, /« type »/);
      }
    });

    it('answers a site by slug; 404 when unknown or of another type than asked', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      const site = await insertSite(database.db, { name: 'Ville', slug: 'ville' });

      const res = await app.inject('/public/cms/sites/ville');
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().id, site.id);
      assert.equal((await app.inject('/public/cms/sites/ville?type=SITE')).json().id, site.id);

      for (const url of ['/public/cms/sites/nulle-part', '/public/cms/sites/ville?type=APP']) {
        const missing = await app.inject(url);
        assert.equal(missing.statusCode, 404, url);
        assert.deepEqual(missing.json(), { statusCode: 404, message: 'Site introuvable', error: 'Not Found', code: 'siteNotFound', field: null });
      }
      assert.equal((await app.inject('/public/cms/sites/ville?type=blog')).statusCode, 400);
    });
  });
}
