import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { contentAdminApp as setup, inject, storedVersion } from '../helpers/content-admin-fixtures.ts';

// A city group's frequently asked questions: written by its agents holding CMS, read by the residents of its cities.

const FAQ = `/admin/city-groups/${ids.group}/faq`;
const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
const NOT_FOUND = { statusCode: 404, error: 'Not Found', message: 'Question fréquente introuvable', code: 'faqEntryNotFound', field: null };
const GROUP_NOT_FOUND = { statusCode: 404, error: 'Not Found', message: 'Groupe de villes introuvable', code: 'cityGroupNotFound', field: null };
const CITY_NOT_FOUND = { statusCode: 404, error: 'Not Found', message: 'Ville introuvable', code: 'cityNotFound', field: null };

const BULKY = { question: 'Comment me débarrasser d’un canapé\u202f?', answer: 'Prenez rendez-vous pour un enlèvement des encombrants.' };
const GLASS = { question: 'Faut-il laver les bocaux\u202f?', answer: 'Non : videz-les bien, c’est suffisant.' };

const publicFaq = async (app: FastifyInstance, cityId: string) => {
  const answer = await app.inject(`/public/cities/${cityId}/faq`);
  assert.equal(answer.statusCode, 200, answer.body);
  return answer.json() as { id: string; question: string; answer: string }[];
};

for (const kind of testDatabaseKinds()) {
  describe(`frequently asked questions (${kind})`, () => {
    it('adds, orders, changes and deletes questions; every city of the group reads them at once, each write audited', async (t) => {
      const clock = fixedClock('2026-11-30T09:00:00.000Z');
      const { app, asWebmaster } = await setup(t, kind, { clock });
      assert.deepEqual(await publicFaq(app, ids.brest), [], 'none yet');

      const bulky = await inject(app, asWebmaster, 'POST', FAQ, { ...BULKY, question: `  ${BULKY.question}\n` });
      assert.equal(bulky.statusCode, 201, bulky.body);
      const created = bulky.json();
      assert.deepEqual({ ...created, id: undefined }, {
        id: undefined, ...BULKY, position: 0, cityGroupId: ids.group, createdAt: '2026-11-30T09:00:00.000Z', updatedAt: '2026-11-30T09:00:00.000Z',
      }, 'stored trimmed, at position 0 by default');
      clock.set('2026-11-30T09:01:00.000Z');
      const glass = (await inject(app, asWebmaster, 'POST', FAQ, { ...GLASS, position: 0 })).json();
      // Same position: the older first.
      assert.deepEqual(await publicFaq(app, ids.brest), [{ id: created.id, ...BULKY }, { id: glass.id, ...GLASS }]);
      assert.deepEqual(await publicFaq(app, ids.elorn), await publicFaq(app, ids.brest), 'the group’s, for each of its cities');

      // Moved first; the listing follows the public order.
      // (The audit log lists entries newest first: each write at its own instant.)
      clock.set('2026-11-30T09:02:00.000Z');
      const read = await inject(app, asWebmaster, 'GET', `/admin/faq/${created.id}`);
      assert.equal(read.headers.etag, bulky.headers.etag);
      const moved = await inject(app, { ...asWebmaster, 'if-match': String(read.headers.etag) }, 'PATCH', `/admin/faq/${created.id}`, { position: 5 });
      assert.equal(moved.statusCode, 200, moved.body);
      assert.deepEqual({ position: moved.json().position, question: moved.json().question }, { position: 5, question: BULKY.question });
      assert.deepEqual((await publicFaq(app, ids.brest)).map((q) => q.id), [glass.id, created.id], 'public at once');
      const list = await inject(app, asWebmaster, 'GET', `${FAQ}?pageSize=1&page=2`);
      assert.deepEqual(list.json(), { data: [moved.json()], meta: { page: 2, pageSize: 1, total: 2, totalPages: 2 } });

      // A stale version changes nothing.
      const stale = await inject(app, { ...asWebmaster, 'if-match': String(read.headers.etag) }, 'PATCH', `/admin/faq/${created.id}`, { answer: 'Autre' });
      assert.equal(stale.statusCode, 412);
      clock.set('2026-11-30T09:03:00.000Z');
      const removed = await inject(app, { ...asWebmaster, 'if-match': String(moved.headers.etag) }, 'DELETE', `/admin/faq/${created.id}`);
      assert.equal(removed.statusCode, 204);
      assert.deepEqual((await inject(app, asWebmaster, 'GET', `/admin/faq/${created.id}`)).json(), NOT_FOUND);
      assert.deepEqual(await publicFaq(app, ids.brest), [{ id: glass.id, ...GLASS }]);

      const audit = (await inject(app, asWebmaster, 'GET', `/admin/audit?entity=faqEntry&entityId=${created.id}`)).json().data;
      assert.deepEqual(audit.map((a: { action: string }) => a.action), ['delete', 'update', 'create']);
      assert.deepEqual([audit[1].before.position, audit[1].after.position], [0, 5]);
    });

    it('answers 404 for an unknown or inactive city, [] for a city of no group, and 400 for a malformed id', async (t) => {
      const { app, asWebmaster } = await setup(t, kind);
      assert.equal((await inject(app, asWebmaster, 'POST', FAQ, GLASS)).statusCode, 201);
      assert.deepEqual((await app.inject(`/public/cities/${UNKNOWN}/faq`)).json(), CITY_NOT_FOUND);
      assert.deepEqual((await app.inject(`/public/cities/${ids.inactive}/faq`)).json(), CITY_NOT_FOUND, 'a NON_ACTIF city is not public');
      assert.deepEqual(await publicFaq(app, ids.lonely), []);
      const malformed = await app.inject('/public/cities/brest/faq');
      assert.equal(malformed.statusCode, 400);
      assert.equal(malformed.json().field, 'cityId');
    });

    it('refuses a blank question, a long answer or a position out of range, naming the field, writing nothing', async (t) => {
      const { app, db, asWebmaster } = await setup(t, kind);
      const version = await storedVersion(db);
      for (const [body, field] of [
        [{ ...GLASS, question: '   ' }, 'question'],
        [{ ...GLASS, answer: 'a'.repeat(3001) }, 'answer'],
        [{ ...GLASS, position: -1 }, 'position'],
        [{ ...GLASS, position: 1.5 }, 'position'],
        [{ question: GLASS.question }, 'answer'],
      ] as const) {
        const refused = await inject(app, asWebmaster, 'POST', FAQ, body);
        assert.equal(refused.statusCode, 400, `${field}: ${refused.body}`);
        assert.equal(refused.json().code, 'validation');
        assert.equal(refused.json().field, field);
        assert.match(refused.json().message, new RegExp(field));
      }
      const created = await inject(app, asWebmaster, 'POST', FAQ, GLASS);
      const patch = await inject(app, { ...asWebmaster, 'if-match': String(created.headers.etag) }, 'PATCH', `/admin/faq/${created.json().id}`, { answer: '' });
      assert.equal(patch.json().field, 'answer');
      const rows = await db.selectFrom('faq').selectAll().execute();
      assert.deepEqual(rows.map((r) => r.answer), [GLASS.answer], 'the refused patch changed nothing');
      assert.equal(await storedVersion(db), version + 1, 'only the one creation moved the data version');
    });

    it('needs CMS (403); another group’s questions answer 404 as if missing', async (t) => {
      const { app, asWebmaster, asOutsider, asManager } = await setup(t, kind);
      const created = await inject(app, asWebmaster, 'POST', FAQ, GLASS);
      const id = created.json().id;
      const ifMatch = { 'if-match': String(created.headers.etag) };
      assert.equal((await app.inject({ method: 'GET', url: FAQ })).statusCode, 401);
      const forbidden = await inject(app, asManager, 'GET', FAQ);
      assert.equal(forbidden.statusCode, 403);
      assert.equal(forbidden.json().code, 'adminPermission');
      assert.deepEqual((await inject(app, asOutsider, 'GET', FAQ)).json(), GROUP_NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsider, 'POST', FAQ, GLASS)).json(), GROUP_NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsider, 'GET', `/admin/faq/${id}`)).json(), NOT_FOUND);
      assert.deepEqual((await inject(app, { ...asOutsider, ...ifMatch }, 'PATCH', `/admin/faq/${id}`, { position: 2 })).json(), NOT_FOUND);
      assert.deepEqual((await inject(app, { ...asOutsider, ...ifMatch }, 'DELETE', `/admin/faq/${id}`)).json(), NOT_FOUND);
      assert.deepEqual((await inject(app, asWebmaster, 'GET', `/admin/faq/${UNKNOWN}`)).json(), NOT_FOUND);
      assert.deepEqual((await publicFaq(app, ids.brest)).map((q) => q.id), [id], 'nothing changed');
      // The outsider's own group holds its own questions, which Brest's residents do not read.
      assert.equal((await inject(app, asOutsider, 'POST', `/admin/city-groups/${ids.emptyGroup}/faq`, BULKY)).statusCode, 201);
      assert.deepEqual((await publicFaq(app, ids.brest)).map((q) => q.id), [id]);
    });

    it('is documented under the faq tag, with readable operation ids', async (t) => {
      const { app } = await setup(t, kind);
      const doc = (await app.inject('/openapi.json')).json();
      const operation = (path: string, method: string) => doc.paths[path][method];
      assert.deepEqual(operation('/public/cities/{cityId}/faq', 'get').tags, ['faq']);
      assert.deepEqual(
        [
          operation('/public/cities/{cityId}/faq', 'get'),
          operation('/admin/city-groups/{cityGroupId}/faq', 'get'),
          operation('/admin/city-groups/{cityGroupId}/faq', 'post'),
          operation('/admin/faq/{id}', 'get'),
          operation('/admin/faq/{id}', 'patch'),
          operation('/admin/faq/{id}', 'delete'),
        ].map((o) => o.operationId),
        ['listCityFaq', 'listAdminCityGroupFaq', 'createAdminCityGroupFaq', 'getAdminFaq', 'updateAdminFaq', 'deleteAdminFaq'],
      );
      assert.ok(doc.tags.some((tag: { name: string }) => tag.name === 'faq'));
    });

    it('goes with its group when the group is deleted', async (t) => {
      const { app, db, asRoot } = await setup(t, kind);
      const created = await inject(app, asRoot, 'POST', `/admin/city-groups/${ids.emptyGroup}/faq`, GLASS);
      assert.equal(created.statusCode, 201, created.body);
      const group = await inject(app, asRoot, 'GET', `/admin/city-groups/${ids.emptyGroup}`);
      const deleted = await inject(app, { ...asRoot, 'if-match': String(group.headers.etag) }, 'DELETE', `/admin/city-groups/${ids.emptyGroup}`);
      assert.equal(deleted.statusCode, 204, deleted.body);
      assert.deepEqual(await db.selectFrom('faq').selectAll().execute(), []);
    });

    it('is what the chat assistant quotes, with where residents read it, when nothing else answers the message', async (t) => {
      const { app, asWebmaster } = await setup(t, kind);
      const ask = async (content: string) => {
        const opened = await app.inject({ method: 'POST', url: '/public/chat/conversations', payload: { deviceId: `faq-chat-${kind}`, cityId: ids.brest } });
        assert.equal(opened.statusCode, 201, opened.body);
        const said = await app.inject({ method: 'POST', url: `/public/chat/conversations/${opened.json().id}/messages`, payload: { content } });
        assert.equal(said.statusCode, 201, said.body);
        return said.json().content as string;
      };
      const question = 'Est-ce que la mairie prête un broyeur de végétaux ?';
      const before = await ask(question);
      assert.doesNotMatch(before, /samedi matin/);

      const lending = {
        question: 'La mairie prête-t-elle un broyeur de végétaux\u202f?',
        answer: 'Oui\u00a0: le broyeur se réserve en mairie et se retire le samedi matin aux services techniques.',
      };
      assert.equal((await inject(app, asWebmaster, 'POST', FAQ, lending)).statusCode, 201);
      const after = await ask(question);
      assert.match(after, /Questions fréquentes/);
      assert.ok(after.includes(`/communes/${ids.brest}`), after);
      assert.ok(after.includes(lending.answer), after);
    });
  });
}
