import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fixedClock } from '../helpers/app.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';
import { ids, seedCities } from '../helpers/city-fixtures.ts';
import { PASSWORD, authApp, createAccount, loginHeaders } from '../helpers/auth-fixtures.ts';
import { recordAudit } from '../../src/admin/audit.ts';

const NOW = '2026-11-20T10:00:00.000Z';

for (const kind of testDatabaseKinds()) {
  describe(`audit log (${kind})`, () => {
    it('records every account write with who, when, before and after (never a password hash), newest first', async (t) => {
      const clock = fixedClock(NOW);
      const { app, database } = await authApp(t, kind, { clock });
      const root = await createAccount(database.db, { email: 'root@collecte.fr', name: 'Root', superAdmin: true, permissions: [] });
      const asRoot = await loginHeaders(app, 'root@collecte.fr');

      const creation = await app.inject({
        method: 'POST', url: '/admin/users', headers: asRoot,
        payload: { email: 'agent@brest.fr', name: 'Agent', password: PASSWORD, permissions: ['CITIES'], cityGroupIds: [ids.group] },
      });
      const created = creation.json();
      clock.set('2026-11-20T10:05:00.000Z');
      const patch = await app.inject({
        method: 'PATCH', url: `/admin/users/${created.id}`, headers: { ...asRoot, 'if-match': String(creation.headers.etag) },
        payload: { name: 'Agent Renommé', password: 'un nouveau mot de passe' },
      });
      const patched = patch.json();
      clock.set('2026-11-20T10:10:00.000Z');
      const deletion = await app.inject({ method: 'DELETE', url: `/admin/users/${created.id}`, headers: { ...asRoot, 'if-match': String(patch.headers.etag) } });
      assert.equal(deletion.statusCode, 204, deletion.body);

      const res = await app.inject({ url: `/admin/audit?entity=user&entityId=${created.id}`, headers: asRoot });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.doesNotMatch(res.body, /argon2|mot de passe/);
      const { data, meta } = res.json();
      assert.deepEqual(meta, { page: 1, pageSize: 20, total: 3, totalPages: 1 });
      const who = { userId: root.id, userName: 'Root', entity: 'user', entityId: created.id };
      assert.deepEqual(data.map(({ id: _id, ...entry }: Record<string, unknown>) => entry), [
        { ...who, at: '2026-11-20T10:10:00.000Z', action: 'delete', before: patched, after: null },
        { ...who, at: '2026-11-20T10:05:00.000Z', action: 'update', before: created, after: { ...patched, passwordChanged: true } },
        { ...who, at: NOW, action: 'create', before: null, after: created },
      ]);

      // The operator's own account creation (fixtures) is there too, without an author id.
      const all = (await app.inject({ url: '/admin/audit', headers: asRoot })).json();
      assert.equal(all.meta.total, 4);
      assert.deepEqual({ userId: all.data[3].userId, userName: all.data[3].userName, entityId: all.data[3].entityId }, {
        userId: null, userName: 'Opérateur (ligne de commande)', entityId: root.id,
      });
      const window = (await app.inject({ url: '/admin/audit?from=2026-11-20T10:05:00.000Z&to=2026-11-20T10:09:59.999Z', headers: asRoot })).json();
      assert.deepEqual(window.data.map((e: { action: string }) => e.action), ['update']);
      const none = (await app.inject({ url: '/admin/audit?entity=blogPost', headers: asRoot })).json();
      assert.deepEqual(none, { data: [], meta: { page: 1, pageSize: 20, total: 0, totalPages: 0 } });
      for (const query of ['from=2026-11-21T00:00:00Z&to=2026-11-20T00:00:00Z', 'from=hier', 'entityId=42', 'entity=DROP%20TABLE']) {
        const bad = await app.inject({ url: `/admin/audit?${query}`, headers: asRoot });
        assert.equal(bad.statusCode, 400, query);
      }
    });

    it('shows an agent the entries of its groups only, and needs an admin permission', async (t) => {
      const { app, database } = await authApp(t, kind);
      const mine = await createAccount(database.db, { email: 'mine@brest.fr', name: 'Mine' });
      await createAccount(database.db, { email: 'aber@aber.fr', name: 'Aber', cityGroupIds: [ids.emptyGroup] });
      await createAccount(database.db, { email: 'both@aber.fr', name: 'Both', cityGroupIds: [ids.group, ids.emptyGroup] });
      await createAccount(database.db, { email: 'root@collecte.fr', name: 'Root', superAdmin: true, cityGroupIds: [ids.group] });
      const cms = await createAccount(database.db, { email: 'cms@brest.fr', name: 'Éditrice', permissions: ['CMS'] });

      const asCms = await loginHeaders(app, 'cms@brest.fr');
      const seen = (await app.inject({ url: '/admin/audit', headers: asCms })).json();
      assert.deepEqual(seen.data.map((e: { entityId: string }) => e.entityId).sort(), [mine.id, cms.id].sort());
      assert.equal((await app.inject({ url: '/admin/audit', headers: await loginHeaders(app, 'root@collecte.fr') })).json().meta.total, 5);

      const chatOnly = await app.inject({ url: '/admin/audit', headers: await loginHeaders(app, 'mine@brest.fr') });
      assert.equal(chatOnly.statusCode, 403);
      assert.match(chatOnly.json().message, /aucune des permissions CITIES, CHALLENGES, BLOG_POSTS, CMS, USERS ou REQUESTS/);
      assert.equal((await app.inject({ url: '/admin/audit' })).statusCode, 401);
    });

    it('writes an entry within the write’s transaction: a write that fails leaves no entry', async (t) => {
      const database = await createTestDatabase(kind);
      t.after(() => database.close());
      await seedCities(database.db);
      const author = { id: '70000000-0000-4000-8000-000000000001', name: 'Agent' };
      const change = { action: 'update' as const, entity: 'city', entityId: ids.brest, cityGroupIds: [ids.group], before: { name: 'Brest' }, after: { name: 'Brest Ville' } };
      await assert.rejects(
        database.db.transaction().execute(async (trx) => {
          await trx.updateTable('city').set({ name: 'Brest Ville' }).where('id', '=', ids.brest).execute();
          await recordAudit(trx, author, change, new Date(NOW));
          // The write's last statement fails: a second group with an existing id.
          await trx.insertInto('city_group').values({ id: ids.group, name: 'x', type: 'x', code: 'x', siren: 'x', chat_enabled: false }).execute();
        }),
      );
      assert.equal((await database.db.selectFrom('audit_entry').selectAll().execute()).length, 0);
      assert.equal((await database.db.selectFrom('city').select('name').where('id', '=', ids.brest).executeTakeFirstOrThrow()).name, 'Brest');

      await database.db.transaction().execute((trx) => recordAudit(trx, author, change, new Date(NOW)));
      const [entry] = await database.db.selectFrom('audit_entry').selectAll().execute();
      assert.deepEqual(entry.city_group_ids, [ids.group]);
      assert.deepEqual(entry.after, { name: 'Brest Ville' });
    });
  });
}
