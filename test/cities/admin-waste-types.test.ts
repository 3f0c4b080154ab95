import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { citiesAdminApp as setup, inject } from '../helpers/admin-fixtures.ts';
import { buildTestApp } from '../helpers/app.ts';

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
const NOT_FOUND = { statusCode: 404, message: 'Type de déchet introuvable', error: 'Not Found', code: 'wasteTypeNotFound', field: null };
const CITY_NOT_FOUND = { statusCode: 404, message: 'Ville introuvable', error: 'Not Found', code: 'cityNotFound', field: null };

const publicTypes = async (app: FastifyInstance) => {
  const cities = (await app.inject('/public/cities')).json() as { id: string; wasteTypes: { id: string; name: string }[] }[];
  return cities.find((c) => c.id === ids.brest)!.wasteTypes.map((w) => w.name);
};

for (const kind of testDatabaseKinds()) {
  describe(`/admin waste types (${kind})`, () => {
    it('creates, lists, reads, changes and deletes a waste type, the public city following each write, each audited', async (t) => {
      const { app, db, asManager } = await setup(t, kind);
      const created = await inject(app, asManager, 'POST', `/admin/cities/${ids.brest}/waste-types`, { name: ' Biodéchets ', color: '#5A8F29' });
      assert.equal(created.statusCode, 201, created.body);
      const wasteType = created.json();
      assert.deepEqual({ ...wasteType, id: undefined }, {
        id: undefined, name: 'Biodéchets', description: null, instructions: null, color: '#5A8F29', colorLight: null, icon: null,
        imageUrl: null, details: [], cityId: ids.brest,
      });
      assert.ok((await publicTypes(app)).includes('Biodéchets'));

      const list = await inject(app, asManager, 'GET', `/admin/cities/${ids.brest}/waste-types?pageSize=10`);
      assert.equal(list.statusCode, 200);
      assert.equal(list.json().meta.total, 4);
      assert.ok(list.json().data.some((w: { details: unknown[] }) => w.details.length > 0), 'details come with their waste type');

      const read = await inject(app, asManager, 'GET', `/admin/waste-types/${wasteType.id}`);
      assert.deepEqual(read.json(), wasteType);
      const etag = String(read.headers.etag);
      const changed = await inject(app, { ...asManager, 'if-match': etag }, 'PATCH', `/admin/waste-types/${wasteType.id}`, { name: 'Déchets alimentaires' });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.deepEqual(changed.json(), { ...wasteType, name: 'Déchets alimentaires' });
      assert.ok((await publicTypes(app)).includes('Déchets alimentaires'));

      const stale = await inject(app, { ...asManager, 'if-match': etag }, 'PATCH', `/admin/waste-types/${wasteType.id}`, { icon: 'x' });
      assert.equal(stale.statusCode, 412);
      const deleted = await inject(app, { ...asManager, 'if-match': String(changed.headers.etag) }, 'DELETE', `/admin/waste-types/${wasteType.id}`);
      assert.equal(deleted.statusCode, 204);
      assert.deepEqual((await inject(app, asManager, 'GET', `/admin/waste-types/${wasteType.id}`)).json(), NOT_FOUND);
      assert.ok(!(await publicTypes(app)).includes('Déchets alimentaires'));

      const audit = await db.selectFrom('audit_entry').select(['entity', 'action', 'city_group_ids']).where('entity_id', '=', wasteType.id).execute();
      assert.deepEqual(audit.map((a) => `${a.entity} ${a.action} ${a.city_group_ids.join()}`).sort(), [
        `wasteType create ${ids.group}`, `wasteType delete ${ids.group}`, `wasteType update ${ids.group}`,
      ]);
    });

    it('reaches another instance on the same database by that instance’s own poll of the data version', async (t) => {
      const { app, database, asManager } = await setup(t, kind);
      const { app: other } = await buildTestApp(t, kind, { database });
      assert.ok(!(await publicTypes(other)).includes('Capsules de café'), 'the other instance has cached the city without it');
      const created = await inject(app, asManager, 'POST', `/admin/cities/${ids.brest}/waste-types`, { name: 'Capsules de café' });
      assert.equal(created.statusCode, 201);
      // Nobody tells the other instance: it polls. Not a timing assertion (the bench measures the delay); a bound
      // far past the poll period, so that a broken poll fails instead of hanging.
      let seen = false;
      for (let attempt = 0; attempt < 300 && !seen; attempt++) {
        seen = (await publicTypes(other)).includes('Capsules de café');
        if (!seen) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.ok(seen, 'the other instance never showed the new waste type');
    });

    it('refuses to delete a waste type still used (409, nothing deleted) and a bad colour (400)', async (t) => {
      const { app, db, asManager } = await setup(t, kind);
      const asManagerOnOm = { ...asManager, 'if-match': String((await inject(app, asManager, 'GET', `/admin/waste-types/${ids.wasteOm}`)).headers.etag) };
      const used = await inject(app, asManagerOnOm, 'DELETE', `/admin/waste-types/${ids.wasteOm}`);
      assert.equal(used.statusCode, 409);
      assert.match(used.json().message, /^Ce type de déchet est encore utilisé \d+\u00a0fois/);
      assert.equal((await inject(app, asManager, 'GET', `/admin/waste-types/${ids.wasteOm}`)).statusCode, 200);
      const badColour = await inject(app, asManagerOnOm, 'PATCH', `/admin/waste-types/${ids.wasteOm}`, { color: 'vert' });
      assert.equal(badColour.statusCode, 400);
      assert.match(badColour.json().message, /color/);
      // A name of spaces only would be stored empty once trimmed: refused, as for a new waste type.
      for (const [method, url] of [['PATCH', `/admin/waste-types/${ids.wasteOm}`], ['POST', `/admin/cities/${ids.brest}/waste-types`]]) {
        const blank = await inject(app, method === 'PATCH' ? asManagerOnOm : asManager, method, url, { name: '   ' });
        assert.equal(blank.statusCode, 400);
        assert.match(blank.json().message, /^Le champ «\s?name\s?» ne doit pas être vide ni ne contenir que des espaces\.$/);
      }
      assert.equal((await db.selectFrom('audit_entry').select('id').where('entity', '=', 'wasteType').execute()).length, 0);
    });

    it('needs a token (401) and CITIES (403); another group’s city and waste types answer 404, a super admin reaches them', async (t) => {
      const { app, asRoot, asOutsider, asEditor } = await setup(t, kind);
      assert.equal((await inject(app, {}, 'GET', `/admin/cities/${ids.brest}/waste-types`)).statusCode, 401);
      assert.equal((await inject(app, asEditor, 'GET', `/admin/waste-types/${ids.wasteOm}`)).statusCode, 403);
      assert.deepEqual((await inject(app, asOutsider, 'GET', `/admin/cities/${ids.brest}/waste-types`)).json(), CITY_NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsider, 'POST', `/admin/cities/${ids.brest}/waste-types`, { name: 'Autre' })).json(), CITY_NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsider, 'GET', `/admin/waste-types/${ids.wasteOm}`)).json(), NOT_FOUND);
      // With the waste type's very ETag (read by an agent who may): still 404, as if missing.
      const asOutsiderWriting = { ...asOutsider, 'if-match': String((await inject(app, asRoot, 'GET', `/admin/waste-types/${ids.wasteOm}`)).headers.etag) };
      assert.deepEqual((await inject(app, asOutsiderWriting, 'PATCH', `/admin/waste-types/${ids.wasteOm}`, { name: 'Autre' })).json(), NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsiderWriting, 'DELETE', `/admin/waste-types/${ids.wasteOm}`)).json(), NOT_FOUND);
      assert.deepEqual((await inject(app, asRoot, 'GET', `/admin/waste-types/${UNKNOWN}`)).json(), NOT_FOUND);
      assert.equal((await inject(app, asRoot, 'GET', `/admin/waste-types/${ids.wasteOm}`)).statusCode, 200);
    });
  });
}
