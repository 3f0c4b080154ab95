import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { citiesAdminApp as setup, inject } from '../helpers/admin-fixtures.ts';

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
const NOT_FOUND = { statusCode: 404, message: 'Ville introuvable', error: 'Not Found', code: 'cityNotFound', field: null };
const GROUP_NOT_FOUND = { statusCode: 404, message: 'Groupe de villes introuvable', error: 'Not Found', code: 'cityGroupNotFound', field: null };
const PLOUGASTEL = { name: 'Plougastel-Daoulas', country: 'France', population: 13_500, status: 'ACTIF', timeZone: 'Europe/Paris' };

const publicCityNames = async (app: FastifyInstance) =>
  ((await app.inject('/public/cities')).json() as { name: string }[]).map((c) => c.name);

for (const kind of testDatabaseKinds()) {
  describe(`/admin cities (${kind})`, () => {
    it('creates, lists, reads, changes and deletes a city, GET /public/cities following each write, each audited', async (t) => {
      const { app, db, asManager } = await setup(t, kind);
      assert.deepEqual(await publicCityNames(app), ['Brest', 'Élorn', 'Zeta'], 'the cached list, warmed');

      const created = await inject(app, asManager, 'POST', `/admin/city-groups/${ids.group}/cities`, { ...PLOUGASTEL, holidays: 'Décalée' });
      assert.equal(created.statusCode, 201, created.body);
      const city = created.json();
      assert.deepEqual({ ...city, id: undefined, createdAt: undefined, updatedAt: undefined }, {
        ...PLOUGASTEL, id: undefined, holidayCalendar: 'FR', outOfTheBins: null, presentationOfBins: null, returnOfBins: null,
        respectOfCalendar: null, holidays: 'Décalée', cityGroupId: ids.group, createdAt: undefined, updatedAt: undefined,
      });
      assert.deepEqual(await publicCityNames(app), ['Brest', 'Élorn', 'Plougastel-Daoulas', 'Zeta']);
      const publicOne = (await app.inject(`/public/cities/${city.id}`)).json();
      assert.deepEqual([publicOne.cityGroup.id, publicOne.wasteCollectionPlaces], [ids.group, []]);

      const list = await inject(app, asManager, 'GET', `/admin/city-groups/${ids.group}/cities`);
      assert.equal(list.statusCode, 200);
      assert.deepEqual(list.json().data.map((c: { name: string }) => c.name), ['Arcadie', 'Brest', 'Élorn', 'Plougastel-Daoulas'],
        'by name, NON_ACTIF included');
      assert.equal(list.json().data[0].status, 'NON_ACTIF');

      const read = await inject(app, asManager, 'GET', `/admin/cities/${city.id}`);
      assert.deepEqual(read.json(), city);
      const etag = String(read.headers.etag);
      const hidden = await inject(app, { ...asManager, 'if-match': etag }, 'PATCH', `/admin/cities/${city.id}`, { status: 'NON_ACTIF', timeZone: null });
      assert.equal(hidden.statusCode, 200, hidden.body);
      assert.deepEqual({ ...(hidden.json() as object), updatedAt: undefined }, { ...city, status: 'NON_ACTIF', updatedAt: undefined });
      assert.deepEqual(await publicCityNames(app), ['Brest', 'Élorn', 'Zeta']);
      assert.equal((await app.inject(`/public/cities/${city.id}`)).statusCode, 404);
      assert.equal((await inject(app, { ...asManager, 'if-match': etag }, 'PATCH', `/admin/cities/${city.id}`, { name: 'x' })).statusCode, 412);

      const deleted = await inject(app, { ...asManager, 'if-match': String(hidden.headers.etag) }, 'DELETE', `/admin/cities/${city.id}`);
      assert.equal(deleted.statusCode, 204);
      assert.deepEqual((await inject(app, asManager, 'GET', `/admin/cities/${city.id}`)).json(), NOT_FOUND);

      const audit = await inject(app, asManager, 'GET', `/admin/audit?entity=city&entityId=${city.id}`);
      const entries = audit.json().data as { action: string; userName: string; before: { status: string } | null; after: { status: string } | null }[];
      assert.deepEqual(entries.map((e) => `${e.action} ${e.userName}`).sort(), ['create Gaëlle Manager', 'delete Gaëlle Manager', 'update Gaëlle Manager']);
      const update = entries.find((e) => e.action === 'update')!;
      assert.deepEqual([update.before!.status, update.after!.status], ['ACTIF', 'NON_ACTIF']);

      // A city that still holds anything is not deleted: every foreign key to it cascades.
      const brestEtag = String((await inject(app, asManager, 'GET', `/admin/cities/${ids.brest}`)).headers.etag);
      const full = await inject(app, { ...asManager, 'if-match': brestEtag }, 'DELETE', `/admin/cities/${ids.brest}`);
      assert.equal(full.statusCode, 409);
      assert.equal(full.json().message,
        'Cette ville contient encore 3\u00a0types de déchets, 2\u00a0lieux de collecte, 2\u00a0points de collecte et 2\u00a0questions de quiz\u00a0: ' +
        'supprimez-les d’abord (ou passez la ville en NON_ACTIF).');
      assert.equal((await db.selectFrom('waste_type').select('id').where('city_id', '=', ids.brest).execute()).length, 3);
    });

    it('moves a city only into a group the agent holds (404 otherwise), refuses an unknown time zone or group (400), writing nothing', async (t) => {
      const { app, db, asRoot, asManager, asOutsider, asEditor } = await setup(t, kind);
      const version = await db.selectFrom('data_version').select('version').executeTakeFirstOrThrow();
      const cities = async () => db.selectFrom('city').select(['id', 'city_group_id', 'time_zone']).orderBy('id').execute();
      const before = await cities();
      const etagOf = async (id: string) => String((await inject(app, asRoot, 'GET', `/admin/cities/${id}`)).headers.etag);
      const asManagerOnBrest = { ...asManager, 'if-match': await etagOf(ids.brest) };
      const asManagerOnElorn = { ...asManager, 'if-match': await etagOf(ids.elorn) };

      const badZone = await inject(app, asManager, 'POST', `/admin/city-groups/${ids.group}/cities`, { ...PLOUGASTEL, timeZone: 'Europe/Brest' });
      assert.deepEqual(badZone.json(), {
        statusCode: 400, error: 'Bad Request', code: 'validation', field: 'timeZone',
        message: 'Le champ «\u00a0timeZone\u00a0» n’est pas un fuseau horaire IANA connu (par exemple Europe/Paris).',
      });
      assert.match((await inject(app, asManagerOnBrest, 'PATCH', `/admin/cities/${ids.brest}`, { timeZone: 'Mars/Olympus' })).json().message, /timeZone/);
      // Past the column's 32-bit range: the client's 400, never the database's 500.
      const huge = await inject(app, asManagerOnBrest, 'PATCH', `/admin/cities/${ids.brest}`, { population: 2_147_483_648 });
      assert.deepEqual([huge.statusCode, huge.json().code, huge.json().field], [400, 'validation', 'population']);
      const noStatus = await inject(app, asManager, 'POST', `/admin/city-groups/${ids.group}/cities`, { name: 'Sans statut', country: 'France' });
      assert.equal(noStatus.statusCode, 400);
      assert.match(noStatus.json().message, /status/);

      // A move into a group the agent does not hold answers as if the group were missing.
      assert.deepEqual((await inject(app, asManagerOnElorn, 'PATCH', `/admin/cities/${ids.elorn}`, { cityGroupId: ids.emptyGroup })).json(), { ...GROUP_NOT_FOUND, field: 'cityGroupId' });
      assert.deepEqual((await inject(app, asManagerOnElorn, 'PATCH', `/admin/cities/${ids.elorn}`, { cityGroupId: null })).json(), { ...GROUP_NOT_FOUND, field: 'cityGroupId' });
      assert.deepEqual((await inject(app, asManagerOnElorn, 'PATCH', `/admin/cities/${ids.elorn}`, { cityGroupId: UNKNOWN })).json(), { ...GROUP_NOT_FOUND, field: 'cityGroupId' });
      const unknownGroup = await inject(app, { ...asRoot, 'if-match': asManagerOnElorn['if-match'] }, 'PATCH', `/admin/cities/${ids.elorn}`, { cityGroupId: UNKNOWN });
      assert.equal(unknownGroup.statusCode, 400);
      assert.equal(unknownGroup.json().message, `Le champ «\u00a0cityGroupId\u00a0» ne désigne aucun groupe de villes du lot ni de la base (${UNKNOWN}).`);
      assert.deepEqual(await cities(), before);
      assert.deepEqual(await db.selectFrom('data_version').select('version').executeTakeFirstOrThrow(), version);
      assert.equal((await db.selectFrom('audit_entry').select('id').where('entity', '=', 'city').execute()).length, 0);

      // Other groups' cities, and the city of no group, are out of reach; a super admin reaches and moves them.
      assert.equal((await inject(app, {}, 'GET', `/admin/cities/${ids.brest}`)).statusCode, 401);
      assert.equal((await inject(app, asEditor, 'GET', `/admin/cities/${ids.brest}`)).statusCode, 403);
      assert.deepEqual((await inject(app, asOutsider, 'GET', `/admin/city-groups/${ids.group}/cities`)).json(), GROUP_NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsider, 'POST', `/admin/city-groups/${ids.group}/cities`, PLOUGASTEL)).json(), GROUP_NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsider, 'GET', `/admin/cities/${ids.brest}`)).json(), NOT_FOUND);
      // With the city's very ETag (read by an agent who may): still 404, as if missing.
      const asOutsiderOnBrest = { ...asOutsider, 'if-match': asManagerOnBrest['if-match'] };
      assert.deepEqual((await inject(app, asOutsiderOnBrest, 'PATCH', `/admin/cities/${ids.brest}`, { name: 'x' })).json(), NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsiderOnBrest, 'DELETE', `/admin/cities/${ids.brest}`)).json(), NOT_FOUND);
      assert.deepEqual((await inject(app, asManager, 'GET', `/admin/cities/${ids.lonely}`)).json(), NOT_FOUND);
      assert.equal((await inject(app, asRoot, 'GET', `/admin/cities/${ids.lonely}`)).statusCode, 200);
      assert.deepEqual((await inject(app, asRoot, 'GET', `/admin/cities/${UNKNOWN}`)).json(), NOT_FOUND);

      assert.equal((await app.inject(`/public/city-groups`)).json().find((g: { id: string }) => g.id === ids.emptyGroup)._count.cities, 0);
      const moved = await inject(app, { ...asRoot, 'if-match': asManagerOnElorn['if-match'] }, 'PATCH', `/admin/cities/${ids.elorn}`, { cityGroupId: ids.emptyGroup.toUpperCase() });
      assert.equal(moved.statusCode, 200, moved.body);
      assert.equal(moved.json().cityGroupId, ids.emptyGroup);
      assert.deepEqual((await inject(app, asManager, 'GET', `/admin/cities/${ids.elorn}`)).json(), NOT_FOUND, 'gone from the manager’s reach');
      assert.equal((await inject(app, asOutsider, 'GET', `/admin/cities/${ids.elorn}`)).statusCode, 200);
      assert.equal((await app.inject(`/public/city-groups`)).json().find((g: { id: string }) => g.id === ids.emptyGroup)._count.cities, 1);
      // The entry belongs to both groups: only an agent holding both (here the super admin) reads it.
      assert.equal((await inject(app, asOutsider, 'GET', `/admin/audit?entity=city&entityId=${ids.elorn}`)).json().meta.total, 0);
      const [entry] = (await inject(app, asRoot, 'GET', `/admin/audit?entity=city&entityId=${ids.elorn}`)).json().data;
      assert.deepEqual([entry.before.cityGroupId, entry.after.cityGroupId], [ids.group, ids.emptyGroup]);
    });
  });
}
