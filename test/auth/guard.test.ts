import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT } from 'jose';
import { reaches } from '../../src/admin/agent.ts';
import { fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { CONSOLE_SECRET, authApp, bearer, createAccount } from '../helpers/auth-fixtures.ts';
import { agentToken, unsecuredToken } from '../helpers/console-fixtures.ts';

const NOW = '2026-11-20T10:00:00.000Z';
const INVALID = 'Le jeton d’accès est invalide ou expiré\u00a0: renouvelez-le (POST /auth/refresh) ou reconnectez-vous.';

for (const kind of testDatabaseKinds()) {
  describe(`the admin guard (${kind})`, () => {
    it('takes only a valid access token naming an account, and passes a super admin whatever its permissions', async (t) => {
      const { app, database } = await authApp(t, kind, { clock: fixedClock(NOW) });
      const root = await createAccount(database.db, { email: 'root@collecte.fr', name: 'Root', superAdmin: true, permissions: [] });
      const now = new Date(NOW);
      const claims = { name: 'Root', permissions: ['USERS'], cityGroupIds: [ids.group] };
      const exp = Math.floor(now.getTime() / 1000) + 600;
      const refused: Record<string, string> = {
        'a console-token service token (its sub is no account id)': await agentToken({ permissions: ['USERS'] }, { now }),
        'another key': await agentToken({ sub: root.id, permissions: ['USERS'] }, { now, secret: 'another-secret-0123456789abcdefghijklmnop' }),
        'alg none': unsecuredToken({ sub: root.id, exp, superAdmin: true, ...claims }),
        expired: await agentToken({ sub: root.id, permissions: ['USERS'] }, { now: new Date(now.getTime() - 3_600_000), ttlSeconds: 600 }),
        'HS512': await new SignJWT(claims).setProtectedHeader({ alg: 'HS512' }).setSubject(root.id).setExpirationTime(exp).sign(new TextEncoder().encode(CONSOLE_SECRET)),
      };
      for (const [label, token] of Object.entries(refused)) {
        const res = await app.inject({ url: '/admin/users', headers: bearer(token) });
        assert.equal(res.statusCode, 401, label);
        assert.deepEqual(res.json(), { statusCode: 401, message: INVALID, error: 'Unauthorized', code: 'unauthorized', field: null }, label);
      }
      for (const authorization of ['Basic YTpi', 'Bearer', `Token ${refused.expired}`]) {
        assert.equal((await app.inject({ url: '/admin/users', headers: { authorization } })).statusCode, 401, authorization);
      }
      // The superAdmin claim, signed with the secret, passes every permission; without it, USERS is needed.
      const superToken = await new SignJWT({ ...claims, permissions: [], superAdmin: true })
        .setProtectedHeader({ alg: 'HS256' }).setSubject(root.id).setIssuedAt(Math.floor(now.getTime() / 1000)).setExpirationTime(exp)
        .sign(new TextEncoder().encode(CONSOLE_SECRET));
      assert.equal((await app.inject({ url: '/admin/users', headers: bearer(superToken) })).statusCode, 200);
      assert.equal((await app.inject({ url: '/admin/audit', headers: bearer(superToken) })).statusCode, 200);
      // The rank and the permissions are the account's, not the token's: claims give nothing the account lacks.
      const plain = await agentToken({ sub: root.id, permissions: [] }, { now });
      assert.equal((await app.inject({ url: '/admin/users', headers: bearer(plain) })).statusCode, 200);
      const agent = await createAccount(database.db, { email: 'awa@collecte.fr', permissions: ['CITIES'] });
      const claimed = await new SignJWT({ ...claims, permissions: ['USERS'], superAdmin: true })
        .setProtectedHeader({ alg: 'HS256' }).setSubject(agent.id).setIssuedAt(Math.floor(now.getTime() / 1000)).setExpirationTime(exp)
        .sign(new TextEncoder().encode(CONSOLE_SECRET));
      const refusedClaims = await app.inject({ url: '/admin/users', headers: bearer(claimed) });
      assert.equal(refusedClaims.statusCode, 403);
      assert.equal(refusedClaims.json().code, 'adminPermission');
    });
  });
}

describe('the group scope of admin records', () => {
  const agent = { superAdmin: false, cityGroupIds: ['g1', 'g2'] };
  it('reaches a record whose groups are all the agent’s, and no record of no group; a super admin reaches all', () => {
    assert.equal(reaches(agent, ['g1']), true);
    assert.equal(reaches(agent, ['g1', 'g2']), true);
    assert.equal(reaches(agent, ['g1', 'g3']), false);
    assert.equal(reaches(agent, [null]), false);
    assert.equal(reaches(agent, []), false);
    assert.equal(reaches({ superAdmin: true, cityGroupIds: [] }, [null, 'g3']), true);
  });
});
