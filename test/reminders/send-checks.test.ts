import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, fixedClock, testConfig } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { insertCalendarScenario, insertExceptions, type CalendarScenario } from '../helpers/calendar-fixtures.ts';
import { reminderPeers } from '../helpers/reminder-peers.ts';
import { bumpDataVersion } from '../../src/db/data-version.ts';
import { planReminders } from '../../src/reminders/planner.ts';
import { createReminderWorker } from '../../src/reminders/worker.ts';

/**
 * Reminders follow moves (docs/api.md, collections that move and service notices): a reminder planned at the subscriber's evening time is checked
 * against the calendar again when it is sent. A collection cancelled after the planning is not announced (the row is
 * SKIPPED, saying why); a moved one is announced the evening before its new day only. The scenario's place (Paris
 * time) has household waste and glass every Friday: Friday 27 November 2026, reminded on Thursday 26 at 19:00.
 */

const NBSP = '\u00a0';
const THURSDAY_EVENING = '2026-11-26T18:00:00.000Z';
const FRIDAY = '2026-11-26T23:00:00.000Z';

for (const kind of testDatabaseKinds()) {
  describe(`reminders checked again when sent (${kind})`, () => {
    const peers = reminderPeers();
    const env = () => ({ WEB_PUSH_ALLOW_INSECURE_ENDPOINTS: 'true', SMTP_URL: peers.mail.url, MAIL_FROM: 'Collecte <rappels@collecte.test>' });

    async function setup(t: Parameters<typeof buildTestApp>[0]) {
      const clock = fixedClock('2026-11-26T12:00:00.000Z');
      const { app, database } = await buildTestApp(t, kind, { clock, env: env() });
      const scenario = await insertCalendarScenario(database.db);
      const worker = createReminderWorker({ db: database.db, config: testConfig(env()), log: app.log, now: clock });
      t.after(() => worker.stop());
      return { app, db: database.db, scenario, clock, worker };
    }

    async function subscribePush(app: FastifyInstance, s: CalendarScenario, name: string) {
      const subscriber = peers.push.subscriber(`${kind}-${name}`);
      const response = await app.inject({
        method: 'POST',
        url: '/public/reminders/subscriptions',
        payload: { deviceId: `device-${name}`, cityId: s.cityId, placeId: s.placeId, channel: 'WEB_PUSH', webPush: { endpoint: subscriber.endpoint, keys: subscriber.keys } },
      });
      assert.equal(response.statusCode, 201, response.body);
    }

    /** The reminders (not the alerts) a subscriber's device received and the push service accepted. */
    const remindersTo = (name: string) =>
      peers.push.received.filter((p) => p.subscriber === `${kind}-${name}` && p.status === 201 && p.payload?.title.startsWith('Collecte demain'));

    it('does not send a reminder whose collection was cancelled while it waited for a retry', async (t) => {
      const { app, db, scenario, clock, worker } = await setup(t);
      await subscribePush(app, scenario, 'cancelled');
      peers.push.respond(`${kind}-cancelled`, [{ status: 503 }]);

      clock.set(THURSDAY_EVENING);
      const planned = await worker.tick();
      assert.deepEqual({ planned: planned.planned, retried: planned.retried }, { planned: 1, retried: 1 });

      // An agent cancels Friday's collections before the retry.
      await insertExceptions(db, scenario.placeId, [
        { wasteTypeId: scenario.wasteTypes.ordures, dateFrom: FRIDAY, name: 'Grève' },
        { wasteTypeId: scenario.wasteTypes.verre, dateFrom: FRIDAY, name: 'Grève' },
      ]);
      await bumpDataVersion(db, clock());
      clock.set('2026-11-26T18:01:00.000Z'); // past the first backoff
      const retried = await worker.tick();
      assert.equal(retried.skipped, 1);
      assert.equal(retried.planned, 0);
      assert.deepEqual(remindersTo('cancelled'), [], 'nothing announced for a day with nothing left');
      const row = await db.selectFrom('reminder_delivery').select(['status', 'last_error']).where('kind', '=', 'REMINDER').executeTakeFirstOrThrow();
      assert.deepEqual(row, { status: 'SKIPPED', last_error: 'nothing left to collect on 2026-11-27: cancelled or moved since it was planned' });

      clock.set('2026-11-26T19:00:00.000Z');
      await worker.tick();
      assert.deepEqual(remindersTo('cancelled'), []);
    });

    it('names only what is still collected when part of the day was cancelled after planning', async (t) => {
      const { app, db, scenario, clock, worker } = await setup(t);
      await subscribePush(app, scenario, 'partly');
      clock.set(THURSDAY_EVENING);
      assert.equal(await planReminders(db, { now: clock(), batchSize: 100, publicBaseUrl: null }), 1);
      await insertExceptions(db, scenario.placeId, [{ wasteTypeId: scenario.wasteTypes.verre, dateFrom: FRIDAY, name: 'Camion en panne' }]);
      await bumpDataVersion(db, clock());

      clock.set('2026-11-26T18:00:30.000Z');
      await worker.tick();
      assert.deepEqual(remindersTo('partly').map((p) => p.payload?.body), [`Demain, vendredi 27 novembre${NBSP}: Ordures ménagères`]);
    });

    it('sends the reminder of a moved collection the evening before its new day only', async (t) => {
      const { app, db, scenario, clock, worker } = await setup(t);
      await subscribePush(app, scenario, 'moved');
      await worker.tick(); // the place's calendar seen once, as any running worker has

      // Planned at 19:00 on Thursday for Friday; the collections then move to Saturday before it is sent.
      clock.set(THURSDAY_EVENING);
      assert.equal(await planReminders(db, { now: clock(), batchSize: 100, publicBaseUrl: null }), 1);
      const saturday = '2026-11-27T23:00:00.000Z';
      await insertExceptions(db, scenario.placeId, [
        { wasteTypeId: scenario.wasteTypes.ordures, dateFrom: FRIDAY, kind: 'MOVE', movedTo: saturday, name: 'Grève' },
        { wasteTypeId: scenario.wasteTypes.verre, dateFrom: FRIDAY, kind: 'MOVE', movedTo: saturday, name: 'Grève' },
      ]);
      await bumpDataVersion(db, clock());
      const thursday = await worker.tick();
      assert.equal(thursday.skipped, 1);
      assert.deepEqual(remindersTo('moved'), [], 'not on Thursday evening');

      clock.set('2026-11-27T18:00:00.000Z'); // Friday, 19:00 in Paris
      await worker.tick();
      assert.deepEqual(remindersTo('moved').map((p) => p.payload?.body), [`Demain, samedi 28 novembre${NBSP}: Ordures ménagères, Verre`]);
      assert.equal(remindersTo('moved')[0].payload?.tag, `collecte-${scenario.placeId}-2026-11-28`);

      clock.set('2026-11-28T18:00:00.000Z');
      await worker.tick();
      assert.equal(remindersTo('moved').length, 1, 'once');
      const rows = await db.selectFrom('reminder_delivery').select(['key', 'status']).where('kind', '=', 'REMINDER').orderBy('key').execute();
      assert.deepEqual(rows, [
        { key: '2026-11-27', status: 'SKIPPED' },
        { key: '2026-11-28', status: 'SENT' },
      ]);
    });
  });
}
