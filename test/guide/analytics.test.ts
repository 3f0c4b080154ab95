import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.ts';
import { searchCountsOf } from '../../src/guide/search-counts.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { createAccount, loginHeaders } from '../helpers/auth-fixtures.ts';
import { BREST_METROPOLE, PAYS_DES_ABERS, demoGuideApp } from '../helpers/guide-fixtures.ts';

/**
 * Every sorting-guide search is counted per day (the city's), city and normalised query, with nothing identifying
 * the citizen, and GET /admin/analytics (docs/api.md, what citizens search) shows the group's counts per day.
 */

const NOW = '2026-11-24T10:00:00.000Z';

interface QueryCount {
  query: string;
  count: number;
}
interface Day {
  day: string;
  topQueries: QueryCount[];
  notFound: QueryCount[];
  chatTopics: unknown[];
  unanswered: unknown[];
}

for (const kind of testDatabaseKinds()) {
  describe(`search counts and GET /admin/analytics (${kind})`, () => {
    let app: FastifyInstance;
    let database: Database;
    let clock: Awaited<ReturnType<typeof demoGuideApp>>['clock'];
    let cityIds: Map<string, string>;
    let asBrest: { authorization: string };
    let asAbers: { authorization: string };
    let asEditor: { authorization: string };
    const cleanups: (() => Promise<void>)[] = [];

    before(async () => {
      ({ app, database, clock, cityIds } = await demoGuideApp(cleanups, kind, NOW));
      await createAccount(database.db, { email: 'tri@brest.fr', name: 'Brest Tri', permissions: ['CITIES'], cityGroupIds: [BREST_METROPOLE] });
      await createAccount(database.db, { email: 'tri@abers.fr', name: 'Abers Tri', permissions: ['CITIES'], cityGroupIds: [PAYS_DES_ABERS] });
      await createAccount(database.db, { email: 'blog@brest.fr', name: 'Brest Blog', permissions: ['BLOG_POSTS'], cityGroupIds: [BREST_METROPOLE] });
      [asBrest, asAbers, asEditor] = await Promise.all(['tri@brest.fr', 'tri@abers.fr', 'blog@brest.fr'].map((e) => loginHeaders(app, e)));
    });
    after(async () => {
      for (const fn of cleanups.reverse()) await fn();
    });

    const search = (city: string, q: string, headers: Record<string, string> = {}) =>
      app.inject({ method: 'GET', url: `/public/cities/${cityIds.get(city)}/sorting-guide?q=${encodeURIComponent(q)}`, headers });
    const analytics = (headers: Record<string, string>, query: string) => app.inject({ method: 'GET', url: `/admin/analytics?${query}`, headers });
    const dayOf = async (headers: Record<string, string>, day: string, group = BREST_METROPOLE): Promise<Day> => {
      const res = await analytics(headers, `cityGroupId=${group}&from=${day}&to=${day}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().days.length, 1);
      return res.json().days[0];
    };

    it('counts every search per day and normalised query, the cached repeat and the revalidation included', async () => {
      clock.set('2026-11-20T09:00:00.000Z');
      for (const q of ['piles', 'Piles', 'PILES ', 'canapé']) assert.equal((await search('Brest', q)).statusCode, 200);
      const first = await search('Brest', 'xylophone');
      assert.deepEqual(first.json(), []);
      // The same URL again, and a revalidation answered 304: each is a search, counted.
      assert.equal((await search('Brest', 'xylophone')).statusCode, 200);
      assert.equal(first.headers['cache-control'], 'no-cache');
      const revalidated = await search('Brest', 'xylophone', { 'if-none-match': String(first.headers.etag) });
      assert.equal(revalidated.statusCode, 304);
      assert.equal((await search('Guipavas', 'canape')).statusCode, 200);
      // An Abers city: not in Brest Métropole's analytics.
      assert.equal((await search('Plabennec', 'piles')).statusCode, 200);

      const day = await dayOf(asBrest, '2026-11-20');
      assert.deepEqual(day, {
        day: '2026-11-20',
        topQueries: [
          { query: 'piles', count: 3 },
          { query: 'xylophone', count: 3 },
          { query: 'canape', count: 2 },
        ],
        notFound: [{ query: 'xylophone', count: 3 }],
        chatTopics: [],
        unanswered: [],
      });
      const abers = await dayOf(asAbers, '2026-11-20', PAYS_DES_ABERS);
      assert.deepEqual(abers.topQueries, [{ query: 'piles', count: 1 }]);
    });

    it('says how each query reads as citizens typed it, accents kept, while counting it folded', async () => {
      clock.set('2026-10-01T09:00:00.000Z');
      for (const q of ['Capsule de Café !', 'capsule de cafe', '  capsule   de café ']) assert.equal((await search('Brest', q)).statusCode, 200);
      await search('Brest', 'pot d’échappement');
      clock.set(NOW);
      const res = await analytics(asBrest, `cityGroupId=${BREST_METROPOLE}&from=2026-10-01&to=2026-10-01`);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.deepEqual(body.days[0].topQueries, [
        { query: 'capsule de cafe', count: 3 },
        { query: 'pot d echappement', count: 1 },
      ]);
      // The latest search's words: « capsule   de café » with its spaces made one.
      assert.equal(body.queryLabels['capsule de cafe'], 'capsule de café');
      assert.equal(body.queryLabels['pot d echappement'], 'pot d’échappement');
    });

    it('counts on the city\'s own day: 00:30 in Paris is the next day', async () => {
      clock.set('2026-11-20T23:30:00.000Z');
      await search('Brest', 'gravats');
      const next = await dayOf(asBrest, '2026-11-21');
      assert.deepEqual(next.topQueries, [{ query: 'gravats', count: 1 }]);
      assert.ok(!(await dayOf(asBrest, '2026-11-20')).topQueries.some((q) => q.query === 'gravats'));
    });

    it('stores nothing that identifies a citizen: day, city, query, found, count', async () => {
      const { rows } = await sql<{ column_name: string; data_type: string }>`
        SELECT column_name, data_type FROM information_schema.columns
        WHERE table_name = 'search_count' AND table_schema = current_schema()
        ORDER BY column_name`.execute(database.db);
      assert.deepEqual(rows.map((r) => `${r.column_name}:${r.data_type}`), [
        'city_id:uuid',
        'count:integer',
        'day:date',
        'found:boolean',
        'query:text',
        'shown:text',
      ]);
    });

    it('still answers a search when the counts cannot be written, and writes them once the database takes them', async () => {
      clock.set('2026-11-22T09:00:00.000Z');
      const counts = searchCountsOf(app);
      await counts.flush();
      await sql`ALTER TABLE search_count RENAME TO search_count_away`.execute(database.db);
      try {
        const res = await search('Brest', 'frigo');
        assert.equal(res.statusCode, 200);
        assert.equal(res.json()[0].material, 'Réfrigérateur');
        await counts.flush();
      } finally {
        await sql`ALTER TABLE search_count_away RENAME TO search_count`.execute(database.db);
      }
      assert.deepEqual((await dayOf(asBrest, '2026-11-22')).topQueries, [{ query: 'frigo', count: 1 }]);
    });

    it('lists every day of the range, the last 30 days by default', async () => {
      clock.set('2026-11-24T10:00:00.000Z');
      const res = await analytics(asBrest, `cityGroupId=${BREST_METROPOLE}`);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.from, '2026-10-26');
      assert.equal(body.to, '2026-11-24');
      assert.equal(body.days.length, 30);
      assert.deepEqual(body.days.filter((d: Day) => d.topQueries.length > 0).map((d: Day) => d.day), ['2026-11-20', '2026-11-21', '2026-11-22']);
      // Without cityGroupId: the agent's own groups.
      const own = (await analytics(asAbers, 'from=2026-11-20&to=2026-11-22')).json();
      assert.deepEqual(own.days.map((d: Day) => d.topQueries), [[{ query: 'piles', count: 1 }], [], []]);
    });

    it('refuses another group\'s analytics (404, as for an unknown group), other permissions and no token', async () => {
      const other = await analytics(asAbers, `cityGroupId=${BREST_METROPOLE}`);
      assert.equal(other.statusCode, 404);
      assert.equal(other.json().message, 'Groupe de villes introuvable');
      assert.equal((await analytics(asBrest, 'cityGroupId=00000000-0000-4000-8000-000000000000')).statusCode, 404);
      assert.equal((await analytics(asEditor, `cityGroupId=${BREST_METROPOLE}`)).statusCode, 403);
      assert.equal((await analytics({}, `cityGroupId=${BREST_METROPOLE}`)).statusCode, 401);
    });

    it('answers 400 with the calendar\'s French messages for bad dates', async () => {
      const bad = await analytics(asBrest, 'from=2026-02-30');
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().message, 'Le paramètre « from » doit être une date réelle au format AAAA-MM-JJ.');
      const order = await analytics(asBrest, 'from=2026-11-24&to=2026-11-01');
      assert.equal(order.statusCode, 400);
      assert.equal(order.json().message, 'Le paramètre « to » doit être une date égale ou postérieure à « from ».');
      assert.equal((await analytics(asBrest, 'from=2024-01-01&to=2026-01-01')).statusCode, 400);
    });
  });
}
