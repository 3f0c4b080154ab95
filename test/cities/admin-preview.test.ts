import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { citiesAdminApp as setup, inject } from '../helpers/admin-fixtures.ts';

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
const PLACE_NOT_FOUND = {
  statusCode: 404, message: 'Lieu de collecte introuvable dans cette ville', error: 'Not Found', code: 'collectionPlaceNotFound', field: null,
};
const RANGE = 'from=2026-12-21&to=2026-12-27';
const PREVIEW = `/admin/places/${ids.placeCentre}/preview?${RANGE}`;
const PUBLIC = `/public/cities/${ids.brest}/places/${ids.placeCentre}/collections?${RANGE}`;
const dates = (occurrences: { date: string; wasteTypeName: string }[]) => occurrences.map((o) => `${o.date} ${o.wasteTypeName}`);

for (const kind of testDatabaseKinds()) {
  describe(`/admin/places/:placeId/preview (${kind})`, () => {
    it('answers the public calendar as it is (GET) and as it would be with other days and exceptions (POST), storing nothing', async (t) => {
      const { app, db, asManager } = await setup(t, kind);
      const publicCalendar = (await app.inject(PUBLIC)).json();
      // Christmas week: Monday's household waste, Wednesday's biweekly packaging, Friday 25 December cancelled (Noël).
      assert.deepEqual(dates(publicCalendar), ['2026-12-21 Ordures ménagères', '2026-12-23 Emballages']);

      const asIs = await inject(app, asManager, 'GET', PREVIEW);
      assert.equal(asIs.statusCode, 200, asIs.body);
      assert.deepEqual(asIs.json(), publicCalendar, 'the same engine, the same answer');
      assert.match(String(asIs.headers.etag), /^"/);

      const stored = async () => Promise.all(
        (['collection_day', 'collection_exception', 'audit_entry', 'data_version'] as const).map((table) => db.selectFrom(table).selectAll().execute()),
      );
      const before = await stored();
      const withoutExceptions = await inject(app, asManager, 'POST', PREVIEW, { exceptions: [] });
      assert.equal(withoutExceptions.statusCode, 200, withoutExceptions.body);
      assert.deepEqual(withoutExceptions.json().at(-1), {
        date: '2026-12-25', wasteTypeId: ids.wasteOm, wasteTypeName: 'Ordures ménagères', color: '#424242', holiday: 'Noël',
        status: 'PLANNED', originalDate: null, note: null,
      }, 'the stored days, without the Christmas exception');

      const proposal = {
        collectionDays: [
          { name: 'mardi', wasteTypeId: ids.wasteVerre.toUpperCase() },
          { id: UNKNOWN, name: 'vendredi', wasteTypeId: ids.wasteOm, description: 'Avant 6 h', biweekly: false, startDate: null },
        ],
        exceptions: [{ dateFrom: '2026-12-21T23:00:00.000Z', wasteTypeId: ids.wasteVerre, name: 'Grève' }],
      };
      const edited = await inject(app, asManager, 'POST', PREVIEW, proposal);
      assert.equal(edited.statusCode, 200, edited.body);
      assert.deepEqual(dates(edited.json()), ['2026-12-25 Ordures ménagères'], 'Tuesday’s glass is cancelled by the proposed strike');

      assert.deepEqual(await stored(), before, 'nothing stored');
      assert.deepEqual((await app.inject(PUBLIC)).json(), publicCalendar, 'the public calendar is unchanged');
    });

    it('checks the proposal with the bundle’s rules and the range as the public calendar does; 404 outside the agent’s groups', async (t) => {
      const { app, db, asRoot, asManager, asOutsider, asEditor } = await setup(t, kind);
      const post = (body: object, url = PREVIEW) => inject(app, asManager, 'POST', url, body);
      const biweekly = await post({ collectionDays: [{ name: 'lundi', wasteTypeId: ids.wasteOm }, { name: 'mardi', wasteTypeId: ids.wasteOm, biweekly: true }] });
      assert.deepEqual(biweekly.json(), {
        statusCode: 400, error: 'Bad Request', code: 'validation', field: 'collectionDays[1].startDate',
        message: 'Le champ «\u00a0collectionDays[1].startDate\u00a0» est obligatoire pour une collecte une semaine sur deux (biweekly).',
      });
      const foreign = await post({ exceptions: [{ dateFrom: '2026-12-21T23:00:00.000Z', wasteTypeId: UNKNOWN }] });
      assert.equal(foreign.json().message, `Le champ «\u00a0exceptions[0].wasteTypeId\u00a0» ne désigne aucun type de déchet de cette ville (${UNKNOWN}).`);
      const backwards = await post({ exceptions: [{ dateFrom: '2026-12-21T23:00:00.000Z', dateTo: '2026-12-01T23:00:00.000Z', wasteTypeId: ids.wasteOm }] });
      assert.match(backwards.json().message, /«\u00a0exceptions\[0\]\.dateTo\u00a0» doit être une date égale ou postérieure à dateFrom/);
      const weekday = await post({ collectionDays: [{ name: 'funday', wasteTypeId: ids.wasteOm }] });
      assert.equal(weekday.statusCode, 400);
      assert.equal(weekday.json().message,
        'Le champ « collectionDays[0].name » doit valoir "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche".');
      const notAList = await post({ exceptions: 'none' });
      assert.equal(notAList.statusCode, 400);
      assert.match(notAList.json().message, /exceptions/);

      for (const query of ['from=2026-12-21&to=2026-12-20', 'from=2026-01-01&to=2027-01-02', 'from=2026-02-30', 'to=demain']) {
        for (const method of ['GET', 'POST']) {
          const answer = await inject(app, asManager, method, `/admin/places/${ids.placeCentre}/preview?${query}`, method === 'POST' ? {} : undefined);
          assert.equal(answer.statusCode, 400, `${method} ${query}`);
          assert.deepEqual(answer.json(), (await app.inject(`/public/cities/${ids.brest}/places/${ids.placeCentre}/collections?${query}`)).json());
        }
      }
      const defaultRange = await inject(app, asManager, 'GET', `/admin/places/${ids.placeCentre}/preview`);
      assert.deepEqual(defaultRange.json(), (await app.inject(`/public/cities/${ids.brest}/places/${ids.placeCentre}/collections`)).json());

      assert.equal((await inject(app, {}, 'GET', PREVIEW)).statusCode, 401);
      assert.equal((await inject(app, asEditor, 'POST', PREVIEW, {})).statusCode, 403);
      assert.deepEqual((await inject(app, asOutsider, 'GET', PREVIEW)).json(), PLACE_NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsider, 'POST', PREVIEW, {})).json(), PLACE_NOT_FOUND);
      assert.deepEqual((await inject(app, asRoot, 'GET', `/admin/places/${UNKNOWN}/preview`)).json(), PLACE_NOT_FOUND);
      assert.equal((await inject(app, asRoot, 'GET', PREVIEW)).statusCode, 200);

      // A place of a NON_ACTIF city, which citizens do not see yet, is previewed all the same.
      const hidden = '40000000-0000-4000-8000-0000000000aa';
      await db.insertInto('collection_place').values({ id: hidden, city_id: ids.inactive, name: 'Bourg' }).execute();
      assert.equal((await app.inject(`/public/cities/${ids.inactive}/places/${hidden}/collections`)).statusCode, 404);
      const inactive = await inject(app, asManager, 'GET', `/admin/places/${hidden}/preview`);
      assert.deepEqual([inactive.statusCode, inactive.json()], [200, []]);
    });
  });
}
