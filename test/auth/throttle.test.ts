import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { PASSWORD, authApp, createAccount, postLogin } from '../helpers/auth-fixtures.ts';

const EMAIL = 'awa.diallo@brest-metropole.fr';
const BAD = 'not the password at all';

function assertThrottled(res: Awaited<ReturnType<typeof postLogin>>, retryAfterS: number) {
  assert.equal(res.statusCode, 429, res.body);
  assert.equal(res.headers['retry-after'], String(retryAfterS));
  assert.equal(res.json().error, 'Too Many Requests');
  assert.match(res.json().message, /^Trop de tentatives de connexion échouées\u00a0: réessayez dans \d+\u00a0minutes?\.$/);
  assert.equal(res.headers['set-cookie'], undefined);
}

for (const kind of testDatabaseKinds()) {
  describe(`login throttling (${kind})`, () => {
    it('answers 429 with Retry-After after 5 failures in 15 minutes for an e-mail, even with the right password', async (t) => {
      const clock = fixedClock('2026-11-20T10:00:00.000Z');
      const { app, database } = await authApp(t, kind, { clock });
      await createAccount(database.db);
      await createAccount(database.db, { email: 'yann@brest-metropole.fr', name: 'Yann' });

      // Five failures a minute apart, from five addresses: the e-mail's budget, not an IP's.
      for (let i = 0; i < 5; i++) {
        clock.set(`2026-11-20T10:0${i}:00.000Z`);
        assert.equal((await postLogin(app, i % 2 ? EMAIL.toUpperCase() : EMAIL, BAD, `192.0.2.${i + 1}`)).statusCode, 401);
      }
      clock.set('2026-11-20T10:05:00.000Z');
      // The right password from a new address: still refused until the oldest failure is 15 minutes old (10:15).
      assertThrottled(await postLogin(app, EMAIL, PASSWORD, '198.51.100.7'), 600);
      // A refused attempt does not count: the wait does not grow.
      clock.set('2026-11-20T10:14:59.000Z');
      assertThrottled(await postLogin(app, EMAIL, PASSWORD, '198.51.100.7'), 1);
      // Another e-mail from the same addresses is not concerned.
      assert.equal((await postLogin(app, 'yann@brest-metropole.fr', PASSWORD, '192.0.2.1')).statusCode, 200);

      clock.set('2026-11-20T10:15:00.000Z');
      // Four failures are left in the window: one more attempt is allowed, and it succeeds...
      assert.equal((await postLogin(app, EMAIL, PASSWORD, '198.51.100.7')).statusCode, 200);
      // ...which forgets the e-mail's failures: five new ones are needed to lock it again.
      for (let i = 0; i < 5; i++) assert.equal((await postLogin(app, EMAIL, BAD)).statusCode, 401);
      assertThrottled(await postLogin(app, EMAIL, PASSWORD), 900);
    });

    it('answers 429 after 20 failures in 15 minutes from one IP, whatever the e-mails, and only for that IP', async (t) => {
      const clock = fixedClock('2026-11-20T10:00:00.000Z');
      const { app, database } = await authApp(t, kind, { clock });
      await createAccount(database.db);
      const ip = '203.0.113.9';
      for (let i = 0; i < 20; i++) {
        clock.set(new Date(Date.parse('2026-11-20T10:00:00.000Z') + i * 30_000).toISOString());
        // Five e-mails, four failures each: no e-mail reaches its own budget, the IP reaches its.
        const res = await postLogin(app, `guess-${i % 5}@brest-metropole.fr`, BAD, ip);
        assert.equal(res.statusCode, 401, `attempt ${i + 1}`);
      }
      clock.set('2026-11-20T10:10:00.000Z');
      // The first failure (10:00:00) leaves the window at 10:15:00.
      assertThrottled(await postLogin(app, EMAIL, PASSWORD, ip), 300);
      assert.equal((await postLogin(app, EMAIL, PASSWORD, '203.0.113.10')).statusCode, 200);
      clock.set('2026-11-20T10:15:00.000Z');
      assert.equal((await postLogin(app, EMAIL, PASSWORD, ip)).statusCode, 200);
    });

    it('counts guesses sent at once: of 12 parallel wrong passwords, at most 5 are checked', async (t) => {
      const { app, database } = await authApp(t, kind);
      await createAccount(database.db);
      const answers = await Promise.all(Array.from({ length: 12 }, () => postLogin(app, EMAIL, BAD)));
      const statuses = answers.map((res) => res.statusCode);
      const failures = statuses.filter((s) => s === 401).length;
      assert.ok(failures <= 5, statuses.join(', '));
      assert.ok(statuses.every((s) => s === 401 || s === 429), statuses.join(', '));
      // Only the checked guesses count (a refused one never does): the right password works while fewer than 5 failed.
      assert.equal((await database.db.selectFrom('login_attempt').selectAll().execute()).length, failures);
      assert.equal((await postLogin(app, EMAIL, PASSWORD)).statusCode, failures === 5 ? 429 : 200);
    });
  });
}
