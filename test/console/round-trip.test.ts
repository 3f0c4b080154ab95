import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids, seedCities } from '../helpers/city-fixtures.ts';
import { agentToken, bearer, consoleEnv } from '../helpers/console-fixtures.ts';

for (const kind of testDatabaseKinds()) {
  describe(`Console round trip with a citizen (${kind})`, () => {
    it('hand-off, inbox, assignment, reply, silent assistant, close: all through the public and console APIs', async (t) => {
      const clock = fixedClock('2026-11-20T09:00:00.000Z');
      const { app, database } = await buildTestApp(t, kind, { env: consoleEnv, clock });
      await seedCities(database.db);
      const headers = bearer(await agentToken({}, { now: new Date('2026-11-20T09:00:00.000Z'), ttlSeconds: 8 * 3600 }));

      // A citizen opens a conversation and asks for a person.
      const opened = await app.inject({ method: 'POST', url: '/public/chat/conversations', payload: { deviceId: 'device-round-trip', cityId: ids.brest } });
      assert.equal(opened.statusCode, 201);
      const id: string = opened.json().id;
      clock.set('2026-11-20T09:01:00.000Z');
      const ask = await app.inject({ method: 'POST', url: `/public/chat/conversations/${id}/messages`, payload: { content: 'je veux parler à un agent' } });
      assert.equal(ask.statusCode, 201);
      assert.equal(ask.json().role, 'assistant');

      // It waits in the agent's inbox.
      const inbox = await app.inject({ url: '/chat/inbox?status=WAITING_AGENT', headers });
      assert.equal(inbox.statusCode, 200);
      assert.deepEqual(inbox.json().data.map((c: { id: string; status: string }) => [c.id, c.status]), [[id, 'WAITING_AGENT']]);
      assert.equal(inbox.json().data[0].lastMessageAt, '2026-11-20T09:01:00.000Z');

      // The agent takes it and answers.
      clock.set('2026-11-20T09:05:00.000Z');
      const assigned = await app.inject({ method: 'POST', url: `/chat/conversations/${id}/assign`, headers, payload: { agentId: 'agent-1' } });
      assert.equal(assigned.statusCode, 200);
      assert.equal(assigned.json().assignedTo, 'agent-1');
      clock.set('2026-11-20T09:06:00.000Z');
      const reply = await app.inject({ method: 'POST', url: `/chat/conversations/${id}/reply`, headers, payload: { content: 'Bonjour, ici Awa, du service déchets.' } });
      assert.equal(reply.statusCode, 201);
      assert.equal(reply.json().role, 'agent');

      const seen = await app.inject(`/public/chat/conversations/${id}/messages`);
      assert.deepEqual(seen.json().map((m: { role: string }) => m.role), ['user', 'assistant', 'agent']);
      assert.equal(seen.json()[2].content, 'Bonjour, ici Awa, du service déchets.');
      const mine = await app.inject({ url: '/chat/inbox?assignedTo=agent-1&status=WITH_AGENT', headers });
      assert.deepEqual(mine.json().data.map((c: { id: string }) => c.id), [id]);

      // The citizen writes again: the assistant stays silent (202) and the agent sees the message.
      clock.set('2026-11-20T09:07:00.000Z');
      const again = await app.inject({ method: 'POST', url: `/public/chat/conversations/${id}/messages`, payload: { content: 'Mon bac jaune n’a pas été collecté.' } });
      assert.equal(again.statusCode, 202);
      assert.equal(again.json().role, 'user');
      const detail = (await app.inject({ url: `/chat/conversations/${id}`, headers })).json();
      assert.equal(detail.status, 'WITH_AGENT');
      assert.deepEqual(detail.messages.map((m: { role: string }) => m.role), ['user', 'assistant', 'agent', 'user']);
      assert.deepEqual(detail.messages.at(-1), again.json());
      assert.equal(detail.lastMessageAt, '2026-11-20T09:07:00.000Z');

      // The agent closes it; the citizen can no longer write there.
      clock.set('2026-11-20T09:10:00.000Z');
      const closed = await app.inject({ method: 'PATCH', url: `/chat/conversations/${id}/status`, headers, payload: { status: 'CLOSED' } });
      assert.equal(closed.statusCode, 200);
      assert.equal(closed.json().status, 'CLOSED');
      const refused = await app.inject({ method: 'POST', url: `/public/chat/conversations/${id}/messages`, payload: { content: 'Merci !' } });
      assert.equal(refused.statusCode, 400);
      assert.equal(refused.json().error, 'Bad Request');
      const final = (await app.inject({ url: `/chat/conversations/${id}`, headers })).json();
      assert.equal(final.messages.length, 4);
      assert.equal((await app.inject({ url: '/chat/inbox?status=WAITING_AGENT', headers })).json().meta.total, 0);
    });
  });
}
