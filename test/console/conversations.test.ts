import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids, seedCities } from '../helpers/city-fixtures.ts';
import {
  agentToken,
  bearer,
  consoleEnv,
  insertConversation,
  insertMessage,
  insertMessages,
  otherIds,
  seedOtherGroup,
} from '../helpers/console-fixtures.ts';
import type { ConversationStatus } from '../../src/db/types.ts';

const NOW = '2026-11-20T10:00:00.000Z';
const STATUSES: ConversationStatus[] = ['OPEN', 'WAITING_AGENT', 'WITH_AGENT', 'CLOSED'];
const ALLOWED = new Set([
  'OPEN>WAITING_AGENT', 'OPEN>CLOSED',
  'WAITING_AGENT>WITH_AGENT', 'WAITING_AGENT>OPEN', 'WAITING_AGENT>CLOSED',
  'WITH_AGENT>OPEN', 'WITH_AGENT>CLOSED',
  'CLOSED>OPEN',
]);

async function setup(t: Parameters<typeof buildTestApp>[0], kind: Parameters<typeof buildTestApp>[1]) {
  const clock = fixedClock(NOW);
  const { app, database } = await buildTestApp(t, kind, { env: consoleEnv, clock });
  await seedCities(database.db);
  await seedOtherGroup(database.db);
  const headers = bearer(await agentToken({}, { now: new Date(NOW) }));
  return { app, db: database.db, clock, headers };
}

const idsOf = (body: { data: { id: string }[] }) => body.data.map((c) => c.id);

for (const kind of testDatabaseKinds()) {
  describe(`Console conversations (${kind})`, () => {
    it('lists the inbox of the agent’s groups, newest activity first and never-written-to last, with filters', async (t) => {
      const { app, db, headers } = await setup(t, kind);
      const silentOld = await insertConversation(db, { createdAt: '2026-11-18T08:00:00.000Z', lastMessageAt: null });
      const silentNew = await insertConversation(db, { createdAt: '2026-11-19T08:00:00.000Z', lastMessageAt: null });
      const waiting = await insertConversation(db, { status: 'WAITING_AGENT', lastMessageAt: '2026-11-20T09:00:00.000Z' });
      const mine = await insertConversation(db, { status: 'WITH_AGENT', assignedTo: 'agent-1', lastMessageAt: '2026-11-20T09:30:00.000Z' });
      const closed = await insertConversation(db, { status: 'CLOSED', assignedTo: 'agent-2', lastMessageAt: '2026-11-19T09:00:00.000Z' });
      await insertConversation(db, { cityGroupId: otherIds.group, cityId: otherIds.city, status: 'WAITING_AGENT', lastMessageAt: '2026-11-20T09:59:00.000Z' });

      const all = await app.inject({ url: '/chat/inbox', headers });
      assert.equal(all.statusCode, 200);
      assert.equal(all.headers['cache-control'], 'no-store');
      assert.deepEqual(idsOf(all.json()), [mine, waiting, closed, silentNew, silentOld]);
      assert.deepEqual(all.json().meta, { page: 1, pageSize: 20, total: 5, totalPages: 1 });
      // The device shows by its pseudonym, never by its id (a bearer secret): see device-pseudonym.test.ts.
      const pseudonym = all.json().data[0].devicePseudonym;
      assert.match(pseudonym, /^Appareil [0-9A-F]{6}$/);
      assert.deepEqual(all.json().data[0], {
        id: mine,
        devicePseudonym: pseudonym,
        cityId: ids.brest,
        cityGroupId: ids.group,
        placeId: null,
        status: 'WITH_AGENT',
        createdAt: '2026-11-20T08:00:00.000Z',
        updatedAt: '2026-11-20T08:00:00.000Z',
        lastMessageAt: '2026-11-20T09:30:00.000Z',
        assignedTo: 'agent-1',
      });
      assert.equal(all.json().data[1].assignedTo, null);

      const waitingOnly = await app.inject({ url: '/chat/inbox?status=WAITING_AGENT', headers });
      assert.deepEqual(idsOf(waitingOnly.json()), [waiting]);
      assert.equal(waitingOnly.json().meta.total, 1);
      assert.deepEqual(idsOf((await app.inject({ url: '/chat/inbox?assignedTo=agent-2', headers })).json()), [closed]);
      assert.deepEqual(idsOf((await app.inject({ url: '/chat/inbox?assignedTo=agent-1&status=WITH_AGENT', headers })).json()), [mine]);
      assert.deepEqual(idsOf((await app.inject({ url: '/chat/inbox?assignedTo=agent-1&status=OPEN', headers })).json()), []);

      const page2 = await app.inject({ url: '/chat/inbox?page=2&pageSize=2', headers });
      assert.deepEqual(idsOf(page2.json()), [closed, silentNew]);
      assert.deepEqual(page2.json().meta, { page: 2, pageSize: 2, total: 5, totalPages: 3 });

      for (const query of ['status=PENDING', 'status=open', 'pageSize=101', 'page=0', 'assignedTo=']) {
        const res = await app.inject({ url: `/chat/inbox?${query}`, headers });
        assert.equal(res.statusCode, 400, query);
        assert.equal(res.json().error, 'Bad Request');
      }
    });

    it('shows one conversation with its messages oldest first and its tickets', async (t) => {
      const { app, db, headers } = await setup(t, kind);
      const id = await insertConversation(db, { status: 'WAITING_AGENT', lastMessageAt: '2026-11-20T09:02:00.000Z' });
      const second = await insertMessage(db, { conversationId: id, role: 'assistant', content: 'Je transmets à un agent.', createdAt: '2026-11-20T09:02:00.000Z' });
      const first = await insertMessage(db, { conversationId: id, role: 'user', content: 'je veux parler à un agent', createdAt: '2026-11-20T09:01:00.000Z' });

      const empty = await app.inject({ url: `/chat/conversations/${id}`, headers });
      assert.equal(empty.statusCode, 200);
      assert.deepEqual(empty.json().tickets, []);
      assert.deepEqual(empty.json().messages.map((m: { id: string }) => m.id), [first, second]);
      assert.deepEqual(empty.json().messages[0], {
        id: first,
        conversationId: id,
        role: 'user',
        content: 'je veux parler à un agent',
        placeId: null,
        createdAt: '2026-11-20T09:01:00.000Z',
      });
      assert.equal(empty.json().status, 'WAITING_AGENT');
      assert.equal(empty.json().assignedTo, null);

      const ticket = await app.inject({
        method: 'POST', url: `/chat/conversations/${id}/ticket`, headers, payload: { subject: ' Bac cassé ', description: ' Couvercle arraché rue de Siam. ' },
      });
      assert.equal(ticket.statusCode, 201);
      const detail = (await app.inject({ url: `/chat/conversations/${id}`, headers })).json();
      assert.deepEqual(detail.tickets, [ticket.json()]);
      assert.deepEqual(detail.tickets[0], {
        id: ticket.json().id,
        conversationId: id,
        subject: 'Bac cassé',
        description: 'Couvercle arraché rue de Siam.',
        status: 'OPEN',
        createdAt: NOW,
      });
      const row = await db.selectFrom('ticket').select('created_by').executeTakeFirstOrThrow();
      assert.equal(row.created_by, 'agent-1');

      const malformed = await app.inject({ url: '/chat/conversations/not-a-uuid', headers });
      assert.equal(malformed.statusCode, 400);
      const unknown = await app.inject({ url: '/chat/conversations/00000000-0000-4000-8000-00000000dead', headers });
      assert.equal(unknown.statusCode, 404);
    });

    it('shows the 100 most recent messages of a long conversation, older ones through Link: rel="next"', async (t) => {
      const { app, db, headers } = await setup(t, kind);
      const id = await insertConversation(db, { status: 'WAITING_AGENT', lastMessageAt: '2026-11-20T09:00:00.000Z' });
      const all = await insertMessages(db, { conversationId: id, count: 150, startAt: '2026-11-19T08:00:00.000Z' });
      const other = await insertConversation(db, { lastMessageAt: '2026-11-20T09:00:00.000Z' });
      const [elsewhere] = await insertMessages(db, { conversationId: other, count: 1, startAt: '2026-11-19T08:00:00.000Z' });

      const recent = await app.inject({ url: `/chat/conversations/${id}`, headers });
      assert.equal(recent.statusCode, 200);
      assert.deepEqual(recent.json().messages.map((m: { id: string }) => m.id), all.slice(50));
      assert.equal(recent.headers.link, `</chat/conversations/${id}?before=${all[50]}>; rel="next"`);
      const older = await app.inject({ url: `/chat/conversations/${id}?before=${all[50]}`, headers });
      assert.deepEqual(older.json().messages.map((m: { id: string }) => m.id), all.slice(0, 50));
      assert.equal(older.json().id, id);
      assert.equal(older.headers.link, undefined);
      for (const before of [elsewhere, 'nope']) {
        const res = await app.inject({ url: `/chat/conversations/${id}?before=${before}`, headers });
        assert.equal(res.statusCode, 400, before);
        assert.match(res.json().message, /before/);
      }
    });

    it('assigns a conversation without changing its status, and releases it with null', async (t) => {
      const { app, db, clock, headers } = await setup(t, kind);
      const id = await insertConversation(db, { status: 'WAITING_AGENT', lastMessageAt: '2026-11-20T09:00:00.000Z' });
      clock.set('2026-11-20T10:05:00.000Z');
      const res = await app.inject({ method: 'POST', url: `/chat/conversations/${id}/assign`, headers, payload: { agentId: 'agent-7' } });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().assignedTo, 'agent-7');
      assert.equal(res.json().status, 'WAITING_AGENT');
      assert.equal(res.json().updatedAt, '2026-11-20T10:05:00.000Z');
      assert.equal(res.json().lastMessageAt, '2026-11-20T09:00:00.000Z');
      assert.equal((await app.inject({ url: `/chat/conversations/${id}`, headers })).json().assignedTo, 'agent-7');

      const released = await app.inject({ method: 'POST', url: `/chat/conversations/${id}/assign`, headers, payload: { agentId: null } });
      assert.equal(released.statusCode, 200);
      assert.equal(released.json().assignedTo, null);

      for (const payload of [{}, { agentId: '' }, { agentId: 7 }, { agentId: 'x'.repeat(201) }]) {
        const bad = await app.inject({ method: 'POST', url: `/chat/conversations/${id}/assign`, headers, payload });
        assert.equal(bad.statusCode, 400, JSON.stringify(payload));
        assert.match(bad.json().message, /agentId/);
      }
    });

    it('stores an agent reply: role agent, WITH_AGENT, lastMessageAt, the replier takes an unheld conversation; the citizen reads it', async (t) => {
      const { app, db, clock, headers } = await setup(t, kind);
      const id = await insertConversation(db, { status: 'WAITING_AGENT', lastMessageAt: '2026-11-20T09:00:00.000Z' });
      await insertMessage(db, { conversationId: id, role: 'user', content: 'Un agent svp', createdAt: '2026-11-20T09:00:00.000Z' });
      clock.set('2026-11-20T10:10:00.000Z');
      const res = await app.inject({ method: 'POST', url: `/chat/conversations/${id}/reply`, headers, payload: { content: '  Bonjour, je regarde.  ' } });
      assert.equal(res.statusCode, 201);
      const message = res.json();
      assert.deepEqual({ ...message, id: undefined }, {
        id: undefined,
        conversationId: id,
        role: 'agent',
        content: 'Bonjour, je regarde.',
        placeId: null,
        createdAt: '2026-11-20T10:10:00.000Z',
      });
      const conversation = (await app.inject({ url: `/chat/conversations/${id}`, headers })).json();
      assert.equal(conversation.status, 'WITH_AGENT');
      assert.equal(conversation.lastMessageAt, '2026-11-20T10:10:00.000Z');
      assert.equal(conversation.assignedTo, 'agent-1');
      assert.equal(conversation.messages.at(-1).id, message.id);
      const stored = await db.selectFrom('message').select('author_id').where('id', '=', message.id).executeTakeFirstOrThrow();
      assert.equal(stored.author_id, 'agent-1');

      const citizen = await app.inject(`/public/chat/conversations/${id}/messages`);
      assert.equal(citizen.statusCode, 200);
      assert.deepEqual(citizen.json().at(-1), message);

      // Another agent's reply keeps the conversation with whoever holds it; an OPEN conversation goes WITH_AGENT.
      const other = bearer(await agentToken({ sub: 'agent-2' }, { now: new Date(NOW) }));
      await app.inject({ method: 'POST', url: `/chat/conversations/${id}/reply`, headers: other, payload: { content: 'Je complète.' } });
      assert.equal((await app.inject({ url: `/chat/conversations/${id}`, headers })).json().assignedTo, 'agent-1');
      const open = await insertConversation(db, { status: 'OPEN' });
      await app.inject({ method: 'POST', url: `/chat/conversations/${open}/reply`, headers: other, payload: { content: 'Bonjour !' } });
      const openAfter = (await app.inject({ url: `/chat/conversations/${open}`, headers })).json();
      assert.equal(openAfter.status, 'WITH_AGENT');
      assert.equal(openAfter.assignedTo, 'agent-2');
    });

    it('refuses a reply to a CLOSED conversation and a reply outside 1 to 2000 characters after trimming', async (t) => {
      const { app, db, headers } = await setup(t, kind);
      const closed = await insertConversation(db, { status: 'CLOSED', lastMessageAt: '2026-11-19T09:00:00.000Z' });
      const res = await app.inject({ method: 'POST', url: `/chat/conversations/${closed}/reply`, headers, payload: { content: 'Encore là ?' } });
      assert.equal(res.statusCode, 400);
      assert.match(res.json().message, /close/);
      const row = await db.selectFrom('conversation').select(['status', 'last_message_at']).where('id', '=', closed).executeTakeFirstOrThrow();
      assert.equal(row.status, 'CLOSED');
      assert.equal(new Date(row.last_message_at!).toISOString(), '2026-11-19T09:00:00.000Z');
      assert.equal((await db.selectFrom('message').selectAll().execute()).length, 0);

      const open = await insertConversation(db, { status: 'WAITING_AGENT' });
      for (const content of ['   ', 'x'.repeat(2001), '\n\t']) {
        const bad = await app.inject({ method: 'POST', url: `/chat/conversations/${open}/reply`, headers, payload: { content } });
        assert.equal(bad.statusCode, 400);
        assert.match(bad.json().message, /« content »/);
      }
      for (const payload of [{}, { content: '' }, { content: 3 }]) {
        const bad = await app.inject({ method: 'POST', url: `/chat/conversations/${open}/reply`, headers, payload });
        assert.equal(bad.statusCode, 400, JSON.stringify(payload));
      }
      const longest = await app.inject({ method: 'POST', url: `/chat/conversations/${open}/reply`, headers, payload: { content: ` ${'é'.repeat(2000)} ` } });
      assert.equal(longest.statusCode, 201);
      assert.equal(longest.json().content.length, 2000);
    });

    it('allows exactly the documented status transitions; every other one is 400 naming both statuses', async (t) => {
      const { app, db, clock, headers } = await setup(t, kind);
      clock.set('2026-11-20T10:20:00.000Z');
      for (const from of STATUSES) {
        for (const to of STATUSES) {
          const id = await insertConversation(db, { status: from, assignedTo: 'agent-3', lastMessageAt: '2026-11-20T09:00:00.000Z' });
          const res = await app.inject({ method: 'PATCH', url: `/chat/conversations/${id}/status`, headers, payload: { status: to } });
          const row = await db.selectFrom('conversation').select('status').where('id', '=', id).executeTakeFirstOrThrow();
          if (ALLOWED.has(`${from}>${to}`)) {
            assert.equal(res.statusCode, 200, `${from} -> ${to}`);
            assert.equal(res.json().status, to);
            assert.equal(res.json().assignedTo, 'agent-3');
            assert.equal(res.json().updatedAt, '2026-11-20T10:20:00.000Z');
            assert.equal(res.json().lastMessageAt, '2026-11-20T09:00:00.000Z');
            assert.equal(row.status, to);
          } else {
            assert.equal(res.statusCode, 400, `${from} -> ${to}`);
            assert.equal(
              res.json().message,
              `Le champ « status » ne peut pas passer de « ${from} » à « ${to} » : ce changement de statut n’est pas permis.`,
            );
            assert.equal(row.status, from);
          }
        }
      }
      const id = await insertConversation(db);
      for (const payload of [{ status: 'DONE' }, {}, { status: null }]) {
        const bad = await app.inject({ method: 'PATCH', url: `/chat/conversations/${id}/status`, headers, payload });
        assert.equal(bad.statusCode, 400, JSON.stringify(payload));
        assert.match(bad.json().message, /status/);
      }
    });

    it('validates tickets: subject 1-200 and description 1-5000 characters after trimming', async (t) => {
      const { app, db, headers } = await setup(t, kind);
      const id = await insertConversation(db, { status: 'CLOSED' });
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ subject: '  ', description: 'ok' }, /« subject »/],
        [{ subject: 'x'.repeat(201), description: 'ok' }, /« subject »/],
        [{ subject: 'ok', description: ' ' }, /« description »/],
        [{ subject: 'ok', description: 'x'.repeat(5001) }, /« description »/],
        [{ subject: 'ok' }, /description/],
        [{ description: 'ok' }, /subject/],
      ];
      for (const [payload, message] of cases) {
        const res = await app.inject({ method: 'POST', url: `/chat/conversations/${id}/ticket`, headers, payload });
        assert.equal(res.statusCode, 400, JSON.stringify(payload).slice(0, 60));
        assert.match(res.json().message, message);
      }
      assert.equal((await db.selectFrom('ticket').selectAll().execute()).length, 0);
      const ok = await app.inject({
        method: 'POST', url: `/chat/conversations/${id}/ticket`, headers, payload: { subject: 's'.repeat(200), description: 'd'.repeat(5000) },
      });
      assert.equal(ok.statusCode, 201);
      assert.equal(ok.json().status, 'OPEN');
    });
  });
}
