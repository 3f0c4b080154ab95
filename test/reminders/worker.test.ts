import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { KyselyPlugin } from 'kysely';
import { buildTestApp, fixedClock, testConfig } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { insertCalendarScenario, type CalendarScenario } from '../helpers/calendar-fixtures.ts';
import { reminderPeers } from '../helpers/reminder-peers.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { createReminderWorker, type ReminderWorkerOptions } from '../../src/reminders/worker.ts';

/**
 * The evening reminder end to end: subscriptions made through the API, a worker ticking on an injected clock, a
 * push service that verifies VAPID and decrypts each payload, an SMTP server that records each e-mail.
 * The scenario's place (Paris time): household waste every Friday, glass every Friday, packaging every second
 * Wednesday (25 November 2026 is one); Christmas 2026's glass is cancelled.
 */

const NBSP = '\u00a0';

for (const kind of testDatabaseKinds()) {
  describe(`reminder worker (${kind})`, () => {
    const peers = reminderPeers();

    const env = () => ({ WEB_PUSH_ALLOW_INSECURE_ENDPOINTS: 'true', SMTP_URL: peers.mail.url, MAIL_FROM: 'Collecte <rappels@collecte.test>' });

    async function setup(t: Parameters<typeof buildTestApp>[0]) {
      const clock = fixedClock('2026-11-26T12:00:00.000Z');
      const { app, database } = await buildTestApp(t, kind, { clock, env: env() });
      const scenario = await insertCalendarScenario(database.db);
      const worker = (options: Partial<ReminderWorkerOptions> = {}) => {
        const w = createReminderWorker({ db: database.db, config: testConfig(env()), log: app.log, now: clock, ...options });
        t.after(() => w.stop());
        return w;
      };
      return { app, database, scenario, clock, worker };
    }

    async function subscribePush(app: FastifyInstance, s: CalendarScenario, name: string, extra: Record<string, unknown> = {}) {
      const subscriber = peers.push.subscriber(name);
      const response = await app.inject({
        method: 'POST',
        url: '/public/reminders/subscriptions',
        payload: {
          deviceId: `device-${name}`,
          cityId: s.cityId,
          placeId: s.placeId,
          channel: 'WEB_PUSH',
          webPush: { endpoint: subscriber.endpoint, keys: subscriber.keys },
          ...extra,
        },
      });
      assert.equal(response.statusCode, 201, response.body);
      return response.json().id as string;
    }

    const pushesTo = (name: string) => peers.push.received.filter((p) => p.subscriber === name);

    it('sends at 19:00 the day before, in French, once; nothing on a day with nothing collected; exceptions applied', async (t) => {
      const { app, scenario, clock, worker } = await setup(t);
      const w = worker();
      await subscribePush(app, scenario, 'all-types');
      await subscribePush(app, scenario, 'glass-only', { wasteTypeIds: [scenario.wasteTypes.verre] });
      await subscribePush(app, scenario, 'late', { time: '21:15' });

      clock.set('2026-11-26T17:59:00.000Z'); // 18:59 in Paris
      await w.tick();
      assert.equal(pushesTo('all-types').length, 0);

      clock.set('2026-11-26T18:00:00.000Z'); // 19:00 in Paris, the day before Friday 27 November
      const summary = await w.tick();
      assert.equal(summary.planned, 2);
      assert.equal(summary.sent, 2);
      const [first] = pushesTo('all-types');
      assert.equal(first.error, null);
      assert.equal(first.status, 201);
      assert.deepEqual(first.payload, {
        title: `Collecte demain – Centre-ville`,
        body: `Demain, vendredi 27 novembre${NBSP}: Ordures ménagères, Verre`,
        url: `http://localhost:80/communes/${scenario.cityId}/${scenario.placeId}`,
        tag: `collecte-${scenario.placeId}-2026-11-27`,
      });
      assert.equal(first.vapidKey, (await app.inject('/public/reminders/config')).json().webPushPublicKey);
      // Until the collection day begins (midnight in Paris, 23:00 UTC): five hours.
      assert.equal(first.headers.ttl, String(5 * 3600));
      assert.match(String(first.headers.topic), /^[A-Za-z0-9_-]{1,32}$/);
      assert.equal(pushesTo('glass-only')[0].payload?.body, `Demain, vendredi 27 novembre${NBSP}: Verre`);
      assert.equal(pushesTo('late').length, 0);

      clock.set('2026-11-26T19:30:00.000Z');
      await w.tick();
      assert.equal(pushesTo('all-types').length, 1, 'once per subscription and day');
      clock.set('2026-11-26T20:15:00.000Z'); // 21:15 in Paris
      await w.tick();
      assert.equal(pushesTo('late').length, 1);
      assert.equal(pushesTo('all-types').length, 1);

      // Saturday 28 November: nothing collected, nothing sent on Friday evening.
      clock.set('2026-11-27T20:30:00.000Z');
      assert.equal((await w.tick()).sent, 0);
      assert.equal(pushesTo('all-types').length, 1);

      // Tuesday 24 November 2026 evening → Wednesday 25 was packaging; move to Tuesday 8 December → Wednesday 9.
      clock.set('2026-12-08T18:05:00.000Z');
      await w.tick();
      assert.equal(pushesTo('all-types').at(-1)!.payload?.body, `Demain, mercredi 9 décembre${NBSP}: Emballages`);
      assert.equal(pushesTo('glass-only').length, 1, 'no glass on Wednesday');

      // Christmas: glass cancelled by the exception, household waste kept (and the 1er of a month written so).
      clock.set('2026-12-24T18:00:00.000Z');
      await w.tick();
      assert.equal(pushesTo('all-types').at(-1)!.payload?.body, `Demain, vendredi 25 décembre${NBSP}: Ordures ménagères`);
      assert.equal(pushesTo('glass-only').length, 1, 'the cancelled glass collection is not announced');
    });

    it('e-mails confirmed subscribers with Message-ID and one-click unsubscribe; never an unconfirmed address, deleted after 7 days', async (t) => {
      const { app, scenario, clock, worker } = await setup(t);
      const w = worker();
      const subscribe = (email: string) =>
        app.inject({
          method: 'POST',
          url: '/public/reminders/subscriptions',
          payload: { deviceId: 'device-mail', cityId: scenario.cityId, placeId: scenario.placeId, channel: 'EMAIL', email },
        });
      assert.equal((await subscribe('confirmee@exemple.fr')).statusCode, 201);
      const confirmation = peers.mail.received.at(-1)!;
      const confirmPath = /\/public\/reminders\/confirm\?token=\S+/.exec(confirmation.text)![0];
      assert.equal((await app.inject({ url: confirmPath, headers: { accept: 'application/json' } })).statusCode, 200);
      const pending = await subscribe('jamais-confirmee@exemple.fr');
      assert.equal(pending.json().status, 'PENDING');
      const mailsBefore = peers.mail.received.length;

      clock.set('2026-11-26T18:00:00.000Z');
      const summary = await w.tick();
      assert.equal(summary.sent, 1);
      const sent = peers.mail.received.slice(mailsBefore);
      assert.deepEqual(sent.map((m) => m.to), [['confirmee@exemple.fr']], 'nothing to the unconfirmed address');
      const reminder = sent[0];
      assert.equal(reminder.headers.get('subject'), 'Collecte demain – Centre-ville');
      assert.match(reminder.text, new RegExp(`^Demain, vendredi 27 novembre${NBSP}: Ordures ménagères, Verre`));
      assert.match(reminder.html, /Demain, vendredi 27 novembre/);
      assert.match(reminder.headers.get('message-id')!, /^<reminder-[0-9a-f-]{36}-2026-11-27@collecte\.test>$/);
      assert.equal(reminder.headers.get('list-unsubscribe-post'), 'List-Unsubscribe=One-Click');
      const unsubscribe = /^<http:\/\/localhost:80(\/public\/reminders\/unsubscribe\?token=.+)>$/.exec(reminder.headers.get('list-unsubscribe')!)![1];

      // Seven days later the unconfirmed subscription is gone; the confirmed one stays until its one-click unsubscribe.
      clock.set('2026-12-03T18:00:00.000Z');
      await w.tick();
      const left = (await app.inject('/public/reminders/subscriptions/device-mail')).json();
      assert.deepEqual(left.map((s: { status: string }) => s.status), ['ACTIVE']);
      const oneClick = await app.inject({ method: 'POST', url: unsubscribe, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
      assert.deepEqual(oneClick.json(), { status: 'DELETED' });
      assert.deepEqual((await app.inject('/public/reminders/subscriptions/device-mail')).json(), []);
    });

    it('deletes the subscription on 404 and 410; retries 429 (honouring Retry-After) and 5xx with backoff under the same Topic', async (t) => {
      const { app, scenario, clock, worker } = await setup(t);
      const w = worker();
      await subscribePush(app, scenario, 'gone');
      await subscribePush(app, scenario, 'unknown');
      await subscribePush(app, scenario, 'busy');
      await subscribePush(app, scenario, 'broken');
      peers.push.respond('gone', [{ status: 410 }]);
      peers.push.respond('unknown', [{ status: 404 }]);
      peers.push.respond('busy', [{ status: 429, retryAfter: '120' }]);
      peers.push.respond('broken', [{ status: 500 }, { status: 503 }]);

      clock.set('2026-11-26T18:00:00.000Z');
      const first = await w.tick();
      assert.deepEqual({ deleted: first.deleted, retried: first.retried, sent: first.sent }, { deleted: 2, retried: 2, sent: 0 });
      assert.deepEqual((await app.inject('/public/reminders/subscriptions/device-gone')).json(), []);
      assert.deepEqual((await app.inject('/public/reminders/subscriptions/device-unknown')).json(), []);

      clock.set('2026-11-26T18:00:31.000Z'); // past the first backoff (30 s), before Retry-After (120 s)
      await w.tick();
      assert.equal(pushesTo('busy').length, 1, 'Retry-After honoured');
      assert.equal(pushesTo('broken').length, 2);
      clock.set('2026-11-26T18:02:01.000Z'); // past Retry-After and the second backoff (60 s)
      await w.tick();
      assert.deepEqual(pushesTo('busy').map((p) => p.status), [429, 201]);
      assert.deepEqual(pushesTo('broken').map((p) => p.status), [500, 503, 201]);
      for (const name of ['busy', 'broken']) {
        const topics = new Set(pushesTo(name).map((p) => p.headers.topic));
        assert.equal(topics.size, 1, `${name}: one Topic for every attempt`);
        assert.ok(pushesTo(name).every((p) => p.payload?.body === pushesTo(name)[0].payload?.body));
      }
      clock.set('2026-11-26T19:00:00.000Z');
      await w.tick();
      assert.equal(pushesTo('busy').length, 2, 'nothing after success');
      assert.equal(pushesTo('gone').length, 1, 'nothing after 410');
    });

    it('a worker that dies between sending and recording: the delivery is sent again after its lease, with the same Topic', async (t) => {
      const { app, database, scenario, clock, worker } = await setup(t);
      await subscribePush(app, scenario, 'crash');
      // The dying worker's database: every statement fails from the moment the push service has the message, as for
      // a process killed then.
      let dead = false;
      const dying: KyselyPlugin = {
        transformQuery(args) {
          if (dead) throw new Error('the worker process is gone');
          return args.node;
        },
        transformResult: async (args) => args.result,
      };
      const doomed = worker({ db: database.db.withPlugin(dying), leaseMs: 120_000 });
      peers.push.onReceive = (received) => {
        if (received.subscriber === 'crash') dead = true;
      };
      t.after(() => {
        peers.push.onReceive = null;
      });
      clock.set('2026-11-26T18:00:00.000Z');
      await doomed.tick().catch(() => {});
      assert.equal(pushesTo('crash').length, 1);

      const survivor = worker();
      await survivor.tick();
      assert.equal(pushesTo('crash').length, 1, 'not while the dead worker’s lease runs');
      clock.set('2026-11-26T18:02:01.000Z');
      await survivor.tick();
      const [lost, again] = pushesTo('crash');
      assert.ok(again, 'sent again after the lease');
      assert.equal(again.headers.topic, lost.headers.topic);
      assert.deepEqual(again.payload, lost.payload);
      const row = await database.db.selectFrom('reminder_delivery').select(['status', 'attempts']).executeTakeFirstOrThrow();
      assert.deepEqual(row, { status: 'SENT', attempts: 2 });
      await survivor.tick();
      assert.equal(pushesTo('crash').length, 2);
    });

    it('a worker that dies between e-mailing and recording: the e-mail is sent again after its lease, with the same Message-ID', async (t) => {
      const { app, database, scenario, clock, worker } = await setup(t);
      const address = `crash-${kind}@exemple.fr`;
      const subscribed = await app.inject({
        method: 'POST',
        url: '/public/reminders/subscriptions',
        payload: { deviceId: 'device-mail-crash', cityId: scenario.cityId, placeId: scenario.placeId, channel: 'EMAIL', email: address },
      });
      assert.equal(subscribed.statusCode, 201, subscribed.body);
      const confirmPath = /\/public\/reminders\/confirm\?token=\S+/.exec(peers.mail.received.filter((m) => m.to.includes(address)).at(-1)!.text)![0];
      assert.equal((await app.inject({ url: confirmPath, headers: { accept: 'application/json' } })).statusCode, 200);
      const remindersTo = () => peers.mail.received.filter((m) => m.to.includes(address) && m.headers.get('subject')?.startsWith('Collecte demain'));
      // The dying worker's database: every statement fails once the SMTP server has accepted the reminder, as for a
      // process killed between sending and recording.
      const dying: KyselyPlugin = {
        transformQuery(args) {
          if (remindersTo().length > 0) throw new Error('the worker process is gone');
          return args.node;
        },
        transformResult: async (args) => args.result,
      };
      const doomed = worker({ db: database.db.withPlugin(dying), leaseMs: 120_000 });
      clock.set('2026-11-26T18:00:00.000Z');
      await doomed.tick().catch(() => {});
      assert.equal(remindersTo().length, 1);

      const survivor = worker();
      await survivor.tick();
      assert.equal(remindersTo().length, 1, 'not while the dead worker’s lease runs');
      clock.set('2026-11-26T18:02:01.000Z');
      await survivor.tick();
      const [lost, again] = remindersTo();
      assert.ok(again, 'sent again after the lease');
      assert.match(lost.headers.get('message-id')!, /^<reminder-[0-9a-f-]{36}-2026-11-27@collecte\.test>$/);
      assert.equal(again.headers.get('message-id'), lost.headers.get('message-id'), 'one Message-ID: the mail system may drop the repeat');
      assert.equal(again.text.split('\n')[0], lost.text.split('\n')[0]);
      const row = await database.db.selectFrom('reminder_delivery').select(['status', 'attempts']).executeTakeFirstOrThrow();
      assert.deepEqual(row, { status: 'SENT', attempts: 2 });
      await survivor.tick();
      assert.equal(remindersTo().length, 2);
    });

    it('refuses, when sending, an endpoint whose name now resolves to a private address (DNS rebinding)', async (t) => {
      const { app, database, scenario, clock } = await setup(t);
      await subscribePush(app, scenario, 'rebound');
      // As if the endpoint's name had been re-pointed at the loopback after the subscription was checked.
      await database.db.updateTable('reminder_subscription').set({ endpoint: `https://localhost:1/push/rebound` }).execute();
      const strict = createReminderWorker({ db: database.db, config: testConfig({}), log: app.log, now: clock });
      t.after(() => strict.stop());
      clock.set('2026-11-26T18:00:00.000Z');
      const summary = await strict.tick();
      assert.equal(summary.sent, 0);
      assert.equal(summary.retried, 1);
      const row = await database.db.selectFrom('reminder_delivery').select(['status', 'last_error']).executeTakeFirstOrThrow();
      assert.equal(row.status, 'PENDING');
      assert.match(row.last_error!, /non-public address 127\.0\.0\.1|non-public address ::1/);
    });

    it('two worker instances on one database send each reminder once', async (t) => {
      const { app, database, scenario, clock, worker } = await setup(t);
      const names = Array.from({ length: 40 }, (_, i) => `pair-${i}`);
      for (const name of names) await subscribePush(app, scenario, name);
      // On PostgreSQL the second worker has connections of its own, as another instance would.
      let second: Database = database;
      if (kind === 'postgres') {
        second = await openDatabase({ databaseUrl: process.env.DATABASE_URL!, dataDir: null, schema: database.schema, poolSize: 4 });
        t.after(() => second.close());
      }
      const a = worker({ batchSize: 7, concurrency: 3 });
      const b = worker({ db: second.db, batchSize: 5, concurrency: 4 });
      clock.set('2026-11-26T18:00:00.000Z');
      await Promise.all([a.tick(), b.tick(), a.tick(), b.tick()]);
      await Promise.all([a.tick(), b.tick()]);
      for (const name of names) assert.equal(pushesTo(name).length, 1, name);
      const rows = await database.db.selectFrom('reminder_delivery').select(['status']).execute();
      assert.equal(rows.length, names.length);
      assert.ok(rows.every((r) => r.status === 'SENT'));
    });

    it('starts, ticks on its own and stops cleanly', async (t) => {
      const { app, scenario, clock, worker } = await setup(t);
      await subscribePush(app, scenario, 'started');
      clock.set('2026-11-26T18:00:00.000Z');
      const w = worker({ intervalMs: 20 });
      const arrived = new Promise<void>((resolve) => {
        peers.push.onReceive = (received) => received.subscriber === 'started' && resolve();
      });
      t.after(() => {
        peers.push.onReceive = null;
      });
      w.start();
      await arrived;
      await w.stop();
      assert.equal(pushesTo('started').length, 1);
    });
  });
}
