import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT } from 'jose';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids, seedCities } from '../helpers/city-fixtures.ts';
import {
  CONSOLE_SECRET,
  agentToken,
  bearer,
  consoleEnv,
  insertConversation,
  otherIds,
  seedOtherGroup,
  unsecuredToken,
} from '../helpers/console-fixtures.ts';

const NOW = '2026-11-20T10:00:00.000Z';
const key = new TextEncoder().encode(CONSOLE_SECRET);
const claims = { name: 'Awa Diallo', permissions: ['CHAT_CONVERSATIONS'], cityGroupIds: [ids.group] };

/** One request per console route; `id` fills the conversation routes. */
function everyRoute(id: string) {
  return [
    { method: 'GET', url: '/chat/inbox' },
    { method: 'GET', url: `/chat/conversations/${id}` },
    { method: 'POST', url: `/chat/conversations/${id}/assign`, payload: { agentId: 'agent-1' } },
    { method: 'POST', url: `/chat/conversations/${id}/reply`, payload: { content: 'Bonjour' } },
    { method: 'PATCH', url: `/chat/conversations/${id}/status`, payload: { status: 'CLOSED' } },
    { method: 'POST', url: `/chat/conversations/${id}/ticket`, payload: { subject: 'Bac', description: 'Bac cassé' } },
    { method: 'GET', url: '/chat/usage?from=2026-11-01&to=2026-11-30' },
  ] as const;
}

for (const kind of testDatabaseKinds()) {
  describe(`Console authentication (${kind})`, () => {
    it('answers 401 with WWW-Authenticate: Bearer on every route without a token, before validating anything', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { env: consoleEnv });
      await seedCities(database.db);
      const id = await insertConversation(database.db, { status: 'WAITING_AGENT' });
      for (const target of [id, 'not-a-uuid']) {
        for (const route of everyRoute(target)) {
          const res = await app.inject(route);
          assert.equal(res.statusCode, 401, `${route.method} ${route.url}`);
          assert.equal(res.headers['www-authenticate'], 'Bearer');
          assert.deepEqual(Object.keys(res.json()), ['statusCode', 'message', 'error', 'code', 'field']);
          assert.equal(res.json().error, 'Unauthorized');
          assert.equal(res.json().code, 'unauthorized');
          assert.equal(res.json().field, null);
          assert.match(res.json().message, /Authorization: Bearer/);
        }
      }
      // Nothing was written by the refused requests.
      const row = await database.db.selectFrom('conversation').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      assert.equal(row.status, 'WAITING_AGENT');
      assert.equal(row.assigned_to, null);
      assert.equal((await database.db.selectFrom('message').selectAll().execute()).length, 0);
      assert.equal((await database.db.selectFrom('ticket').selectAll().execute()).length, 0);
    });

    it('answers 401 on every route, saying the console is not configured, when CONSOLE_JWT_SECRET is unset', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      await seedCities(database.db);
      const id = await insertConversation(database.db);
      const headers = bearer(await agentToken());
      for (const route of everyRoute(id)) {
        const res = await app.inject({ ...route, headers });
        assert.equal(res.statusCode, 401, `${route.method} ${route.url}`);
        assert.equal(res.headers['www-authenticate'], 'Bearer');
        assert.match(res.json().message, /console des agents n’est pas configurée/);
      }
    });

    it('accepts a valid token until it expires, then answers 401', async (t) => {
      const clock = fixedClock(NOW);
      const { app, database } = await buildTestApp(t, kind, { env: consoleEnv, clock });
      await seedCities(database.db);
      const headers = bearer(await agentToken({}, { now: new Date(NOW), ttlSeconds: 3600 }));

      clock.set('2026-11-20T10:59:59.000Z');
      const valid = await app.inject({ url: '/chat/inbox', headers });
      assert.equal(valid.statusCode, 200);
      assert.equal(valid.headers['cache-control'], 'no-store');

      clock.set('2026-11-20T11:00:01.000Z');
      const expired = await app.inject({ url: '/chat/inbox', headers });
      assert.equal(expired.statusCode, 401);
      assert.equal(expired.headers['www-authenticate'], 'Bearer');
      assert.equal(expired.json().message, 'Le jeton de console est invalide ou expiré.');
    });

    it('refuses tokens signed with another key, with alg none, with another algorithm, without expiry, or malformed', async (t) => {
      const clock = fixedClock(NOW);
      const { app, database } = await buildTestApp(t, kind, { env: consoleEnv, clock });
      await seedCities(database.db);
      const now = new Date(NOW);
      const exp = Math.floor(now.getTime() / 1000) + 3600;

      const good = await agentToken({}, { now });
      assert.equal((await app.inject({ url: '/chat/inbox', headers: bearer(good) })).statusCode, 200);
      assert.equal((await app.inject({ url: '/chat/inbox', headers: { authorization: `bearer ${good}` } })).statusCode, 200);

      const [header, payload] = good.split('.');
      const refused: Record<string, string> = {
        'another key': await agentToken({}, { now, secret: 'another-secret-0123456789abcdefghijklmnop' }),
        'alg none (by hand)': unsecuredToken({ sub: 'agent-1', exp, ...claims }),
        'alg none keeping the valid payload': `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`,
        'tampered payload': `${header}.${Buffer.from(JSON.stringify({ sub: 'agent-1', exp, ...claims, cityGroupIds: [otherIds.group] })).toString('base64url')}.${good.split('.')[2]}`,
        'HS512 with the right secret': await new SignJWT(claims).setProtectedHeader({ alg: 'HS512' }).setSubject('agent-1').setExpirationTime(exp).sign(key),
        'no expiry': await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject('agent-1').sign(key),
        'no sub': await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(exp).sign(key),
        'not yet valid': await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject('agent-1').setNotBefore(exp - 60).setExpirationTime(exp).sign(key),
        'cityGroupIds not UUIDs': await new SignJWT({ ...claims, cityGroupIds: ["x' OR 1=1"] })
          .setProtectedHeader({ alg: 'HS256' }).setSubject('agent-1').setExpirationTime(exp).sign(key),
        'permissions not an array': await new SignJWT({ ...claims, permissions: 'CHAT_CONVERSATIONS' })
          .setProtectedHeader({ alg: 'HS256' }).setSubject('agent-1').setExpirationTime(exp).sign(key),
        'no name': await new SignJWT({ permissions: claims.permissions, cityGroupIds: claims.cityGroupIds })
          .setProtectedHeader({ alg: 'HS256' }).setSubject('agent-1').setExpirationTime(exp).sign(key),
        'not a JWT': 'abc.def',
      };
      for (const [label, token] of Object.entries(refused)) {
        const res = await app.inject({ url: '/chat/inbox', headers: bearer(token) });
        assert.equal(res.statusCode, 401, label);
        assert.equal(res.headers['www-authenticate'], 'Bearer', label);
        assert.equal(res.json().message, 'Le jeton de console est invalide ou expiré.', label);
      }
      for (const authorization of [`Basic ${Buffer.from('a:b').toString('base64')}`, 'Bearer', `Token ${good}`, `Bearer ${good} extra`]) {
        const res = await app.inject({ url: '/chat/inbox', headers: { authorization } });
        assert.equal(res.statusCode, 401, authorization);
      }
    });

    it('answers 403 to a valid token without the CHAT_CONVERSATIONS permission, on every route', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { env: consoleEnv });
      await seedCities(database.db);
      const id = await insertConversation(database.db);
      for (const permissions of [[], ['BLOG_POSTS'], ['chat_conversations']]) {
        const headers = bearer(await agentToken({ permissions }));
        for (const route of everyRoute(id)) {
          const res = await app.inject({ ...route, headers });
          assert.equal(res.statusCode, 403, `${permissions.join()} ${route.method} ${route.url}`);
          assert.deepEqual(res.json(), {
            statusCode: 403,
            message: 'Ce jeton de console n’a pas la permission CHAT_CONVERSATIONS.',
            error: 'Forbidden',
            code: 'missingPermission',
            field: null,
          });
        }
      }
      const row = await database.db.selectFrom('conversation').select(['status', 'assigned_to']).where('id', '=', id).executeTakeFirstOrThrow();
      assert.deepEqual(row, { status: 'OPEN', assigned_to: null });
    });

    it('answers 404 for a conversation of another group on every conversation route, and changes nothing', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { env: consoleEnv });
      await seedCities(database.db);
      await seedOtherGroup(database.db);
      const theirs = await insertConversation(database.db, { cityGroupId: otherIds.group, cityId: otherIds.city, status: 'WAITING_AGENT' });
      const unknown = '00000000-0000-4000-8000-00000000dead';
      const headers = bearer(await agentToken());
      for (const route of everyRoute(theirs).slice(1, 6)) {
        const res = await app.inject({ ...route, headers });
        assert.equal(res.statusCode, 404, `${route.method} ${route.url}`);
        const unknownRes = await app.inject({ ...route, url: route.url.replace(theirs, unknown), headers });
        // The same answer as for an unknown conversation: nothing tells that it exists.
        assert.deepEqual(res.json(), unknownRes.json());
        assert.deepEqual(res.json(), { statusCode: 404, message: 'Conversation introuvable', error: 'Not Found', code: 'conversationNotFound', field: null });
      }
      const row = await database.db.selectFrom('conversation').select(['status', 'assigned_to']).where('id', '=', theirs).executeTakeFirstOrThrow();
      assert.deepEqual(row, { status: 'WAITING_AGENT', assigned_to: null });
      assert.equal((await database.db.selectFrom('message').selectAll().execute()).length, 0);
      assert.equal((await database.db.selectFrom('ticket').selectAll().execute()).length, 0);

      // An agent of both groups reaches it; an agent of no group sees an empty inbox.
      const both = bearer(await agentToken({ cityGroupIds: [ids.group, otherIds.group] }));
      assert.equal((await app.inject({ url: `/chat/conversations/${theirs}`, headers: both })).statusCode, 200);
      const none = await app.inject({ url: '/chat/inbox', headers: bearer(await agentToken({ cityGroupIds: [] })) });
      assert.deepEqual(none.json(), { data: [], meta: { page: 1, pageSize: 20, total: 0, totalPages: 0 } });
    });

    it('keeps the console out of the public CORS policy', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { env: consoleEnv });
      await seedCities(database.db);
      const origin = 'https://evil.example';
      const preflight = await app.inject({
        method: 'OPTIONS',
        url: '/chat/inbox',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      });
      assert.equal(preflight.headers['access-control-allow-origin'], undefined);
      assert.equal(preflight.headers['access-control-allow-headers'], undefined);
      const get = await app.inject({ url: '/chat/inbox', headers: { origin, ...bearer(await agentToken()) } });
      assert.equal(get.statusCode, 200);
      assert.equal(get.headers['access-control-allow-origin'], undefined);
      // The public API, by contrast, is open to any origin.
      const pub = await app.inject({ url: '/public/cities', headers: { origin } });
      assert.equal(pub.headers['access-control-allow-origin'], '*');
    });

    it('documents the console routes in their own tag with the bearer scheme, apart from the public routes', async (t) => {
      const { app } = await buildTestApp(t, kind, { env: consoleEnv });
      const doc = (await app.inject('/openapi.json')).json();
      assert.deepEqual(doc.components.securitySchemes.consoleToken, {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'Console token of a city agent',
      });
      assert.ok(doc.tags.some((tag: { name: string }) => tag.name === 'console'));
      const consolePaths = Object.keys(doc.paths).filter((p) => p.startsWith('/chat/')).sort();
      assert.deepEqual(consolePaths, [
        '/chat/conversations/{id}',
        '/chat/conversations/{id}/assign',
        '/chat/conversations/{id}/reply',
        '/chat/conversations/{id}/status',
        '/chat/conversations/{id}/ticket',
        '/chat/events',
        '/chat/inbox',
        '/chat/usage',
      ]);
      for (const [path, item] of Object.entries(doc.paths) as [string, Record<string, { tags?: string[]; security?: unknown }>][]) {
        for (const [method, op] of Object.entries(item)) {
          if (path.startsWith('/chat/')) {
            assert.deepEqual(op.tags, ['console'], `${method} ${path}`);
            assert.deepEqual(op.security, [{ consoleToken: [] }], `${method} ${path}`);
          } else if (!/^\/(admin|auth)\//.test(path)) {
            // The agents' accounts (test/auth) have their own schemes; everything else needs none.
            assert.ok(!op.tags?.includes('console'), `${method} ${path}`);
            assert.equal(op.security, undefined, `${method} ${path}`);
          }
        }
      }
      const status = doc.paths['/chat/conversations/{id}/status'].patch;
      assert.match(status.description, /`CLOSED` → `OPEN`/);
      assert.match(status.description, /`WAITING_AGENT` → `WITH_AGENT`, `OPEN`, `CLOSED`/);
      assert.match(doc.paths['/chat/usage'].get.description, /Europe\/Paris/);
    });
  });
}
