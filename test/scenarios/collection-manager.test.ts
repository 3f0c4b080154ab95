import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { importBundle } from '../../src/bundle/import.ts';
import { DEMO_BUNDLE_PATH } from '../../src/demo/load.ts';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { authEnv, createAccount, loginHeaders } from '../helpers/auth-fixtures.ts';
import { testDatabaseKinds } from '../helpers/database.ts';

/**
 * A scenario of a working week, as Brest Métropole's collection manager lives it on a Monday morning: the sorting
 * centre strikes on Friday. She logs in, cancels Friday's collection of Saint-Marc et Bellevue with an explanation,
 * previews the week, and citizens see it everywhere (calendar, ICS, chat assistant); the strike is called off, she
 * undoes it, and everything is as before. Demo data, the admin API and the public API only.
 */

const MONDAY = '2026-11-23T08:30:00.000Z';
const FRIDAY = '2026-11-27';
const BREST_METROPOLE = '6257598e-116b-5090-9b09-374e65036c9b';
const BREST = '0d8a9bc9-104b-5b64-a127-357bd85689ee';
const PLACE_NAME = 'Saint-Marc et Bellevue';
const EXPLANATION = 'Grève au centre de tri : la collecte est reportée au vendredi suivant.';

interface Collection {
  date: string;
  wasteTypeId: string;
  wasteTypeName: string;
}

for (const kind of testDatabaseKinds()) {
  describe(`a collection manager cancels Friday's collection, then undoes it (${kind})`, () => {
    it('is seen by the public calendar, the ICS and the chat assistant, and undone without a trace', async (t) => {
      const mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'collecte-scenario-'));
      t.after(() => fs.rm(mediaDir, { recursive: true, force: true }));
      const { app, database } = await buildTestApp(t, kind, { env: { ...authEnv, MEDIA_DIR: mediaDir }, clock: fixedClock(MONDAY) });
      const demo = JSON.parse(await fs.readFile(DEMO_BUNDLE_PATH, 'utf8'));
      await importBundle(database, demo, { baseDir: path.dirname(DEMO_BUNDLE_PATH), mediaDir, now: new Date(MONDAY) });
      await createAccount(database.db, { email: 'collecte@brest-metropole.fr', name: 'Maïwenn Le Gall', permissions: ['CITIES'], cityGroupIds: [BREST_METROPOLE] });

      // Monday morning: she logs in and finds the place among Brest's.
      const asManager = await loginHeaders(app, 'collecte@brest-metropole.fr');
      const admin = (method: string, url: string, payload?: object, headers: Record<string, string> = {}) =>
        app.inject({ method: method as 'GET', url, headers: { ...asManager, ...headers }, ...(payload ? { payload } : {}) });
      const places = await admin('GET', `/admin/cities/${BREST}/places?pageSize=100`);
      assert.equal(places.statusCode, 200, places.body);
      const place = (places.json().data as { id: string; name: string }[]).find((p) => p.name === PLACE_NAME)!;
      assert.ok(place, `${PLACE_NAME} among Brest's places`);

      const week = `from=2026-11-23&to=2026-11-29`;
      const calendarUrl = `/public/cities/${BREST}/places/${place.id}/collections?${week}`;
      const before = (await app.inject(calendarUrl)).json() as Collection[];
      const fridays = before.filter((c) => c.date === FRIDAY);
      assert.equal(fridays.length, 1, 'one collection on Friday');
      const [friday] = fridays;
      const icsUrl = `/public/cities/${BREST}/places/${place.id}/calendar.ics`;
      const icsBefore = (await app.inject(icsUrl)).body;
      assert.match(icsBefore, /DTSTART;VALUE=DATE:20261127/);

      // She cancels it, with an explanation citizens will read.
      const created = await admin('POST', `/admin/places/${place.id}/exceptions`, {
        dateFrom: '2026-11-26T23:00:00.000Z',
        wasteTypeId: friday.wasteTypeId,
        name: 'Grève',
        description: EXPLANATION,
      });
      assert.equal(created.statusCode, 201, created.body);
      const exception = created.json();
      const etag = String(created.headers.etag);

      // The preview of the week says what citizens will see.
      const preview = await admin('GET', `/admin/places/${place.id}/preview?${week}`);
      assert.equal(preview.statusCode, 200, preview.body);
      const previewed = preview.json() as Collection[];
      assert.ok(!previewed.some((c) => c.date === FRIDAY && c.wasteTypeId === friday.wasteTypeId), 'Friday is gone from the preview');
      assert.deepEqual(previewed, before.filter((c) => c !== friday), 'the rest of the week is unchanged');

      // Citizens: the calendar, the ICS and the assistant all say it, at once.
      assert.deepEqual((await app.inject(calendarUrl)).json(), previewed);
      const ics = (await app.inject(icsUrl)).body;
      const fridayEvent = ics.split('BEGIN:VEVENT').find((e) => e.includes('DTSTART;VALUE=DATE:20261127'));
      assert.ok(!fridayEvent || /STATUS:CANCELLED/.test(fridayEvent), 'Friday is not an ordinary event any more');
      if (fridayEvent) assert.match(fridayEvent.replace(/\r\n[ \t]/g, ''), /Grève/);
      const opened = await app.inject({
        method: 'POST',
        url: '/public/chat/conversations',
        payload: { deviceId: 'habitante-saint-marc', cityId: BREST },
      });
      assert.equal(opened.statusCode, 201, opened.body);
      const ask = (content: string) =>
        app.inject({ method: 'POST', url: `/public/chat/conversations/${opened.json().id}/messages`, payload: { content, placeId: place.id } });
      const cancelled = await ask('Est-ce que le camion passe vendredi ?');
      assert.equal(cancelled.statusCode, 201, cancelled.body);
      assert.match(cancelled.json().content, /pas de collecte/);
      assert.match(cancelled.json().content, /Grève au centre de tri/);

      // Thursday evening the strike is called off: she deletes the exception she wrote (still hers: If-Match holds).
      const undone = await admin('DELETE', `/admin/exceptions/${exception.id}`, undefined, { 'if-match': etag });
      assert.equal(undone.statusCode, 204, undone.body);
      assert.deepEqual((await app.inject(calendarUrl)).json(), before);
      // The feed is the same but for the SEQUENCE of the occurrence that was cancelled and is back: calendar clients
      // must see it as newer than the cancellation they were given.
      const icsAfter = (await app.inject(icsUrl)).body;
      const withoutSequences = (body: string) => body.replace(/\r\nSEQUENCE:\d+/g, '');
      assert.equal(withoutSequences(icsAfter), withoutSequences(icsBefore));
      assert.notEqual(icsAfter, icsBefore);
      const back = await ask('Est-ce que le camion passe vendredi ?');
      assert.doesNotMatch(back.json().content, /Grève/);
      assert.match(back.json().content, new RegExp(friday.wasteTypeName));

      // The audit log tells who did what.
      const audit = await admin('GET', `/admin/audit?entity=exception&entityId=${exception.id}`);
      assert.equal(audit.statusCode, 200);
      const entries = audit.json().data as { action: string; userName: string; before: unknown; after: unknown }[];
      // Newest first, but the fixed clock gives both entries the same instant: their order is the ids', not the story's.
      assert.deepEqual(entries.map((e) => e.action).sort(), ['create', 'delete']);
      assert.ok(entries.every((e) => e.userName === 'Maïwenn Le Gall'));
      assert.equal((entries.find((e) => e.action === 'create')!.after as { description: string }).description, EXPLANATION);
    });
  });
}
