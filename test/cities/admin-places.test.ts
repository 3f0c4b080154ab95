import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { citiesAdminApp as setup, inject } from '../helpers/admin-fixtures.ts';

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
const notFound = (message: string, code: string) => ({ statusCode: 404, message, error: 'Not Found', code, field: null });
const PLACE_NOT_FOUND = notFound('Lieu de collecte introuvable dans cette ville', 'collectionPlaceNotFound');
const DAY_NOT_FOUND = notFound('Jour de collecte introuvable', 'collectionDayNotFound');
const LOCATION_NOT_FOUND = notFound('Lieu rattaché introuvable', 'attachedLocationNotFound');
const DETAIL_NOT_FOUND = notFound('Matière introuvable', 'wasteTypeDetailNotFound');

interface PublicPlace { id: string; name: string; collectionDays: { name: string }[]; attachedLocations: { name: string }[] }
const publicBrest = async (app: FastifyInstance) =>
  ((await app.inject('/public/cities')).json() as { id: string; wasteCollectionPlaces: PublicPlace[]; wasteTypes: { id: string; details: { material: string }[] }[] }[])
    .find((c) => c.id === ids.brest)!;
const calendar = (app: FastifyInstance, placeId: string) =>
  app.inject(`/public/cities/${ids.brest}/places/${placeId}/collections?from=2026-12-07&to=2026-12-13`);

for (const kind of testDatabaseKinds()) {
  describe(`/admin places, collection days, attached locations and waste-type details (${kind})`, () => {
    it('writes a place, its days and locations and a waste type’s details, the public city and calendar following each write', async (t) => {
      const { app, db, asManager } = await setup(t, kind);
      await publicBrest(app);

      // A place
      const created = await inject(app, asManager, 'POST', `/admin/cities/${ids.brest}/places`, { name: ' Bellevue ' });
      assert.equal(created.statusCode, 201, created.body);
      const place = created.json();
      assert.deepEqual({ ...place, id: undefined }, {
        id: undefined, name: 'Bellevue', collectionDays: [], exceptions: [], attachedLocations: [], cityId: ids.brest, streets: [], area: null,
      });
      assert.deepEqual((await publicBrest(app)).wasteCollectionPlaces.map((p) => p.name), ['Bellevue', 'Centre-ville', 'Secteur Nord']);
      const places = await inject(app, asManager, 'GET', `/admin/cities/${ids.brest}/places`);
      assert.deepEqual(places.json().data.map((p: { name: string }) => p.name), ['Bellevue', 'Centre-ville', 'Secteur Nord']);
      const centre = places.json().data[1];
      assert.deepEqual(centre.collectionDays.map((d: { name: string }) => d.name), ['lundi', 'mercredi', 'vendredi'], 'Monday to Sunday');
      assert.equal(centre.exceptions.length, 2);
      assert.deepEqual((await inject(app, asManager, 'GET', `/admin/places/${ids.placeCentre}`)).json(), centre);

      // Its collection days, checked with the bundle's rules
      const day = await inject(app, asManager, 'POST', `/admin/places/${place.id}/collection-days`, { name: 'mardi', wasteTypeId: ids.wasteEmb.toUpperCase() });
      assert.equal(day.statusCode, 201, day.body);
      assert.deepEqual({ ...(day.json() as object), id: undefined }, {
        id: undefined, name: 'mardi', wasteTypeId: ids.wasteEmb, description: null, biweekly: null, startDate: null, placeId: place.id,
      });
      assert.deepEqual((await calendar(app, place.id)).json().map((o: { date: string }) => o.date), ['2026-12-08']);
      const dayEtag = String((await inject(app, asManager, 'GET', `/admin/collection-days/${day.json().id}`)).headers.etag);
      const moved = await inject(app, { ...asManager, 'if-match': dayEtag }, 'PATCH', `/admin/collection-days/${day.json().id}`, {
        name: 'jeudi', biweekly: true, startDate: '2026-12-06T23:00:00.000Z',
      });
      assert.equal(moved.statusCode, 200, moved.body);
      assert.deepEqual((await calendar(app, place.id)).json().map((o: { date: string }) => o.date), ['2026-12-10']);
      assert.equal((await inject(app, { ...asManager, 'if-match': dayEtag }, 'DELETE', `/admin/collection-days/${day.json().id}`)).statusCode, 412);
      const days = await inject(app, asManager, 'GET', `/admin/places/${ids.placeCentre}/collection-days?pageSize=2`);
      assert.deepEqual(days.json().data.map((d: { name: string }) => d.name), ['lundi', 'mercredi']);
      assert.deepEqual(days.json().meta, { page: 1, pageSize: 2, total: 3, totalPages: 2 });

      // Its attached locations
      const location = await inject(app, asManager, 'POST', `/admin/places/${place.id}/attached-locations`, {
        name: 'Résidence Kerbernier', reference: 'R-042', latitude: 48.4, longitude: -4.5,
      });
      assert.equal(location.statusCode, 201, location.body);
      assert.deepEqual({ ...(location.json() as object), id: undefined }, {
        id: undefined, name: 'Résidence Kerbernier', reference: 'R-042', latitude: 48.4, longitude: -4.5, placeId: place.id,
      });
      const renamed = await inject(app, { ...asManager, 'if-match': String(location.headers.etag) }, 'PATCH', `/admin/attached-locations/${location.json().id}`, { name: 'Résidence Kerbernier B' });
      assert.equal(renamed.statusCode, 200);
      const shown = (await publicBrest(app)).wasteCollectionPlaces.find((p) => p.id === place.id)!;
      assert.deepEqual([shown.collectionDays.map((d) => d.name), shown.attachedLocations.map((l) => l.name)], [['jeudi'], ['Résidence Kerbernier B']]);
      assert.deepEqual((await inject(app, asManager, 'GET', `/admin/places/${place.id}/attached-locations`)).json().data, [renamed.json()]);
      assert.equal((await inject(app, { ...asManager, 'if-match': String(renamed.headers.etag) }, 'DELETE', `/admin/attached-locations/${location.json().id}`)).statusCode, 204);
      assert.deepEqual((await inject(app, asManager, 'GET', `/admin/attached-locations/${location.json().id}`)).json(), LOCATION_NOT_FOUND);

      // A waste type's details (materials)
      const detail = await inject(app, asManager, 'POST', `/admin/waste-types/${ids.wasteEmb}/details`, { material: 'Barquette', instructions: 'Vidée' });
      assert.equal(detail.statusCode, 201, detail.body);
      assert.deepEqual({ ...(detail.json() as object), id: undefined }, {
        id: undefined, material: 'Barquette', description: null, instructions: 'Vidée', imageUrl: null, wasteTypeId: ids.wasteEmb,
      });
      const details = await inject(app, asManager, 'GET', `/admin/waste-types/${ids.wasteEmb}/details`);
      assert.deepEqual(details.json().data.map((d: { material: string }) => d.material),
        ['Barquette', 'Boîte de conserve', 'Écharpe en carton', 'Pot de yaourt'], 'by material, French');
      const patched = await inject(app, { ...asManager, 'if-match': String(detail.headers.etag) }, 'PATCH', `/admin/waste-type-details/${detail.json().id}`, { material: 'Barquette en plastique' });
      assert.equal(patched.statusCode, 200);
      const emb = () => publicBrest(app).then((c) => c.wasteTypes.find((w) => w.id === ids.wasteEmb)!.details.map((d) => d.material));
      assert.ok((await emb()).includes('Barquette en plastique'));
      assert.equal((await inject(app, { ...asManager, 'if-match': String(patched.headers.etag) }, 'DELETE', `/admin/waste-type-details/${detail.json().id}`)).statusCode, 204);
      assert.ok(!(await emb()).includes('Barquette en plastique'));
      assert.deepEqual((await inject(app, asManager, 'GET', `/admin/waste-type-details/${detail.json().id}`)).json(), DETAIL_NOT_FOUND);

      // Deleting the place deletes its days; its public calendar is gone.
      const etag = String((await inject(app, asManager, 'GET', `/admin/places/${place.id}`)).headers.etag);
      const renamedPlace = await inject(app, { ...asManager, 'if-match': etag }, 'PATCH', `/admin/places/${place.id}`, { name: 'Bellevue-Kerbernier' });
      assert.equal(renamedPlace.statusCode, 200);
      assert.equal((await inject(app, { ...asManager, 'if-match': etag }, 'DELETE', `/admin/places/${place.id}`)).statusCode, 412);
      assert.equal((await inject(app, { ...asManager, 'if-match': String(renamedPlace.headers.etag) }, 'DELETE', `/admin/places/${place.id}`)).statusCode, 204);
      assert.equal((await calendar(app, place.id)).statusCode, 404);
      assert.equal((await db.selectFrom('collection_day').select('id').where('place_id', '=', place.id).execute()).length, 0);

      const audit = await db.selectFrom('audit_entry').select(['entity', 'action']).where('user_name', '=', 'Gaëlle Manager').execute();
      assert.deepEqual(audit.map((a) => `${a.entity} ${a.action}`).sort(), [
        'attachedLocation create', 'attachedLocation delete', 'attachedLocation update',
        'collectionDay create', 'collectionDay update',
        'collectionPlace create', 'collectionPlace delete', 'collectionPlace update',
        'wasteTypeDetail create', 'wasteTypeDetail delete', 'wasteTypeDetail update',
      ]);
      const [dayUpdate] = (await inject(app, asManager, 'GET', `/admin/audit?entity=collectionDay&entityId=${day.json().id}`)).json().data;
      assert.deepEqual([dayUpdate.before.name, dayUpdate.after.name], ['mardi', 'jeudi']);
    });

    it('refuses a day that breaks the bundle’s rules (400 naming the field, nothing written), and answers 404 outside the agent’s groups', async (t) => {
      const { app, db, asRoot, asManager, asOutsider, asEditor } = await setup(t, kind);
      const rows = async () => Promise.all(
        (['collection_place', 'collection_day', 'attached_location', 'waste_type_detail', 'audit_entry', 'data_version'] as const)
          .map((table) => db.selectFrom(table).selectAll().execute()),
      );
      const before = await rows();
      const [existingDay] = await db.selectFrom('collection_day').select('id').where('place_id', '=', ids.placeCentre).execute();
      const [existingLocation] = await db.selectFrom('attached_location').select('id').execute();
      const [existingDetail] = await db.selectFrom('waste_type_detail').select('id').execute();
      /** The record's ETag, read by the super admin: a refused write is refused with the very version it names. */
      const etagOf = async (url: string) => String((await inject(app, asRoot, 'GET', url)).headers.etag);

      const biweekly = await inject(app, asManager, 'POST', `/admin/places/${ids.placeCentre}/collection-days`, { name: 'mardi', wasteTypeId: ids.wasteOm, biweekly: true });
      assert.deepEqual(biweekly.json(), {
        statusCode: 400, error: 'Bad Request', code: 'validation', field: 'startDate',
        message: 'Le champ «\u00a0startDate\u00a0» est obligatoire pour une collecte une semaine sur deux (biweekly).',
      });
      const foreign = await inject(app, { ...asManager, 'if-match': await etagOf(`/admin/collection-days/${existingDay.id}`) }, 'PATCH', `/admin/collection-days/${existingDay.id}`, { wasteTypeId: UNKNOWN });
      assert.equal(foreign.statusCode, 400);
      assert.equal(foreign.json().message, `Le champ «\u00a0wasteTypeId\u00a0» ne désigne aucun type de déchet de cette ville (${UNKNOWN}).`);
      const weekday = await inject(app, asManager, 'POST', `/admin/places/${ids.placeCentre}/collection-days`, { name: 'Lundi', wasteTypeId: ids.wasteOm });
      assert.equal(weekday.statusCode, 400);
      assert.match(weekday.json().message, /^Le champ « name » doit valoir "lundi", "mardi"/);
      const latitude = await inject(app, { ...asManager, 'if-match': await etagOf(`/admin/attached-locations/${existingLocation.id}`) }, 'PATCH', `/admin/attached-locations/${existingLocation.id}`, { latitude: 91 });
      assert.equal(latitude.statusCode, 400);
      assert.match(latitude.json().message, /latitude/);

      assert.equal((await inject(app, {}, 'GET', `/admin/places/${ids.placeCentre}`)).statusCode, 401);
      assert.equal((await inject(app, asEditor, 'GET', `/admin/places/${ids.placeCentre}/collection-days`)).statusCode, 403);
      const cityNotFound = notFound('Ville introuvable', 'cityNotFound');
      const typeNotFound = notFound('Type de déchet introuvable', 'wasteTypeNotFound');
      const refused: [string, string, object | undefined, object][] = [
        ['GET', `/admin/cities/${ids.brest}/places`, undefined, cityNotFound],
        ['POST', `/admin/cities/${ids.brest}/places`, { name: 'x' }, cityNotFound],
        ['GET', `/admin/places/${ids.placeCentre}`, undefined, PLACE_NOT_FOUND],
        ['PATCH', `/admin/places/${ids.placeCentre}`, { name: 'x' }, PLACE_NOT_FOUND],
        ['DELETE', `/admin/places/${ids.placeCentre}`, undefined, PLACE_NOT_FOUND],
        ['GET', `/admin/places/${ids.placeCentre}/collection-days`, undefined, PLACE_NOT_FOUND],
        ['POST', `/admin/places/${ids.placeCentre}/collection-days`, { name: 'mardi', wasteTypeId: ids.wasteOm }, PLACE_NOT_FOUND],
        ['GET', `/admin/collection-days/${existingDay.id}`, undefined, DAY_NOT_FOUND],
        ['PATCH', `/admin/collection-days/${existingDay.id}`, { name: 'mardi' }, DAY_NOT_FOUND],
        ['DELETE', `/admin/collection-days/${existingDay.id}`, undefined, DAY_NOT_FOUND],
        ['POST', `/admin/places/${ids.placeCentre}/attached-locations`, { name: 'x', reference: '', latitude: 0, longitude: 0 }, PLACE_NOT_FOUND],
        ['PATCH', `/admin/attached-locations/${existingLocation.id}`, { name: 'x' }, LOCATION_NOT_FOUND],
        ['DELETE', `/admin/attached-locations/${existingLocation.id}`, undefined, LOCATION_NOT_FOUND],
        ['GET', `/admin/waste-types/${ids.wasteEmb}/details`, undefined, typeNotFound],
        ['POST', `/admin/waste-types/${ids.wasteEmb}/details`, { material: 'x' }, typeNotFound],
        ['GET', `/admin/waste-type-details/${existingDetail.id}`, undefined, DETAIL_NOT_FOUND],
        ['PATCH', `/admin/waste-type-details/${existingDetail.id}`, { material: 'x' }, DETAIL_NOT_FOUND],
        ['DELETE', `/admin/waste-type-details/${existingDetail.id}`, undefined, DETAIL_NOT_FOUND],
      ];
      for (const [method, url, body, expected] of refused) {
        const headers = method === 'PATCH' || method === 'DELETE' ? { ...asOutsider, 'if-match': await etagOf(url) } : asOutsider;
        assert.deepEqual((await inject(app, headers, method, url, body)).json(), expected, `${method} ${url}`);
      }
      assert.deepEqual((await inject(app, asRoot, 'GET', `/admin/places/${UNKNOWN}`)).json(), PLACE_NOT_FOUND);
      assert.deepEqual((await inject(app, asRoot, 'GET', `/admin/collection-days/${UNKNOWN}`)).json(), DAY_NOT_FOUND);
      assert.equal((await inject(app, asRoot, 'GET', `/admin/collection-days/${existingDay.id}`)).statusCode, 200);
      assert.deepEqual(await rows(), before, 'nothing written by a refused request');
    });
  });
}
