import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from '../helpers/app.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';
import { ids, seedCities } from '../helpers/city-fixtures.ts';
import { agentToken, consoleEnv, otherIds, seedOtherGroup } from '../helpers/console-fixtures.ts';
import { terminateBackends } from '../helpers/terminate-backends.ts';
import { openEvents, serve, type Events, type ServerEvent } from '../helpers/event-stream.ts';

/**
 * GET /chat/events: the console's inbox, live. A citizen's message, an agent's assignment, reply and status change
 * reach every agent of the conversation's group listening on any instance, and no one else; a reconnection with
 * Last-Event-ID catches up; the token's expiry ends the stream; a lost database connection is survived.
 */

/** The console's stream, as its reader opens it. */
const openInbox = (base: string, token: string, lastEventId?: string) =>
  openEvents(`${base}/chat/events`, { authorization: `Bearer ${token}`, ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }) });

const conversationEvent = (id: string, status?: string) => (e: ServerEvent) =>
  e.event === 'conversation' && e.data.id === id && (status === undefined || e.data.status === status);


async function citizenAsksForAgent(app: FastifyInstance, cityId: string, deviceId: string): Promise<string> {
  const opened = await app.inject({ method: 'POST', url: '/public/chat/conversations', payload: { deviceId, cityId } });
  assert.equal(opened.statusCode, 201, opened.body);
  const id: string = opened.json().id;
  const ask = await app.inject({ method: 'POST', url: `/public/chat/conversations/${id}/messages`, payload: { content: 'je veux parler à un agent' } });
  assert.equal(ask.statusCode, 201, ask.body);
  return id;
}

for (const kind of testDatabaseKinds()) {
  describe(`GET /chat/events (${kind})`, () => {
    it('refuses a missing token (401), a token without the permission (403) and a malformed Last-Event-ID (400), in French', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { env: consoleEnv });
      await seedCities(database.db);
      const none = await app.inject('/chat/events');
      assert.equal(none.statusCode, 401);
      const noPermission = await app.inject({ url: '/chat/events', headers: { authorization: `Bearer ${await agentToken({ permissions: ['CMS'] })}` } });
      assert.equal(noPermission.statusCode, 403);
      assert.match(noPermission.json().message, /CHAT_CONVERSATIONS/);
      const badId = await app.inject({ url: '/chat/events', headers: { authorization: `Bearer ${await agentToken()}`, 'last-event-id': 'abc' } });
      assert.equal(badId.statusCode, 400);
      assert.match(badId.json().message, /« last-event-id »/);
    });

    it('tells each agent listening what changes in their groups’ conversations, and nothing of other groups', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { env: consoleEnv });
      await seedCities(database.db);
      await seedOtherGroup(database.db);
      const base = await serve(app);
      const brest = await openInbox(base, await agentToken());
      const quimper = await openInbox(base, await agentToken({ sub: 'agent-2', name: 'Yann', cityGroupIds: [otherIds.group] }));
      t.after(() => {
        brest.close();
        quimper.close();
      });
      for (const stream of [brest, quimper]) {
        assert.equal(stream.response.status, 200);
        assert.match(stream.response.headers.get('content-type') ?? '', /^text\/event-stream/);
        assert.equal(stream.response.headers.get('cache-control'), 'no-store');
        const ready = await stream.next();
        assert.equal(ready.event, 'ready');
        assert.equal(ready.id, String(ready.data.since));
      }

      // A citizen of Brest asks for a person: Brest's agent sees it waiting, with the inbox's shape.
      const id = await citizenAsksForAgent(app, ids.brest, 'device-events-0001');
      const waiting = await brest.next(conversationEvent(id, 'WAITING_AGENT'));
      assert.match(waiting.id!, /^\d+$/);
      const listed = (await app.inject({ url: '/chat/inbox', headers: { authorization: `Bearer ${await agentToken()}` } })).json().data[0];
      assert.deepEqual(waiting.data, listed);

      // The agent takes it and answers; the status and the assignee come live, in order.
      const headers = { authorization: `Bearer ${await agentToken()}` };
      assert.equal((await app.inject({ method: 'POST', url: `/chat/conversations/${id}/assign`, headers, payload: { agentId: 'agent-1' } })).statusCode, 200);
      const assigned = await brest.next((e) => conversationEvent(id)(e) && e.data.assignedTo === 'agent-1');
      assert.ok(Number(assigned.id) > Number(waiting.id));
      assert.equal((await app.inject({ method: 'POST', url: `/chat/conversations/${id}/reply`, headers, payload: { content: 'Bonjour, ici Awa.' } })).statusCode, 201);
      await brest.next(conversationEvent(id, 'WITH_AGENT'));

      // Quimper's agent heard none of that: the first conversation it hears of is Quimper's own.
      const own = await citizenAsksForAgent(app, otherIds.city, 'device-events-0002');
      const first = await quimper.next((e) => e.event === 'conversation');
      assert.equal(first.data.id, own);
      // And Brest's agent does not hear of Quimper's.
      const later = await citizenAsksForAgent(app, ids.brest, 'device-events-0003');
      const next = await brest.next((e) => e.event === 'conversation' && e.data.id !== id);
      assert.equal(next.data.id, later);
    });

    it('catches a reconnecting agent up from Last-Event-ID', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { env: consoleEnv });
      await seedCities(database.db);
      const base = await serve(app);
      const token = await agentToken();
      const first = await openInbox(base, token);
      const ready = await first.next((e) => e.event === 'ready');
      first.close();

      // While the agent is away (a train through a tunnel), two citizens ask for a person.
      const missed = [await citizenAsksForAgent(app, ids.brest, 'device-events-0011'), await citizenAsksForAgent(app, ids.brest, 'device-events-0012')];
      const again = await openInbox(base, token, ready.id!);
      t.after(() => again.close());
      const seen = new Set<string>();
      while (!missed.every((id) => seen.has(id))) {
        const e = await again.next((x) => x.event === 'conversation');
        assert.equal(e.data.status, 'WAITING_AGENT');
        seen.add(e.data.id);
      }
    });

    it('ends the stream with `expired` when the token expires', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { env: consoleEnv });
      await seedCities(database.db);
      const base = await serve(app);
      const stream = await openInbox(base, await agentToken({}, { ttlSeconds: 2 }));
      const events = await stream.rest();
      assert.deepEqual(events.map((e) => e.event), ['ready', 'expired']);
    });
  });
}

const DATABASE_URL = process.env.DATABASE_URL;

describe('GET /chat/events on PostgreSQL, several instances', { skip: DATABASE_URL ? false : 'needs DATABASE_URL' }, () => {
  it('hears on one instance what another wrote, and goes on after its database connections are killed', async (t) => {
    const applicationName = `collecte-events-${randomBytes(4).toString('hex')}`;
    const database = await createTestDatabase('postgres', { applicationName });
    const writer = (await buildTestApp(t, 'postgres', { env: consoleEnv, database })).app;
    const reader = (await buildTestApp(t, 'postgres', { env: consoleEnv, database })).app;
    t.after(() => database.close());
    await seedCities(database.db);
    const base = await serve(reader);
    const stream: Events = await openInbox(base, await agentToken());
    t.after(() => stream.close());
    await stream.next((e) => e.event === 'ready');

    const id = await citizenAsksForAgent(writer, ids.brest, 'device-events-0021');
    await stream.next(conversationEvent(id, 'WAITING_AGENT'));

    // A failover: every connection of this test's pool is cut. The poll fails, then finds its way back.
    assert.ok((await terminateBackends(applicationName)) > 0, 'no connection of the test was found to terminate');
    const headers = { authorization: `Bearer ${await agentToken()}` };
    let status = 0;
    for (let attempt = 0; attempt < 5 && status !== 200; attempt++) {
      status = (await writer.inject({ method: 'POST', url: `/chat/conversations/${id}/assign`, headers, payload: { agentId: 'agent-1' } })).statusCode;
    }
    assert.equal(status, 200);
    await stream.next((e) => conversationEvent(id)(e) && e.data.assignedTo === 'agent-1');
  });
});
