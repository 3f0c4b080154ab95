import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import {
  insertCalendarCity,
  insertCalendarScenario,
  insertCollectionDays,
  insertPlace,
  insertWasteType,
} from '../helpers/calendar-fixtures.ts';

const url = (cityId: string, placeId: string, query = '') => `/public/cities/${cityId}/places/${placeId}/collections${query}`;

for (const kind of testDatabaseKinds()) {
  describe(`GET /public/cities/:cityId/places/:placeId/collections (${kind})`, () => {
    it('defaults to today through today + 30 in the city\'s zone, with holidays and exceptions applied', async (t) => {
      // 23:30 UTC on 20 December is already Monday 21 December, 00:30, in Paris.
      const { app, database } = await buildTestApp(t, kind, { clock: fixedClock('2026-12-20T23:30:00.000Z') });
      const s = await insertCalendarScenario(database.db);
      const res = await app.inject(url(s.cityId, s.placeId));
      assert.equal(res.statusCode, 200);
      const body = res.json() as { date: string; wasteTypeId: string; wasteTypeName: string; holiday: string | null }[];
      const of = (id: string) => body.filter((o) => o.wasteTypeId === id).map((o) => o.date);
      assert.deepEqual(of(s.wasteTypes.ordures), ['2026-12-25', '2027-01-01', '2027-01-08', '2027-01-15']);
      // Glass on Christmas day is removed by its exception.
      assert.deepEqual(of(s.wasteTypes.verre), ['2027-01-01', '2027-01-08', '2027-01-15']);
      // Every second Wednesday from 7 January 2026.
      assert.deepEqual(of(s.wasteTypes.recyclables), ['2026-12-23', '2027-01-06', '2027-01-20']);
      assert.deepEqual(body[0], { ...body[0], date: '2026-12-23', holiday: null });
      assert.deepEqual(body[1], { ...body[1], date: '2026-12-25', wasteTypeName: 'Ordures ménagères', holiday: 'Noël' });
      // Sorted by date, then waste type name.
      assert.deepEqual(
        body.filter((o) => o.date === '2027-01-01').map((o) => [o.wasteTypeName, o.holiday]),
        [['Ordures ménagères', 'Jour de l\'an'], ['Verre', 'Jour de l\'an']],
      );
    });

    it('answers an explicit range with the contract\'s fields, and `from` alone with 31 days', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { clock: fixedClock('2026-06-01T10:00:00.000Z') });
      const s = await insertCalendarScenario(database.db);
      const christmas = await app.inject(url(s.cityId, s.placeId, '?from=2026-12-25&to=2026-12-25'));
      assert.equal(christmas.statusCode, 200);
      assert.deepEqual(christmas.json(), [
        {
          date: '2026-12-25',
          wasteTypeId: s.wasteTypes.ordures,
          wasteTypeName: 'Ordures ménagères',
          color: '#6b7280',
          holiday: 'Noël',
          status: 'PLANNED',
          originalDate: null,
          note: null,
        },
      ]);
      const fromOnly = (await app.inject(url(s.cityId, s.placeId, '?from=2027-03-01'))).json() as { date: string }[];
      assert.equal(fromOnly[0].date, '2027-03-03');
      assert.equal(fromOnly.at(-1)!.date, '2027-03-31');
      assert.ok(fromOnly.every((o) => o.date >= '2027-03-01' && o.date <= '2027-03-31'));
      // A whole leap-year-sized range (366 days) is accepted.
      const year = await app.inject(url(s.cityId, s.placeId, '?from=2026-01-01&to=2027-01-01'));
      assert.equal(year.statusCode, 200);
      // The 52 Fridays of 2026, and Friday 1 January 2027.
      assert.equal((year.json() as { wasteTypeId: string }[]).filter((o) => o.wasteTypeId === s.wasteTypes.ordures).length, 53);
    });

    it('answers 400, naming the parameter, for malformed dates and ranges', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { clock: fixedClock('2026-06-01T10:00:00.000Z') });
      const s = await insertCalendarScenario(database.db);
      const cases: [string, RegExp][] = [
        ['?from=2026-02-29', /« from »/], // 2026 is not a leap year
        ['?from=2026-13-01', /« from »/],
        ['?to=20261225', /« to »/],
        ['?from=2026-1-5', /« from »/],
        ['?from=2026-01-05T00:00:00Z', /« from »/],
        ['?from=', /« from »/],
        ['?from=2026-05-01&to=2026-04-30', /« to ».*« from »/],
        ['?from=2026-01-01&to=2027-01-02', /« to ».*366 jours/],
        ['?to=2026-05-31', /« to »/], // before today, the default `from`
      ];
      for (const [query, message] of cases) {
        const res = await app.inject(url(s.cityId, s.placeId, query));
        assert.equal(res.statusCode, 400, query);
        assert.equal(res.json().error, 'Bad Request');
        assert.match(res.json().message, message, query);
      }
      const badCity = await app.inject(url('not-a-uuid', s.placeId));
      assert.equal(badCity.statusCode, 400);
      assert.match(badCity.json().message, /« cityId »/);
      const badPlace = await app.inject(url(s.cityId, '1234'));
      assert.equal(badPlace.statusCode, 400);
      assert.match(badPlace.json().message, /« placeId »/);
    });

    it('answers 404 for an unknown or NON_ACTIF city, and for a place that is not the city\'s', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      const s = await insertCalendarScenario(database.db);
      const inactive = await insertCalendarCity(database.db, { status: 'NON_ACTIF' });
      const inactivePlace = await insertPlace(database.db, inactive);
      const cases: [string, string, string, string][] = [
        [randomUUID(), s.placeId, 'Ville introuvable', 'cityNotFound'],
        [inactive, inactivePlace, 'Ville introuvable', 'cityNotFound'],
        [s.cityId, s.otherCityPlaceId, 'Lieu de collecte introuvable dans cette ville', 'collectionPlaceNotFound'],
        [s.cityId, randomUUID(), 'Lieu de collecte introuvable dans cette ville', 'collectionPlaceNotFound'],
      ];
      for (const [cityId, placeId, message, code] of cases) {
        const res = await app.inject(url(cityId, placeId));
        assert.equal(res.statusCode, 404);
        assert.deepEqual(res.json(), { statusCode: 404, message, error: 'Not Found', code, field: null });
      }
      // The second place of the same city is served, with its own days only.
      const other = (await app.inject(url(s.cityId, s.otherPlaceId))).json() as { wasteTypeId: string }[];
      assert.ok(other.length > 0);
      assert.ok(other.every((o) => o.wasteTypeId === s.wasteTypes.ordures));
    });

    it('uses the city\'s time zone for today and for start dates', async (t) => {
      // 13:30 UTC on Sunday 1 March 2026 is Monday 2 March, 00:30, in Nouméa (UTC+11).
      const { app, database } = await buildTestApp(t, kind, { clock: fixedClock('2026-03-01T13:30:00.000Z') });
      const noumea = await insertCalendarCity(database.db, { timeZone: 'Pacific/Noumea' });
      const paris = await insertCalendarCity(database.db, { timeZone: 'Europe/Paris' });
      for (const cityId of [noumea, paris]) {
        const wasteType = await insertWasteType(database.db, cityId, 'Ordures ménagères');
        const placeId = await insertPlace(database.db, cityId);
        await insertCollectionDays(database.db, placeId, [
          { name: 'dimanche', wasteTypeId: wasteType },
          // Midnight of Monday 2 March in Nouméa; still Sunday 1 March in Paris.
          { name: 'lundi', wasteTypeId: wasteType, biweekly: true, startDate: '2026-03-01T13:00:00.000Z' },
        ]);
        const body = (await app.inject(url(cityId, placeId, ''))).json() as { date: string }[];
        const first = body.slice(0, 3).map((o) => o.date);
        if (cityId === noumea) assert.deepEqual(first, ['2026-03-02', '2026-03-08', '2026-03-15']);
        else assert.deepEqual(first, ['2026-03-01', '2026-03-08', '2026-03-09']);
      }
    });

    it('documents both routes in the OpenAPI document under the calendar tag', async (t) => {
      const { app } = await buildTestApp(t, kind);
      const doc = (await app.inject('/openapi.json')).json();
      for (const path of ['/public/cities/{cityId}/places/{placeId}/collections', '/public/cities/{cityId}/places/{placeId}/calendar.ics']) {
        const operation = doc.paths[path]?.get;
        assert.ok(operation, path);
        assert.deepEqual(operation.tags, ['calendar']);
        assert.match(operation.description, /Extension of the seed/);
        assert.ok(operation.responses['400'] && operation.responses['404'], path);
      }
      const tag = doc.tags.find((x: { name: string }) => x.name === 'calendar');
      assert.match(tag?.description ?? '', /Extensions of the seed/);
      const ics = doc.paths['/public/cities/{cityId}/places/{placeId}/calendar.ics'].get;
      assert.ok(ics.responses['200'].content['text/calendar']);
      assert.ok(doc.paths['/public/cities/{cityId}/places/{placeId}/collections'].get.parameters.some((p: { name: string }) => p.name === 'from'));
    });
  });
}
