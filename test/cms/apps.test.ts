import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { insertMenu, insertMenuItem, insertPage, insertSite } from '../helpers/cms-fixtures.ts';

const NOW = '2026-06-01T12:00:00.000Z';
const THEME = { primaryColor: '#00607A', font: 'Marianne', logo: { light: '/logo.svg' } };

for (const kind of testDatabaseKinds()) {
  describe(`CMS apps (${kind})`, () => {
    it('answers the app configuration: theme, published pages without content, apiUrl and menus', async (t) => {
      const clock = fixedClock(NOW);
      const { app, database } = await buildTestApp(t, kind, { clock });
      const mobile = await insertSite(database.db, { name: 'Brest Tri', slug: 'brest-tri', type: 'APP', theme: THEME });
      const older = await insertPage(database.db, { siteId: mobile.id, title: 'Guide', slug: 'guide', publishedAt: '2026-02-01T00:00:00.000Z' });
      const newer = await insertPage(database.db, { siteId: mobile.id, title: 'Actus', slug: 'actus', publishedAt: '2026-05-01T00:00:00.000Z' });
      const later = await insertPage(database.db, { siteId: mobile.id, title: 'Plus tard', publishedAt: '2026-07-01T00:00:00.000Z' });
      const tabs = await insertMenu(database.db, { siteId: mobile.id, name: 'Onglets', location: 'tabs' });
      const tab = await insertMenuItem(database.db, { menuId: tabs.id, label: 'Guide', pageId: older.id });
      await insertMenuItem(database.db, { menuId: tabs.id, label: 'Plus tard', pageId: later.id, order: 1 });

      const res = await app.inject('/public/cms/apps/brest-tri');
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.deepEqual(Object.keys(body).sort(), ['apiUrl', 'id', 'menus', 'name', 'pages', 'slug', 'theme']);
      assert.equal(body.id, mobile.id);
      assert.equal(body.name, 'Brest Tri');
      assert.equal(body.slug, 'brest-tri');
      assert.deepEqual(body.theme, THEME);
      assert.equal(body.apiUrl, 'http://localhost:80/public');
      assert.deepEqual(
        body.pages.map((p: { id: string }) => p.id),
        [newer.id, older.id],
      );
      assert.deepEqual(body.pages[0], {
        id: newer.id,
        siteId: mobile.id,
        title: 'Actus',
        slug: 'actus',
        seoTitle: null,
        seoDescription: null,
        publishedAt: '2026-05-01T00:00:00.000Z',
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-04T00:00:00.000Z',
      });
      assert.deepEqual(body.menus, [
        {
          id: tabs.id,
          name: 'Onglets',
          location: 'tabs',
          items: [{ id: tab.id, label: 'Guide', linkType: 'PAGE', pageId: older.id, externalUrl: null, children: [] }],
        },
      ]);

      clock.set('2026-07-01T00:00:00.000Z');
      const after = (await app.inject('/public/cms/apps/brest-tri')).json();
      assert.equal(after.pages[0].id, later.id);
      assert.equal(after.menus[0].items.length, 2);
    });

    it('derives apiUrl from PUBLIC_BASE_URL when set, else from the request origin', async (t) => {
      const { app: configured, database } = await buildTestApp(t, kind, { env: { PUBLIC_BASE_URL: 'https://collecte.example.fr/' } });
      await insertSite(database.db, { slug: 'appli', type: 'APP' });
      assert.equal((await configured.inject('/public/cms/apps/appli')).json().apiUrl, 'https://collecte.example.fr/public');

      const { app: plain } = await buildTestApp(t, kind, { database });
      const res = await plain.inject({ url: '/public/cms/apps/appli', headers: { host: 'api.ville.fr:8443' } });
      assert.equal(res.json().apiUrl, 'http://api.ville.fr:8443/public');
      assert.equal(res.json().theme, null);
    });

    it('answers 404 for a site that is not an app, and for a menu of another app', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      const site = await insertSite(database.db, { slug: 'site-web', type: 'SITE' });
      const first = await insertSite(database.db, { slug: 'appli-a', type: 'APP' });
      const second = await insertSite(database.db, { slug: 'appli-b', type: 'APP' });
      const menuA = await insertMenu(database.db, { siteId: first.id, location: 'tabs', name: 'A' });
      const menuB = await insertMenu(database.db, { siteId: second.id, location: 'tabs', name: 'B' });
      const siteMenu = await insertMenu(database.db, { siteId: site.id });

      const notApp = await app.inject('/public/cms/apps/site-web');
      assert.equal(notApp.statusCode, 404);
      assert.deepEqual(notApp.json(), { statusCode: 404, message: 'Application introuvable', error: 'Not Found', code: 'appNotFound', field: null });
      assert.equal((await app.inject(`/public/cms/apps/site-web/menus/by-id/${siteMenu.id}`)).statusCode, 404);

      const own = await app.inject(`/public/cms/apps/appli-a/menus/by-id/${menuA.id}`);
      assert.equal(own.statusCode, 200);
      assert.deepEqual(own.json(), { id: menuA.id, name: 'A', location: 'tabs', items: [] });

      const foreign = await app.inject(`/public/cms/apps/appli-a/menus/by-id/${menuB.id}`);
      assert.equal(foreign.statusCode, 404);
      assert.deepEqual(foreign.json(), { statusCode: 404, message: 'Menu introuvable', error: 'Not Found', code: 'menuNotFound', field: null });

      const malformed = await app.inject('/public/cms/apps/appli-a/menus/by-id/tabs');
      assert.equal(malformed.statusCode, 400);
      assert.match(malformed.json().message, /« menuId »/);
    });
  });
}
