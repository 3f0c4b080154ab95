import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { fixedClock } from '../helpers/app.ts';
import { MONDAY_AFTERNOON, requestsApp } from '../helpers/request-fixtures.ts';
import { BREST_SIREN, postRequest, SIAM } from '../helpers/open311-fixtures.ts';

/**
 * The Open311 keys' admin routes (docs/api.md, Open311; docs/operating.md, Open311 keys): a super admin's alone, the key
 * shown once and stored as its SHA-256, renamed and revoked under If-Match, audited without the key, its last use
 * recorded at most once a minute.
 */

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

for (const kind of testDatabaseKinds()) {
  describe(`Open311 keys (${kind})`, () => {
    it('lets a super admin alone make, list, rename and revoke keys; the key is shown once and stored hashed', async (t) => {
      const { app, db, asRoot, asAgent, asManager } = await requestsApp(t, kind);
      const body = { cityGroupId: ids.group, name: 'FixMyStreet' };
      for (const headers of [asAgent, asManager]) {
        const refused = await app.inject({ method: 'POST', url: '/admin/open311-keys', headers, payload: body });
        assert.equal(refused.statusCode, 403, refused.body);
        assert.equal(refused.json().code, 'open311KeysSuperAdminOnly');
        assert.equal((await app.inject({ url: '/admin/open311-keys', headers })).statusCode, 403);
      }
      assert.equal((await app.inject({ url: '/admin/open311-keys' })).statusCode, 401);

      const created = await app.inject({ method: 'POST', url: '/admin/open311-keys', headers: asRoot, payload: body });
      assert.equal(created.statusCode, 201, created.body);
      const key = created.json();
      assert.deepEqual(Object.keys(key), ['id', 'name', 'cityGroupId', 'key', 'createdAt', 'lastUsedAt']);
      assert.match(key.key, /^[A-Za-z0-9_-]{43}$/);
      assert.deepEqual([key.name, key.cityGroupId, key.lastUsedAt], ['FixMyStreet', ids.group, null]);
      assert.equal(created.headers['cache-control'], 'no-store');

      // Stored as its SHA-256 only.
      const rows = await db.selectFrom('open311_key').selectAll().execute();
      assert.equal(rows.length, 1);
      assert.equal(rows[0].key_hash, sha256(key.key));
      assert.ok(!JSON.stringify(rows).includes(key.key));

      // Never shown again.
      const listed = await app.inject({ url: `/admin/open311-keys?cityGroupId=${ids.group}`, headers: asRoot });
      assert.equal(listed.statusCode, 200, listed.body);
      assert.deepEqual(listed.json().data.map((k: object) => Object.keys(k)), [['id', 'name', 'cityGroupId', 'createdAt', 'lastUsedAt']]);
      assert.equal((await app.inject({ url: `/admin/open311-keys?cityGroupId=${ids.emptyGroup}`, headers: asRoot })).json().meta.total, 0);
      const one = await app.inject({ url: `/admin/open311-keys/${key.id}`, headers: asRoot });
      assert.equal(one.statusCode, 200);
      assert.equal(one.json().key, undefined);

      // An unknown group: 404 at cityGroupId.
      const orphan = await app.inject({ method: 'POST', url: '/admin/open311-keys', headers: asRoot, payload: { ...body, cityGroupId: '00000000-0000-4000-8000-00000000dead' } });
      assert.equal(orphan.statusCode, 404);
      assert.equal(orphan.json().field, 'cityGroupId');

      const url = `/admin/open311-keys/${key.id}`;
      const renamed = await app.inject({ method: 'PATCH', url, headers: { ...asRoot, 'if-match': String(one.headers.etag) }, payload: { name: 'FixMyStreet Brest' } });
      assert.equal(renamed.statusCode, 200, renamed.body);
      assert.equal(renamed.json().name, 'FixMyStreet Brest');
      assert.equal((await app.inject({ method: 'DELETE', url, headers: asRoot })).statusCode, 428);
      assert.equal((await app.inject({ method: 'DELETE', url, headers: { ...asRoot, 'if-match': String(one.headers.etag) } })).statusCode, 412);
      assert.equal((await app.inject({ method: 'DELETE', url, headers: { ...asAgent, 'if-match': '*' } })).statusCode, 403);
      assert.equal((await app.inject({ method: 'DELETE', url, headers: { ...asRoot, 'if-match': String(renamed.headers.etag) } })).statusCode, 204);
      assert.equal((await app.inject({ url, headers: asRoot })).statusCode, 404);
      assert.equal((await db.selectFrom('open311_key').selectAll().execute()).length, 0);

      // Audited, never with the key.
      const audit = await app.inject({ url: `/admin/audit?entity=open311Key&entityId=${key.id}`, headers: asRoot });
      assert.equal(audit.statusCode, 200, audit.body);
      assert.deepEqual(audit.json().data.map((e: { action: string }) => e.action).sort(), ['create', 'delete', 'update']);
      assert.ok(!audit.body.includes(key.key));
      assert.ok(!audit.body.includes(sha256(key.key)));
    });

    it('records a key’s last use at most once a minute; its ETag does not move with it', async (t) => {
      const clock = fixedClock(MONDAY_AFTERNOON);
      const { app, asRoot } = await requestsApp(t, kind, { clock });
      const key = (await app.inject({ method: 'POST', url: '/admin/open311-keys', headers: asRoot, payload: { cityGroupId: ids.group, name: 'Partenaire' } })).json();
      const etag = (await app.inject({ url: `/admin/open311-keys/${key.id}`, headers: asRoot })).headers.etag;
      const file = () =>
        postRequest(app, { api_key: key.key, jurisdiction_id: BREST_SIREN, service_code: 'depot-sauvage', ...SIAM, description: 'Des gravats.' });
      assert.equal((await file()).statusCode, 201);
      const lastUsed = async () => (await app.inject({ url: `/admin/open311-keys/${key.id}`, headers: asRoot })).json().lastUsedAt;
      assert.equal(await lastUsed(), '2026-11-30T13:00:00.000Z');
      clock.set('2026-11-30T13:00:30.000Z');
      assert.equal((await file()).statusCode, 201);
      assert.equal(await lastUsed(), '2026-11-30T13:00:00.000Z', 'not moved within the minute');
      clock.set('2026-11-30T13:01:30.000Z');
      const root = (await app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'root@collecte.fr', password: 'correct horse battery staple' } })).json();
      assert.equal((await file()).statusCode, 201);
      const read = await app.inject({ url: `/admin/open311-keys/${key.id}`, headers: { authorization: `Bearer ${root.accessToken}` } });
      assert.equal(read.json().lastUsedAt, '2026-11-30T13:01:30.000Z');
      assert.equal(read.headers.etag, etag, 'the ETag leaves lastUsedAt out');
    });
  });
}
