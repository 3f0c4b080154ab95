import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { buildApp } from '../../src/app.ts';
import { redactUrl } from '../../src/logger.ts';
import { testConfig } from '../helpers/app.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';
import { CHAT_IDS as ids, importChatBundle } from '../helpers/chat-fixtures.ts';
import { agentToken, bearer, consoleEnv } from '../helpers/console-fixtures.ts';

/**
 * Device ids and conversation ids are bearer secrets: the log, read by operators and kept for long, must hold neither,
 * while still saying which route a request went to.
 */

const DEVICE = 'device-log-secret-4242';

describe('request URLs in the log', () => {
  it('redact device and conversation ids in paths and deviceId query parameters, and nothing else', () => {
    const cases: [string, string][] = [
      [`/public/chat/conversations/${DEVICE}`, '/public/chat/conversations/[redacted]'],
      [`/public/chat/conversations/${DEVICE}?page=2`, '/public/chat/conversations/[redacted]?page=2'],
      ['/public/chat/conversations/5b0f/messages?before=abc', '/public/chat/conversations/[redacted]/messages?before=abc'],
      ['/public/chat/conversations/5b0f/location', '/public/chat/conversations/[redacted]/location'],
      [`/public/challenges/progress/${DEVICE}`, '/public/challenges/progress/[redacted]'],
      ['/chat/conversations/5b0f/reply', '/chat/conversations/[redacted]/reply'],
      [`/public/chat/%63onversations/${DEVICE}`, '/public/chat/conversations/[redacted]'],
      [`/public/anything?deviceId=${DEVICE}&x=1`, '/public/anything?deviceId=[redacted]&x=1'],
      [`/public/anything?device%49d=${DEVICE}`, '/public/anything?device%49d=[redacted]'],
      ['/public/chat/conversations', '/public/chat/conversations'],
      ['/public/cities/5b0f?x=1', '/public/cities/5b0f?x=1'],
    ];
    for (const [url, logged] of cases) assert.equal(redactUrl(url), logged, url);
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`the log of chat requests (${kind})`, () => {
    it('never holds a device id or a conversation id, and still names each route', async (t) => {
      const lines: string[] = [];
      const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
      const database = await createTestDatabase(kind);
      // The language model is unreachable: its failure is logged too.
      const env = { ...consoleEnv, LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_MODEL: 'm', LLM_API_KEY: 'k' };
      const app = await buildApp({ config: testConfig(env), database, logger });
      t.after(async () => {
        await app.close();
        await database.close();
      });
      await importChatBundle(t, database);

      const created = await app.inject({ method: 'POST', url: '/public/chat/conversations', payload: { deviceId: DEVICE, cityId: ids.city } });
      assert.equal(created.statusCode, 201);
      const id: string = created.json().id;
      const headers = bearer(await agentToken({ cityGroupIds: [ids.cityGroup] }));
      const requests = [
        { method: 'POST' as const, url: `/public/chat/conversations/${id}/messages`, payload: { content: 'Quand passent les ordures ?' } },
        { method: 'GET' as const, url: `/public/chat/conversations/${id}/messages` },
        { method: 'PATCH' as const, url: `/public/chat/conversations/${id}/location`, payload: { cityId: ids.city, placeId: ids.place } },
        { method: 'GET' as const, url: `/public/chat/conversations/${DEVICE}` },
        { method: 'GET' as const, url: `/public/challenges/progress/${DEVICE}` },
        { method: 'GET' as const, url: `/public/chat/availability?cityId=${ids.city}&deviceId=${DEVICE}` },
        { method: 'GET' as const, url: `/chat/conversations/${id}`, headers },
      ];
      for (const request of requests) assert.ok((await app.inject(request)).statusCode < 500, request.url);

      const log = lines.join('');
      assert.ok(!log.includes(DEVICE), 'a device id is in the log');
      assert.ok(!log.includes(id), 'a conversation id is in the log');
      const urls = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'incoming request').map((l) => `${l.req.method} ${l.req.url}`);
      assert.ok(urls.includes('POST /public/chat/conversations/[redacted]/messages'), urls.join('\n'));
      assert.ok(urls.includes('GET /public/chat/conversations/[redacted]'));
      assert.ok(urls.includes('GET /public/challenges/progress/[redacted]'));
      assert.ok(urls.includes(`GET /public/chat/availability?cityId=${ids.city}&deviceId=[redacted]`));
      assert.ok(urls.includes('GET /chat/conversations/[redacted]'));
      assert.ok(lines.some((l) => l.includes('language model failed')), 'the model’s failure was logged');
    });
  });
}
