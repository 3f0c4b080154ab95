import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { contentAdminApp as setup, inject, storedVersion } from '../helpers/content-admin-fixtures.ts';

const NOT_FOUND = { statusCode: 404, message: 'Page introuvable', error: 'Not Found', code: 'pageNotFound', field: null };
const SITE_NOT_FOUND = { statusCode: 404, message: 'Site introuvable', error: 'Not Found', code: 'siteNotFound', field: null };
const SLUG = 'brest-proprete';

type Headers = Record<string, string>;

/** `headers` plus `If-Match` with the ETag of `url` as `reader` reads it now (a PATCH or DELETE needs one). */
async function withIfMatch(app: FastifyInstance, headers: Headers, url: string, reader: Headers = headers): Promise<Headers> {
  return { ...headers, 'if-match': String((await inject(app, reader, 'GET', url)).headers.etag) };
}

/** A site of `ids.group` made through the admin API, and its pages' path. */
async function siteOf(app: FastifyInstance, headers: Headers) {
  const site = (await inject(app, headers, 'POST', `/admin/city-groups/${ids.group}/sites`, { name: 'Brest Propreté', slug: SLUG, type: 'SITE' })).json();
  return { site, pages: `/admin/sites/${site.id}/pages` };
}

const publicPages = async (app: FastifyInstance) => (await app.inject(`/public/cms/sites/${SLUG}/pages`)).json().data.map((p: { slug: string }) => p.slug);
const publicMenu = async (app: FastifyInstance) =>
  (await app.inject(`/public/cms/sites/${SLUG}/menus/header`)).json().items.map((i: { label: string }) => i.label);

for (const kind of testDatabaseKinds()) {
  describe(`/admin pages (${kind})`, () => {
    it('writes an unpublished page, publishes and unpublishes it, refuses bad MDX and a taken slug, keeps a linked page (409)', async (t) => {
      const clock = fixedClock('2026-11-20T09:00:00.000Z');
      const { app, db, asWebmaster } = await setup(t, kind, { clock });
      const { site, pages } = await siteOf(app, asWebmaster);

      const created = await inject(app, asWebmaster, 'POST', pages, { title: 'Le tri', slug: 'tri', content: '# Le tri\n\n<Carte />' });
      assert.equal(created.statusCode, 201, created.body);
      const page = created.json();
      assert.deepEqual(page, {
        id: page.id, siteId: site.id, title: 'Le tri', slug: 'tri', content: '# Le tri\n\n<Carte />', seoTitle: null, seoDescription: null,
        publishedAt: null, createdAt: '2026-11-20T09:00:00.000Z', updatedAt: '2026-11-20T09:00:00.000Z',
      });
      assert.deepEqual(await publicPages(app), [], 'an unpublished page is not public');
      assert.equal((await app.inject(`/public/cms/pages/${page.id}`)).statusCode, 404);
      assert.deepEqual((await inject(app, asWebmaster, 'GET', pages)).json().data, [page], 'the admin API shows it');

      const read = await inject(app, asWebmaster, 'GET', `/admin/pages/${page.id}`);
      const published = await inject(app, { ...asWebmaster, 'if-match': String(read.headers.etag) }, 'PATCH', `/admin/pages/${page.id}`, {
        publishedAt: '2026-11-20T09:00:00.000Z',
      });
      assert.equal(published.statusCode, 200, published.body);
      assert.deepEqual(await publicPages(app), ['tri'], 'published at once');
      assert.equal((await inject(app, { ...asWebmaster, 'if-match': String(read.headers.etag) }, 'PATCH', `/admin/pages/${page.id}`, { title: 'x' })).statusCode, 412);

      const version = await storedVersion(db);
      const mdx = await inject(app, asWebmaster, 'POST', pages, { title: 'Cassée', slug: 'cassee', content: '# Titre\n\nb {x\n' });
      assert.deepEqual(mdx.json(), {
        statusCode: 400, error: 'Bad Request', code: 'validation', field: 'content',
        message: 'Le champ «\u00a0content\u00a0» n’est pas du MDX valide (ligne 3, colonne 5)\u00a0: ' +
          'Unexpected end of file in expression, expected a corresponding closing brace for `{`.',
      });
      const taken = await inject(app, asWebmaster, 'POST', pages, { title: 'Encore', slug: 'tri' });
      assert.deepEqual(taken.json().message, `Le champ «\u00a0slug\u00a0» est déjà pris par la page ${page.id} de ce site (« tri »).`);
      const patchedMdx = await inject(app, { ...asWebmaster, 'if-match': String(published.headers.etag) }, 'PATCH', `/admin/pages/${page.id}`, { content: '<div>' });
      assert.equal(patchedMdx.statusCode, 400);
      assert.match(patchedMdx.json().message, /^Le champ «\u00a0content\u00a0» n’est pas du MDX valide\u00a0: Expected a closing tag for `<div>`/);
      assert.equal((await db.selectFrom('page').select('id').execute()).length, 1, 'nothing refused was written');
      assert.equal(await storedVersion(db), version);

      const unpublished = await inject(app, { ...asWebmaster, 'if-match': String(published.headers.etag) }, 'PATCH', `/admin/pages/${page.id}`, { publishedAt: null });
      assert.equal(unpublished.json().publishedAt, null);
      assert.deepEqual(await publicPages(app), [], 'unpublished: hidden at once');

      const menu = (await inject(app, asWebmaster, 'POST', `/admin/sites/${site.id}/menus`, { name: 'Haut', location: 'header' })).json();
      const item = await inject(app, asWebmaster, 'POST', `/admin/menus/${menu.id}/items`, { label: 'Le tri', linkType: 'PAGE', pageId: page.id });
      const asWebmasterDeleting = await withIfMatch(app, asWebmaster, `/admin/pages/${page.id}`);
      assert.deepEqual((await inject(app, asWebmasterDeleting, 'DELETE', `/admin/pages/${page.id}`)).json(), {
        statusCode: 409, error: 'Conflict', code: 'pageInMenus', field: null,
        message: 'Cette page est encore le lien de 1\u00a0élément de menu\u00a0: faites-les pointer ailleurs ou supprimez-les d’abord.',
      });
      assert.equal((await inject(app, { ...asWebmaster, 'if-match': String(item.headers.etag) }, 'DELETE', `/admin/menu-items/${item.json().id}`)).statusCode, 204);
      assert.equal((await inject(app, asWebmasterDeleting, 'DELETE', `/admin/pages/${page.id}`)).statusCode, 204);
      assert.deepEqual((await inject(app, asWebmaster, 'GET', `/admin/pages/${page.id}`)).json(), NOT_FOUND);

      const audit = (await inject(app, asWebmaster, 'GET', `/admin/audit?entity=page&entityId=${page.id}`)).json().data;
      assert.deepEqual(audit.map((a: { action: string }) => a.action).sort(), ['create', 'delete', 'update', 'update']);
      assert.ok(audit.some((a: { before: { publishedAt: string | null } | null; after: { publishedAt: string | null } | null }) =>
        a.before?.publishedAt === '2026-11-20T09:00:00.000Z' && a.after?.publishedAt === null));
    });

    it('shows a scheduled page, and the menu item linking to it, at its time on every instance with no write then', async (t) => {
      const clock = fixedClock('2026-11-20T09:59:20.000Z');
      const { app: one, db, asWebmaster, secondInstance } = await setup(t, kind, { clock });
      const two = await secondInstance();
      const { site, pages } = await siteOf(one, asWebmaster);
      const written = await inject(one, asWebmaster, 'POST', pages, { title: 'Horaires d’hiver', slug: 'hiver', publishedAt: '2026-11-20T10:00:00.000Z' });
      const page = written.json();
      const menu = (await inject(one, asWebmaster, 'POST', `/admin/sites/${site.id}/menus`, { name: 'Haut', location: 'header' })).json();
      await inject(one, asWebmaster, 'POST', `/admin/menus/${menu.id}/items`, { label: 'Horaires', linkType: 'PAGE', pageId: page.id });
      await inject(one, asWebmaster, 'POST', `/admin/menus/${menu.id}/items`, { label: 'Contact', linkType: 'EXTERNAL', externalUrl: 'https://brest.fr/contact', order: 1 });
      await two.dataVersion.refresh(); // the other instance's poll beat

      clock.set('2026-11-20T09:59:40.000Z');
      for (const app of [one, two]) {
        assert.deepEqual(await publicPages(app), [], 'not before its time');
        assert.deepEqual(await publicMenu(app), ['Contact'], 'nor its menu item');
        assert.equal((await app.inject(`/public/cms/pages/${page.id}`)).statusCode, 404);
      }
      const version = await storedVersion(db);

      clock.set('2026-11-20T10:00:00.000Z');
      for (const app of [one, two]) {
        assert.deepEqual(await publicPages(app), ['hiver'], 'public at 10:00 on each instance');
        assert.deepEqual(await publicMenu(app), ['Horaires', 'Contact']);
        assert.equal((await app.inject(`/public/cms/pages/${page.id}`)).statusCode, 200);
      }
      assert.equal(await storedVersion(db), version, 'without any write');

      const unpublished = await inject(one, { ...asWebmaster, 'if-match': String(written.headers.etag) }, 'PATCH', `/admin/pages/${page.id}`, { publishedAt: null });
      assert.equal(unpublished.statusCode, 200, unpublished.body);
      await two.dataVersion.refresh();
      for (const app of [one, two]) assert.deepEqual(await publicMenu(app), ['Contact'], 'unpublished: its item hidden on each instance');
    });

    it('needs CMS (403); another group’s site and pages answer 404', async (t) => {
      const { app, db, asWebmaster, asOutsider, asEditor } = await setup(t, kind);
      const { pages } = await siteOf(app, asWebmaster);
      const page = (await inject(app, asWebmaster, 'POST', pages, { title: 'Accueil', slug: 'accueil' })).json();
      assert.equal((await inject(app, {}, 'GET', pages)).statusCode, 401);
      assert.equal((await inject(app, asEditor, 'GET', pages)).statusCode, 403);
      assert.deepEqual((await inject(app, asOutsider, 'GET', pages)).json(), SITE_NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsider, 'POST', pages, { title: 'x', slug: 'x' })).json(), SITE_NOT_FOUND);
      // A write carries the page's very ETag (read by an agent who may): still 404, as if missing.
      for (const [method, body] of [['GET'], ['PATCH', { title: 'x' }], ['DELETE']] as const) {
        const url = `/admin/pages/${page.id}`;
        assert.deepEqual((await inject(app, await withIfMatch(app, asOutsider, url, asWebmaster), method, url, body)).json(), NOT_FOUND, method);
      }
      assert.deepEqual(await db.selectFrom('page').select(['id', 'title']).execute(), [{ id: page.id, title: 'Accueil' }]);
    });
  });
}
