import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import pino from 'pino';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { importBundleFile } from '../../src/bundle/import.ts';
import { DEMO_BUNDLE_PATH } from '../../src/demo/load.ts';
import { streetKey } from '../../src/kernel/address.ts';
import { signConsoleToken } from '../../src/auth/token.ts';
import { findAccount } from '../../src/auth/repository.ts';
import type { Permission } from '../../src/auth/permissions.ts';
import type { Database } from '../../src/db/database.ts';
import { testConfig, fixedClock } from '../helpers/app.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';
import { createAccount, loginHeaders } from '../helpers/auth-fixtures.ts';
import {
  collectRoutes, dumpTables, withoutEventStreams, fuzzRequest, isConditionalWrite, problemWith, silentReads, toInject, urlOf, withRecordEtag,
  type DemoValues, type FuzzRequest, type Route,
} from './requests.ts';
import { groupFinder, writeFingerprint, type GroupFinder } from './records.ts';
import { addOpen311Keys, addResidentRequests, demoValues } from './demo-values.ts';

/**
 * Property-based fuzzing of every admin route (`/admin/...`, `/auth/...`, read from the app itself, so that routes
 * added later join without touching this file) on the demo data, with the tokens of real accounts of several scopes,
 * tokens that must be refused, and none. Bodies are drawn from each route's schema in the API document, so that most
 * requests pass validation and reach the services' rules. Invariants of every request:
 * - never a 5xx; every 4xx is the contract's French error body;
 * - a refused request (4xx) or a read writes nothing: the row count of every table, the audit entries and the data
 *   version are the same after it; a successful admin write adds exactly one audit entry, naming only groups of its
 *   agent (a super admin's excepted);
 * - 401 for every token that is not a valid account's; 403 only for a token that lacks the route's permission (as the
 *   guard answers it) or a grant the agent does not hold, never for a super admin. A token is judged on its account
 *   as it now is: after each successful write the fuzzed accounts are read again, so that one the run deactivated or
 *   deleted is then due 401, and one whose permissions changed has its guards asked again;
 * - 404, never anything else, for a well-formed request of group A's CITIES agent naming a record of group B;
 * - 428 `preconditionRequired` for an admin change or deletion without `If-Match` that the guard lets through. Most
 *   well-formed ones carry the record's ETag (read just before) or `*`, so that they are really written; some a
 *   stale tag (412).
 * At the end, every row that changed is explained by an audit entry (its id, or the id of a record it hangs off).
 *
 * The seed is in the suite's name and printed; replay with
 * `FUZZ_SEED=<seed> npx node --test test/fuzz/admin-routes.test.ts`. FUZZ_ADMIN_RUNS sets the number of requests per
 * database (by default 4,000 in all, under 2 minutes on PGlite on a loaded 2-core machine, shared between the databases
 * the run has: 2,000 each on PGlite and PostgreSQL, every run drawing new ones; the public file sends 10,000);
 * FUZZ_TRACE=1 prints every well-formed request with its answer;
 * FUZZ_LIST=1 lists every failing request; FUZZ_LOG=error shows the server's log of a 5xx.
 */
const FIXED_SEED = process.env.FUZZ_SEED === undefined ? null : Number(process.env.FUZZ_SEED);
if (FIXED_SEED !== null && !Number.isSafeInteger(FIXED_SEED)) throw new Error(`FUZZ_SEED must be an integer, got ${process.env.FUZZ_SEED}`);
const RUNS = process.env.FUZZ_ADMIN_RUNS === undefined ? Math.ceil(4_000 / testDatabaseKinds().length) : Number(process.env.FUZZ_ADMIN_RUNS);
const LIST_ALL = process.env.FUZZ_LIST === '1';

const CONSOLE_JWT_SECRET = 'fuzz-admin-secret-0123456789abcdef';

/** The day the demo describes. The clock moves one millisecond per request, so that each audit entry is dated apart. */
const NOW = '2026-11-22T10:00:00.000Z';

/** Tables that logins write (attempts, sessions): not admin writes, and not audited. */
const LOGIN_TABLES = ['login_attempt', 'refresh_session'] as const;

/**
 * Tables the database derives from others by trigger (the requests' totals per group and status): their rows change
 * with an audited row of another table, and name no record of their own.
 */
const DERIVED_TABLES = new Set(['request_count']);

/** What a login changes in an account's row without an audit entry. */
const LOGIN_COLUMNS = ['last_login_at'];

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/**
 * Routes that take a body by POST but store nothing: a place's preview and a group's holiday preview compute what would
 * be, the content check judges MDX.
 */
const READ_BY_POST = /\/(preview|holiday-preview|content\/check)$/;
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** An id no record has. */
const MISSING_ID = '00000000-0000-4000-8000-00000000f022';

/** The scopes of the tokens fuzzed with; `valid` false for those the API must refuse with 401. */
interface Scope {
  name: string;
  valid: boolean;
  /** How often requests carry it, against the others. */
  weight: number;
  superAdmin?: boolean;
  cityGroupIds?: string[];
  /** The token's account and its permissions as last read, for the valid ones. */
  accountId?: string;
  permissions?: readonly string[];
}

const isAdminRoute = (route: string) => / \/admin(\/|$)/.test(route);

/**
 * Whether the request reaches the admin API at all: the test injects it, and the injection resolves dot segments as a
 * browser would (`/admin/series/../..` is `/`, the web app's page), which a route drawn under /admin may leave.
 */
function staysUnderAdmin(request: FuzzRequest): boolean {
  try {
    return /^\/admin(\/|$)/.test(new URL(urlOf(request), 'http://fuzz.invalid').pathname);
  } catch {
    return true;
  }
}

for (const kind of testDatabaseKinds()) {
  const SEED = FIXED_SEED ?? randomInt(2 ** 31);
  describe(`fuzzing every admin route on the demo data (${kind}, seed ${SEED}, ${RUNS} requests)`, () => {
    let database: Database;
    let mediaDir: string;
    let app: FastifyInstance;
    let clock: ReturnType<typeof fixedClock>;
    let routes: Route[];
    let values: DemoValues;
    let groups: GroupFinder;
    let groupA: string;
    let groupB: string;
    /** Scope of each Authorization value fuzzed with. */
    const scopes = new Map<string, Scope>();
    /** The routes whose guard refuses each valid scope (403 before anything else), found by asking it. */
    const guarded = new Map<string, Set<string>>();

    before(async () => {
      database = await createTestDatabase(kind);
      mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'collecte-fuzz-admin-media-'));
      await importBundleFile(database, DEMO_BUNDLE_PATH, { mediaDir, now: new Date(NOW) });
      await addStreetRules();
      clock = fixedClock(NOW);
      app = await buildApp({
        config: testConfig({ RATE_LIMIT_MAX: '0', MEDIA_DIR: mediaDir, CONSOLE_JWT_SECRET }),
        database,
        clock,
        ...(process.env.FUZZ_LOG ? { logger: pino({ level: process.env.FUZZ_LOG }) } : {}),
      });
      await app.ready();
      routes = withoutEventStreams(app, collectRoutes(app).filter((r) => /^\/(admin|auth)(\/|$)/.test(r.url)));
      const cityGroups = await database.db.selectFrom('city_group').select('id').orderBy('name').execute();
      assert.ok(cityGroups.length >= 2, 'the demo has two city groups');
      [groupA, groupB] = cityGroups.map((g) => g.id);
      await addCannedReplies();
      await addFaq();
      await addServiceNotices();
      await addResidentRequests(app, database, 'fuzz-device-0001', new Date(NOW));
      await addOpen311Keys(database, new Date(NOW));
      await addTokens();
      // Read once the accounts exist, so that /admin/users/:id names them.
      values = await demoValues(app, database, new Date(NOW));
      // Group A's CITIES agent is the one the group rule is checked with (404 at group B's records): the run changes
      // and deletes the other accounts (each then judged as it now is), never its own.
      const checker = [...scopes.values()].find((scope) => scope.name === 'CITIES of group A')!.accountId;
      values.idsByTable.account = (values.idsByTable.account ?? []).filter((id) => id !== checker);
      groups = await groupFinder(database.db);
      values.ancestors = await groups.ancestors();
      values.authorizations = [...scopes].flatMap(([authorization, scope]) => Array<string>(scope.weight).fill(authorization));
      // Nine requests in ten carry one of the tokens; the others none, or a hostile Authorization.
      values.authorizationFreq = 10;
      await probeGuards();
      values.admittedBy = new Map(
        routes.map((route) => {
          const key = `${route.method} ${route.url}`;
          return [key, [...guarded].filter(([, refused]) => !refused.has(key)).map(([authorization]) => authorization)];
        }),
      );
    });
    after(async () => {
      await app?.close();
      await database?.close();
      await fs.rm(mediaDir, { recursive: true, force: true });
    });

    /**
     * The demo holds no street rules yet: three on every place, so that the street
     * routes have records to read, change and delete in both groups, as many as the other kinds have.
     */
    async function addStreetRules() {
      const places = await database.db.selectFrom('collection_place').select('id').orderBy('id').execute();
      const rules = places.flatMap((place, i) =>
        ['Rue de Siam', 'Rue Jean-Jaurès', 'Place de la Liberté'].map((street, j) => ({
          id: randomUUID(), place_id: place.id, street, street_key: streetKey(street), from_number: i * 100 + 1, to_number: i * 100 + 99,
          side: (['ALL', 'ODD', 'EVEN'] as const)[j],
        })),
      );
      await database.db.insertInto('place_street').values(rules).execute();
    }

    /**
     * The demo holds no service notices (they are not in the import bundle): two in each group, one for the whole group
     * and one for its first city, so that their routes have records in both.
     */
    async function addServiceNotices() {
      const cities = await database.db.selectFrom('city').select(['id', 'city_group_id']).orderBy('id').execute();
      const notices = [groupA, groupB].flatMap((groupId) => {
        const city = cities.find((c) => c.city_group_id === groupId);
        return [[], city ? [city.id] : []].map((cityIds, i) => ({
          id: randomUUID(), city_group_id: groupId, city_ids: cityIds, title: `Avis ${i + 1}`, body: 'Collectes décalées cette semaine.',
          severity: 'INFO' as const, starts_at: new Date(NOW), ends_at: null, created_at: new Date(NOW), updated_at: new Date(NOW),
        }));
      });
      await database.db.insertInto('service_notice').values(notices).execute();
    }

    /** The demo holds no canned replies: two in each group, so that their routes have records in both. */
    async function addCannedReplies() {
      const replies = [groupA, groupB].flatMap((groupId) =>
        ['Bonjour', 'Merci'].map((title) => ({ id: randomUUID(), city_group_id: groupId, title, content: `${title}, je regarde votre demande.` })),
      );
      await database.db.insertInto('canned_reply').values(replies).execute();
    }

    /** The demo holds no frequently asked questions (they are not in the import bundle): two in each group. */
    async function addFaq() {
      const entries = [groupA, groupB].flatMap((groupId) =>
        ['Faut-il laver les bocaux\u202f?', 'Où jeter un canapé\u202f?'].map((question, position) => ({
          id: randomUUID(), city_group_id: groupId, question, answer: 'Voyez le guide du tri de votre commune.', position,
        })),
      );
      await database.db.insertInto('faq').values(entries).execute();
    }

    /** Accounts really created and logged in, of several scopes; and tokens that must be refused. */
    async function addTokens() {
      const db = database.db;
      // The agents who may write come more often: their requests go further.
      const accounts: Array<Scope & { permissions: Permission[] }> = [
        { name: 'super admin', valid: true, weight: 4, superAdmin: true, permissions: [], cityGroupIds: [] },
        { name: 'CITIES of group A', valid: true, weight: 4, permissions: ['CITIES'], cityGroupIds: [groupA] },
        { name: 'CITIES of group B', valid: true, weight: 2, permissions: ['CITIES'], cityGroupIds: [groupB] },
        { name: 'BLOG_POSTS+CMS of group A', valid: true, weight: 2, permissions: ['BLOG_POSTS', 'CMS'], cityGroupIds: [groupA] },
        { name: 'CHALLENGES of group B', valid: true, weight: 2, permissions: ['CHALLENGES'], cityGroupIds: [groupB] },
        { name: 'USERS of group A', valid: true, weight: 2, permissions: ['USERS'], cityGroupIds: [groupA] },
        { name: 'CHAT_CONVERSATIONS of group A', valid: true, weight: 2, permissions: ['CHAT_CONVERSATIONS'], cityGroupIds: [groupA] },
        { name: 'REQUESTS of group B', valid: true, weight: 2, permissions: ['REQUESTS'], cityGroupIds: [groupB] },
        { name: 'no permission', valid: true, weight: 1, permissions: [], cityGroupIds: [groupA, groupB] },
      ];
      let superId = '';
      for (const [i, account] of accounts.entries()) {
        const email = `fuzz-${i}@collecte.fr`;
        const user = await createAccount(
          db,
          { email, name: account.name, permissions: account.permissions, cityGroupIds: account.cityGroupIds, superAdmin: account.superAdmin },
          new Date(NOW),
        );
        if (account.superAdmin) superId = user.id;
        scopes.set((await loginHeaders(app, email)).authorization, { ...account, accountId: user.id });
      }
      const superClaims = { sub: superId, name: 'Root', cityGroupIds: [], permissions: [], superAdmin: true };
      const longAgo = new Date(new Date(NOW).getTime() - 86_400_000);
      const refused: Array<[string, string]> = [
        ['expired', await signConsoleToken(CONSOLE_JWT_SECRET, superClaims, { now: longAgo, ttlSeconds: 900 })],
        ['signed with another secret', await signConsoleToken('another-secret-0123456789abcdefghij', superClaims, { now: new Date(NOW), ttlSeconds: 900 })],
        [
          'a service token (not an account)',
          await signConsoleToken(CONSOLE_JWT_SECRET, { sub: 'fuzz-agent', name: 'Agent', cityGroupIds: [groupA], permissions: ['CITIES', 'USERS'] }, { now: new Date(NOW), ttlSeconds: 900 }),
        ],
      ];
      for (const [name, token] of refused) scopes.set(`Bearer ${token}`, { name, valid: false, weight: 1 });
    }

    /** Asks each admin route's guard, with each valid token (or the one given), whether it lets the token through. */
    async function probeGuards(only?: string) {
      for (const [authorization, scope] of scopes) {
        if (!scope.valid || (only !== undefined && authorization !== only)) continue;
        const refused = new Set<string>();
        for (const route of routes.filter((r) => r.url.startsWith('/admin'))) {
          const url = route.url.replace(/:[^/]+/g, '00000000-0000-4000-8000-000000000000').replace(/\*$/, '');
          const res = await app.inject({ method: route.method as 'GET', url, headers: { authorization } });
          if (res.statusCode === 403) refused.add(`${route.method} ${route.url}`);
        }
        guarded.set(authorization, refused);
      }
    }

    /**
     * Reads the fuzzed tokens' accounts as they now are (the run may change, deactivate or delete them: a token is
     * judged on its account at every request): one no longer active or existing is then invalid (401 due), and the
     * guards are asked again for one whose permissions or rank changed. Returns what changed, for the diagnostics.
     */
    async function refreshScopes(): Promise<string[]> {
      const changes: string[] = [];
      for (const [authorization, scope] of scopes) {
        if (scope.accountId === undefined) continue;
        const row = (await findAccount(database.db, scope.accountId)) ?? undefined;
        const now: Scope = {
          ...scope,
          valid: row !== undefined && row.active,
          superAdmin: row?.super_admin ?? scope.superAdmin,
          cityGroupIds: row?.city_group_ids ?? scope.cityGroupIds,
          permissions: row ? [...row.permissions].sort() : scope.permissions,
        };
        const rights = (s: Scope) => JSON.stringify([s.valid, s.superAdmin ?? false, [...(s.permissions ?? [])].sort()]);
        const changed = rights(now) !== rights(scope);
        const groupsOf = (s: Scope) => JSON.stringify([...(s.cityGroupIds ?? [])].sort());
        if (!changed && groupsOf(now) === groupsOf(scope)) continue;
        scopes.set(authorization, now);
        const state = row === undefined ? 'deleted' : !row.active ? 'deactivated'
          : `now ${row.super_admin ? 'super admin, ' : ''}[${row.permissions.join(', ')}] of ${row.city_group_ids.map((id) => (id === groupA ? 'A' : id === groupB ? 'B' : id)).join(', ') || 'no group'}`;
        changes.push(`${scope.name}: ${state}`);
        if (changed && now.valid) await probeGuards(authorization);
      }
      return changes;
    }

    it('finds the admin routes from the app, and each guard asks for one permission whatever the group', () => {
      const urls = routes.map((r) => `${r.method} ${r.url.replace(/\|:[^/]+/g, '')}`);
      for (const expected of ['POST /auth/login', 'GET /admin/users/:id', 'PATCH /admin/exceptions/:id', 'GET /admin/audit']) {
        assert.ok(urls.includes(expected), `${expected} in ${urls.join(', ')}`);
      }
      const refusedTo = (name: string) => [...guarded.get([...scopes].find(([, s]) => s.name === name)![0])!].sort();
      const adminRoutes = routes.filter((r) => r.url.startsWith('/admin')).map((r) => `${r.method} ${r.url}`);
      assert.deepEqual(refusedTo('super admin'), []);
      assert.deepEqual(refusedTo('no permission'), [...adminRoutes].sort());
      assert.deepEqual(refusedTo('CITIES of group A'), refusedTo('CITIES of group B'));
      assert.ok(!refusedTo('CITIES of group A').includes('PATCH /admin/exceptions/:id'));
      assert.ok(refusedTo('CITIES of group A').includes('GET /admin/users'));
      assert.ok(!refusedTo('USERS of group A').includes('GET /admin/users'));
    });

    it('answers 2xx to a well-formed super admin read on every admin read route, before anything is changed', async () => {
      // Seed-independent: the random run below may delete the records a read names before it draws that read.
      const superAuthorization = [...scopes].find(([, scope]) => scope.superAdmin)![0];
      const reads = routes.filter((r) => r.method === 'GET' && r.url.startsWith('/admin'));
      const silent = await silentReads(app, reads, values, { seed: SEED, authorization: superAuthorization });
      assert.deepEqual(silent, [], 'admin reads that never answered 2xx to 40 well-formed requests');
    });

    it('never answers 5xx, answers French errors, refuses without writing, and scopes every agent', async (t) => {
      t.diagnostic(`fuzz seed on ${kind}: ${SEED} (replay: FUZZ_SEED=${SEED} npx node --test test/fuzz/admin-routes.test.ts)`);
      const db = database.db;
      const fingerprint = await writeFingerprint(db, LOGIN_TABLES);
      const tableOf = new Map(Object.entries(values.idsByTable).flatMap(([table, ids]) => ids.map((id) => [id, table] as const)));
      const dumpBefore = await dumpTables(db, [...LOGIN_TABLES, 'audit_entry', 'data_version']);
      const runStart = clock();
      let last = await fingerprint();
      const failures: string[] = [];
      let successfulWrites = 0;
      let crossGroupChecks = 0;
      let crossGroup404s = 0;
      /** The reads answered since the last fingerprint. */
      const readsSince: string[] = [];
      let grantRefusals = 0;
      let preconditionsRequired = 0;
      const accountChanges: string[] = [];
      const answered = new Map<string, number>();
      // The ETags that well-formed changes and deletions send are read by an agent who may read every record.
      const superAuthorization = [...scopes].find(([, scope]) => scope.superAdmin)![0];

      /** What is wrong with the answer to a request, given what the database holds after it. */
      async function problemsOf(request: FuzzRequest, status: number, body: string, at: Date): Promise<string[]> {
        const problems: string[] = [];
        const where = `${status} for ${request.method} ${urlOf(request).slice(0, 160)} (${scopeName(request)})`;
        // Reads are fingerprinted with the next request that may write (the fingerprint is half of a request's time):
        // a read that wrote is still caught, named among the reads since the last fingerprint.
        if (READ_METHODS.has(request.method)) {
          readsSince.push(where);
          if (readsSince.length < 20) return isAdminRoute(request.route) && staysUnderAdmin(request) ? scopeProblems(request, status, body, where) : [];
        }
        const now = await fingerprint();
        const changed = Object.keys(now).filter((name) => now[name] !== last[name]);
        const delta = (name: string) => now[name] - last[name];
        const adminWrite = isAdminRoute(request.route) && WRITE_METHODS.has(request.method) && !READ_BY_POST.test(request.path) && status < 300;
        const reads = readsSince.filter((read) => read !== where);
        const readsBefore = reads.length ? ` (or one of the reads before it: ${reads.join('; ')})` : '';
        if (!adminWrite && changed.length) {
          const what = changed.map((n) => `${n} ${last[n]}→${now[n]}`).join(', ');
          problems.push(`${where}: ${status >= 400 ? 'a refused request' : 'a read or a login'}${readsBefore} wrote: ${what}`);
        }
        readsSince.length = 0;
        if (adminWrite) {
          successfulWrites += 1;
          if (delta('audit_entry') !== 1) problems.push(`${where}${readsBefore}: a successful write added ${delta('audit_entry')} audit entries, not one`);
          if (delta('data_version') < 0 || delta('data_version') > 1) problems.push(`${where}: the data version moved by ${delta('data_version')}`);
          const scope = scopes.get(request.headers.authorization ?? '');
          if (scope && !scope.superAdmin) {
            const { rows } = await sql<{ city_group_ids: string[] }>`SELECT city_group_ids FROM audit_entry WHERE at >= ${at}`.execute(db);
            const outside = rows.flatMap((row) => row.city_group_ids).filter((id) => !scope.cityGroupIds?.includes(id));
            if (outside.length || rows.some((row) => row.city_group_ids.length === 0)) {
              problems.push(`${where}: an agent of ${scope.cityGroupIds?.join(', ')} wrote a record of ${JSON.stringify(rows.map((r) => r.city_group_ids))}`);
            }
          }
        }
        last = now;
        if (isAdminRoute(request.route) && staysUnderAdmin(request)) problems.push(...(await scopeProblems(request, status, body, where)));
        // The write may have changed a fuzzed token's account: the next requests are judged on it as it now is.
        if (adminWrite) accountChanges.push(...(await refreshScopes()).map((change) => `${change} by ${where}`));
        return problems;
      }

      const scopeName = (request: FuzzRequest) =>
        request.headers.authorization === undefined ? 'no token' : (scopes.get(request.headers.authorization)?.name ?? 'a hostile Authorization');

      /** The answers that the token's scope allows on an admin route. */
      async function scopeProblems(request: FuzzRequest, status: number, body: string, where: string): Promise<string[]> {
        const scope = scopes.get(request.headers.authorization ?? '');
        const problems: string[] = [];
        if (!scope?.valid) {
          if (status < 400 || status === 403) problems.push(`${where}: a request without a valid account's token was not refused with 401`);
          else if (request.wellFormed && status !== 401) problems.push(`${where}: 401 was due`);
          return problems;
        }
        if (status === 403 && scope.superAdmin) problems.push(`${where}: 403 for a super admin: ${body.slice(0, 200)}`);
        if (!request.wellFormed) return problems;
        const refused = guarded.get(request.headers.authorization!)!.has(request.route);
        if (refused && status !== 403) problems.push(`${where}: the guard refuses this token here, yet it answered ${status}`);
        if (!refused && status === 403) grantRefusals += 1;
        // Past the guard, an admin change or deletion without If-Match goes no further: 428, before validation.
        if (!refused && isConditionalWrite(request.method, request.path) && request.headers['if-match'] === undefined) {
          if (status === 428) preconditionsRequired += 1;
          else problems.push(`${where}: without If-Match, 428 was due: ${body.slice(0, 200)}`);
        }
        // Group A's agent, as long as its account (which the run may change) holds neither group B nor every group.
        if (!refused && scope.name === 'CITIES of group A' && !scope.superAdmin && !scope.cityGroupIds?.includes(groupB)) {
          for (const segment of request.path.split('/')) {
            const table = tableOf.get(segment);
            if (!table || !values.ancestors?.has(segment)) continue;
            // Records move (a city to another group): its group now.
            if ((await groups.groupOf(table, segment)) !== groupB) continue;
            // Another group's record answers as a missing one would: 404, or the same 400 when the request is invalid.
            crossGroupChecks += 1;
            const missing = await app.inject(toInject({ ...request, path: request.path.replace(segment, MISSING_ID) }));
            const afterMissing = await fingerprint();
            if (JSON.stringify(afterMissing) !== JSON.stringify(last)) {
              problems.push(`${where}: this request, the same at a missing record, or one of these reads wrote: ${readsSince.join('; ')}`);
            }
            readsSince.length = 0;
            last = afterMissing;
            if (status === 404) crossGroup404s += 1;
            // 404, or the same refusal a missing record gets before it is looked up (400 invalid, 413 too large).
            if (status < 400 || status === 403 || status !== missing.statusCode || body !== missing.body) {
              problems.push(`${where}: a record of the other group (${table} ${segment}) answered ${status} ${body.slice(0, 200)}; a missing one ${missing.statusCode} ${missing.body.slice(0, 200)}`);
            }
            break;
          }
        }
        return problems;
      }

      const property = fc.asyncProperty(fuzzRequest(routes, values, { hostilePerWellFormed: 2 }), async (drawn: FuzzRequest) => {
        // Each request a millisecond after the last: its audit entries are told apart by their date.
        clock.set(new Date(clock().getTime() + 1).toISOString());
        const at = clock();
        const request = await withRecordEtag(app, drawn, superAuthorization);
        const response = await app.inject(toInject(request));
        const problems = await problemsOf(request, response.statusCode, response.body, at);
        if (process.env.FUZZ_TRACE && request.wellFormed) console.log(response.statusCode, scopeName(request), request.method, urlOf(request).slice(0, 120), (request.body ?? '').slice(0, 150), response.statusCode >= 400 ? response.body.slice(0, 150) : '');
        const contract = problemWith(request, response);
        if (contract) problems.unshift(`${contract} (${scopeName(request)})`);
        if (request.method === request.route.split(' ')[0] && response.statusCode < 300) answered.set(request.route, (answered.get(request.route) ?? 0) + 1);
        if (problems.length && LIST_ALL) failures.push(...problems);
        else if (problems.length) throw new Error(problems.join('\n'));
      });
      try {
        await fc.assert(property, { numRuns: RUNS, seed: SEED, endOnFailure: true });
      } catch (err) {
        // fast-check keeps what the property threw as the cause.
        const cause = (err as Error).cause instanceof Error ? `\n${((err as Error).cause as Error).message}` : '';
        const changes = accountChanges.length ? `\nfuzzed accounts the run changed before: ${accountChanges.join('; ')}` : '';
        throw new Error(`fuzzing failed; replay with FUZZ_SEED=${SEED}\n${(err as Error).message}${cause}${changes}`);
      }
      const final = await fingerprint();
      assert.deepEqual(final, last, `one of the last reads wrote: ${readsSince.join('; ')}`);
      if (failures.length) assert.fail(`${failures.length} failing requests (FUZZ_SEED=${SEED}):\n${failures.slice(0, 200).join('\n')}`);

      // The number of successful admin writes is the number of new audit entries.
      const [{ count }] = await db.selectFrom('audit_entry').select((eb) => eb.fn.countAll<string>().as('count')).where('at', '>', runStart).execute();
      assert.equal(Number(count), successfulWrites, 'audit entries added by the run');
      await assertChangesAudited(dumpBefore, runStart);

      t.diagnostic(
        `${successfulWrites} successful admin writes, ${crossGroupChecks} requests at the other group's records (${crossGroup404s} answered 404), ` +
          `${grantRefusals} refused grants, ${preconditionsRequired} changes or deletions without If-Match answered 428`,
      );
      const writes = routes.filter((r) => isAdminRoute(`${r.method} ${r.url}`) && WRITE_METHODS.has(r.method)).map((r) => `${r.method} ${r.url}`);
      t.diagnostic(`fuzzed accounts the run changed: ${accountChanges.join('; ') || 'none'}`);
      t.diagnostic(`admin writes that never succeeded: ${writes.filter((route) => !answered.has(route)).join(', ') || 'none'}`);
      // The requests went past validation: writes succeeded and the group rule was put to the test (every read answering
      // is the sweep's assertion above; here a read may only name records that the run has deleted).
      const reads = routes.filter((r) => r.method === 'GET' && r.url.startsWith('/admin')).map((r) => `${r.method} ${r.url}`);
      t.diagnostic(`admin reads that never answered 2xx in the run: ${reads.filter((route) => !answered.has(route)).join(', ') || 'none'}`);
      assert.ok(successfulWrites > 0, 'no admin write succeeded');
      for (const method of ['PATCH', 'DELETE']) {
        assert.ok([...answered.keys()].some((route) => route.startsWith(`${method} /admin/`)), `no admin ${method} succeeded (If-Match)`);
      }
      assert.ok(preconditionsRequired > 0, 'no admin change or deletion without If-Match was seen answering 428');
      assert.ok(crossGroup404s > 0, 'no request at the other group answered 404');
    });

    /**
     * Every row that the run added, changed or removed is explained by an audit entry of the run: the entry names its
     * id, or the id of a record it hangs off (a collection day of an audited place). A login's own columns aside.
     */
    async function assertChangesAudited(before: Record<string, string[]>, since: Date) {
      const db = database.db;
      const after = await dumpTables(db, [...LOGIN_TABLES, 'audit_entry', 'data_version']);
      const entries = await db.selectFrom('audit_entry').select('entity_id').where('at', '>', since).execute();
      const audited = new Set(entries.map((e) => e.entity_id));
      const withoutLogin = (line: string) => {
        const row = JSON.parse(line) as Record<string, unknown>;
        for (const column of LOGIN_COLUMNS) delete row[column];
        return row;
      };
      const unexplained: string[] = [];
      for (const table of Object.keys(after).filter((name) => !DERIVED_TABLES.has(name))) {
        const old = new Set((before[table] ?? []).map((line) => JSON.stringify(withoutLogin(line))));
        const now = new Set(after[table].map((line) => JSON.stringify(withoutLogin(line))));
        const changed = [...[...old].filter((row) => !now.has(row)), ...[...now].filter((row) => !old.has(row))];
        for (const line of changed) {
          const row = JSON.parse(line) as Record<string, unknown>;
          // Its own id, or a record it hangs off through any number of keys (a serie's question of a deleted
          // challenge), short of the group itself: a group's audited change explains nothing below it.
          const explained = (value: unknown) =>
            typeof value === 'string' && (audited.has(value) || (values.ancestors?.get(value) ?? []).slice(0, -1).some((id) => id !== null && audited.has(id)));
          if (!Object.values(row).some(explained)) unexplained.push(`${table}: ${line.slice(0, 200)}`);
        }
      }
      assert.deepEqual(unexplained.slice(0, 20), [], `${unexplained.length} rows changed without an audit entry`);
    }
  });
}
