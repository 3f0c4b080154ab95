import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, fixedClock, testConfig } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { insertCalendarScenario, insertCollectionDays, insertExceptions, type CalendarScenario } from '../helpers/calendar-fixtures.ts';
import { reminderPeers } from '../helpers/reminder-peers.ts';
import { bumpDataVersion } from '../../src/db/data-version.ts';
import { createReminderWorker } from '../../src/reminders/worker.ts';
import { authApp, createAccount, loginHeaders } from '../helpers/auth-fixtures.ts';

/**
 * Service alerts: a change of data (here written as the admin API and the import write it: rows, then the data
 * version moved) that adds or removes a collection within the next 14 days reaches the place's subscribers once.
 */

const NBSP = '\u00a0';

for (const kind of testDatabaseKinds()) {
  describe(`service alerts (${kind})`, () => {
    const peers = reminderPeers();

    async function subscribePush(app: FastifyInstance, s: CalendarScenario, name: string, extra: Record<string, unknown> = {}) {
      const subscriber = peers.push.subscriber(name);
      const response = await app.inject({
        method: 'POST',
        url: '/public/reminders/subscriptions',
        payload: { deviceId: `device-${name}`, cityId: s.cityId, placeId: s.placeId, channel: 'WEB_PUSH', webPush: { endpoint: subscriber.endpoint, keys: subscriber.keys }, ...extra },
      });
      assert.equal(response.statusCode, 201, response.body);
    }
    const pushesTo = (name: string) => peers.push.received.filter((p) => p.subscriber === name);

    it('tells the subscribers of a place what a change adds or removes in the next 14 days, once', async (t) => {
      const env = { WEB_PUSH_ALLOW_INSECURE_ENDPOINTS: 'true', SMTP_URL: peers.mail.url, MAIL_FROM: 'Collecte <rappels@collecte.test>' };
      const clock = fixedClock('2026-11-26T12:00:00.000Z'); // Thursday, 13:00 in Paris: no reminder due
      const { app, database } = await buildTestApp(t, kind, { clock, env });
      const db = database.db;
      const scenario = await insertCalendarScenario(db);
      await subscribePush(app, scenario, 'alert-all');
      await subscribePush(app, scenario, 'alert-glass', { wasteTypeIds: [scenario.wasteTypes.verre] });
      await subscribePush(app, scenario, 'alert-elsewhere', { placeId: scenario.otherPlaceId });
      const pending = await app.inject({
        method: 'POST',
        url: '/public/reminders/subscriptions',
        payload: { deviceId: 'device-alert-mail', cityId: scenario.cityId, placeId: scenario.placeId, channel: 'EMAIL', email: 'pas-confirmee@exemple.fr' },
      });
      assert.equal(pending.json().status, 'PENDING');
      const mailsBefore = peers.mail.received.length;
      const worker = createReminderWorker({ db, config: testConfig(env), log: app.log, now: clock });
      const second = createReminderWorker({ db, config: testConfig(env), log: app.log, now: clock });
      t.after(() => Promise.all([worker.stop(), second.stop()]));

      // The first look at the place alerts nobody.
      assert.equal((await worker.tick()).alerts, 0);

      // A strike cancels Friday 4 December's glass; a glass collection 22 days away is cancelled too (outside the window).
      await insertExceptions(db, scenario.placeId, [
        { wasteTypeId: scenario.wasteTypes.verre, dateFrom: '2026-12-03T23:00:00.000Z', name: 'Grève' },
        { wasteTypeId: scenario.wasteTypes.verre, dateFrom: '2026-12-17T23:00:00.000Z', name: 'Loin' },
      ]);
      await bumpDataVersion(db, clock());
      clock.set('2026-11-26T12:00:30.000Z');
      const [a, b] = await Promise.all([worker.tick(), second.tick()]);
      assert.equal(a.alerts + b.alerts, 2, 'one per subscriber who asked for glass, whichever worker saw it');
      for (const name of ['alert-all', 'alert-glass']) {
        assert.equal(pushesTo(name).length, 1, name);
        assert.deepEqual(pushesTo(name)[0].payload, {
          title: 'Changement de collecte – Centre-ville',
          body: `Collecte du verre du vendredi 4 décembre annulée${NBSP}: Grève`,
          url: `http://localhost:80/communes/${scenario.cityId}/${scenario.placeId}`,
          tag: `collecte-${scenario.placeId}-2026-12-04`,
        });
        // Kept until the collection day begins: Friday 4 December, 00:00 in Paris.
        assert.equal(pushesTo(name)[0].headers.ttl, String((Date.parse('2026-12-03T23:00:00.000Z') - Date.parse('2026-11-26T12:00:30.000Z')) / 1000));
      }
      assert.equal(pushesTo('alert-elsewhere').length, 0);
      assert.equal(peers.mail.received.length, mailsBefore, 'nothing to an unconfirmed address');

      await worker.tick();
      assert.equal(pushesTo('alert-all').length, 1, 'once per change');

      // Packaging added on Saturdays: two Saturdays in the window for those who take every waste type.
      await insertCollectionDays(db, scenario.placeId, [{ name: 'samedi', wasteTypeId: scenario.wasteTypes.recyclables }]);
      await bumpDataVersion(db, clock());
      await worker.tick();
      assert.deepEqual(
        pushesTo('alert-all').slice(1).map((p) => p.payload?.body).sort(),
        [`Collecte des emballages du samedi 28 novembre ajoutée`, `Collecte des emballages du samedi 5 décembre ajoutée`],
      );
      assert.equal(pushesTo('alert-glass').length, 1);

      // Days passing move the window without alerting anybody.
      clock.set('2026-11-28T12:00:00.000Z');
      const later = await worker.tick();
      assert.equal(later.alerts, 0);
    });

    it('alerts from an agent’s write through the admin API', async (t) => {
      const env = { WEB_PUSH_ALLOW_INSECURE_ENDPOINTS: 'true' };
      const clock = fixedClock('2026-11-26T12:00:00.000Z');
      const { app, database } = await authApp(t, kind, { clock, env });
      const db = database.db;
      await createAccount(db, { email: 'root@collecte.fr', name: 'Root', superAdmin: true, permissions: [] });
      const asRoot = await loginHeaders(app, 'root@collecte.fr');
      const scenario = await insertCalendarScenario(db);
      await subscribePush(app, scenario, 'admin-alert');
      const worker = createReminderWorker({ db, config: testConfig(env), log: app.log, now: clock });
      t.after(() => worker.stop());
      await worker.tick();

      const created = await app.inject({
        method: 'POST',
        url: `/admin/places/${scenario.placeId}/exceptions`,
        headers: asRoot,
        payload: { dateFrom: '2026-11-26T23:00:00.000Z', wasteTypeId: scenario.wasteTypes.ordures, name: null, description: 'Intempéries' },
      });
      assert.equal(created.statusCode, 201, created.body);
      await worker.tick();
      assert.deepEqual(
        pushesTo('admin-alert').map((p) => p.payload?.body),
        [`Collecte des ordures ménagères du vendredi 27 novembre annulée${NBSP}: Intempéries`],
      );
    });
  });
}
