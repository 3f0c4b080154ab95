import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { authApp, authEnv, createAccount, loginHeaders } from '../helpers/auth-fixtures.ts';

// docs/api.md, conventions: an access token is judged on its account as it now is, at every /admin and /chat request,
// and every admin PATCH or DELETE carries If-Match.

const NOW = '2026-11-20T10:00:00.000Z';

for (const kind of testDatabaseKinds()) {
  describe(`access tokens follow their account (${kind})`, () => {
    it('stops a deleted account’s token at once: 401, no write, no audit entry in its name', async (t) => {
      const { app, database } = await authApp(t, kind, { clock: fixedClock(NOW) });
      await createAccount(database.db, { email: 'root@collecte.fr', name: 'Root', superAdmin: true, permissions: [] });
      const agent = await createAccount(database.db, { email: 'gone@collecte.fr', name: 'Parti', permissions: ['CITIES', 'USERS'] });
      const root = await loginHeaders(app, 'root@collecte.fr');
      const token = await loginHeaders(app, 'gone@collecte.fr');
      const city = await app.inject({ url: `/admin/cities/${ids.brest}`, headers: token });
      assert.equal(city.statusCode, 200);

      const read = await app.inject({ url: `/admin/users/${agent.id}`, headers: root });
      const deleted = await app.inject({ method: 'DELETE', url: `/admin/users/${agent.id}`, headers: { ...root, 'if-match': read.headers.etag as string } });
      assert.equal(deleted.statusCode, 204);

      const write = await app.inject({
        method: 'PATCH', url: `/admin/cities/${ids.brest}`, headers: { ...token, 'if-match': city.headers.etag as string }, payload: { name: 'Brest la grise' },
      });
      assert.equal(write.statusCode, 401);
      assert.equal(write.json().code, 'unauthorized');
      assert.equal((await app.inject({ url: `/admin/cities/${ids.brest}`, headers: root })).json().name, city.json().name);
      const audit = await app.inject({ url: '/admin/audit?pageSize=100', headers: root });
      assert.ok(audit.json().data.every((entry: { userName: string }) => entry.userName !== 'Parti'));
      assert.equal(audit.json().data.filter((e: { entity: string; action: string }) => e.entity === 'city' && e.action === 'update').length, 0);
    });

    it('stops a deactivated account at once, on /admin and on /chat, on every instance', async (t) => {
      const { app, database } = await authApp(t, kind, { clock: fixedClock(NOW) });
      // Another instance behind the same load balancer, on the same database: nobody tells it.
      const { app: other } = await buildTestApp(t, kind, { database, env: authEnv, clock: fixedClock(NOW) });
      await createAccount(database.db, { email: 'root@collecte.fr', name: 'Root', superAdmin: true, permissions: [] });
      const agent = await createAccount(database.db, { email: 'awa@collecte.fr', permissions: ['CITIES', 'CHAT_CONVERSATIONS'] });
      const root = await loginHeaders(app, 'root@collecte.fr');
      const token = await loginHeaders(app, 'awa@collecte.fr');
      assert.equal((await app.inject({ url: '/chat/inbox', headers: token })).statusCode, 200);
      assert.equal((await app.inject({ url: `/admin/cities/${ids.brest}`, headers: token })).statusCode, 200);

      const read = await app.inject({ url: `/admin/users/${agent.id}`, headers: root });
      const off = await app.inject({
        method: 'PATCH', url: `/admin/users/${agent.id}`, headers: { ...root, 'if-match': read.headers.etag as string }, payload: { active: false },
      });
      assert.equal(off.statusCode, 200);
      for (const instance of [app, other]) {
        for (const url of ['/chat/inbox', `/admin/cities/${ids.brest}`]) {
          const res = await instance.inject({ url, headers: token });
          assert.equal(res.statusCode, 401, url);
          assert.equal(res.json().code, 'accountInactive', url);
        }
      }
    });

    it('takes a permission or a group away from the next request on, and gives one from the next request on', async (t) => {
      const { app, database } = await authApp(t, kind, { clock: fixedClock(NOW) });
      await createAccount(database.db, { email: 'root@collecte.fr', name: 'Root', superAdmin: true, permissions: [] });
      const agent = await createAccount(database.db, { email: 'awa@collecte.fr', permissions: ['CITIES', 'CHAT_CONVERSATIONS'] });
      const root = await loginHeaders(app, 'root@collecte.fr');
      const token = await loginHeaders(app, 'awa@collecte.fr');
      const change = async (payload: object) => {
        const read = await app.inject({ url: `/admin/users/${agent.id}`, headers: root });
        const res = await app.inject({ method: 'PATCH', url: `/admin/users/${agent.id}`, headers: { ...root, 'if-match': read.headers.etag as string }, payload });
        assert.equal(res.statusCode, 200, res.body);
      };

      await change({ permissions: ['CHAT_CONVERSATIONS'] });
      const refused = await app.inject({ url: `/admin/cities/${ids.brest}`, headers: token });
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.json().code, 'adminPermission');
      assert.equal((await app.inject({ url: '/chat/inbox', headers: token })).statusCode, 200);

      await change({ permissions: ['CITIES'] });
      assert.equal((await app.inject({ url: `/admin/cities/${ids.brest}`, headers: token })).statusCode, 200);
      const console = await app.inject({ url: '/chat/inbox', headers: token });
      assert.equal(console.statusCode, 403);
      assert.equal(console.json().code, 'missingPermission');

      // Out of its only group, the group's city answers as if missing.
      await change({ cityGroupIds: [ids.emptyGroup] });
      const hidden = await app.inject({ url: `/admin/cities/${ids.brest}`, headers: token });
      assert.equal(hidden.statusCode, 404);
      assert.equal(hidden.json().code, 'cityNotFound');
    });
  });

  describe(`admin writes are conditional (${kind})`, () => {
    it('answers 428 to a PATCH or DELETE without If-Match and changes nothing; of ten writes of one version, one wins', async (t) => {
      const { app, database } = await authApp(t, kind, { clock: fixedClock(NOW) });
      await createAccount(database.db, { email: 'root@collecte.fr', name: 'Root', superAdmin: true, permissions: [] });
      const root = await loginHeaders(app, 'root@collecte.fr');
      const url = `/admin/cities/${ids.brest}`;
      const before = await app.inject({ url, headers: root });

      const blind = await Promise.all(
        Array.from({ length: 10 }, (_, i) => app.inject({ method: 'PATCH', url, headers: root, payload: { name: `Brest ${i}` } })),
      );
      for (const res of blind) {
        assert.equal(res.statusCode, 428);
        assert.deepEqual(Object.keys(res.json()).sort(), ['code', 'error', 'field', 'message', 'statusCode']);
        assert.equal(res.json().code, 'preconditionRequired');
        assert.equal(res.json().error, 'Precondition Required');
        assert.equal(res.json().field, null);
        assert.match(res.json().message, /If-Match/);
      }
      const removal = await app.inject({ method: 'DELETE', url: `/admin/waste-types/${ids.wasteVerre}`, headers: root });
      assert.equal(removal.statusCode, 428);
      assert.equal((await app.inject({ url, headers: root })).body, before.body);
      assert.equal((await app.inject({ url: `/admin/waste-types/${ids.wasteVerre}`, headers: root })).statusCode, 200);

      const etag = before.headers.etag as string;
      const racing = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          app.inject({ method: 'PATCH', url, headers: { ...root, 'if-match': etag }, payload: { name: `Brest ${i}` } })),
      );
      const statuses = racing.map((r) => r.statusCode).sort();
      assert.deepEqual(statuses, [200, ...Array(9).fill(412)]);
      for (const r of racing.filter((r) => r.statusCode === 412)) assert.equal(r.json().code, 'preconditionFailed');
      const winner = racing.find((r) => r.statusCode === 200)!;
      assert.equal((await app.inject({ url, headers: root })).json().name, winner.json().name);
    });
  });
}
