import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { challengesAdminApp, inject } from '../helpers/admin-fixtures.ts';

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
const NOT_FOUND = { statusCode: 404, message: 'Question de quiz introuvable', error: 'Not Found', code: 'quizQuestionNotFound', field: null };
const CITY_NOT_FOUND = { statusCode: 404, message: 'Ville introuvable', error: 'Not Found', code: 'cityNotFound', field: null };
const QUESTIONS = `/admin/cities/${ids.brest}/quiz-questions`;

interface PublicQuestion { id: string; material: string; question: string; correctWasteTypeId: string; order: number }

type Headers = Record<string, string>;

/** `headers` plus `If-Match` with the ETag of `url` as `reader` reads it now (a PATCH or DELETE needs one). */
async function withIfMatch(app: FastifyInstance, headers: Headers, url: string, reader: Headers = headers): Promise<Headers> {
  return { ...headers, 'if-match': String((await inject(app, reader, 'GET', url)).headers.etag) };
}

const publicQuestions = async (app: FastifyInstance) =>
  ((await app.inject('/public/cities')).json() as { id: string; quizQuestions: PublicQuestion[] }[]).find((c) => c.id === ids.brest)!.quizQuestions;

for (const kind of testDatabaseKinds()) {
  describe(`/admin quiz questions (${kind})`, () => {
    // One app for the file: each test works on records of its own.
    let ctx: Awaited<ReturnType<typeof challengesAdminApp>>;
    const cleanups: (() => Promise<void>)[] = [];
    before(async () => {
      ctx = await challengesAdminApp({ after: (fn: () => Promise<void>) => void cleanups.push(fn) }, kind);
    });
    after(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it('creates, lists, reads, changes and deletes a question, the public city following each write, each audited', async () => {
      const { app, asManager } = ctx;
      assert.equal((await publicQuestions(app)).length, 2, 'the public city is cached before the writes');
      const created = await inject(app, asManager, 'POST', QUESTIONS, {
        material: ' Canette ', question: 'Où va la canette\u202f?', correctWasteTypeId: ids.wasteEmb.toUpperCase(), order: 0,
      });
      assert.equal(created.statusCode, 201, created.body);
      const question = created.json();
      assert.deepEqual({ ...question, id: undefined }, {
        id: undefined, material: 'Canette', question: 'Où va la canette\u202f?', correctWasteTypeId: ids.wasteEmb, order: 0, cityId: ids.brest,
      });
      const { cityId: _, ...shown } = question;
      assert.deepEqual((await publicQuestions(app))[0], shown, 'first by order');

      const list = await inject(app, asManager, 'GET', `${QUESTIONS}?pageSize=2`);
      assert.deepEqual(list.json().meta, { page: 1, pageSize: 2, total: 3, totalPages: 2 });
      assert.deepEqual(list.json().data.map((q: { material: string }) => q.material), ['Canette', 'Pot de yaourt'], 'by order, as the public city');

      const read = await inject(app, asManager, 'GET', `/admin/quiz-questions/${question.id}`);
      assert.deepEqual(read.json(), question);
      const etag = String(read.headers.etag);
      const changed = await inject(app, { ...asManager, 'if-match': etag }, 'PATCH', `/admin/quiz-questions/${question.id}`, {
        correctWasteTypeId: ids.wasteVerre, order: 5,
      });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.deepEqual(changed.json(), { ...question, correctWasteTypeId: ids.wasteVerre, order: 5 });
      assert.deepEqual((await publicQuestions(app)).at(-1), { ...shown, correctWasteTypeId: ids.wasteVerre, order: 5 });

      const stale = await inject(app, { ...asManager, 'if-match': etag }, 'DELETE', `/admin/quiz-questions/${question.id}`);
      assert.equal(stale.statusCode, 412);
      const deleted = await inject(app, { ...asManager, 'if-match': String(changed.headers.etag) }, 'DELETE', `/admin/quiz-questions/${question.id}`);
      assert.equal(deleted.statusCode, 204);
      assert.deepEqual((await inject(app, asManager, 'GET', `/admin/quiz-questions/${question.id}`)).json(), NOT_FOUND);
      assert.ok(!(await publicQuestions(app)).some((q) => q.id === question.id));

      const audit = (await inject(app, asManager, 'GET', `/admin/audit?entity=quizQuestion&entityId=${question.id}`)).json().data as {
        action: string; before: PublicQuestion | null; after: PublicQuestion | null;
      }[];
      assert.deepEqual(audit.map((e) => e.action).sort(), ['create', 'delete', 'update']);
      const update = audit.find((e) => e.action === 'update')!;
      assert.deepEqual([update.before?.order, update.after?.order], [0, 5]);
    });

    it('refuses a correct waste type of no waste type of the city (400 naming the field), writing nothing', async () => {
      const { app, db, asManager } = ctx;
      const count = async () => (await db.selectFrom('quiz_question').select('id').execute()).length;
      const before = await count();
      const version = await db.selectFrom('data_version').select('version').executeTakeFirst();
      const foreign = await inject(app, asManager, 'POST', QUESTIONS, { material: 'Pile', question: 'Où va la pile\u202f?', correctWasteTypeId: UNKNOWN });
      assert.deepEqual(foreign.json(), {
        statusCode: 400, error: 'Bad Request', code: 'validation', field: 'correctWasteTypeId',
        message: `Le champ «\u00a0correctWasteTypeId\u00a0» ne désigne aucun type de déchet de cette ville (${UNKNOWN}).`,
      });
      const missing = await inject(app, asManager, 'POST', QUESTIONS, { material: 'Pile', correctWasteTypeId: ids.wasteOm });
      assert.equal(missing.statusCode, 400);
      assert.match(missing.json().message, /question/);
      const [existing] = await db.selectFrom('quiz_question').select('id').where('city_id', '=', ids.brest).execute();
      const existingUrl = `/admin/quiz-questions/${existing.id}`;
      const patched = await inject(app, await withIfMatch(app, asManager, existingUrl), 'PATCH', existingUrl, { correctWasteTypeId: UNKNOWN });
      assert.match(patched.json().message, /^Le champ «\u00a0correctWasteTypeId\u00a0» ne désigne aucun type de déchet/);
      assert.equal(await count(), before);
      assert.deepEqual(await db.selectFrom('data_version').select('version').executeTakeFirst(), version);
      assert.equal((await db.selectFrom('audit_entry').select('id').where('entity_id', '=', existing.id).execute()).length, 0);
    });

    it('refuses to delete a question still in a serie (409, nothing deleted); once taken out of the serie it goes', async () => {
      const { app, db, asManager, asCoach } = ctx;
      const [question] = await db.selectFrom('quiz_question').select('id').where('city_id', '=', ids.brest).execute();
      const challenge = (await inject(app, asCoach, 'POST', `/admin/cities/${ids.brest}/challenges`, { name: 'Quiz du tri' })).json();
      const serie = await inject(app, asCoach, 'POST', `/admin/challenges/${challenge.id}/series`, { name: 'Série 1', quizQuestionIds: [question.id] });
      assert.equal(serie.statusCode, 201, serie.body);

      const asManagerWriting = await withIfMatch(app, asManager, `/admin/quiz-questions/${question.id}`);
      const refused = await inject(app, asManagerWriting, 'DELETE', `/admin/quiz-questions/${question.id}`);
      assert.deepEqual(refused.json(), {
        statusCode: 409, error: 'Conflict', code: 'quizQuestionInUse', field: null,
        message: 'Cette question figure encore dans 1\u00a0série de défis\u00a0: retirez-la d’abord de leur champ «\u00a0quizQuestionIds\u00a0».',
      });
      assert.equal((await inject(app, asManager, 'GET', `/admin/quiz-questions/${question.id}`)).statusCode, 200);
      assert.equal((await inject(app, { ...asCoach, 'if-match': String(serie.headers.etag) }, 'PATCH', `/admin/series/${serie.json().id}`, { quizQuestionIds: [] })).statusCode, 200);
      assert.equal((await inject(app, asManagerWriting, 'DELETE', `/admin/quiz-questions/${question.id}`)).statusCode, 204);
    });

    it('needs a token (401) and CITIES (403, a challenge manager too); another group’s city and questions answer 404', async () => {
      const { app, db, asRoot, asManager, asOutsider, asCoach } = ctx;
      const [existing] = await db.selectFrom('quiz_question').select('id').where('city_id', '=', ids.brest).execute();
      const body = { material: 'Pile', question: 'Où va la pile\u202f?', correctWasteTypeId: ids.wasteOm };
      assert.equal((await inject(app, {}, 'GET', QUESTIONS)).statusCode, 401);
      const forbidden = await inject(app, asCoach, 'POST', QUESTIONS, body);
      assert.deepEqual([forbidden.statusCode, forbidden.json().message], [403, 'Votre compte n’a pas la permission CITIES.']);
      assert.deepEqual((await inject(app, asOutsider, 'GET', QUESTIONS)).json(), CITY_NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsider, 'POST', QUESTIONS, body)).json(), CITY_NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsider, 'GET', `/admin/quiz-questions/${existing.id}`)).json(), NOT_FOUND);
      // With the question's very ETag (read by an agent who may): still 404, as if missing.
      const existingUrl = `/admin/quiz-questions/${existing.id}`;
      const ifMatch = { 'if-match': (await withIfMatch(app, asManager, existingUrl))['if-match'] };
      assert.deepEqual((await inject(app, { ...asOutsider, ...ifMatch }, 'PATCH', existingUrl, { order: 9 })).json(), NOT_FOUND);
      assert.deepEqual((await inject(app, { ...asOutsider, ...ifMatch }, 'DELETE', existingUrl)).json(), NOT_FOUND);
      // A question keeps its city: naming another in a PATCH moves nothing.
      const moved = await inject(app, { ...asManager, ...ifMatch }, 'PATCH', existingUrl, { cityId: ids.lonely });
      assert.deepEqual([moved.statusCode, moved.json().cityId], [200, ids.brest]);
      assert.deepEqual((await inject(app, asManager, 'POST', `/admin/cities/${ids.lonely}/quiz-questions`, body)).json(), CITY_NOT_FOUND);
      assert.deepEqual((await inject(app, asRoot, 'GET', `/admin/quiz-questions/${UNKNOWN}`)).json(), NOT_FOUND);
      assert.equal((await inject(app, asRoot, 'GET', `/admin/quiz-questions/${existing.id}`)).statusCode, 200);
    });
  });
}
