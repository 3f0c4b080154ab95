import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids, seedCities } from '../helpers/city-fixtures.ts';
import { agentToken, bearer, consoleEnv, insertLlmUsage, otherIds, seedOtherGroup } from '../helpers/console-fixtures.ts';

for (const kind of testDatabaseKinds()) {
  describe(`Console usage (${kind})`, () => {
    it('sums language-model usage per Paris day and group, only for the agent’s groups, by day then group', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { env: consoleEnv });
      const db = database.db;
      await seedCities(db);
      await seedOtherGroup(db);
      // Around the spring change of 2026 (29 March): Paris is UTC+1 before, UTC+2 after.
      const rows = [
        { cityGroupId: ids.group, createdAt: '2026-03-28T22:59:59.000Z', promptTokens: 1, completionTokens: 2 }, // 28, 23:59:59 in Paris
        { cityGroupId: ids.group, createdAt: '2026-03-28T23:00:00.000Z', promptTokens: 10, completionTokens: 20 }, // 29, 00:00
        { cityGroupId: ids.group, createdAt: '2026-03-29T21:59:59.000Z', promptTokens: 100, completionTokens: 200 }, // 29, 23:59:59
        { cityGroupId: ids.group, createdAt: '2026-03-29T22:00:00.000Z', promptTokens: 1000, completionTokens: 2000 }, // 30, 00:00
        { cityGroupId: ids.emptyGroup, createdAt: '2026-03-29T12:00:00.000Z', promptTokens: 7, completionTokens: 8 },
        { cityGroupId: otherIds.group, createdAt: '2026-03-29T12:00:00.000Z', promptTokens: 50, completionTokens: 50 },
      ];
      for (const row of rows) await insertLlmUsage(db, row);
      const headers = bearer(await agentToken({ cityGroupIds: [ids.group, ids.emptyGroup] }));

      const all = await app.inject({ url: '/chat/usage?from=2026-03-01&to=2026-03-31', headers });
      assert.equal(all.statusCode, 200);
      assert.equal(all.headers['cache-control'], 'no-store');
      assert.deepEqual(all.json(), [
        { day: '2026-03-28', cityGroupId: ids.group, requests: 1, promptTokens: 1, completionTokens: 2 },
        { day: '2026-03-29', cityGroupId: ids.group, requests: 2, promptTokens: 110, completionTokens: 220 },
        { day: '2026-03-29', cityGroupId: ids.emptyGroup, requests: 1, promptTokens: 7, completionTokens: 8 },
        { day: '2026-03-30', cityGroupId: ids.group, requests: 1, promptTokens: 1000, completionTokens: 2000 },
      ]);

      // Both ends are included, as Paris days.
      const oneDay = await app.inject({ url: '/chat/usage?from=2026-03-29&to=2026-03-29', headers });
      assert.deepEqual(oneDay.json().map((r: { day: string; requests: number }) => [r.day, r.requests]), [['2026-03-29', 2], ['2026-03-29', 1]]);
      const twoDays = await app.inject({ url: '/chat/usage?from=2026-03-28&to=2026-03-29', headers });
      assert.deepEqual(twoDays.json().map((r: { day: string }) => r.day), ['2026-03-28', '2026-03-29', '2026-03-29']);

      const onlyOther = await app.inject({ url: '/chat/usage?from=2026-03-01&to=2026-03-31', headers: bearer(await agentToken({ cityGroupIds: [otherIds.group] })) });
      assert.deepEqual(onlyOther.json(), [{ day: '2026-03-29', cityGroupId: otherIds.group, requests: 1, promptTokens: 50, completionTokens: 50 }]);
      const nothing = await app.inject({ url: '/chat/usage?from=2026-04-01&to=2026-04-30', headers });
      assert.deepEqual(nothing.json(), []);
    });

    it('refuses malformed dates, a reversed range and a range longer than 366 days', async (t) => {
      const { app } = await buildTestApp(t, kind, { env: consoleEnv });
      const headers = bearer(await agentToken());
      const cases: [string, RegExp][] = [
        ['from=2026-03-10&to=2026-03-09', /« to » doit être une date égale ou postérieure à « from »/],
        ['from=2025-01-01&to=2026-01-02', /ne peut pas dépasser 366 jours/],
        ['from=2026-02-30&to=2026-03-01', /from/],
        ['from=2026-3-01&to=2026-03-02', /from/],
        ['from=20260301&to=2026-03-02', /from/],
        ['from=2026-03-01&to=2026-03-01T00:00:00Z', /to/],
        ['from=2026-03-01', /to/],
        ['to=2026-03-01', /from/],
      ];
      for (const [query, message] of cases) {
        const res = await app.inject({ url: `/chat/usage?${query}`, headers });
        assert.equal(res.statusCode, 400, query);
        assert.equal(res.json().error, 'Bad Request');
        assert.match(res.json().message, message, query);
      }
      // 366 days, both ends included, is the longest range; a leap day is a real date.
      for (const query of ['from=2025-01-01&to=2026-01-01', 'from=2028-02-29&to=2028-02-29', 'from=2024-01-01&to=2024-12-31']) {
        const res = await app.inject({ url: `/chat/usage?${query}`, headers });
        assert.equal(res.statusCode, 200, query);
        assert.deepEqual(res.json(), []);
      }
    });
  });
}
