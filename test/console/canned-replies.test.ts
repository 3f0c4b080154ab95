import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { authApp, createAccount, loginHeaders } from '../helpers/auth-fixtures.ts';
import { inject } from '../helpers/admin-fixtures.ts';

const REPLIES = `/admin/city-groups/${ids.group}/canned-replies`;
const NOT_FOUND = { statusCode: 404, message: 'Réponse type introuvable', error: 'Not Found', code: 'cannedReplyNotFound', field: null };
const GROUP_NOT_FOUND = { statusCode: 404, message: 'Groupe de villes introuvable', error: 'Not Found', code: 'cityGroupNotFound', field: null };

async function setup(t: Parameters<typeof authApp>[0], kind: Parameters<typeof authApp>[1]) {
  const clock = fixedClock('2026-11-24T09:00:00.000Z');
  const { app, database } = await authApp(t, kind, { clock });
  const db = database.db;
  await createAccount(db, { email: 'agent@brest.fr', name: 'Agente Brest', permissions: ['CHAT_CONVERSATIONS'] });
  await createAccount(db, { email: 'outsider@aber.fr', name: 'Aber', permissions: ['CHAT_CONVERSATIONS'], cityGroupIds: [ids.emptyGroup] });
  await createAccount(db, { email: 'manager@brest.fr', name: 'Gestion', permissions: ['CITIES'] });
  await createAccount(db, { email: 'root@collecte.fr', name: 'Root', superAdmin: true });
  const [asAgent, asOutsider, asManager, asRoot] = await Promise.all(
    ['agent@brest.fr', 'outsider@aber.fr', 'manager@brest.fr', 'root@collecte.fr'].map((e) => loginHeaders(app, e)),
  );
  return { app, db, clock, asAgent, asOutsider, asManager, asRoot };
}

for (const kind of testDatabaseKinds()) {
  describe(`/admin canned replies (${kind})`, () => {
    it('creates, lists by title, changes under If-Match and deletes a group’s canned replies, each write audited', async (t) => {
      const { app, clock, asAgent, asRoot } = await setup(t, kind);
      const created = await inject(app, asAgent, 'POST', REPLIES, { title: '  Rappel  ', content: ' Nous vous rappelons dans la journée. ' });
      assert.equal(created.statusCode, 201, created.body);
      const reply = created.json();
      assert.deepEqual({ ...reply, id: undefined }, {
        id: undefined, cityGroupId: ids.group, title: 'Rappel', content: 'Nous vous rappelons dans la journée.',
        createdAt: '2026-11-24T09:00:00.000Z', updatedAt: '2026-11-24T09:00:00.000Z',
      });
      await inject(app, asAgent, 'POST', REPLIES, { title: 'Bonjour', content: 'Bonjour, je regarde votre demande.' });
      const list = (await inject(app, asAgent, 'GET', REPLIES)).json();
      assert.deepEqual(list.data.map((r: { title: string }) => r.title), ['Bonjour', 'Rappel']);
      assert.equal(list.meta.total, 2);

      const read = await inject(app, asAgent, 'GET', `/admin/canned-replies/${reply.id}`);
      assert.deepEqual(read.json(), reply);
      clock.set('2026-11-24T09:05:00.000Z');
      const changed = await inject(app, { ...asAgent, 'if-match': String(read.headers.etag) }, 'PATCH', `/admin/canned-replies/${reply.id}`, { content: 'Un agent vous rappelle.' });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.equal(changed.json().content, 'Un agent vous rappelle.');
      assert.equal(changed.json().title, 'Rappel');
      assert.equal(changed.json().updatedAt, '2026-11-24T09:05:00.000Z');
      const stale = await inject(app, { ...asAgent, 'if-match': String(read.headers.etag) }, 'DELETE', `/admin/canned-replies/${reply.id}`);
      assert.equal(stale.statusCode, 412);
      clock.set('2026-11-24T09:06:00.000Z');
      const deleted = await inject(app, { ...asAgent, 'if-match': String(changed.headers.etag) }, 'DELETE', `/admin/canned-replies/${reply.id}`);
      assert.equal(deleted.statusCode, 204);
      assert.deepEqual((await inject(app, asAgent, 'GET', `/admin/canned-replies/${reply.id}`)).json(), NOT_FOUND);

      // The audit log is read by the admin permissions (CHAT_CONVERSATIONS alone does not read it): a super admin here.
      const audit = (await inject(app, asRoot, 'GET', `/admin/audit?entity=cannedReply&entityId=${reply.id}`)).json().data;
      assert.deepEqual(audit.map((a: { action: string }) => a.action), ['delete', 'update', 'create']);
      assert.equal(audit[1].before.content, 'Nous vous rappelons dans la journée.');
      assert.equal(audit[1].after.content, 'Un agent vous rappelle.');
      assert.equal(audit[0].userName, 'Agente Brest');
    });

    it('refuses blank and too long fields naming them, other groups as missing, and agents without CHAT_CONVERSATIONS', async (t) => {
      const { app, db, asAgent, asOutsider, asManager } = await setup(t, kind);
      const blank = await inject(app, asAgent, 'POST', REPLIES, { title: '   ', content: 'x' });
      assert.equal(blank.statusCode, 400);
      assert.match(blank.json().message, /title/);
      const long = await inject(app, asAgent, 'POST', REPLIES, { title: 'Long', content: 'x'.repeat(2001) });
      assert.equal(long.statusCode, 400);
      assert.match(long.json().message, /content/);
      assert.equal((await db.selectFrom('canned_reply').select('id').execute()).length, 0);

      const reply = (await inject(app, asAgent, 'POST', REPLIES, { title: 'Bonjour', content: 'Bonjour !' })).json();
      assert.deepEqual((await inject(app, asOutsider, 'GET', REPLIES)).json(), GROUP_NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsider, 'GET', `/admin/canned-replies/${reply.id}`)).json(), NOT_FOUND);
      assert.deepEqual((await inject(app, { ...asOutsider, 'if-match': '*' }, 'PATCH', `/admin/canned-replies/${reply.id}`, { title: 'x' })).json(), NOT_FOUND);
      assert.equal((await inject(app, asManager, 'GET', REPLIES)).statusCode, 403);
      assert.equal((await inject(app, {}, 'GET', REPLIES)).statusCode, 401);
      assert.equal((await inject(app, asOutsider, 'GET', `/admin/city-groups/${ids.emptyGroup}/canned-replies`)).json().meta.total, 0);
    });
  });
}
