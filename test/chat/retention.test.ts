import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { buildTestApp, fixedClock, testConfig } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { CHAT_IDS as ids, importChatBundle } from '../helpers/chat-fixtures.ts';
import { agentToken, bearer, consoleEnv } from '../helpers/console-fixtures.ts';
import { ConfigError } from '../../src/config.ts';
import { createChatRetention } from '../../src/chat/retention.ts';

/**
 * The chat's retention (docs/operating.md, chat retention): a conversation with no activity — no message, no status
 * change — for CHAT_RETENTION_DAYS (365 by default) is deleted with its messages and tickets, whatever its status; one
 * written to or moved by an agent since is kept; the analytics' counts and the language-model usage stay.
 */

const T0 = '2026-11-23T08:00:00.000Z';
const days = (n: number) => new Date(Date.parse(T0) + n * 86_400_000).toISOString();

describe('CHAT_RETENTION_DAYS', () => {
  it('is 365 days by default, and a bad value stops the start like any other setting', () => {
    assert.equal(testConfig().chatRetentionDays, 365);
    assert.equal(testConfig({ CHAT_RETENTION_DAYS: '30' }).chatRetentionDays, 30);
    for (const bad of ['0', '-1', 'abc', '1.5', '36501', '365d']) {
      assert.throws(() => testConfig({ CHAT_RETENTION_DAYS: bad }), (err: unknown) => err instanceof ConfigError && /CHAT_RETENTION_DAYS/.test(err.message), bad);
    }
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`chat retention (${kind})`, () => {
    async function setup(t: Parameters<typeof buildTestApp>[0]) {
      const clock = fixedClock(T0);
      const { app, database } = await buildTestApp(t, kind, { env: consoleEnv, clock });
      await importChatBundle(t, database);
      const db = database.db;
      /** An agent of the group, logged in at the clock's time. */
      const agent = async () => bearer(await agentToken({ cityGroupIds: [ids.cityGroup] }, { now: clock() }));
      let device = 0;
      const open = async () => {
        const res = await app.inject({ method: 'POST', url: '/public/chat/conversations', payload: { deviceId: `retention-${kind}-${++device}`, cityId: ids.city } });
        assert.equal(res.statusCode, 201, res.body);
        return res.json().id as string;
      };
      const say = async (id: string, content = 'Quand passe la poubelle ?') => {
        const res = await app.inject({ method: 'POST', url: `/public/chat/conversations/${id}/messages`, payload: { content } });
        assert.ok(res.statusCode === 201 || res.statusCode === 202, res.body);
      };
      const messagesOf = async (id: string) => (await app.inject({ url: `/public/chat/conversations/${id}/messages` }));
      const left = async () => (await db.selectFrom('conversation').select('id').orderBy('id').execute()).map((r) => r.id);
      const counted = async () => Number((await db.selectFrom('chat_count').select(sql<string>`coalesce(sum(count), 0)`.as('n')).executeTakeFirstOrThrow()).n);
      const retention = (env: Record<string, string> = {}, batch?: number) => {
        const r = createChatRetention({ db, config: testConfig(env), log: app.log, now: clock, batch });
        t.after(() => r.stop());
        return r;
      };
      return { app, db, clock, agent, open, say, messagesOf, left, counted, retention };
    }

    it('deletes a conversation idle past the retention with its messages and ticket, keeps the ones written to or moved since, and the counts', async (t) => {
      const { app, db, clock, agent, open, say, messagesOf, left, counted, retention } = await setup(t);
      const idle = await open();
      await say(idle);
      const ticket = await app.inject({ method: 'POST', url: `/chat/conversations/${idle}/ticket`, headers: await agent(), payload: { subject: 'Bac', description: 'Rappeler l’habitant.' } });
      assert.equal(ticket.statusCode, 201, ticket.body);
      await db.insertInto('llm_usage').values({ id: crypto.randomUUID(), conversation_id: idle, city_group_id: ids.cityGroup, model: 'm', prompt_tokens: 10, completion_tokens: 5, created_at: new Date(T0) }).execute();
      const talked = await open();
      await say(talked);
      const closed = await open();
      await say(closed);
      const counts = await counted();
      assert.ok(counts >= 3, `the assistant counted what it was asked: ${counts}`);

      // 300 days on: the resident writes again in one, an agent closes the other (a status change).
      clock.set(days(300));
      await say(talked, 'Et le verre ?');
      const close = await app.inject({ method: 'PATCH', url: `/chat/conversations/${closed}/status`, headers: await agent(), payload: { status: 'CLOSED' } });
      assert.equal(close.statusCode, 200, close.body);
      const recent = await open();
      await say(recent);
      const afterCounts = await counted();
      assert.ok(afterCounts > counts);

      const r = retention();
      clock.set(days(364));
      assert.equal(await r.tick(), 0, 'nothing before 365 days');
      clock.set(days(366));
      assert.equal(await r.tick(), 1);
      assert.deepEqual(await left(), [talked, closed, recent].sort());
      assert.equal((await messagesOf(idle)).statusCode, 404);
      assert.equal((await db.selectFrom('message').select('id').where('conversation_id', '=', idle).execute()).length, 0, 'its messages went with it');
      assert.equal((await db.selectFrom('ticket').select('id').where('conversation_id', '=', idle).execute()).length, 0, 'its ticket too');
      const usage = await db.selectFrom('llm_usage').select(['conversation_id', 'prompt_tokens']).execute();
      assert.deepEqual(usage, [{ conversation_id: null, prompt_tokens: 10 }], 'the model usage keeps its tokens, without the conversation');
      assert.equal(await counted(), afterCounts, 'the analytics counts stay');
      for (const id of [talked, closed, recent]) assert.equal((await messagesOf(id)).statusCode, 200);
      assert.equal((await messagesOf(talked)).json().length, 4, 'the kept conversation keeps its old messages too');

      // A year after their last activity, they go too; the counts stay.
      clock.set(days(300 + 366));
      assert.equal(await r.tick(), 3);
      assert.deepEqual(await left(), []);
      assert.equal((await db.selectFrom('message').select('id').execute()).length, 0);
      assert.equal(await counted(), afterCounts);
    });

    it('follows CHAT_RETENTION_DAYS, whatever the status, in batches, and two instances share the work', async (t) => {
      const { app, clock, agent, open, say, left, retention } = await setup(t);
      const old: string[] = [];
      for (let i = 0; i < 7; i++) {
        const id = await open();
        await say(id);
        old.push(id);
      }
      // An agent took one and never came back: idle all the same.
      const taken = await app.inject({ method: 'POST', url: `/chat/conversations/${old[0]}/reply`, headers: await agent(), payload: { content: 'Je regarde.' } });
      assert.equal(taken.statusCode, 201, taken.body);
      clock.set(days(20));
      const kept = await open();
      await say(kept);
      clock.set(days(31));
      const a = retention({ CHAT_RETENTION_DAYS: '30' }, 2);
      const b = retention({ CHAT_RETENTION_DAYS: '30' }, 2);
      const [x, y] = await Promise.all([a.tick(), b.tick()]);
      assert.equal(x + y, 7, `both instances deleted ${x} + ${y}`);
      assert.deepEqual(await left(), [kept]);
      assert.equal(await a.tick(), 0);
    });
  });
}
