import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createECDH, randomBytes, randomInt } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { importBundleFile } from '../../src/bundle/import.ts';
import { DEMO_BUNDLE_PATH } from '../../src/demo/load.ts';
import { signConsoleToken } from '../../src/auth/token.ts';
import { loadReminderKeys } from '../../src/reminders/keys.ts';
import { signLink } from '../../src/domain/signed-links.ts';
import type { Database } from '../../src/db/database.ts';
import { testConfig, fixedClock } from '../helpers/app.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';
import {
  collectRoutes,
  withoutEventStreams,
  dumpTables,
  fuzzRequest,
  problemWith,
  silentReads,
  toInject,
  type DemoValues,
  type FuzzRequest,
  type Route,
} from './requests.ts';
import { tableIds } from './records.ts';
import { addResidentRequests, demoValues } from './demo-values.ts';

/**
 * Property-based fuzzing of every route the app serves, on the demo data: random paths, query strings, headers
 * and bodies must never give a 5xx, every 4xx is the contract's French error body, and public data is unchanged.
 *
 * Each database's run draws a seed of its own, so that every run explores new requests; the seed is in the suite's
 * name and printed as a diagnostic, passing or failing. Replay a run with
 * `FUZZ_SEED=<seed> npx node --test test/fuzz/public-routes.test.ts` (the seed then serves every database).
 * FUZZ_RUNS sets the number of requests per database (by default 10,000 in all, shared between the databases the run has:
 * 5,000 each on PGlite and PostgreSQL, every run drawing new ones); FUZZ_LIST=1 lists every failing request
 * instead of stopping at the first; FUZZ_LOG=error shows the server's log of a 5xx.
 */
const FIXED_SEED = process.env.FUZZ_SEED === undefined ? null : Number(process.env.FUZZ_SEED);
if (FIXED_SEED !== null && !Number.isSafeInteger(FIXED_SEED)) throw new Error(`FUZZ_SEED must be an integer, got ${process.env.FUZZ_SEED}`);
const RUNS = process.env.FUZZ_RUNS === undefined ? Math.ceil(10_000 / testDatabaseKinds().length) : Number(process.env.FUZZ_RUNS);
const LIST_ALL = process.env.FUZZ_LIST === '1';

/**
 * Tables that requests may legitimately write: a valid challenge completion, a conversation and its messages
 * (and what the assistant records alongside), a failed login (counted by the login throttle), a sorting-guide search
 * (counted per day and query), an answer of the assistant (counted per day and topic), a reminder subscription. Every other table must be byte for byte the same after the run.
 */
const WRITABLE_TABLES = [
  'challenge_completion',
  'conversation',
  'message',
  'ticket',
  'llm_usage',
  'login_attempt',
  'search_count',
  'chat_count',
  // Reminder subscriptions (made, updated, deleted by their routes) and the keys generated at the first need.
  'reminder_subscription',
  'reminder_setting',
  // What the iCalendar feed last published of each occurrence that ever moved, for its SEQUENCE (written by reads).
  'calendar_sequence',
  // Residents' requests, the devices that follow them, their histories, photos and reference counters.
  'resident_request',
  'request_follower',
  'request_update',
  'request_photo',
  'request_counter',
  'request_count',
] as const;

const CONSOLE_JWT_SECRET = 'fuzz-console-secret-0123456789abcdef';

/** The day the demo describes, so that its challenges are open and its pages published. */
const NOW = '2026-11-22T10:00:00.000Z';

for (const kind of testDatabaseKinds()) {
  // fast-check takes a 32-bit seed.
  const SEED = FIXED_SEED ?? randomInt(2 ** 31);
  describe(`fuzzing every route on the demo data (${kind}, seed ${SEED}, ${RUNS} requests)`, () => {
    let database: Database;
    let mediaDir: string;
    let app: FastifyInstance;
    let routes: Route[];
    let values: DemoValues;

    before(async () => {
      database = await createTestDatabase(kind);
      mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'collecte-fuzz-media-'));
      await importBundleFile(database, DEMO_BUNDLE_PATH, { mediaDir, now: new Date(NOW) });
      app = await buildApp({
        config: testConfig({ RATE_LIMIT_MAX: '0', MEDIA_DIR: mediaDir, CONSOLE_JWT_SECRET }),
        database,
        clock: fixedClock(NOW),
        ...(process.env.FUZZ_LOG ? { logger: pino({ level: process.env.FUZZ_LOG }) } : {}),
      });
      await app.ready();
      // The back office (/admin, /auth) has its own file, admin-routes.test.ts, with its accounts: here, the other
      // routes get the requests, so that every public read is reached often enough to be seen answering.
      routes = withoutEventStreams(app, collectRoutes(app).filter((r) => !/^\/(admin|auth)(\/|$)/.test(r.url)));
      values = await publicDemoValues(app, database);
    });
    after(async () => {
      await app?.close();
      await database?.close();
      await fs.rm(mediaDir, { recursive: true, force: true });
    });

    it('finds the routes from the app itself', () => {
      const urls = routes.map((r) => `${r.method} ${r.url.replace(/\|:[^/]+/g, '')}`);
      for (const expected of [
        'GET /public/cities/:id',
        'GET /public/cities/:id/places/:placeId/calendar.ics',
        'POST /public/challenges/complete',
        'GET /public/cms/media/:id/file',
        'GET /public/blog-posts',
        'OPTIONS /public*',
      ]) {
        assert.ok(urls.includes(expected), `${expected} in ${urls.join(', ')}`);
      }
      // The numeric parameters, which get edge numbers (Infinity, -0, past their bound).
      for (const name of ['page', 'pageSize']) assert.ok(values.numericParams.includes(name), `${name} in ${values.numericParams.join(', ')}`);
    });

    it('answers 2xx to a well-formed request on every public read route', async () => {
      // Seed-independent: a route whose parameters exclude each other (an address or a position) goes past validation
      // in few random draws.
      const reads = routes.filter((r) => r.method === 'GET' && r.url.startsWith('/public/'));
      const silent = await silentReads(app, reads, values, { seed: SEED });
      assert.deepEqual(silent, [], 'public reads that never answered 2xx to 40 well-formed requests');
    });

    it('never answers 5xx, always the French error body for 4xx, and leaves public data unchanged', async (t) => {
      t.diagnostic(`fuzz seed on ${kind}: ${SEED} (replay: FUZZ_SEED=${SEED} npx node --test test/fuzz/public-routes.test.ts)`);
      const before = await dumpTables(database.db, WRITABLE_TABLES);
      const servedBefore = await readListings(app);
      const failures: string[] = [];
      let sent = 0;
      const answered = new Map<string, number>();
      const property = fc.asyncProperty(fuzzRequest(routes, values), async (request: FuzzRequest) => {
        sent += 1;
        const response = await app.inject(toInject(request));
        const problem = problemWith(request, response);
        if (request.method === request.route.split(' ')[0] && response.statusCode < 300) answered.set(request.route, (answered.get(request.route) ?? 0) + 1);
        if (problem && LIST_ALL) failures.push(problem);
        else if (problem) throw new Error(problem);
      });
      try {
        await fc.assert(property, { numRuns: RUNS, seed: SEED, endOnFailure: true });
      } catch (err) {
        // fast-check keeps what the property threw as the cause.
        const cause = (err as Error).cause instanceof Error ? `\n${((err as Error).cause as Error).message}` : '';
        throw new Error(`fuzzing failed; replay with FUZZ_SEED=${SEED}\n${(err as Error).message}${cause}`);
      }
      if (failures.length) {
        assert.fail(`${failures.length} failing requests (FUZZ_SEED=${SEED}):\n${failures.slice(0, 200).join('\n')}`);
      }
      assert.ok(sent >= RUNS, `sent ${sent} requests`);
      // The requests went past validation into every public read, not only into 400s.
      const publicReads = routes.filter((r) => r.method === 'GET' && r.url.startsWith('/public/')).map((r) => `${r.method} ${r.url}`);
      const fewest = [...publicReads].sort((a, b) => (answered.get(a) ?? 0) - (answered.get(b) ?? 0))[0];
      t.diagnostic(`the public read answered 2xx the fewest times: ${fewest}, ${answered.get(fewest) ?? 0} times`);
      t.diagnostic(`public reads that never answered 2xx in the run: ${publicReads.filter((route) => !answered.has(route)).join(', ') || 'none'}`);

      const afterRun = await dumpTables(database.db, WRITABLE_TABLES);
      for (const table of Object.keys(before)) {
        assert.deepEqual(afterRun[table], before[table], `table ${table} changed (FUZZ_SEED=${SEED})`);
      }
      // And what the API serves is what it served before, recomputed past the response cache.
      await app.dataChanged();
      assert.deepEqual(await readListings(app), servedBefore);
      assert.equal(servedBefore['/public/cities'].length, values.cityIds.length - values.inactiveCityIds.length);
    });
  });
}

/** The main public listings, as JSON. */
async function readListings(app: FastifyInstance): Promise<Record<string, unknown[]>> {
  const reads: Record<string, unknown[]> = {};
  for (const url of ['/public/cities', '/public/city-groups', '/public/blog-posts', '/public/cms/sites?pageSize=100']) {
    const res = await app.inject(url);
    assert.equal(res.statusCode, 200, url);
    reads[url.split('?')[0]] = res.json();
  }
  return reads;
}

/** The demo's values with console tokens and a conversation to aim the chat routes at. */
async function publicDemoValues(app: FastifyInstance, database: Database): Promise<DemoValues> {
  const db = database.db;
  const values = await demoValues(app, database, new Date(NOW));
  // Console agents: one who sees every group (twice as often), one who sees none, one without the chat permission.
  const now = new Date(NOW);
  for (const claims of [
    { sub: 'fuzz-agent', name: 'Agent', cityGroupIds: values.cityGroupIds },
    { sub: 'fuzz-agent', name: 'Agent', cityGroupIds: values.cityGroupIds },
    { sub: 'agent-1', name: 'Agent 1', cityGroupIds: [] },
    { sub: 'agent-2', name: 'Agent 2', cityGroupIds: values.cityGroupIds, permissions: [] },
  ]) {
    values.authorizations.push(`Bearer ${await signConsoleToken(CONSOLE_JWT_SECRET, claims, { now, ttlSeconds: 3600 })}`);
  }
  // A conversation to aim the chat routes at, when the chat exists and the demo has a group that enabled it.
  const chatCity = await db
    .selectFrom('city')
    .innerJoin('city_group', 'city_group.id', 'city.city_group_id')
    .select('city.id')
    .where('city_group.chat_enabled', '=', true)
    .where('city.status', '=', 'ACTIF')
    .executeTakeFirstOrThrow();
  if (app.hasRoute({ method: 'POST', url: '/public/chat/conversations' })) {
    const created = await app.inject({
      method: 'POST',
      url: '/public/chat/conversations',
      payload: { deviceId: values.deviceIds[0], cityId: chatCity.id },
    });
    if (created.statusCode === 201) values.conversationIds.push(created.json().id);
    else throw new Error(`could not open a conversation to fuzz: ${created.statusCode} ${created.body}`);
  }
  // A reminder subscription, and its signed links, to aim the link routes at (a public address literal: nothing is
  // posted to it, and no name is looked up).
  const place = await db
    .selectFrom('collection_place')
    .innerJoin('city', 'city.id', 'collection_place.city_id')
    .select(['collection_place.id as placeId', 'city.id as cityId'])
    .where('city.status', '=', 'ACTIF')
    .executeTakeFirstOrThrow();
  const subscriber = createECDH('prime256v1');
  const subscribed = await app.inject({
    method: 'POST',
    url: '/public/reminders/subscriptions',
    payload: {
      deviceId: values.deviceIds[0],
      ...place,
      channel: 'WEB_PUSH',
      webPush: {
        endpoint: 'https://93.184.215.14/push/fuzz',
        keys: { p256dh: subscriber.generateKeys().toString('base64url'), auth: randomBytes(16).toString('base64url') },
      },
    },
  });
  if (subscribed.statusCode !== 201) throw new Error(`could not subscribe to reminders to fuzz: ${subscribed.statusCode} ${subscribed.body}`);
  const { linkKey } = await loadReminderKeys(db, app.config);
  values.reminderTokens = (['confirm', 'unsubscribe'] as const).map((purpose) => signLink(linkKey, subscribed.json().id, purpose, now));
  await addResidentRequests(app, database, values.deviceIds[0], now);
  const request = await db.selectFrom('resident_request').select('id').orderBy('id').executeTakeFirstOrThrow();
  values.requestTokens = ['request-track', 'request-unsubscribe'].map((purpose) => signLink(linkKey, request.id, purpose, now));
  // Read again, so that the conversation opened and the requests filed above are among them.
  values.idsByTable = await tableIds(db);
  return values;
}
