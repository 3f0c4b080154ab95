import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import  { PASSWORD, authApp, bearer, createAccount, postLogin, postRefresh, refreshCookieOf } from '../helpers/auth-fixtures.ts';

const NOW = '2026-11-20T10:00:00.000Z';
const EMAIL = 'awa.diallo@brest-metropole.fr';
const ENDED = { statusCode: 401, message: 'Votre session a expiré ou a été fermée\u00a0: reconnectez-vous.', error: 'Unauthorized', code: 'sessionInvalid', field: null };

for (const kind of testDatabaseKinds()) {
  describe(`refresh sessions (${kind})`, () => {
    it('rotates the refresh token on every refresh; a reused one revokes the whole session', async (t) => {
      const clock = fixedClock(NOW);
      const { app, database } = await authApp(t, kind, { clock });
      await createAccount(database.db);
      const first = refreshCookieOf(await postLogin(app, EMAIL, PASSWORD));

      clock.set('2026-11-20T10:14:00.000Z');
      const refreshed = await postRefresh(app, first.value);
      assert.equal(refreshed.statusCode, 200, refreshed.body);
      assert.equal(refreshed.headers['cache-control'], 'no-store');
      assert.equal(refreshed.json().expiresAt, '2026-11-20T10:29:00.000Z');
      assert.equal(refreshed.json().user.email, EMAIL);
      const second = refreshCookieOf(refreshed);
      assert.notEqual(second.value, first.value);
      // Same session, new secret; the cookie lives until the login's end, not 12 hours from now.
      assert.equal(second.value.split('.')[0], first.value.split('.')[0]);
      assert.ok(second.header.includes('Max-Age=42360'), second.header);
      const access = await app.inject({ url: '/admin/audit', headers: bearer(refreshed.json().accessToken) });
      assert.equal(access.statusCode, 403, 'a valid token, without an admin permission');

      const third = refreshCookieOf(await postRefresh(app, second.value));
      // The first token again: someone copied it. The session is revoked, the newest token with it.
      const reused = await postRefresh(app, first.value);
      assert.equal(reused.statusCode, 401);
      assert.deepEqual(reused.json(), ENDED);
      assert.deepEqual((await postRefresh(app, third.value)).json(), ENDED);
      const session = await database.db.selectFrom('refresh_session').selectAll().executeTakeFirstOrThrow();
      assert.equal(session.revoked_at?.toISOString(), '2026-11-20T10:14:00.000Z');

      // A new login opens a new session; the revoked one is cleared away.
      const again = refreshCookieOf(await postLogin(app, EMAIL, PASSWORD));
      assert.equal((await postRefresh(app, again.value)).statusCode, 200);
      assert.equal((await database.db.selectFrom('refresh_session').selectAll().execute()).length, 1);
    });

    it('of two refreshes with the same token at once, one rotates and the other revokes the session', async (t) => {
      const { app, database } = await authApp(t, kind);
      await createAccount(database.db);
      const cookie = refreshCookieOf(await postLogin(app, EMAIL, PASSWORD));
      const answers = await Promise.all([postRefresh(app, cookie.value), postRefresh(app, cookie.value)]);
      assert.deepEqual(answers.map((res) => res.statusCode).sort(), [200, 401]);
      const winner = answers.find((res) => res.statusCode === 200)!;
      assert.equal((await postRefresh(app, refreshCookieOf(winner).value)).statusCode, 401);
    });

    it('answers 401 without a cookie, with a forged or malformed one, and after the session’s lifetime', async (t) => {
      const clock = fixedClock(NOW);
      const { app, database } = await authApp(t, kind, { clock, env: { AUTH_SESSION_HOURS: '2' } });
      await createAccount(database.db);
      const cookie = refreshCookieOf(await postLogin(app, EMAIL, PASSWORD));
      assert.ok(cookie.header.includes('Max-Age=7200'), cookie.header);
      for (const value of [null, '', 'abc', `${cookie.value.split('.')[0]}.`, `00000000-0000-4000-8000-000000000000.${'A'.repeat(43)}`]) {
        const res = await postRefresh(app, value);
        assert.deepEqual(res.json(), ENDED, String(value));
      }
      clock.set('2026-11-20T11:59:59.000Z');
      const fresh = refreshCookieOf(await postRefresh(app, cookie.value));
      clock.set('2026-11-20T12:00:00.000Z');
      assert.deepEqual((await postRefresh(app, fresh.value)).json(), ENDED);
    });

    it('refuses a deactivated account at refresh, and its access token at once (then expired after 15 minutes)', async (t) => {
      const clock = fixedClock(NOW);
      const { app, database } = await authApp(t, kind, { clock });
      const account = await createAccount(database.db, { permissions: ['USERS'] });
      const login = await postLogin(app, EMAIL, PASSWORD);
      const headers = bearer(login.json().accessToken);
      assert.equal((await app.inject({ url: '/admin/users', headers })).statusCode, 200);

      await database.db.updateTable('account').set({ active: false }).where('id', '=', account.id).execute();
      const refused = await postRefresh(app, refreshCookieOf(login).value);
      assert.equal(refused.statusCode, 401);
      assert.match(refused.json().message, /désactivé/);
      assert.equal((await postLogin(app, EMAIL, PASSWORD)).statusCode, 401);

      // The access token is judged on the account as it now is: it stops at once, not at its expiry.
      const inactive = await app.inject({ url: '/admin/users', headers });
      assert.equal(inactive.statusCode, 401);
      assert.equal(inactive.headers['www-authenticate'], 'Bearer');
      assert.deepEqual(inactive.json(), {
        statusCode: 401, message: 'Ce compte est désactivé\u00a0: adressez-vous à un administrateur.', error: 'Unauthorized', code: 'accountInactive', field: null,
      });
      clock.set('2026-11-20T10:14:59.000Z');
      assert.equal((await app.inject({ url: '/admin/users', headers })).json().code, 'accountInactive');
      clock.set('2026-11-20T10:15:00.000Z');
      const expired = await app.inject({ url: '/admin/users', headers });
      assert.equal(expired.statusCode, 401);
      assert.equal(expired.headers['www-authenticate'], 'Bearer');
      assert.match(expired.json().message, /jeton d’accès est invalide ou expiré/);
      assert.equal(expired.json().code, 'unauthorized');
    });

    it('logs out: 204, the cookie cleared and the session revoked; 204 again without a cookie', async (t) => {
      const { app, database } = await authApp(t, kind);
      await createAccount(database.db);
      const cookie = refreshCookieOf(await postLogin(app, EMAIL, PASSWORD));
      const out = await app.inject({ method: 'POST', url: '/auth/logout', cookies: { collecte_refresh: cookie.value } });
      assert.equal(out.statusCode, 204);
      assert.equal(out.body, '');
      assert.equal(out.headers['cache-control'], 'no-store');
      const cleared = refreshCookieOf(out);
      assert.equal(cleared.value, '');
      assert.match(cleared.header, /Expires=Thu, 01 Jan 1970/);
      assert.match(cleared.header, /Path=\/auth/);
      assert.deepEqual((await postRefresh(app, cookie.value)).json(), ENDED);
      assert.equal((await app.inject({ method: 'POST', url: '/auth/logout' })).statusCode, 204);
    });
  });
}
