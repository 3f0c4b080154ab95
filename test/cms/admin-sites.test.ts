import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { contentAdminApp as setup, inject, storedVersion } from '../helpers/content-admin-fixtures.ts';

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
const NOT_FOUND = { statusCode: 404, message: 'Site introuvable', error: 'Not Found', code: 'siteNotFound', field: null };
const GROUP_NOT_FOUND = { statusCode: 404, message: 'Groupe de villes introuvable', error: 'Not Found', code: 'cityGroupNotFound', field: null };
const SITES = `/admin/city-groups/${ids.group}/sites`;
const SITE = { name: 'Brest Propreté', slug: 'brest-proprete', type: 'SITE', domain: 'proprete.brest.fr', settings: { couleur: 'vert' } };

for (const kind of testDatabaseKinds()) {
  describe(`/admin sites (${kind})`, () => {
    it('creates, lists, reads, changes and deletes a site, the public CMS following each write; a site with pages answers 409', async (t) => {
      const { app, db, asWebmaster } = await setup(t, kind);
      const created = await inject(app, asWebmaster, 'POST', SITES, SITE);
      assert.equal(created.statusCode, 201, created.body);
      const site = created.json();
      assert.deepEqual({ ...site, id: undefined, createdAt: undefined, updatedAt: undefined }, {
        ...SITE, id: undefined, createdAt: undefined, updatedAt: undefined, theme: null, cityGroupId: ids.group,
        cityGroup: { id: ids.group, name: 'Brest Métropole', type: 'Métropole' },
      });
      assert.equal((await app.inject('/public/cms/sites/brest-proprete')).json().name, 'Brest Propreté');

      await inject(app, asWebmaster, 'POST', SITES, { name: 'Application', slug: 'appli', type: 'APP', theme: { primary: '#0a0' } });
      const list = (await inject(app, asWebmaster, 'GET', SITES)).json();
      assert.deepEqual(list.data.map((s: { name: string }) => s.name), ['Application', 'Brest Propreté'], 'by name');
      assert.deepEqual(list.data[0].theme, { primary: '#0a0' });

      const read = await inject(app, asWebmaster, 'GET', `/admin/sites/${site.id}`);
      assert.deepEqual(read.json(), site);
      const renamed = await inject(app, { ...asWebmaster, 'if-match': String(read.headers.etag) }, 'PATCH', `/admin/sites/${site.id}`, { name: 'Brest Zéro Déchet' });
      assert.equal(renamed.statusCode, 200);
      assert.equal((await app.inject('/public/cms/sites/brest-proprete')).json().name, 'Brest Zéro Déchet', 'public at once');
      const stale = await inject(app, { ...asWebmaster, 'if-match': String(read.headers.etag) }, 'PATCH', `/admin/sites/${site.id}`, { name: 'x' });
      assert.equal(stale.statusCode, 412);

      const version = await storedVersion(db);
      const taken = await inject(app, asWebmaster, 'POST', SITES, { ...SITE, slug: 'appli' });
      assert.equal(taken.statusCode, 400);
      assert.match(taken.json().message, /^Le champ «\u00a0slug\u00a0» est déjà pris par le site [0-9a-f-]{36} \(« appli »\)\.$/);
      const badType = await inject(app, asWebmaster, 'POST', SITES, { ...SITE, slug: 'autre', type: 'BLOG' });
      assert.equal(badType.statusCode, 400);
      assert.match(badType.json().message, /type/);
      assert.equal((await db.selectFrom('site').select('id').execute()).length, 2, 'nothing refused was written');
      assert.equal(await storedVersion(db), version);

      const page = await inject(app, asWebmaster, 'POST', `/admin/sites/${site.id}/pages`, { title: 'Accueil', slug: 'accueil' });
      const asWebmasterDeleting = { ...asWebmaster, 'if-match': String(renamed.headers.etag) };
      const refused = await inject(app, asWebmasterDeleting, 'DELETE', `/admin/sites/${site.id}`);
      assert.deepEqual(refused.json(), {
        statusCode: 409, error: 'Conflict', code: 'siteNotEmpty', field: null,
        message: 'Ce site a encore 1\u00a0page et 0\u00a0menu\u00a0: supprimez-les d’abord (un site n’est jamais supprimé avec son contenu).',
      });
      assert.equal((await inject(app, { ...asWebmaster, 'if-match': String(page.headers.etag) }, 'DELETE', `/admin/pages/${page.json().id}`)).statusCode, 204);
      assert.equal((await inject(app, asWebmasterDeleting, 'DELETE', `/admin/sites/${site.id}`)).statusCode, 204);
      assert.equal((await app.inject('/public/cms/sites/brest-proprete')).statusCode, 404, 'gone from the public CMS at once');

      const audit = (await inject(app, asWebmaster, 'GET', `/admin/audit?entity=site&entityId=${site.id}`)).json().data;
      assert.deepEqual(audit.map((a: { action: string }) => a.action).sort(), ['create', 'delete', 'update']);
      const update = audit.find((a: { action: string }) => a.action === 'update');
      assert.deepEqual([update.before.name, update.after.name], ['Brest Propreté', 'Brest Zéro Déchet']);
    });

    it('needs a token (401) and CMS (403); another group’s sites answer 404, a move to it too', async (t) => {
      const { app, db, asRoot, asWebmaster, asOutsider, asEditor } = await setup(t, kind);
      const written = await inject(app, asWebmaster, 'POST', SITES, SITE);
      const site = written.json();
      // Every write below carries the site's very ETag: what refuses it is the rights, not the version.
      const ifMatch = { 'if-match': String(written.headers.etag) };
      assert.equal((await inject(app, {}, 'GET', `/admin/sites/${site.id}`)).statusCode, 401);
      assert.deepEqual((await inject(app, asEditor, 'POST', SITES, SITE)).json(), {
        statusCode: 403, error: 'Forbidden', message: 'Votre compte n’a pas la permission CMS.', code: 'adminPermission', field: null,
      });
      assert.deepEqual((await inject(app, asOutsider, 'GET', SITES)).json(), GROUP_NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsider, 'POST', SITES, { ...SITE, slug: 'x' })).json(), GROUP_NOT_FOUND);
      for (const [method, body] of [['GET'], ['PATCH', { name: 'x' }], ['DELETE']] as const) {
        assert.deepEqual((await inject(app, { ...asOutsider, ...ifMatch }, method, `/admin/sites/${site.id}`, body)).json(), NOT_FOUND, method);
      }
      assert.deepEqual((await inject(app, { ...asWebmaster, ...ifMatch }, 'PATCH', `/admin/sites/${site.id}`, { cityGroupId: ids.emptyGroup })).json(), { ...GROUP_NOT_FOUND, field: 'cityGroupId' });
      assert.deepEqual((await inject(app, asRoot, 'GET', `/admin/sites/${UNKNOWN}`)).json(), NOT_FOUND);
      const rows = await db.selectFrom('site').select(['name', 'city_group_id']).execute();
      assert.deepEqual(rows, [{ name: SITE.name, city_group_id: ids.group }], 'nothing refused was written');

      assert.equal((await inject(app, { ...asRoot, ...ifMatch }, 'PATCH', `/admin/sites/${site.id}`, { cityGroupId: ids.emptyGroup })).statusCode, 200);
      assert.equal((await inject(app, asOutsider, 'GET', `/admin/sites/${site.id}`)).statusCode, 200, 'moved by a super admin');
      assert.deepEqual((await inject(app, asWebmaster, 'GET', `/admin/sites/${site.id}`)).json(), NOT_FOUND);
    });
  });
}
