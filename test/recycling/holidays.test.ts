import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/types.ts';
import { buildTestApp } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { insertCalendarCity } from '../helpers/calendar-fixtures.ts';

// Open now on the city's own public holidays (docs/api.md, collections that move and service notices): Good Friday and 26 December are holidays in the
// cities that follow Alsace-Moselle's calendar, so `PH off` closes there, and only there.

const SPEC = 'Mo-Sa 09:00-18:00; PH off';

async function cityWithCentre(db: Kysely<DB>, holidayCalendar: 'FR' | 'FR-ALSACE-MOSELLE') {
  const cityId = await insertCalendarCity(db, { name: holidayCalendar === 'FR' ? 'Quimper' : 'Saverne', holidayCalendar });
  await db
    .insertInto('recycling_point')
    .values({
      id: randomUUID(),
      city_id: cityId,
      name: 'Déchèterie',
      address: null,
      latitude: null,
      longitude: null,
      opening_hours: null,
      opening_hours_spec: SPEC,
      kind: 'CENTRE',
    })
    .execute();
  return cityId;
}

for (const kind of testDatabaseKinds()) {
  describe(`recycling points open now on Alsace-Moselle's holidays (${kind})`, () => {
    it('closes `PH off` on Good Friday and 26 December in Alsace-Moselle, not elsewhere, and skips them in nextChange', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      const alsace = await cityWithCentre(database.db, 'FR-ALSACE-MOSELLE');
      const national = await cityWithCentre(database.db, 'FR');
      const stateAt = async (cityId: string, at: string) => {
        const res = await app.inject(`/public/cities/${cityId}/recycling-points?at=${encodeURIComponent(at)}`);
        assert.equal(res.statusCode, 200, res.body);
        const [point] = res.json() as { openNow: boolean | null; nextChange: string | null }[];
        return { openNow: point.openNow, nextChange: point.nextChange };
      };
      // Good Friday 2027 (26 March) at noon in Paris: Alsace-Moselle opens again on Saturday at 9:00.
      assert.deepEqual(await stateAt(alsace, '2027-03-26T11:00:00.000Z'), { openNow: false, nextChange: '2027-03-27T08:00:00.000Z' });
      assert.deepEqual(await stateAt(national, '2027-03-26T11:00:00.000Z'), { openNow: true, nextChange: '2027-03-26T17:00:00.000Z' });
      // Saturday 26 December 2026 at noon: Sunday follows, so Monday at 9:00.
      assert.deepEqual(await stateAt(alsace, '2026-12-26T11:00:00.000Z'), { openNow: false, nextChange: '2026-12-28T08:00:00.000Z' });
      assert.deepEqual(await stateAt(national, '2026-12-26T11:00:00.000Z'), { openNow: true, nextChange: '2026-12-26T17:00:00.000Z' });
      // The evening before, the next opening skips the holiday (and, at Christmas, Christmas itself and the Sunday).
      assert.deepEqual(await stateAt(alsace, '2027-03-25T18:00:00.000Z'), { openNow: false, nextChange: '2027-03-27T08:00:00.000Z' });
      assert.deepEqual(await stateAt(national, '2027-03-25T18:00:00.000Z'), { openNow: false, nextChange: '2027-03-26T08:00:00.000Z' });
      assert.deepEqual(await stateAt(alsace, '2026-12-24T18:00:00.000Z'), { openNow: false, nextChange: '2026-12-28T08:00:00.000Z' });
      assert.deepEqual(await stateAt(national, '2026-12-24T18:00:00.000Z'), { openNow: false, nextChange: '2026-12-26T08:00:00.000Z' });
    });
  });
}
