import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { contentAdminApp as setup, inject, storedVersion } from '../helpers/content-admin-fixtures.ts';

const MENU_NOT_FOUND = { statusCode: 404, message: 'Menu introuvable', error: 'Not Found', code: 'menuNotFound', field: null };
const ITEM_NOT_FOUND = { statusCode: 404, message: 'Élément de menu introuvable', error: 'Not Found', code: 'menuItemNotFound', field: null };
const SITE_NOT_FOUND = { statusCode: 404, message: 'Site introuvable', error: 'Not Found', code: 'siteNotFound', field: null };
const SLUG = 'brest-proprete';

type Headers = Record<string, string>;

/** `headers` plus `If-Match` with the ETag of `url` as `reader` reads it now (a PATCH or DELETE needs one). */
async function withIfMatch(app: FastifyInstance, headers: Headers, url: string, reader: Headers = headers): Promise<Headers> {
  return { ...headers, 'if-match': String((await inject(app, reader, 'GET', url)).headers.etag) };
}

/** A site of `ids.group` with a published and an unpublished page, and a site of the other group, through the admin API. */
async function sites(app: FastifyInstance, asWebmaster: Headers, asRoot: Headers) {
  const post = (url: string, body: object, headers = asWebmaster) => inject(app, headers, 'POST', url, body).then((r) => r.json());
  const site = await post(`/admin/city-groups/${ids.group}/sites`, { name: 'Brest Propreté', slug: SLUG, type: 'SITE' });
  const published = await post(`/admin/sites/${site.id}/pages`, { title: 'Le tri', slug: 'tri', publishedAt: '2026-01-01T00:00:00.000Z' });
  const draft = await post(`/admin/sites/${site.id}/pages`, { title: 'Brouillon', slug: 'brouillon' });
  const other = await post(`/admin/city-groups/${ids.emptyGroup}/sites`, { name: 'Abers', slug: 'abers', type: 'SITE' }, asRoot);
  const otherPage = await post(`/admin/sites/${other.id}/pages`, { title: 'Aber', slug: 'aber' }, asRoot);
  return { site, published, draft, other, otherPage };
}

const labels = (items: { label: string; children: unknown[] }[]): unknown[] =>
  items.map((i) => (i.children.length ? [i.label, labels(i.children as never)] : i.label));

for (const kind of testDatabaseKinds()) {
  describe(`/admin menus and menu items (${kind})`, () => {
    it('builds a menu item by item under the bundle’s rules; agents see every item, citizens the published ones', async (t) => {
      const { app, db, asWebmaster, asRoot } = await setup(t, kind);
      const { site, published, draft, otherPage } = await sites(app, asWebmaster, asRoot);
      const created = await inject(app, asWebmaster, 'POST', `/admin/sites/${site.id}/menus`, { name: 'En-tête', location: 'header' });
      assert.equal(created.statusCode, 201, created.body);
      const menu = created.json();
      assert.deepEqual(menu, { id: menu.id, siteId: site.id, name: 'En-tête', location: 'header', items: [] });
      const taken = await inject(app, asWebmaster, 'POST', `/admin/sites/${site.id}/menus`, { name: 'Autre', location: 'header' });
      assert.equal(taken.json().message, `Le champ «\u00a0location\u00a0» est déjà pris par le menu ${menu.id} de ce site (« header »).`);

      const items = `/admin/menus/${menu.id}/items`;
      const add = async (body: object) => {
        const res = await inject(app, asWebmaster, 'POST', items, body);
        assert.equal(res.statusCode, 201, res.body);
        return res.json();
      };
      const guide = await add({ label: 'Guide', linkType: 'NONE', order: 0 });
      const tri = await add({ label: 'Le tri', linkType: 'PAGE', pageId: published.id, parentId: guide.id, order: 1 });
      await add({ label: 'Bientôt', linkType: 'PAGE', pageId: draft.id, parentId: guide.id, order: 0 });
      const contact = await add({ label: 'Contact', linkType: 'EXTERNAL', externalUrl: 'https://brest.fr/contact', order: 5 });
      assert.deepEqual(tri, { id: tri.id, menuId: menu.id, parentId: guide.id, label: 'Le tri', linkType: 'PAGE', pageId: published.id, externalUrl: null, order: 1 });

      const list = (await inject(app, asWebmaster, 'GET', items)).json();
      assert.deepEqual(list.data.map((i: { label: string }) => i.label), ['Guide', 'Bientôt', 'Le tri', 'Contact'], 'in the order of the tree');
      assert.deepEqual(labels((await inject(app, asWebmaster, 'GET', `/admin/menus/${menu.id}`)).json().items), [['Guide', ['Bientôt', 'Le tri']], 'Contact']);
      const publicItems = (await app.inject(`/public/cms/sites/${SLUG}/menus/header`)).json().items;
      assert.deepEqual(labels(publicItems), [['Guide', ['Le tri']], 'Contact'], 'citizens do not see the unpublished page’s item');

      const version = await storedVersion(db);
      const refusals: [string, object, string, RegExp][] = [
        ['POST', { label: 'x', linkType: 'PAGE', pageId: otherPage.id }, 'pageId', /ne désigne aucune page de ce site/],
        ['POST', { label: 'x', linkType: 'PAGE' }, 'pageId', /est obligatoire quand linkType vaut PAGE/],
        ['POST', { label: 'x', linkType: 'EXTERNAL', externalUrl: 'brest.fr' }, 'externalUrl', /doit être une URL absolue/],
        ['POST', { label: 'x', linkType: 'EXTERNAL', externalUrl: ' JaVaScRiPt:alert(1)' }, 'externalUrl', /doit être un lien http, https, mailto ou tel \(« javascript: »/],
        ['POST', { label: 'x', linkType: 'NONE', parentId: menu.id }, 'parentId', /ne désigne aucun élément de ce menu/],
      ];
      for (const [method, body, field, message] of refusals) {
        const res = await inject(app, asWebmaster, method, items, body);
        assert.equal(res.statusCode, 400, JSON.stringify(body));
        assert.deepEqual([res.json().code, res.json().field], ['validation', field]);
        assert.ok(res.json().message.startsWith(`Le champ «\u00a0${field}\u00a0» `), res.json().message);
        assert.match(res.json().message, message);
      }
      for (const parentId of [guide.id, tri.id]) {
        const cycle = await inject(app, await withIfMatch(app, asWebmaster, `/admin/menu-items/${guide.id}`), 'PATCH', `/admin/menu-items/${guide.id}`, { parentId });
        assert.equal(cycle.json().message, 'Le champ «\u00a0parentId\u00a0» ne peut désigner ni l’élément lui-même ni l’un de ses sous-éléments.');
      }
      assert.equal((await db.selectFrom('menu_item').select('id').execute()).length, 4, 'nothing refused was written');
      assert.equal(await storedVersion(db), version);

      const read = await inject(app, asWebmaster, 'GET', `/admin/menu-items/${contact.id}`);
      const moved = await inject(app, { ...asWebmaster, 'if-match': String(read.headers.etag) }, 'PATCH', `/admin/menu-items/${contact.id}`, { parentId: guide.id, order: 9 });
      assert.equal(moved.statusCode, 200, moved.body);
      assert.equal((await inject(app, { ...asWebmaster, 'if-match': String(read.headers.etag) }, 'DELETE', `/admin/menu-items/${contact.id}`)).statusCode, 412);
      assert.deepEqual(labels((await app.inject(`/public/cms/sites/${SLUG}/menus/header`)).json().items), [['Guide', ['Le tri', 'Contact']]], 'public at once');

      const renamed = await inject(app, await withIfMatch(app, asWebmaster, `/admin/menus/${menu.id}`), 'PATCH', `/admin/menus/${menu.id}`, { name: 'Principal', location: 'main' });
      assert.equal(renamed.json().location, 'main');
      assert.equal((await app.inject(`/public/cms/sites/${SLUG}/menus/main`)).json().name, 'Principal');

      assert.equal((await inject(app, await withIfMatch(app, asWebmaster, `/admin/menu-items/${guide.id}`), 'DELETE', `/admin/menu-items/${guide.id}`)).statusCode, 204);
      assert.equal((await db.selectFrom('menu_item').select('id').execute()).length, 0, 'its sub-items went with it');
      await add({ label: 'Seul', linkType: 'NONE' });
      assert.equal((await inject(app, await withIfMatch(app, asWebmaster, `/admin/menus/${menu.id}`), 'DELETE', `/admin/menus/${menu.id}`)).statusCode, 204);
      assert.equal((await db.selectFrom('menu_item').select('id').execute()).length, 0, 'a menu’s items go with it');
      assert.deepEqual((await inject(app, asWebmaster, 'GET', `/admin/menus/${menu.id}`)).json(), MENU_NOT_FOUND);

      const audit = (await inject(app, asWebmaster, 'GET', `/admin/audit?entity=menuItem&entityId=${contact.id}`)).json().data;
      assert.deepEqual(audit.map((a: { action: string }) => a.action).sort(), ['create', 'update']);
      assert.deepEqual(audit.find((a: { action: string }) => a.action === 'update').after.parentId, guide.id);
    });

    it('needs CMS (403); another group’s menus and items answer 404, also for nested creation', async (t) => {
      const { app, db, asWebmaster, asRoot, asOutsider, asManager } = await setup(t, kind);
      const { site } = await sites(app, asWebmaster, asRoot);
      const menu = (await inject(app, asWebmaster, 'POST', `/admin/sites/${site.id}/menus`, { name: 'Haut', location: 'header' })).json();
      const item = (await inject(app, asWebmaster, 'POST', `/admin/menus/${menu.id}/items`, { label: 'Accueil', linkType: 'NONE' })).json();
      assert.equal((await inject(app, {}, 'GET', `/admin/menus/${menu.id}`)).statusCode, 401);
      assert.equal((await inject(app, asManager, 'GET', `/admin/menus/${menu.id}`)).statusCode, 403);
      assert.deepEqual((await inject(app, asOutsider, 'GET', `/admin/sites/${site.id}/menus`)).json(), SITE_NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsider, 'POST', `/admin/sites/${site.id}/menus`, { name: 'x', location: 'x' })).json(), SITE_NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsider, 'POST', `/admin/menus/${menu.id}/items`, { label: 'x', linkType: 'NONE' })).json(), MENU_NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsider, 'GET', `/admin/menus/${menu.id}/items`)).json(), MENU_NOT_FOUND);
      // A write carries the record's very ETag (read by an agent who may): still 404, as if missing.
      for (const [method, body] of [['GET'], ['PATCH', { label: 'x', name: 'x' }], ['DELETE']] as const) {
        const menuUrl = `/admin/menus/${menu.id}`;
        const itemUrl = `/admin/menu-items/${item.id}`;
        assert.deepEqual((await inject(app, await withIfMatch(app, asOutsider, menuUrl, asWebmaster), method, menuUrl, body)).json(), MENU_NOT_FOUND, method);
        assert.deepEqual((await inject(app, await withIfMatch(app, asOutsider, itemUrl, asWebmaster), method, itemUrl, body)).json(), ITEM_NOT_FOUND, method);
      }
      assert.deepEqual(await db.selectFrom('menu_item').select(['id', 'label']).execute(), [{ id: item.id, label: 'Accueil' }]);
      assert.deepEqual(await db.selectFrom('menu').select(['id', 'name']).execute(), [{ id: menu.id, name: 'Haut' }]);
    });
  });
}
