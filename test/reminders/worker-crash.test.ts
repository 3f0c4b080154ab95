import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KyselyPlugin } from 'kysely';
import { buildTestApp, fixedClock, testConfig } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { insertCalendarScenario } from '../helpers/calendar-fixtures.ts';
import { reminderPeers } from '../helpers/reminder-peers.ts';
import { createReminderWorker, type ReminderWorkerOptions } from '../../src/reminders/worker.ts';

/**
 * A worker killed in the middle of an evening holds the rows it has claimed until its lease runs
 * out (5 minutes): it must never hold more than it has in flight, so that another worker sends all the rest at once.
 */

const SUBSCRIBERS = 60;
const IN_FLIGHT = 4;

for (const kind of testDatabaseKinds()) {
  describe(`a reminder worker killed mid-evening (${kind})`, () => {
    const peers = reminderPeers();
    const env = () => ({ WEB_PUSH_ALLOW_INSECURE_ENDPOINTS: 'true' });

    it(`strands at most the ${IN_FLIGHT} deliveries it had in flight; another worker sends the rest without waiting for the lease`, async (t) => {
      const clock = fixedClock('2026-11-26T12:00:00.000Z');
      const { app, database } = await buildTestApp(t, kind, { clock, env: env() });
      const scenario = await insertCalendarScenario(database.db);
      const names = Array.from({ length: SUBSCRIBERS }, (_, i) => `stranded-${kind}-${i}`);
      for (const name of names) {
        const subscriber = peers.push.subscriber(name);
        const response = await app.inject({
          method: 'POST',
          url: '/public/reminders/subscriptions',
          payload: { deviceId: `device-${name}`, cityId: scenario.cityId, placeId: scenario.placeId, channel: 'WEB_PUSH', webPush: { endpoint: subscriber.endpoint, keys: subscriber.keys } },
        });
        assert.equal(response.statusCode, 201, response.body);
      }
      const worker = (options: Partial<ReminderWorkerOptions> = {}) => {
        const w = createReminderWorker({ db: database.db, config: testConfig(env()), log: app.log, now: clock, ...options });
        t.after(() => w.stop());
        return w;
      };
      const received = () => new Set(peers.push.received.filter((p) => names.includes(p.subscriber)).map((p) => p.subscriber));

      // The dying worker's database: from the moment the push service has its first message, every statement fails,
      // as for a process killed then (kill -9: nothing is recorded, nothing is given back).
      let dead = false;
      const dying: KyselyPlugin = {
        transformQuery(args) {
          if (dead) throw new Error('the worker process is gone');
          return args.node;
        },
        transformResult: async (args) => args.result,
      };
      peers.push.onReceive = (message) => {
        if (names.includes(message.subscriber)) dead = true;
      };
      t.after(() => {
        peers.push.onReceive = null;
      });
      const doomed = worker({ db: database.db.withPlugin(dying), concurrency: IN_FLIGHT });
      clock.set('2026-11-26T18:00:00.000Z'); // 19:00 in Paris, the evening before Friday 27 November
      await doomed.tick().catch(() => {});
      peers.push.onReceive = null;

      const claimed = await database.db.selectFrom('reminder_delivery').select('id').where('status', '=', 'SENDING').execute();
      assert.ok(claimed.length >= 1, 'the worker died holding what it had in flight');
      assert.ok(claimed.length <= IN_FLIGHT, `${claimed.length} rows held for the dead worker’s lease, more than its ${IN_FLIGHT} in flight`);
      const sentBeforeDeath = received().size;
      assert.ok(sentBeforeDeath <= IN_FLIGHT);

      // Another worker, at the same instant: everything but the dead worker's rows goes out now.
      const survivor = worker();
      await survivor.tick();
      const counts = await database.db.selectFrom('reminder_delivery').select(['status']).execute();
      assert.equal(counts.filter((r) => r.status === 'SENT').length, SUBSCRIBERS - claimed.length);
      assert.equal(counts.filter((r) => r.status === 'SENDING').length, claimed.length, 'the dead worker’s rows wait for its lease');
      assert.ok(received().size >= SUBSCRIBERS - claimed.length);

      // Once the lease is over, the stranded rows go out too.
      clock.set('2026-11-26T18:05:01.000Z');
      await survivor.tick();
      assert.equal(received().size, SUBSCRIBERS);
      const rows = await database.db.selectFrom('reminder_delivery').select(['status']).execute();
      assert.ok(rows.every((r) => r.status === 'SENT'));
    });
  });
}
