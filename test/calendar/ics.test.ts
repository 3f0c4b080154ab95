import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import ical, { type VEvent } from 'node-ical';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { insertCalendarScenario, insertCollectionDays, insertExceptions, insertWasteType } from '../helpers/calendar-fixtures.ts';

const icsUrl = (cityId: string, placeId: string) => `/public/cities/${cityId}/places/${placeId}/calendar.ics`;
const LONG_NAME = 'Déchets verts, branchages et tontes de pelouse — collecte saisonnière en porte-à-porte';

/** node-ical gives an all-day DTSTART as local midnight: read it back with local getters. */
function dateOf(event: VEvent): string {
  const d = event.start;
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function events(body: string): VEvent[] {
  return Object.values(ical.sync.parseICS(body)).filter((c): c is VEvent => c?.type === 'VEVENT');
}

for (const kind of testDatabaseKinds()) {
  describe(`GET /public/cities/:cityId/places/:placeId/calendar.ics (${kind})`, () => {
    it('parses into the same collections as the JSON endpoint over today through today + 365', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { clock: fixedClock('2026-11-30T23:30:00.000Z') });
      const s = await insertCalendarScenario(database.db);
      const greens = await insertWasteType(database.db, s.cityId, LONG_NAME);
      await insertCollectionDays(database.db, s.placeId, [{ name: 'samedi', wasteTypeId: greens }]);

      const res = await app.inject(icsUrl(s.cityId, s.placeId));
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'text/calendar; charset=utf-8');
      assert.match(res.headers['content-disposition'] as string, /filename="[^"]+\.ics"/);
      assert.match(res.body, /^BEGIN:VCALENDAR\r\nVERSION:2\.0\r\n/);
      assert.match(res.body, /\r\nPRODID:[^\r\n]+\r\n/);

      // Today is Tuesday 1 December 2026 in Paris; the feed runs through 1 December 2027.
      const json = await app.inject(`/public/cities/${s.cityId}/places/${s.placeId}/collections?from=2026-12-01&to=2027-12-01`);
      const expected = (json.json() as { date: string; wasteTypeName: string }[]).map((o) => `${o.date} Collecte : ${o.wasteTypeName}`);
      const parsed = events(res.body);
      const confirmed = parsed.filter((e) => e.status === 'CONFIRMED');
      assert.deepEqual(confirmed.map((e) => `${dateOf(e)} ${e.summary}`).sort(), [...expected].sort());
      assert.ok(expected.length > 150, `only ${expected.length} collections`);
      assert.ok(confirmed.every((e) => e.datetype === 'date'));
      // RFC 5545 all-day form, as the calendar apps expect it.
      assert.equal(res.body.match(/\r\nDTSTART;VALUE=DATE:\d{8}\r\n/g)?.length, parsed.length);
      // The long, accented name survives folding.
      assert.ok(confirmed.some((e) => e.summary === `Collecte : ${LONG_NAME}`));
      const christmas = confirmed.find((e) => dateOf(e) === '2026-12-25');
      assert.equal(christmas?.description, 'Jour férié : Noël.');
    });

    it('marks the collections an exception removes as cancelled, with its text', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { clock: fixedClock('2026-12-01T09:00:00.000Z') });
      const s = await insertCalendarScenario(database.db);
      const res = await app.inject(icsUrl(s.cityId, s.placeId));
      const cancelled = events(res.body).filter((e) => e.status === 'CANCELLED');
      assert.equal(cancelled.length, 1);
      assert.equal(dateOf(cancelled[0]), '2026-12-25');
      assert.equal(cancelled[0].summary, 'Collecte annulée : Verre');
      assert.equal(cancelled[0].description, 'Noël – Collecte du verre reportée au samedi 26 décembre.');
      assert.equal(cancelled[0].uid, `${s.placeId}-${s.wasteTypes.verre}-20261225@collecte`);
    });

    it('keeps UIDs and the body stable across fetches, unique across places, and answers 304 to its ETag', async (t) => {
      const clock = fixedClock('2026-12-01T07:00:00.000Z');
      const { app, database } = await buildTestApp(t, kind, { clock });
      const s = await insertCalendarScenario(database.db);
      const first = await app.inject(icsUrl(s.cityId, s.placeId));
      clock.set('2026-12-01T18:00:00.000Z'); // later the same day: nothing changed
      const second = await app.inject(icsUrl(s.cityId, s.placeId));
      assert.equal(second.body, first.body);
      const etag = first.headers.etag as string;
      assert.match(etag, /^"[^"]+"$/); // strong
      assert.equal(second.headers.etag, etag);
      const uids = events(first.body).map((e) => e.uid);
      assert.equal(new Set(uids).size, uids.length);
      assert.deepEqual(events(second.body).map((e) => e.uid), uids);
      assert.ok(uids.includes(`${s.placeId}-${s.wasteTypes.ordures}-20261204@collecte`));

      const other = await app.inject(icsUrl(s.cityId, s.otherPlaceId));
      const otherUids = new Set(events(other.body).map((e) => e.uid));
      assert.ok(otherUids.size > 0);
      assert.ok(uids.every((uid) => !otherUids.has(uid)));

      const notModified = await app.inject({ url: icsUrl(s.cityId, s.placeId), headers: { 'if-none-match': etag } });
      assert.equal(notModified.statusCode, 304);
      assert.equal(notModified.body, '');
      assert.equal(notModified.headers.etag, etag);
      const listed = await app.inject({ url: icsUrl(s.cityId, s.placeId), headers: { 'if-none-match': `"other", ${etag}` } });
      assert.equal(listed.statusCode, 304);
      const stale = await app.inject({ url: icsUrl(s.cityId, s.placeId), headers: { 'if-none-match': '"stale"' } });
      assert.equal(stale.statusCode, 200);
      assert.equal(stale.body, first.body);
    });

    it('stamps events with the time the data changed, not the time of the request', async (t) => {
      const clock = fixedClock('2026-12-01T07:00:00.000Z');
      const { app, database } = await buildTestApp(t, kind, { clock });
      const s = await insertCalendarScenario(database.db);
      const changedAt = new Date('2026-10-15T08:30:00.000Z');
      await database.db.updateTable('data_version').set({ changed_at: changedAt }).where('id', '=', 1).execute();
      const before = await app.inject(icsUrl(s.cityId, s.placeId));
      const stamps = new Set(events(before.body).map((e) => e.dtstamp.toISOString()));
      assert.deepEqual([...stamps], [changedAt.toISOString()]);

      // The data changes: a new exception, and the version bumped as every write to public data does.
      await insertExceptions(database.db, s.placeId, [
        { wasteTypeId: s.wasteTypes.ordures, dateFrom: '2026-12-03T23:00:00.000Z', name: 'Grève', description: null },
      ]);
      const bumped = new Date('2026-11-30T12:00:00.000Z');
      clock.set(bumped.toISOString());
      await app.dataChanged();
      clock.set('2026-12-01T07:00:00.000Z');
      const after = await app.inject({ url: icsUrl(s.cityId, s.placeId), headers: { 'if-none-match': before.headers.etag as string } });
      assert.equal(after.statusCode, 200);
      assert.notEqual(after.headers.etag, before.headers.etag);
      const strike = events(after.body).find((e) => e.uid === `${s.placeId}-${s.wasteTypes.ordures}-20261204@collecte`);
      assert.equal(strike?.status, 'CANCELLED');
      assert.equal(strike?.dtstamp.toISOString(), bumped.toISOString());
    });

    it('writes CRLF line endings and folds lines at 75 octets', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { clock: fixedClock('2026-12-01T07:00:00.000Z') });
      const s = await insertCalendarScenario(database.db);
      const greens = await insertWasteType(database.db, s.cityId, LONG_NAME);
      await insertCollectionDays(database.db, s.placeId, [{ name: 'samedi', wasteTypeId: greens }]);
      const { body } = await app.inject(icsUrl(s.cityId, s.placeId));
      assert.ok(body.endsWith('END:VCALENDAR\r\n') || body.endsWith('END:VCALENDAR'));
      assert.ok(!/[^\r]\n/.test(body), 'a bare LF');
      assert.ok(!/\r(?!\n)/.test(body), 'a bare CR');
      const lines = body.split('\r\n');
      for (const line of lines) assert.ok(Buffer.byteLength(line, 'utf8') <= 75, `line over 75 octets: ${line}`);
      assert.ok(lines.some((line) => line.startsWith(' ')), 'some line was folded');
      assert.ok(!body.includes('\uFFFD'));
    });

    it('answers 404 and 400 like the JSON endpoint', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      const s = await insertCalendarScenario(database.db);
      const wrongPlace = await app.inject(icsUrl(s.cityId, s.otherCityPlaceId));
      assert.equal(wrongPlace.statusCode, 404);
      assert.equal(wrongPlace.json().message, 'Lieu de collecte introuvable dans cette ville');
      const badId = await app.inject(icsUrl('x', s.placeId));
      assert.equal(badId.statusCode, 400);
      assert.match(badId.json().message, /« cityId »/);
    });

    it('adds an alarm the evening before each collection at the ?alarm= time, none to cancelled ones', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { clock: fixedClock('2026-12-01T09:00:00.000Z') });
      const s = await insertCalendarScenario(database.db);
      const plain = await app.inject(icsUrl(s.cityId, s.placeId));
      assert.doesNotMatch(plain.body, /BEGIN:VALARM/);

      for (const [alarm, trigger] of [['19:00', '-PT5H'], ['20:30', '-PT3H30M'], ['00:00', '-P1D'], ['07:05', '-PT16H55M']]) {
        const res = await app.inject(`${icsUrl(s.cityId, s.placeId)}?alarm=${encodeURIComponent(alarm)}`);
        assert.equal(res.statusCode, 200, res.body);
        assert.notEqual(res.headers.etag, plain.headers.etag);
        const parsed = events(res.body);
        const confirmed = parsed.filter((e) => e.status === 'CONFIRMED');
        assert.ok(confirmed.length > 50 && parsed.some((e) => e.status === 'CANCELLED'));
        // One display alarm per collection, before its all-day start; none on a cancelled collection.
        const unfolded = res.body.replaceAll('\r\n ', '');
        const blocks = unfolded.split('BEGIN:VEVENT').slice(1).map((block) => ({
          cancelled: block.includes('STATUS:CANCELLED'),
          triggers: [...block.matchAll(/\r\nTRIGGER(?:;RELATED=START)?:([^\r\n]+)\r\n/g)].map((m) => m[1]),
          display: /\r\nACTION:DISPLAY\r\n/.test(block),
        }));
        assert.equal(blocks.length, parsed.length);
        for (const event of blocks.filter((b) => !b.cancelled)) {
          assert.deepEqual(event.triggers, [trigger], alarm);
          assert.ok(event.display);
        }
        assert.ok(blocks.filter((b) => b.cancelled).every((b) => b.triggers.length === 0));
        // The alarm names the bin (iCalendar escapes the comma).
        const bin = String(confirmed[0].summary).replace('Collecte : ', '');
        assert.ok(unfolded.includes(`DESCRIPTION:Ce soir\\, sortez le bac\u00a0: ${bin} (collecte demain)`), bin);
      }

      for (const bad of ['7pm', '24:00', '19:60', '1900', '19:0', '']) {
        const res = await app.inject(`${icsUrl(s.cityId, s.placeId)}?alarm=${encodeURIComponent(bad)}`);
        assert.equal(res.statusCode, 400, bad);
        assert.equal(res.json().message, 'Le paramètre « alarm » doit être une heure au format HH:MM, par exemple 19:00.');
      }
    });
  });
}
