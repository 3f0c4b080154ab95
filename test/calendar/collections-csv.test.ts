import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { insertCalendarCity, insertCalendarScenario, insertExceptions } from '../helpers/calendar-fixtures.ts';

const url = (cityId: string, query = '') => `/public/cities/${cityId}/collections.csv${query}`;

for (const kind of testDatabaseKinds()) {
  describe(`GET /public/cities/:cityId/collections.csv (${kind})`, () => {
    it('lists every planned and cancelled collection of every place, by date, place and waste type', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { clock: fixedClock('2026-06-01T10:00:00.000Z') });
      const s = await insertCalendarScenario(database.db);
      // An exception with a description only: its description is the motif.
      await insertExceptions(database.db, s.otherPlaceId, [
        { wasteTypeId: s.wasteTypes.ordures, dateFrom: '2026-12-27T23:00:00.000Z', description: 'Collecte reportée au mardi, "tournée B".' },
      ]);
      const res = await app.inject(url(s.cityId, '?from=2026-12-23&to=2026-12-28'));
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
      assert.match(String(res.headers['content-disposition']), /^attachment; filename="collectes-[\w-]+\.csv"$/);
      assert.ok(res.body.startsWith('secteur_id,secteur_nom,flux,date,date_initiale,statut,motif\r\n'));
      const records = parse(res.body) as string[][];
      assert.deepEqual(records.slice(1), [
        [s.placeId, 'Centre-ville', 'Emballages', '2026-12-23', '', 'PREVUE', ''],
        [s.placeId, 'Centre-ville', 'Ordures ménagères', '2026-12-25', '', 'PREVUE', ''],
        [s.placeId, 'Centre-ville', 'Verre', '2026-12-25', '', 'ANNULEE', 'Noël'],
        [s.otherPlaceId, 'Hameau', 'Ordures ménagères', '2026-12-28', '', 'ANNULEE', 'Collecte reportée au mardi, "tournée B".'],
      ]);
    });

    it('takes from and to as the collections route does: default today + 30, 400 naming the parameter, 404', async (t) => {
      // 23:30 UTC on 20 December is Monday 21 December in Paris.
      const { app, database } = await buildTestApp(t, kind, { clock: fixedClock('2026-12-20T23:30:00.000Z') });
      const s = await insertCalendarScenario(database.db);
      const records = parse((await app.inject(url(s.cityId))).body, { columns: true }) as { date: string }[];
      assert.equal(records[0].date, '2026-12-21');
      assert.ok(records.every((r) => r.date >= '2026-12-21' && r.date <= '2027-01-20'));
      assert.equal(records.at(-1)!.date, '2027-01-20');
      for (const [query, name] of [
        ['?from=2026-02-30', 'from'],
        ['?from=2027-01-10&to=2027-01-01', 'to'],
        ['?from=2026-01-01&to=2027-01-02', 'to'],
        ['?to=demain', 'to'],
      ]) {
        const res = await app.inject(url(s.cityId, query));
        assert.equal(res.statusCode, 400, query);
        assert.match(res.json().message, new RegExp(`«\\s${name}\\s»`), query);
      }
      const inactive = await insertCalendarCity(database.db, { status: 'NON_ACTIF' });
      for (const cityId of [inactive, 'ffffffff-0000-4000-8000-000000000000']) {
        const res = await app.inject(url(cityId));
        assert.equal(res.statusCode, 404);
        assert.equal(res.json().message, 'Ville introuvable');
      }
      assert.equal((await app.inject(url('pas-un-uuid'))).statusCode, 400);
    });
  });
}
