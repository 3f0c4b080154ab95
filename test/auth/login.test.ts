import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { jwtVerify } from 'jose';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids, seedCities } from '../helpers/city-fixtures.ts';
import { CONSOLE_SECRET, PASSWORD, authApp, bearer, createAccount, postLogin, refreshCookieOf } from '../helpers/auth-fixtures.ts';
import { insertConversation } from '../helpers/console-fixtures.ts';

const NOW = '2026-11-20T10:00:00.000Z';
const EMAIL = 'awa.diallo@brest-metropole.fr';
const WRONG = { statusCode: 401, message: 'Adresse e-mail ou mot de passe incorrect.', error: 'Unauthorized', code: 'loginFailed', field: null };

for (const kind of testDatabaseKinds()) {
  describe(`POST /auth/login (${kind})`, () => {
    it('answers the access token, the account and the refresh cookie, and records the login', async (t) => {
      const clock = fixedClock(NOW);
      const { app, database } = await authApp(t, kind, { clock });
      const created = await createAccount(database.db, { permissions: ['CHAT_CONVERSATIONS', 'CITIES'] });
      assert.equal(created.lastLoginAt, null);

      // The e-mail is matched whatever its case and surrounding spaces.
      const res = await postLogin(app, '  Awa.Diallo@Brest-Metropole.FR ', PASSWORD);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['cache-control'], 'no-store');
      const body = res.json();
      assert.deepEqual(Object.keys(body), ['accessToken', 'expiresAt', 'user']);
      assert.equal(body.expiresAt, '2026-11-20T10:15:00.000Z');
      assert.deepEqual(body.user, { ...created, lastLoginAt: NOW });
      assert.doesNotMatch(res.body, /argon2|password/i);

      const { payload, protectedHeader } = await jwtVerify(body.accessToken, new TextEncoder().encode(CONSOLE_SECRET), { currentDate: new Date(NOW) });
      assert.equal(protectedHeader.alg, 'HS256');
      assert.equal(payload.sub, created.id);
      assert.equal(payload.name, 'Awa Diallo');
      assert.deepEqual(payload.permissions, ['CITIES', 'CHAT_CONVERSATIONS']);
      assert.deepEqual(payload.cityGroupIds, [ids.group]);
      assert.equal(payload.exp! - payload.iat!, 15 * 60);
      assert.equal('superAdmin' in payload, false);

      const cookie = refreshCookieOf(res);
      assert.match(cookie.value, /^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
      for (const attribute of ['HttpOnly', 'Secure', 'SameSite=Strict', 'Path=/auth', 'Max-Age=43200']) {
        assert.ok(cookie.header.split('; ').includes(attribute), `${attribute} in ${cookie.header}`);
      }
      // Only a hash of the refresh token is stored.
      const sessions = await database.db.selectFrom('refresh_session').selectAll().execute();
      assert.equal(sessions.length, 1);
      assert.ok(!JSON.stringify(sessions).includes(cookie.value.split('.')[1]));

      const account = await database.db.selectFrom('account').select(['last_login_at', 'password_hash']).executeTakeFirstOrThrow();
      assert.equal(account.last_login_at?.toISOString(), NOW);
      assert.match(account.password_hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    });

    it('gives an access token that GET /chat/inbox accepts unchanged, with the superAdmin claim only for a super admin', async (t) => {
      const { app, database } = await authApp(t, kind);
      await createAccount(database.db);
      await createAccount(database.db, { email: 'root@collecte.fr', name: 'Root', superAdmin: true, permissions: [] });
      const id = await insertConversation(database.db, { status: 'WAITING_AGENT' });

      const agent = await postLogin(app, EMAIL, PASSWORD);
      const inbox = await app.inject({ url: '/chat/inbox', headers: bearer(agent.json().accessToken) });
      assert.equal(inbox.statusCode, 200, inbox.body);
      assert.deepEqual(inbox.json().data.map((c: { id: string }) => c.id), [id]);

      const root = await postLogin(app, 'root@collecte.fr', PASSWORD);
      const { payload } = await jwtVerify(root.json().accessToken, new TextEncoder().encode(CONSOLE_SECRET));
      assert.equal(payload.superAdmin, true);
      assert.equal(root.json().user.superAdmin, true);
      // /chat ignores the rank: without CHAT_CONVERSATIONS the console refuses it.
      assert.equal((await app.inject({ url: '/chat/inbox', headers: bearer(root.json().accessToken) })).statusCode, 403);
    });

    it('shows a super admin holding CHAT_CONVERSATIONS the conversations of every group, as the admin routes reach them', async (t) => {
      const { app, database } = await authApp(t, kind);
      // The demo's super admin: every permission, no group of its own.
      await createAccount(database.db, { email: 'root@collecte.fr', name: 'Root', superAdmin: true, permissions: ['CHAT_CONVERSATIONS'], cityGroupIds: [] });
      const id = await insertConversation(database.db, { status: 'WAITING_AGENT' });
      const root = await postLogin(app, 'root@collecte.fr', PASSWORD);
      const headers = bearer(root.json().accessToken);
      const inbox = await app.inject({ url: '/chat/inbox', headers });
      assert.equal(inbox.statusCode, 200, inbox.body);
      assert.deepEqual(inbox.json().data.map((c: { id: string }) => c.id), [id]);
      assert.equal((await app.inject({ url: `/chat/conversations/${id}`, headers })).statusCode, 200);
    });

    it('answers the same 401 for an unknown e-mail and a wrong password, spending comparable time on both', async (t) => {
      const { app, database } = await authApp(t, kind);
      await createAccount(database.db);
      const timings = { unknown: [] as number[], wrong: [] as number[] };
      for (let i = 0; i < 3; i++) {
        for (const [label, email] of [['unknown', 'nobody@brest-metropole.fr'], ['wrong', EMAIL]] as const) {
          const started = performance.now();
          // Distinct IPs and e-mails would not matter: 3 failures stay under every budget.
          const res = await postLogin(app, email, 'not the password at all');
          timings[label].push(performance.now() - started);
          assert.equal(res.statusCode, 401);
          assert.deepEqual(res.json(), WRONG);
          assert.equal(res.headers['www-authenticate'], 'Bearer');
          assert.equal(res.headers['set-cookie'], undefined);
        }
      }
      // Both verify an argon2id hash: neither answers in a fraction of the other's time.
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[1];
      const ratio = median(timings.unknown) / median(timings.wrong);
      assert.ok(ratio > 0.25 && ratio < 4, `unknown ${timings.unknown.join(', ')} ms, wrong ${timings.wrong.join(', ')} ms`);
      // A malformed body is a 400 naming the field, not a failed login.
      const missing = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: EMAIL } });
      assert.equal(missing.statusCode, 400);
      assert.match(missing.json().message, /« password »/);
    });

    it('refuses an inactive account with 401, even with the right password', async (t) => {
      const { app, database } = await authApp(t, kind);
      await createAccount(database.db, { active: false });
      const res = await postLogin(app, EMAIL, PASSWORD);
      assert.equal(res.statusCode, 401);
      assert.match(res.json().message, /désactivé/);
      assert.equal(res.headers['set-cookie'], undefined);
      assert.equal((await database.db.selectFrom('refresh_session').selectAll().execute()).length, 0);
    });

    it('answers 401 to every login when CONSOLE_JWT_SECRET is unset, and is never cached nor counted as /public', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { env: { RATE_LIMIT_MAX: '1' } });
      await seedCities(database.db);
      await createAccount(database.db);
      for (let i = 0; i < 3; i++) {
        const res = await postLogin(app, EMAIL, PASSWORD);
        assert.equal(res.statusCode, 401);
        assert.match(res.json().message, /CONSOLE_JWT_SECRET/);
        assert.equal(res.headers['x-ratelimit-limit'], undefined);
        assert.equal(res.headers['access-control-allow-origin'], undefined);
        assert.equal(res.headers['cache-control'], 'no-store');
      }
    });
  });
}
