import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';
import { ids, seedCities, uuid } from '../helpers/city-fixtures.ts';
import { countingDatabase } from '../helpers/query-counter.ts';

const CITY_KEYS = [
  'id', 'name', 'country', 'population', 'status', 'outOfTheBins', 'presentationOfBins', 'returnOfBins',
  'respectOfCalendar', 'holidays', 'cityGroup', 'wasteTypes', 'wasteCollectionPlaces', 'challenges',
  'recyclingPoints', 'quizQuestions',
].sort();

for (const kind of testDatabaseKinds()) {
  describe(`cities and city groups (${kind})`, () => {
    it('lists only ACTIF cities, by French name, with every field present', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      await seedCities(database.db);
      const res = await app.inject('/public/cities');
      assert.equal(res.statusCode, 200);
      const cities = res.json();
      // French collation: É sorts with E (between Brest and Zeta), not after Z as in byte order.
      assert.deepEqual(cities.map((c: any) => c.name), ['Brest', 'Élorn', 'Zeta']);
      for (const city of cities) assert.deepEqual(Object.keys(city).sort(), CITY_KEYS);

      const elorn = cities[1];
      assert.equal(elorn.population, null);
      assert.equal(elorn.outOfTheBins, null);
      assert.deepEqual(elorn.cityGroup, { id: ids.group, name: 'Brest Métropole', type: 'Métropole' });
      for (const key of ['wasteTypes', 'wasteCollectionPlaces', 'challenges', 'recyclingPoints', 'quizQuestions']) {
        assert.deepEqual(elorn[key], [], key);
      }
      assert.equal(cities[2].cityGroup, null);
    });

    it('nests waste types, places, points and questions in the contract order', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      await seedCities(database.db);
      const brest = (await app.inject(`/public/cities/${ids.brest}`)).json();

      assert.deepEqual(brest.wasteTypes.map((w: any) => w.name), ['Emballages', 'Ordures ménagères', 'Verre']);
      const emb = brest.wasteTypes[0];
      assert.deepEqual(emb.details.map((d: any) => d.material), ['Boîte de conserve', 'Écharpe en carton', 'Pot de yaourt']);
      assert.deepEqual(Object.keys(emb.details[0]).sort(), ['description', 'id', 'imageUrl', 'instructions', 'material']);
      assert.equal(brest.wasteTypes[2].colorLight, '#C8E6C9');
      assert.equal(brest.wasteTypes[2].description, null);

      assert.deepEqual(brest.wasteCollectionPlaces.map((p: any) => p.name), ['Centre-ville', 'Secteur Nord']);
      const centre = brest.wasteCollectionPlaces[0];
      assert.deepEqual(centre.collectionDays.map((d: any) => d.name), ['lundi', 'mercredi', 'vendredi']);
      const wednesday = centre.collectionDays[1];
      assert.equal(wednesday.biweekly, true);
      assert.equal(wednesday.startDate, '2026-01-04T23:00:00.000Z');
      assert.equal(centre.collectionDays[0].biweekly, null);
      assert.deepEqual(centre.exceptions.map((e: any) => e.name), ['Noël', 'Jour de l’an']);
      assert.equal(centre.exceptions[0].dateTo, '2026-12-25T23:00:00.000Z');
      assert.equal(centre.exceptions[1].dateTo, null);
      assert.deepEqual(centre.attachedLocations, [
        { id: centre.attachedLocations[0].id, name: 'Rue de Siam', reference: 'R-001', latitude: 48.3897, longitude: -4.4875 },
      ]);
      assert.deepEqual(brest.wasteCollectionPlaces[1].attachedLocations, []);

      assert.deepEqual(brest.recyclingPoints.map((p: any) => p.name), ['Borne à verre Jaurès', 'Déchèterie du Spernot']);
      assert.equal(brest.recyclingPoints[0].openingHours, null);
      assert.equal(brest.recyclingPoints[1].openingHours, 'Lundi–samedi 9 h–18 h');
      assert.deepEqual(brest.quizQuestions.map((q: any) => q.order), [1, 2]);
      assert.equal(brest.quizQuestions[0].correctWasteTypeId, ids.wasteEmb);
    });

    it('answers the detail with the same shape as a list item', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      await seedCities(database.db);
      const list = (await app.inject('/public/cities')).json();
      const detail = (await app.inject(`/public/cities/${ids.brest}`)).json();
      assert.deepEqual(detail, list.find((c: any) => c.id === ids.brest));
    });

    it('answers 404 for an unknown or NON_ACTIF city and 400 for a malformed id', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      await seedCities(database.db);
      for (const id of [ids.inactive, '20000000-0000-4000-8000-0000000000ff']) {
        const res = await app.inject(`/public/cities/${id}`);
        assert.equal(res.statusCode, 404);
        assert.deepEqual(res.json(), { statusCode: 404, message: 'Ville introuvable', error: 'Not Found', code: 'cityNotFound', field: null });
      }
      const bad = await app.inject('/public/cities/not-a-uuid');
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().error, 'Bad Request');
      assert.match(bad.json().message, /« id »/);
    });

    it('lists city groups with their ACTIF cities and a matching count', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      await seedCities(database.db);
      const res = await app.inject('/public/city-groups');
      assert.equal(res.statusCode, 200);
      const groups = res.json();
      assert.deepEqual(groups.map((g: any) => g.name), ['Aber Communauté', 'Brest Métropole']);
      const bm = groups[1];
      assert.deepEqual(Object.keys(bm).sort(), ['_count', 'cities', 'code', 'contactAddress', 'contactEmail', 'contactHours', 'contactPhone', 'id', 'name', 'siren', 'type']);
      // No contact published: each field null (docs/api.md, conventions).
      assert.deepEqual([bm.contactPhone, bm.contactEmail, bm.contactHours, bm.contactAddress], [null, null, null, null]);
      assert.deepEqual(bm.cities, [
        { id: ids.brest, name: 'Brest', country: 'France', population: 139926 },
        { id: ids.elorn, name: 'Élorn', country: 'France', population: null },
      ]);
      assert.deepEqual(bm._count, { cities: 2 });
      assert.deepEqual(groups[0].cities, []);
      assert.deepEqual(groups[0]._count, { cities: 0 });
      assert.equal(bm.siren, '242900314');
    });

    it('builds a city with a fixed number of queries whatever its size', async (t) => {
      const base = await createTestDatabase(kind);
      const { counter, database } = countingDatabase(base);
      const { app } = await buildTestApp(t, kind, { database });
      t.after(() => base.close());
      await seedCities(base.db);

      const count = async () => {
        // The instance knows the current version and its publication schedule: no read of them falls in the count.
        await app.dataVersion.refresh();
        counter.queries = 0;
        assert.equal((await app.inject(`/public/cities/${ids.brest}`)).statusCode, 200);
        return counter.queries;
      };
      const before = await count();
      // Grow the city: ten more places, each with days and locations.
      for (let i = 0; i < 10; i++) {
        const placeId = uuid();
        await base.db.insertInto('collection_place').values({ id: placeId, city_id: ids.brest, name: `Secteur ${i}` }).execute();
        await base.db
          .insertInto('collection_day')
          .values({ id: uuid(), place_id: placeId, name: 'jeudi', waste_type_id: ids.wasteOm, description: null, biweekly: false, start_date: null })
          .execute();
        await base.db
          .insertInto('attached_location')
          .values({ id: uuid(), place_id: placeId, name: `Rue ${i}`, reference: `R${i}`, latitude: 48, longitude: -4 })
          .execute();
      }
      await app.dataChanged();
      const after = await count();
      assert.equal((await app.inject(`/public/cities/${ids.brest}`)).json().wasteCollectionPlaces.length, 12);
      assert.equal(after, before);
      assert.ok(before <= 20, `a city takes ${before} queries`);
    });
  });
}
