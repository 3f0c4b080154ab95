import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { seedCities } from '../helpers/city-fixtures.ts';
import { agentToken, bearer, consoleEnv, insertConversation, insertMessage } from '../helpers/console-fixtures.ts';

/**
 * A device id is a bearer secret: with it, anyone lists that device's conversations of every city group through the
 * public API. The console shows a stable pseudonym instead, and never the id.
 */

const NOW = '2026-11-20T10:00:00.000Z';
const DEVICE = 'device-secret-brest-0001';
const PSEUDONYM = /^Appareil [0-9A-F]{6}$/;

for (const kind of testDatabaseKinds()) {
  describe(`Console device pseudonyms (${kind})`, () => {
    it('shows a stable pseudonym for the device, and its id in no console answer', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { env: consoleEnv, clock: fixedClock(NOW) });
      await seedCities(database.db);
      const headers = bearer(await agentToken({}, { now: new Date(NOW) }));
      const first = await insertConversation(database.db, { deviceId: DEVICE, status: 'WAITING_AGENT', lastMessageAt: NOW });
      const second = await insertConversation(database.db, { deviceId: DEVICE, lastMessageAt: '2026-11-20T09:00:00.000Z' });
      const other = await insertConversation(database.db, { deviceId: 'device-secret-brest-0002', lastMessageAt: '2026-11-20T08:00:00.000Z' });
      await insertMessage(database.db, { conversationId: first, role: 'user', content: 'je veux parler à un agent', createdAt: NOW });

      const answers = [
        await app.inject({ url: '/chat/inbox', headers }),
        await app.inject({ url: `/chat/conversations/${first}`, headers }),
        await app.inject({ method: 'POST', url: `/chat/conversations/${first}/assign`, headers, payload: { agentId: 'agent-1' } }),
        await app.inject({ method: 'PATCH', url: `/chat/conversations/${first}/status`, headers, payload: { status: 'WITH_AGENT' } }),
      ];
      for (const res of answers) {
        assert.equal(res.statusCode, 200, res.body);
        assert.ok(!res.body.includes(DEVICE), `${res.body.slice(0, 80)}… shows the device id`);
        assert.equal(res.json().deviceId ?? res.json().data?.[0].deviceId, undefined);
      }

      const inbox = answers[0].json().data as { id: string; devicePseudonym: string }[];
      const pseudonymOf = (id: string) => inbox.find((c) => c.id === id)!.devicePseudonym;
      assert.match(pseudonymOf(first), PSEUDONYM);
      assert.equal(pseudonymOf(second), pseudonymOf(first), 'the same device, the same pseudonym');
      assert.notEqual(pseudonymOf(other), pseudonymOf(first), 'another device, another pseudonym');
      for (const res of answers.slice(1)) assert.equal(res.json().devicePseudonym, pseudonymOf(first));
    });

    it('keeps the pseudonym across instances sharing the secret, and changes it with DEVICE_PSEUDONYM_KEY', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { env: consoleEnv, clock: fixedClock(NOW) });
      await seedCities(database.db);
      await insertConversation(database.db, { deviceId: DEVICE, lastMessageAt: NOW });
      const headers = bearer(await agentToken({}, { now: new Date(NOW) }));
      const pseudonym = async (instance: typeof app) =>
        (await instance.inject({ url: '/chat/inbox', headers })).json().data[0].devicePseudonym as string;

      const { app: twin } = await buildTestApp(t, kind, { env: consoleEnv, clock: fixedClock(NOW), database });
      assert.equal(await pseudonym(twin), await pseudonym(app));
      const { app: keyed } = await buildTestApp(t, kind, {
        env: { ...consoleEnv, DEVICE_PSEUDONYM_KEY: 'another-deployment-key' },
        clock: fixedClock(NOW),
        database,
      });
      assert.match(await pseudonym(keyed), PSEUDONYM);
      assert.notEqual(await pseudonym(keyed), await pseudonym(app));
      // The OpenAPI document says what the field is, and lists no deviceId for agents.
      const doc = (await app.inject('/openapi.json')).json();
      const listed = doc.paths['/chat/inbox'].get.responses['200'].content['application/json'].schema.properties.data.items.properties;
      assert.match(listed.devicePseudonym.description, /HMAC-SHA-256 of the deviceId/);
      assert.ok(!('deviceId' in listed));
    });
  });
}
