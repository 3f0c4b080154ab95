// The admin preview of a place with `include=cancelled` (docs/api.md, the admin API), as the public calendar takes
// it: the collections removed listed on their own day with status CANCELLED, also for proposed exceptions.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { citiesAdminApp as setup, inject } from '../helpers/admin-fixtures.ts';

const RANGE = 'from=2026-12-21&to=2026-12-27';
const PREVIEW = `/admin/places/${ids.placeCentre}/preview?${RANGE}&include=cancelled`;
const brief = (list: { date: string; wasteTypeName: string; status: string; originalDate: string | null }[]) =>
  list.map((o) => `${o.date} ${o.wasteTypeName} ${o.status}${o.originalDate ? ` ${o.originalDate}` : ''}`);

for (const kind of testDatabaseKinds()) {
  describe(`/admin/places/:placeId/preview?include=cancelled (${kind})`, () => {
    it('lists the cancelled collections as the public calendar does, stored and proposed', async (t) => {
      const { app, asManager } = await setup(t, kind);
      const asIs = await inject(app, asManager, 'GET', PREVIEW);
      assert.equal(asIs.statusCode, 200, asIs.body);
      assert.deepEqual(asIs.json(), (await app.inject(`/public/cities/${ids.brest}/places/${ids.placeCentre}/collections?${RANGE}&include=cancelled`)).json());
      assert.deepEqual(brief(asIs.json()), ['2026-12-21 Ordures ménagères PLANNED', '2026-12-23 Emballages PLANNED', '2026-12-25 Ordures ménagères CANCELLED']);

      // Christmas moved to Saturday instead of cancelled, and glass added on Sunday.
      const moved = await inject(app, asManager, 'POST', PREVIEW, {
        exceptions: [
          { kind: 'MOVE', dateFrom: '2026-12-24T23:00:00.000Z', movedTo: '2026-12-25T23:00:00.000Z', wasteTypeId: ids.wasteOm, name: 'Noël' },
          { kind: 'ADD', dateFrom: '2026-12-26T23:00:00.000Z', wasteTypeId: ids.wasteVerre },
        ],
      });
      assert.equal(moved.statusCode, 200, moved.body);
      assert.deepEqual(brief(moved.json()), [
        '2026-12-21 Ordures ménagères PLANNED',
        '2026-12-23 Emballages PLANNED',
        '2026-12-26 Ordures ménagères MOVED 2026-12-25',
        '2026-12-27 Verre ADDED',
      ]);
      const withoutInclude = await inject(app, asManager, 'GET', `/admin/places/${ids.placeCentre}/preview?${RANGE}`);
      assert.ok(!withoutInclude.json().some((o: { status: string }) => o.status === 'CANCELLED'), 'without it, as before');
      const wrong = await inject(app, asManager, 'GET', `${PREVIEW.replace('cancelled', 'everything')}`);
      assert.deepEqual([wrong.statusCode, wrong.json().field], [400, 'include']);
    });
  });
}
