import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import ICAL from 'ical.js';
import { parse } from 'csv-parse/sync';
import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/types.ts';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import {
  insertCalendarCity,
  insertCityGroup,
  insertCollectionDays,
  insertExceptions,
  insertPlace,
  insertWasteType,
  setHolidayRules,
} from '../helpers/calendar-fixtures.ts';

// Collections that move, as every public channel shows them: the calendar, the feed (read by ical.js, the parser of
// Mozilla's calendar clients) and the open-data CSV.

async function movingCity(db: Kysely<DB>) {
  const groupId = await insertCityGroup(db);
  const cityId = await insertCalendarCity(db, { cityGroupId: groupId, name: 'Plougastel' });
  const ordures = await insertWasteType(db, cityId, 'Ordures ménagères', '#6b7280');
  const emballages = await insertWasteType(db, cityId, 'Emballages', '#facc15');
  const verre = await insertWasteType(db, cityId, 'Verre', '#16a34a');
  const placeId = await insertPlace(db, cityId, 'Le Bourg');
  await insertCollectionDays(db, placeId, [
    { name: 'vendredi', wasteTypeId: ordures },
    { name: 'lundi', wasteTypeId: emballages },
    { name: 'vendredi', wasteTypeId: verre },
  ]);
  return { groupId, cityId, placeId, ordures, emballages, verre };
}

type Item = { date: string; wasteTypeName: string; status: string; originalDate: string | null; note: string | null; holiday: string | null };

function vevents(body: string) {
  const calendar = new ICAL.Component(ICAL.parse(body));
  return calendar.getAllSubcomponents('vevent').map((component) => {
    const event = new ICAL.Event(component);
    return {
      uid: event.uid,
      start: event.startDate.toString(),
      summary: event.summary,
      sequence: event.sequence,
      status: String(component.getFirstPropertyValue('status')),
    };
  });
}

for (const kind of testDatabaseKinds()) {
  describe(`collections that move, in the public channels (${kind})`, () => {
    it('shows moved, added and (on request) cancelled collections with their status, planned day and note', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { clock: fixedClock('2026-12-01T09:00:00.000Z') });
      const s = await movingCity(database.db);
      await setHolidayRules(database.db, s.groupId, [
        { holiday: 'noel', wasteTypeId: null, action: 'NEXT_DAY' },
        { holiday: 'jour-de-l-an', wasteTypeId: s.verre, action: 'CANCEL' },
      ]);
      await insertExceptions(database.db, s.placeId, [
        { kind: 'MOVE', wasteTypeId: s.emballages, dateFrom: '2026-12-27T23:00:00.000Z', movedTo: '2026-12-28T23:00:00.000Z', name: 'Travaux rue de Brest' },
        { kind: 'ADD', wasteTypeId: s.verre, dateFrom: '2026-12-29T23:00:00.000Z', name: 'Collecte supplémentaire des fêtes' },
      ]);
      const url = `/public/cities/${s.cityId}/places/${s.placeId}/collections?from=2026-12-25&to=2027-01-01`;
      const res = await app.inject(url);
      assert.equal(res.statusCode, 200);
      const brief = (items: Item[]) => items.map((o) => [o.date, o.wasteTypeName, o.status, o.originalDate, o.note]);
      assert.deepEqual(brief(res.json()), [
        ['2026-12-26', 'Ordures ménagères', 'MOVED', '2026-12-25', 'Reportée du vendredi 25 décembre (Noël)'],
        ['2026-12-26', 'Verre', 'MOVED', '2026-12-25', 'Reportée du vendredi 25 décembre (Noël)'],
        ['2026-12-29', 'Emballages', 'MOVED', '2026-12-28', 'Travaux rue de Brest'],
        ['2026-12-30', 'Verre', 'ADDED', null, 'Collecte supplémentaire des fêtes'],
        ['2027-01-01', 'Ordures ménagères', 'PLANNED', null, null],
      ]);
      const withCancelled = await app.inject(`${url}&include=cancelled`);
      assert.deepEqual(brief(withCancelled.json()).at(-1), ['2027-01-01', 'Verre', 'CANCELLED', null, 'Pas de collecte le vendredi 1er janvier (Jour de l\'an)']);
      assert.equal((withCancelled.json() as Item[]).length, 6);

      const bad = await app.inject(`${url}&include=everything`);
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().field, 'include');
    });

    it('keeps a moved collection\'s UID in the feed, with its new day and a higher SEQUENCE at each change', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { clock: fixedClock('2026-12-01T09:00:00.000Z') });
      const s = await movingCity(database.db);
      const feed = `/public/cities/${s.cityId}/places/${s.placeId}/calendar.ics`;
      const christmas = async () => {
        const res = await app.inject(`${feed}?wasteTypeId=${s.ordures}`);
        assert.equal(res.statusCode, 200);
        const found = vevents(res.body).filter((e) => e.uid.includes('-20261225@'));
        assert.equal(found.length, 1, 'one event for the collection planned on 25 December');
        return found[0];
      };
      const change = async (work: () => Promise<void>) => {
        await work();
        // What every write of the admin API or the import does: the data version moves, cached answers go.
        await app.dataChanged();
      };

      const planned = await christmas();
      assert.deepEqual([planned.start, planned.sequence, planned.summary], ['2026-12-25', 0, 'Collecte : Ordures ménagères']);

      await change(() => setHolidayRules(database.db, s.groupId, [{ holiday: 'noel', wasteTypeId: null, action: 'NEXT_DAY' }]));
      const moved = await christmas();
      assert.equal(moved.uid, planned.uid);
      assert.equal(moved.start, '2026-12-26');
      assert.equal(moved.summary, 'Collecte : Ordures ménagères (reportée du 25 décembre)');
      assert.ok(moved.sequence > planned.sequence);
      // Fetched again with nothing changed: the same SEQUENCE.
      assert.equal((await christmas()).sequence, moved.sequence);

      await change(() =>
        insertExceptions(database.db, s.placeId, [
          { kind: 'MOVE', wasteTypeId: s.ordures, dateFrom: '2026-12-24T23:00:00.000Z', movedTo: '2026-12-23T23:00:00.000Z', name: 'Avancée' },
        ]),
      );
      const earlier = await christmas();
      assert.equal(earlier.uid, planned.uid);
      assert.equal(earlier.start, '2026-12-24');
      assert.equal(earlier.summary, 'Collecte : Ordures ménagères (avancée du 25 décembre)');
      assert.ok(earlier.sequence > moved.sequence);

      await change(async () => {
        await database.db.deleteFrom('collection_exception').where('place_id', '=', s.placeId).execute();
        await setHolidayRules(database.db, s.groupId, [{ holiday: 'noel', wasteTypeId: null, action: 'CANCEL' }]);
      });
      const cancelled = await christmas();
      assert.deepEqual([cancelled.uid, cancelled.start, cancelled.status], [planned.uid, '2026-12-25', 'CANCELLED']);
      assert.ok(cancelled.sequence > earlier.sequence);

      await change(() => setHolidayRules(database.db, s.groupId, []));
      const back = await christmas();
      assert.deepEqual([back.start, back.status], ['2026-12-25', 'CONFIRMED']);
      assert.ok(back.sequence > cancelled.sequence, 'back on its day, still newer than the cancellation');
    });

    it('leaves out cancelled events with cancelled=false, keeps only the waste types asked, and names the calendar', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { clock: fixedClock('2026-12-01T09:00:00.000Z') });
      const s = await movingCity(database.db);
      await setHolidayRules(database.db, s.groupId, [{ holiday: '*', wasteTypeId: null, action: 'CANCEL' }]);
      const feed = `/public/cities/${s.cityId}/places/${s.placeId}/calendar.ics`;
      const all = vevents((await app.inject(feed)).body);
      assert.ok(all.some((e) => e.status === 'CANCELLED'));
      const confirmedOnly = vevents((await app.inject(`${feed}?cancelled=false`)).body);
      assert.deepEqual(confirmedOnly, all.filter((e) => e.status !== 'CANCELLED'));
      const twoBins = vevents((await app.inject(`${feed}?wasteTypeId=${s.verre}&wasteTypeId=${s.emballages}`)).body);
      assert.deepEqual(new Set(twoBins.map((e) => e.summary.replace(/^Collecte( annulée)? : /, ''))), new Set(['Verre', 'Emballages']));

      const body = (await app.inject(feed)).body;
      const calendar = new ICAL.Component(ICAL.parse(body));
      assert.equal(calendar.getFirstPropertyValue('x-wr-calname'), 'Collectes – Le Bourg (Plougastel)');
      assert.equal(calendar.getFirstPropertyValue('name'), 'Collectes – Le Bourg (Plougastel)');

      const unknown = await app.inject(`${feed}?wasteTypeId=00000000-0000-4000-8000-000000000000`);
      assert.equal(unknown.statusCode, 400);
      assert.deepEqual([unknown.json().code, unknown.json().field], ['validation', 'wasteTypeId']);
      const malformed = await app.inject(`${feed}?cancelled=peut-etre`);
      assert.equal(malformed.statusCode, 400);
      assert.equal(malformed.json().field, 'cancelled');
    });

    it('writes moved and added collections in the open-data CSV with their planned day', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { clock: fixedClock('2026-12-01T09:00:00.000Z') });
      const s = await movingCity(database.db);
      await setHolidayRules(database.db, s.groupId, [
        { holiday: 'noel', wasteTypeId: s.ordures, action: 'NEXT_DAY' },
        { holiday: 'noel', wasteTypeId: s.verre, action: 'CANCEL' },
      ]);
      await insertExceptions(database.db, s.placeId, [{ kind: 'ADD', wasteTypeId: s.verre, dateFrom: '2026-12-29T23:00:00.000Z', description: 'Verre des fêtes' }]);
      const res = await app.inject(`/public/cities/${s.cityId}/collections.csv?from=2026-12-25&to=2026-12-31`);
      const rows = (parse(res.body, { columns: true }) as Record<string, string>[]).map((r) => [r.flux, r.date, r.date_initiale, r.statut, r.motif]);
      assert.deepEqual(rows, [
        ['Verre', '2026-12-25', '', 'ANNULEE', 'Pas de collecte le vendredi 25 décembre (Noël)'],
        ['Ordures ménagères', '2026-12-26', '2026-12-25', 'REPORTEE', 'Reportée du vendredi 25 décembre (Noël)'],
        ['Emballages', '2026-12-28', '', 'PREVUE', ''],
        ['Verre', '2026-12-30', '', 'AJOUTEE', 'Verre des fêtes'],
      ]);
    });
  });
}
