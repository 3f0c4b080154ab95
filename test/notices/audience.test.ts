import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import type { DB, ReminderChannel, ReminderStatus } from '../../src/db/types.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids, uuid } from '../helpers/city-fixtures.ts';
import { inject } from '../helpers/admin-fixtures.ts';
import { noticesApp } from '../helpers/notice-fixtures.ts';

/**
 * `GET /admin/notices/audience`: who a notice of a scope would reach, which the console shows before an agent sends
 * one. Counted as the worker chooses: the active subscriptions of the places named, else of the cities named, else of
 * the whole group, in its ACTIF cities.
 */

async function subscribe(db: Kysely<DB>, cityId: string, placeId: string, channel: ReminderChannel, status: ReminderStatus = 'ACTIVE') {
  const now = new Date('2026-11-26T10:00:00.000Z');
  await db
    .insertInto('reminder_subscription')
    .values({
      id: uuid(), device_id: `device-${uuid()}`, city_id: cityId, place_id: placeId, waste_type_ids: '{}', time_of_day: '19:00', channel,
      endpoint: channel === 'WEB_PUSH' ? `https://push.example/${uuid()}` : null, p256dh: channel === 'WEB_PUSH' ? 'key' : null, auth: channel === 'WEB_PUSH' ? 'auth' : null,
      email: channel === 'EMAIL' ? `${uuid()}@example.org` : null, status, origin: 'https://collecte.example', planned_day: null,
      created_at: now, updated_at: now,
    })
    .execute();
}

for (const kind of testDatabaseKinds()) {
  describe(`/admin/notices/audience (${kind})`, () => {
    it('counts the active subscriptions a notice of the scope reaches, by channel', async (t) => {
      const { app, db, asManager } = await noticesApp(t, kind);
      const audience = async (query: string) => {
        const res = await inject(app, asManager, 'GET', `/admin/notices/audience?cityGroupId=${ids.group}${query}`);
        assert.equal(res.statusCode, 200, res.body);
        return res.json();
      };
      assert.deepEqual(await audience(''), { subscriptions: 0, push: 0, email: 0 });

      await subscribe(db, ids.brest, ids.placeCentre, 'WEB_PUSH');
      await subscribe(db, ids.brest, ids.placeCentre, 'EMAIL');
      await subscribe(db, ids.brest, ids.placeCentre, 'EMAIL', 'PENDING');
      await subscribe(db, ids.brest, ids.placeNord, 'WEB_PUSH');

      assert.deepEqual(await audience(''), { subscriptions: 3, push: 2, email: 1 }, 'the whole group; an unconfirmed e-mail is nobody yet');
      assert.deepEqual(await audience(`&cityIds=${ids.brest}`), { subscriptions: 3, push: 2, email: 1 });
      assert.deepEqual(await audience(`&cityIds=${ids.elorn}`), { subscriptions: 0, push: 0, email: 0 });
      assert.deepEqual(await audience(`&placeIds=${ids.placeNord}`), { subscriptions: 1, push: 1, email: 0 });
      assert.deepEqual(await audience(`&placeIds=${ids.placeNord}&placeIds=${ids.placeCentre}`), { subscriptions: 3, push: 2, email: 1 });
    });

    it('checks the scope as a notice’s and the group as the agent’s', async (t) => {
      const { app, asManager, asOutsider } = await noticesApp(t, kind);
      const bad = await inject(app, asManager, 'GET', `/admin/notices/audience?cityGroupId=${ids.group}&cityIds=${ids.elorn}&placeIds=${ids.placeNord}`);
      assert.equal(bad.statusCode, 400, bad.body);
      assert.deepEqual([bad.json().code, bad.json().field], ['validation', 'placeIds[0]']);
      const outside = await inject(app, asOutsider, 'GET', `/admin/notices/audience?cityGroupId=${ids.group}`);
      assert.equal(outside.statusCode, 404);
      assert.deepEqual([outside.json().code, outside.json().field], ['cityGroupNotFound', 'cityGroupId']);
      const missing = await inject(app, asManager, 'GET', '/admin/notices/audience');
      assert.equal(missing.statusCode, 400);
      assert.equal(missing.json().field, 'cityGroupId');
      const anonymous = await app.inject(`/admin/notices/audience?cityGroupId=${ids.group}`);
      assert.equal(anonymous.statusCode, 401);
    });
  });
}
