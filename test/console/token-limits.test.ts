import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT } from 'jose';
import { buildTestApp, fixedClock, testConfig } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { CONSOLE_SECRET, agentToken, bearer, consoleEnv } from '../helpers/console-fixtures.ts';
import { ConfigError } from '../../src/config.ts';

const NOW = '2026-11-20T10:00:00.000Z';
const nowSeconds = Date.parse(NOW) / 1000;
const DAY = 86_400;
const key = new TextEncoder().encode(CONSOLE_SECRET);
const claims = { name: 'Awa Diallo', permissions: ['CHAT_CONVERSATIONS'], cityGroupIds: [ids.group] };

/** A token of the default agent with exactly these time claims (`iat` left out when undefined). */
function tokenWith(times: { iat?: number; exp: number }): Promise<string> {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject('agent-1').setExpirationTime(times.exp);
  if (times.iat !== undefined) jwt.setIssuedAt(times.iat);
  return jwt.sign(key);
}

describe('CONSOLE_JWT_SECRET', () => {
  it('refuses a secret under 32 bytes at start, naming the variable; 32 bytes (of any characters) are enough', () => {
    for (const secret of ['a', 'x'.repeat(31), 'é'.repeat(15)]) {
      assert.throws(
        () => testConfig({ CONSOLE_JWT_SECRET: secret }),
        (err: unknown) => err instanceof ConfigError && /CONSOLE_JWT_SECRET/.test(err.message) && /32 bytes/.test(err.message),
        secret,
      );
    }
    assert.equal(testConfig({ CONSOLE_JWT_SECRET: 'x'.repeat(32) }).consoleJwtSecret, 'x'.repeat(32));
    assert.equal(testConfig({ CONSOLE_JWT_SECRET: 'é'.repeat(16) }).consoleJwtSecret, 'é'.repeat(16));
    assert.equal(testConfig({}).consoleJwtSecret, null);
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`console token lifetime (${kind})`, () => {
    it('accepts a token living up to 30 days and refuses a longer one, whether it says when it was issued or not', async (t) => {
      const { app } = await buildTestApp(t, kind, { env: consoleEnv, clock: fixedClock(NOW) });
      const status = async (token: string) => (await app.inject({ url: '/chat/inbox', headers: bearer(token) })).statusCode;

      assert.equal(await status(await agentToken({}, { now: new Date(NOW), ttlSeconds: 30 * DAY })), 200, 'the longest console-token --ttl');
      assert.equal(await status(await tokenWith({ iat: nowSeconds - 29 * DAY, exp: nowSeconds + DAY })), 200);
      assert.equal(await status(await tokenWith({ exp: nowSeconds + 30 * DAY })), 200, 'no iat, 30 days left');

      const refused: Record<string, string> = {
        '100 years from its issue': await tokenWith({ iat: nowSeconds, exp: nowSeconds + 36_500 * DAY }),
        '100 years, no iat': await tokenWith({ exp: nowSeconds + 36_500 * DAY }),
        '31 days from its issue': await tokenWith({ iat: nowSeconds, exp: nowSeconds + 31 * DAY }),
        'issued 29 days ago, 2 days left': await tokenWith({ iat: nowSeconds - 29 * DAY, exp: nowSeconds + 2 * DAY }),
        '31 days left, no iat': await tokenWith({ exp: nowSeconds + 31 * DAY }),
        'dated in the future to look short': await tokenWith({ iat: nowSeconds + 36_499 * DAY, exp: nowSeconds + 36_500 * DAY }),
      };
      for (const [label, token] of Object.entries(refused)) {
        const res = await app.inject({ url: '/chat/inbox', headers: bearer(token) });
        assert.equal(res.statusCode, 401, label);
        assert.equal(res.headers['www-authenticate'], 'Bearer', label);
        assert.deepEqual(res.json(), { statusCode: 401, message: 'Le jeton de console est invalide ou expiré.', error: 'Unauthorized', code: 'unauthorized', field: null }, label);
      }
    });
  });
}
