import { describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { testDatabaseKinds, createTestDatabase } from '../helpers/database.ts';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { CHAT_IDS as ids, importChatBundle } from '../helpers/chat-fixtures.ts';
import { insertMessages } from '../helpers/console-fixtures.ts';
import { rowCountingDatabase } from '../helpers/query-counter.ts';
import type { DatabaseKind } from '../../src/db/database.ts';

/**
 * A conversation's length is bounded (MAX_CONVERSATION_MESSAGES), its messages are read one page at a time, and an
 * answer reads only the last messages, whatever the conversation holds.
 */

const NOW = '2026-11-23T08:00:00.000Z';
let devices = 0;

async function setup(t: TestContext, kind: DatabaseKind) {
  const base = await createTestDatabase(kind);
  t.after(() => base.close());
  const { counter, database } = rowCountingDatabase(base, 'message');
  const { app } = await buildTestApp(t, kind, { clock: fixedClock(NOW), database });
  await importChatBundle(t, base);
  const open = async (): Promise<string> => {
    const res = await app.inject({ method: 'POST', url: '/public/chat/conversations', payload: { deviceId: `long-${kind}-${++devices}`, cityId: ids.city } });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().id;
  };
  const fill = (conversationId: string, count: number) => insertMessages(base.db, { conversationId, count, startAt: '2026-11-01T08:00:00.000Z' });
  return { app, counter, open, fill };
}

const list = (app: FastifyInstance, id: string, query = '') => app.inject({ method: 'GET', url: `/public/chat/conversations/${id}/messages${query}` });
const send = (app: FastifyInstance, id: string, content: string) =>
  app.inject({ method: 'POST', url: `/public/chat/conversations/${id}/messages`, payload: { content } });

for (const kind of testDatabaseKinds()) {
  describe(`long conversations (${kind})`, () => {
    it('lists the 100 most recent messages oldest first, older pages through Link: rel="next"', async (t) => {
      const { app, open, fill } = await setup(t, kind);
      const id = await open();
      const all = await fill(id, 250);

      const first = await list(app, id);
      assert.equal(first.statusCode, 200);
      assert.deepEqual(first.json().map((m: { id: string }) => m.id), all.slice(150));
      assert.equal(first.headers.link, `</public/chat/conversations/${id}/messages?before=${all[150]}>; rel="next"`);
      assert.match(String(first.headers['access-control-expose-headers']), /\bLink\b/, 'a browser may read it');

      const second = await list(app, id, `?before=${all[150]}`);
      assert.deepEqual(second.json().map((m: { id: string }) => m.id), all.slice(50, 150));
      assert.equal(second.headers.link, `</public/chat/conversations/${id}/messages?before=${all[50]}>; rel="next"`);
      const last = await list(app, id, `?before=${all[50]}`);
      assert.deepEqual(last.json().map((m: { id: string }) => m.id), all.slice(0, 50));
      assert.equal(last.headers.link, undefined, 'nothing older');

      const short = await open();
      await fill(short, 3);
      assert.equal((await list(app, short)).headers.link, undefined);
    });

    it('answers 400 for a malformed before, or one that is not a message of this conversation', async (t) => {
      const { app, open, fill } = await setup(t, kind);
      const id = await open();
      await fill(id, 2);
      const [elsewhere] = await fill(await open(), 1);
      for (const before of ['nope', elsewhere, '99999999-0000-4000-8000-000000000099']) {
        const res = await list(app, id, `?before=${before}`);
        assert.equal(res.statusCode, 400, before);
        assert.equal(res.json().error, 'Bad Request');
        assert.match(res.json().message, /before/);
      }
      assert.equal((await list(app, id, `?before=${elsewhere}`)).json().message, 'Le paramètre «\u00a0before\u00a0» doit désigner un message de cette conversation.');
    });

    it('refuses a message once the conversation holds 200, telling the citizen to open a new one', async (t) => {
      const { app, open, fill } = await setup(t, kind);
      const nearlyFull = await open();
      await fill(nearlyFull, 198);
      assert.equal((await send(app, nearlyFull, 'Quand passe la poubelle des ordures ?')).statusCode, 201);

      const full = await open();
      await fill(full, 200);
      const refused = await send(app, full, 'Quand passe la poubelle des ordures ?');
      assert.equal(refused.statusCode, 400);
      assert.deepEqual(refused.json(), {
        statusCode: 400,
        message: 'Cette conversation a atteint 200\u00a0messages\u00a0: ouvrez-en une nouvelle pour continuer à écrire.',
        error: 'Bad Request',
        code: 'conversationFull',
        field: null,
      });
      assert.equal((await list(app, full)).json().at(-1).content, 'Message 200', 'nothing was stored');
    });

    it('reads only the last messages of a long conversation to answer', async (t) => {
      const { app, counter, open, fill } = await setup(t, kind);
      const id = await open();
      await fill(id, 1000);
      counter.rows = 0;
      const res = await send(app, id, 'Quand passe la poubelle des ordures ?');
      assert.equal(res.statusCode, 400, 'a conversation this long is full');
      assert.ok(counter.rows <= 25, `${counter.rows} messages read`);

      const shorter = await open();
      await fill(shorter, 150);
      counter.rows = 0;
      const answered = await send(app, shorter, 'Quand passe la poubelle des ordures ?');
      assert.equal(answered.statusCode, 201);
      assert.match(answered.json().content, /mardi 24 novembre 2026/);
      assert.ok(counter.rows <= 25, `${counter.rows} messages read`);
    });
  });
}
