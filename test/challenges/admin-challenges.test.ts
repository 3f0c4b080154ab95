import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { challengesAdminApp, inject } from '../helpers/admin-fixtures.ts';

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
const NOT_FOUND = { statusCode: 404, message: 'Défi introuvable', error: 'Not Found', code: 'adminChallengeNotFound', field: null };
const CITY_NOT_FOUND = { statusCode: 404, message: 'Ville introuvable', error: 'Not Found', code: 'cityNotFound', field: null };
const CHALLENGES = `/admin/cities/${ids.brest}/challenges`;

interface PublicChallenge {
  id: string;
  name: string;
  requiredChallenge: { id: string; name: string } | null;
  passingScore: number;
  badge: { id: string; name: string } | null;
  series: { id: string; name: string; quizQuestions: { id: string }[] }[];
}

type Headers = Record<string, string>;

/** `headers` plus `If-Match` with the ETag of `url` as `reader` reads it now (a PATCH or DELETE needs one). */
async function withIfMatch(app: FastifyInstance, headers: Headers, url: string, reader: Headers = headers): Promise<Headers> {
  return { ...headers, 'if-match': String((await inject(app, reader, 'GET', url)).headers.etag) };
}

const publicChallenge = async (app: FastifyInstance, id: string) =>
  ((await app.inject(`/public/challenges/${ids.brest}`)).json() as PublicChallenge[]).find((c) => c.id === id);

for (const kind of testDatabaseKinds()) {
  describe(`/admin challenges, badges and series (${kind})`, () => {
    // One app for the file: each test works on records of its own.
    let ctx: Awaited<ReturnType<typeof challengesAdminApp>>;
    const cleanups: (() => Promise<void>)[] = [];
    before(async () => {
      ctx = await challengesAdminApp({ after: (fn: () => Promise<void>) => void cleanups.push(fn) }, kind);
    });
    after(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });
    const questionsOfBrest = async () =>
      (await ctx.db.selectFrom('quiz_question').select(['id', 'order']).where('city_id', '=', ids.brest).orderBy('order').execute()).map((q) => q.id);

    it('creates a challenge, its badge and serie, the public challenges following each write; lists, reads and deletes them, audited', async () => {
      const { app, asCoach } = ctx;
      assert.equal((await app.inject(`/public/challenges/${ids.brest}`)).statusCode, 200, 'cached before the writes');
      const created = await inject(app, asCoach, 'POST', CHALLENGES, { name: ' Trier le verre ', description: 'Cinq questions', order: 2 });
      assert.equal(created.statusCode, 201, created.body);
      const challenge = created.json();
      assert.deepEqual({ ...challenge, id: undefined }, {
        id: undefined, name: 'Trier le verre', description: 'Cinq questions', enabled: true, startDate: null, endDate: null, order: 2,
        requiredChallengeId: null, requiredChallenge: null, passingScore: 60, badge: null, series: [], cityId: ids.brest,
      });
      assert.equal((await publicChallenge(app, challenge.id))?.name, 'Trier le verre');

      const badge = await inject(app, asCoach, 'POST', `/admin/challenges/${challenge.id}/badges`, { name: 'As du verre', icon: 'bottle' });
      assert.equal(badge.statusCode, 201, badge.body);
      const badgeRecord = badge.json();
      assert.deepEqual({ ...badgeRecord, id: undefined }, {
        id: undefined, name: 'As du verre', description: null, icon: 'bottle', imageUrl: null, challengeId: challenge.id,
      });
      assert.equal((await publicChallenge(app, challenge.id))?.badge?.name, 'As du verre');
      const second = await inject(app, asCoach, 'POST', `/admin/challenges/${challenge.id}/badges`, { name: 'Autre' });
      assert.deepEqual([second.statusCode, second.json().message], [409, 'Ce défi a déjà un badge (un seul par défi)\u00a0: modifiez-le ou supprimez-le d’abord.']);
      const badges = await inject(app, asCoach, 'GET', `/admin/challenges/${challenge.id}/badges`);
      assert.deepEqual(badges.json(), { data: [badge.json()], meta: { page: 1, pageSize: 20, total: 1, totalPages: 1 } });

      const [q1, q2] = await questionsOfBrest();
      const serie = await inject(app, asCoach, 'POST', `/admin/challenges/${challenge.id}/series`, { name: 'Série 1', quizQuestionIds: [q2, q1.toUpperCase()] });
      assert.equal(serie.statusCode, 201, serie.body);
      const serieRecord = serie.json();
      assert.deepEqual({ ...serieRecord, id: undefined }, {
        id: undefined, name: 'Série 1', description: null, order: 0, quizQuestionIds: [q1, q2], challengeId: challenge.id,
      });
      assert.deepEqual((await publicChallenge(app, challenge.id))?.series.map((s) => s.quizQuestions.map((q) => q.id)), [[q1, q2]]);
      const serieRead = await inject(app, asCoach, 'GET', `/admin/series/${serie.json().id}`);
      const serieChanged = await inject(app, { ...asCoach, 'if-match': String(serieRead.headers.etag) }, 'PATCH', `/admin/series/${serie.json().id}`, {
        quizQuestionIds: [q2], name: 'Série unique',
      });
      assert.deepEqual(serieChanged.json(), { ...serieRecord, name: 'Série unique', quizQuestionIds: [q2] });
      assert.deepEqual((await publicChallenge(app, challenge.id))?.series.map((s) => [s.name, s.quizQuestions.length]), [['Série unique', 1]]);

      const read = await inject(app, asCoach, 'GET', `/admin/challenges/${challenge.id}`);
      const { challengeId: _, ...badgeShown } = badgeRecord;
      assert.deepEqual(read.json(), { ...challenge, badge: badgeShown, series: [serieChanged.json()] });
      const list = await inject(app, asCoach, 'GET', CHALLENGES);
      assert.deepEqual(list.json().data, [read.json()]);

      // Disabled: the availability rule of the database (migration 0005) hides it from the public at once.
      const disabled = await inject(app, { ...asCoach, 'if-match': String(read.headers.etag) }, 'PATCH', `/admin/challenges/${challenge.id}`, { enabled: false });
      assert.equal(disabled.statusCode, 200, disabled.body);
      assert.equal(await publicChallenge(app, challenge.id), undefined);
      const stale = await inject(app, { ...asCoach, 'if-match': String(read.headers.etag) }, 'PATCH', `/admin/challenges/${challenge.id}`, { enabled: true });
      assert.equal(stale.statusCode, 412);
      const ended = await inject(app, { ...asCoach, 'if-match': String(disabled.headers.etag) }, 'PATCH', `/admin/challenges/${challenge.id}`, {
        enabled: true, startDate: '2020-01-01T00:00:00.000Z', endDate: '2020-12-31T23:00:00.000Z',
      });
      assert.deepEqual([ended.json().startDate, ended.json().endDate], ['2020-01-01T00:00:00.000Z', '2020-12-31T23:00:00.000Z']);
      assert.equal(await publicChallenge(app, challenge.id), undefined, 'ended');
      const reopened = await inject(app, { ...asCoach, 'if-match': String(ended.headers.etag) }, 'PATCH', `/admin/challenges/${challenge.id}`, { endDate: null });
      assert.equal(reopened.statusCode, 200);
      assert.ok(await publicChallenge(app, challenge.id), 'open again');

      assert.equal((await inject(app, { ...asCoach, 'if-match': String(badge.headers.etag) }, 'DELETE', `/admin/badges/${badge.json().id}`)).statusCode, 204);
      assert.equal((await publicChallenge(app, challenge.id))?.badge, null);
      assert.equal((await inject(app, { ...asCoach, 'if-match': String(serieChanged.headers.etag) }, 'DELETE', `/admin/series/${serie.json().id}`)).statusCode, 204);
      assert.deepEqual((await publicChallenge(app, challenge.id))?.series, []);
      const challengeUrl = `/admin/challenges/${challenge.id}`;
      assert.equal((await inject(app, await withIfMatch(app, asCoach, challengeUrl), 'DELETE', challengeUrl)).statusCode, 204);
      assert.deepEqual((await inject(app, asCoach, 'GET', challengeUrl)).json(), NOT_FOUND);
      assert.equal(await publicChallenge(app, challenge.id), undefined);

      const audit = async (entity: string, id: string) =>
        ((await inject(app, asCoach, 'GET', `/admin/audit?entity=${entity}&entityId=${id}`)).json().data as { action: string; before: unknown; after: unknown }[])
          .map((e) => e.action).sort();
      assert.deepEqual(await audit('challenge', challenge.id), ['create', 'delete', 'update', 'update', 'update']);
      assert.deepEqual(await audit('badge', badge.json().id), ['create', 'delete']);
      assert.deepEqual(await audit('serie', serie.json().id), ['create', 'delete', 'update']);
      const serieUpdate = ((await inject(app, asCoach, 'GET', `/admin/audit?entity=serie&entityId=${serie.json().id}`)).json().data as {
        action: string; before: { quizQuestionIds: string[] }; after: { quizQuestionIds: string[] };
      }[]).find((e) => e.action === 'update')!;
      assert.deepEqual([serieUpdate.before.quizQuestionIds, serieUpdate.after.quizQuestionIds], [[q1, q2], [q2]]);
    });

    it('refuses a cycle of requirements, a requirement outside the city, bad dates and foreign questions (400 naming the field), writing nothing', async () => {
      const { app, db, asCoach, asRoot } = ctx;
      const first = (await inject(app, asCoach, 'POST', CHALLENGES, { name: 'Premier pas' })).json();
      const second = await inject(app, asCoach, 'POST', CHALLENGES, { name: 'Deuxième pas', requiredChallengeId: first.id });
      assert.equal(second.statusCode, 201, second.body);
      assert.deepEqual(second.json().requiredChallenge, { id: first.id, name: 'Premier pas' });
      assert.deepEqual((await publicChallenge(app, second.json().id))?.requiredChallenge, { id: first.id, name: 'Premier pas' });
      const third = (await inject(app, asCoach, 'POST', CHALLENGES, { name: 'Troisième pas', requiredChallengeId: second.json().id })).json();
      const elsewhere = (await inject(app, asRoot, 'POST', `/admin/cities/${ids.elorn}/challenges`, { name: 'Défi d’Élorn' })).json();

      const challenges = async () => (await db.selectFrom('challenge').selectAll().orderBy('id').execute());
      const stored = await challenges();
      const version = await db.selectFrom('data_version').select('version').executeTakeFirst();

      const asCoachWriting = await withIfMatch(app, asCoach, `/admin/challenges/${first.id}`);
      const cycle = await inject(app, asCoachWriting, 'PATCH', `/admin/challenges/${first.id}`, { requiredChallengeId: third.id });
      assert.deepEqual(cycle.json(), {
        statusCode: 400, error: 'Bad Request', code: 'validation', field: 'requiredChallengeId',
        message: `Le champ «\u00a0requiredChallengeId\u00a0» forme un cycle de défis requis (${first.id} → ${third.id} → ${second.json().id} → ${first.id}).`,
      });
      const itself = await inject(app, asCoachWriting, 'PATCH', `/admin/challenges/${first.id}`, { requiredChallengeId: first.id });
      assert.equal(itself.json().message, 'Le champ «\u00a0requiredChallengeId\u00a0» un défi ne peut pas se requérir lui-même.');
      const otherCity = await inject(app, asCoach, 'POST', CHALLENGES, { name: 'Ailleurs', requiredChallengeId: elsewhere.id });
      assert.equal(otherCity.json().message, `Le champ «\u00a0requiredChallengeId\u00a0» ne désigne aucun défi de cette ville (${elsewhere.id}).`);
      const unknown = await inject(app, asCoach, 'POST', CHALLENGES, { name: 'Inconnu', requiredChallengeId: UNKNOWN });
      assert.match(unknown.json().message, /^Le champ «\u00a0requiredChallengeId\u00a0» ne désigne aucun défi de cette ville/);
      const backwards = await inject(app, asCoach, 'POST', CHALLENGES, { name: 'À rebours', startDate: '2026-12-01T00:00:00.000Z', endDate: '2026-11-01T00:00:00.000Z' });
      assert.equal(backwards.json().message, 'Le champ «\u00a0endDate\u00a0» doit être une date égale ou postérieure à startDate.');
      const foreignQuestion = await inject(app, asCoach, 'POST', `/admin/challenges/${first.id}/series`, { name: 'S', quizQuestionIds: [UNKNOWN] });
      assert.equal(foreignQuestion.json().message, `Le champ «\u00a0quizQuestionIds[0]\u00a0» ne désigne aucune question de quiz de cette ville (${UNKNOWN}).`);
      const [q1] = await questionsOfBrest();
      const twice = await inject(app, asCoach, 'POST', `/admin/challenges/${first.id}/series`, { name: 'S', quizQuestionIds: [q1, q1] });
      assert.equal(twice.json().message, `Le champ «\u00a0quizQuestionIds[1]\u00a0» la question ${q1} figure déjà dans cette série.`);

      assert.deepEqual(await challenges(), stored);
      assert.equal((await db.selectFrom('serie').select('id').where('challenge_id', '=', first.id).execute()).length, 0);
      assert.deepEqual(await db.selectFrom('data_version').select('version').executeTakeFirst(), version);
      assert.equal((await db.selectFrom('audit_entry').select('id').where('action', '=', 'update').where('entity_id', '=', first.id).execute()).length, 0);
    });

    it('sets the pass mark (passingScore, 0 to 100, 60 by default), shown to the public; anything else 400 in French', async () => {
      const { app, asCoach } = ctx;
      const created = await inject(app, asCoach, 'POST', CHALLENGES, { name: 'Exigeant', passingScore: 80 });
      assert.equal(created.statusCode, 201, created.body);
      assert.equal(created.json().passingScore, 80);
      assert.equal((await publicChallenge(app, created.json().id))?.passingScore, 80);
      const changed = await inject(app, { ...asCoach, 'if-match': String(created.headers.etag) }, 'PATCH', `/admin/challenges/${created.json().id}`, { passingScore: 0 });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.equal(changed.json().passingScore, 0);
      assert.equal((await publicChallenge(app, created.json().id))?.passingScore, 0);
      for (const passingScore of [101, -1, 50.5, '60', null]) {
        const bad = await inject(app, { ...asCoach, 'if-match': String(changed.headers.etag) }, 'PATCH', `/admin/challenges/${created.json().id}`, { passingScore });
        assert.equal(bad.statusCode, 400, `${passingScore}`);
        assert.equal(bad.json().error, 'Bad Request');
        assert.match(bad.json().message, /passingScore/, bad.json().message);
      }
      assert.equal((await publicChallenge(app, created.json().id))?.passingScore, 0);
    });

    it('refuses to delete a challenge another requires or devices completed (409); disabling keeps their progress', async () => {
      const { app, asCoach } = ctx;
      const base = (await inject(app, asCoach, 'POST', CHALLENGES, { name: 'Bases du tri' })).json();
      const next = (await inject(app, asCoach, 'POST', CHALLENGES, { name: 'Expert du tri', requiredChallengeId: base.id })).json();
      const baseUrl = `/admin/challenges/${base.id}`;
      const nextUrl = `/admin/challenges/${next.id}`;
      const required = await inject(app, await withIfMatch(app, asCoach, baseUrl), 'DELETE', baseUrl);
      assert.deepEqual(required.json(), {
        statusCode: 409, error: 'Conflict', code: 'challengeRequired', field: null,
        message: 'Ce défi est requis par «\u00a0Expert du tri\u00a0»\u00a0: changez d’abord leur champ «\u00a0requiredChallengeId\u00a0».',
      });
      const done = await app.inject({ method: 'POST', url: '/public/challenges/complete', payload: { deviceId: 'device-admin-1', challengeId: next.id, score: 80 } });
      assert.equal(done.statusCode, 400, 'the requirement holds for the public');
      assert.equal((await app.inject({ method: 'POST', url: '/public/challenges/complete', payload: { deviceId: 'device-admin-1', challengeId: base.id, score: 90 } })).statusCode, 201);
      const completed = await inject(app, await withIfMatch(app, asCoach, nextUrl), 'PATCH', nextUrl, { requiredChallengeId: null });
      assert.equal(completed.statusCode, 200);
      const refused = await inject(app, await withIfMatch(app, asCoach, baseUrl), 'DELETE', baseUrl);
      assert.equal(refused.statusCode, 409);
      assert.match(refused.json().message, /^Ce défi a déjà été relevé 1\u00a0fois\u00a0: désactivez-le/);
      assert.equal((await inject(app, await withIfMatch(app, asCoach, baseUrl), 'PATCH', baseUrl, { enabled: false })).statusCode, 200);
      const progress = (await app.inject('/public/challenges/progress/device-admin-1')).json() as { challengeId: string }[];
      assert.deepEqual(progress.map((p) => p.challengeId), [base.id]);
      assert.equal((await inject(app, { ...asCoach, 'if-match': String(completed.headers.etag) }, 'DELETE', nextUrl)).statusCode, 204);
    });

    it('needs a token (401) and CHALLENGES (403 for a CITIES agent); another group’s challenges, badges and series answer 404', async () => {
      const { app, db, asManager, asCoach, asOtherCoach, asRoot } = ctx;
      const challenge = (await inject(app, asCoach, 'POST', CHALLENGES, { name: 'Défi gardé' })).json();
      const badgeWritten = await inject(app, asCoach, 'POST', `/admin/challenges/${challenge.id}/badges`, { name: 'Gardien' });
      const serieWritten = await inject(app, asCoach, 'POST', `/admin/challenges/${challenge.id}/series`, { name: 'Gardée' });
      const [badge, serie] = [badgeWritten.json(), serieWritten.json()];
      // Every write below carries the record's very ETag: what refuses it is the rights, not the version.
      const challengeMatch = { 'if-match': String((await inject(app, asCoach, 'GET', `/admin/challenges/${challenge.id}`)).headers.etag) };
      const badgeMatch = { 'if-match': String(badgeWritten.headers.etag) };
      const serieMatch = { 'if-match': String(serieWritten.headers.etag) };
      const counts = async () => Promise.all(['challenge', 'badge', 'serie'].map(async (t) => (await db.selectFrom(t as 'badge').select('id').execute()).length));
      const before = await counts();

      assert.equal((await inject(app, {}, 'GET', CHALLENGES)).statusCode, 401);
      const forbidden = await inject(app, asManager, 'POST', CHALLENGES, { name: 'Interdit' });
      assert.deepEqual([forbidden.statusCode, forbidden.json().message], [403, 'Votre compte n’a pas la permission CHALLENGES.']);
      assert.equal((await inject(app, asManager, 'GET', `/admin/badges/${badge.id}`)).statusCode, 403);
      assert.equal((await inject(app, { ...asManager, ...serieMatch }, 'PATCH', `/admin/series/${serie.id}`, { name: 'x' })).statusCode, 403);

      assert.deepEqual((await inject(app, asOtherCoach, 'GET', CHALLENGES)).json(), CITY_NOT_FOUND);
      assert.deepEqual((await inject(app, asOtherCoach, 'POST', CHALLENGES, { name: 'Intrus' })).json(), CITY_NOT_FOUND);
      assert.deepEqual((await inject(app, asOtherCoach, 'GET', `/admin/challenges/${challenge.id}`)).json(), NOT_FOUND);
      assert.deepEqual((await inject(app, { ...asOtherCoach, ...challengeMatch }, 'PATCH', `/admin/challenges/${challenge.id}`, { name: 'x' })).json(), NOT_FOUND);
      assert.deepEqual((await inject(app, { ...asOtherCoach, ...challengeMatch }, 'DELETE', `/admin/challenges/${challenge.id}`)).json(), NOT_FOUND);
      assert.deepEqual((await inject(app, asOtherCoach, 'GET', `/admin/challenges/${challenge.id}/series`)).json(), NOT_FOUND);
      assert.deepEqual((await inject(app, asOtherCoach, 'POST', `/admin/challenges/${challenge.id}/series`, { name: 'Intruse' })).json(), NOT_FOUND);
      assert.deepEqual((await inject(app, asOtherCoach, 'POST', `/admin/challenges/${challenge.id}/badges`, { name: 'Intrus' })).json(), NOT_FOUND);
      const serieNotFound = { statusCode: 404, message: 'Série introuvable', error: 'Not Found', code: 'serieNotFound', field: null };
      const badgeNotFound = { statusCode: 404, message: 'Badge introuvable', error: 'Not Found', code: 'badgeNotFound', field: null };
      assert.deepEqual((await inject(app, asOtherCoach, 'GET', `/admin/series/${serie.id}`)).json(), serieNotFound);
      assert.deepEqual((await inject(app, { ...asOtherCoach, ...serieMatch }, 'PATCH', `/admin/series/${serie.id}`, { name: 'x' })).json(), serieNotFound);
      assert.deepEqual((await inject(app, { ...asOtherCoach, ...serieMatch }, 'DELETE', `/admin/series/${serie.id}`)).json(), serieNotFound);
      assert.deepEqual((await inject(app, asOtherCoach, 'GET', `/admin/badges/${badge.id}`)).json(), badgeNotFound);
      assert.deepEqual((await inject(app, { ...asOtherCoach, ...badgeMatch }, 'PATCH', `/admin/badges/${badge.id}`, { name: 'x' })).json(), badgeNotFound);
      assert.deepEqual((await inject(app, { ...asOtherCoach, ...badgeMatch }, 'DELETE', `/admin/badges/${badge.id}`)).json(), badgeNotFound);
      assert.deepEqual(await counts(), before);

      // A serie keeps its challenge, a challenge its city: naming another parent in a PATCH moves nothing.
      const elsewhere = (await inject(app, asRoot, 'POST', `/admin/cities/${ids.lonely}/challenges`, { name: 'Sans groupe' })).json();
      const moved = await inject(app, { ...asCoach, ...serieMatch }, 'PATCH', `/admin/series/${serie.id}`, { challengeId: elsewhere.id });
      assert.deepEqual([moved.statusCode, moved.json().challengeId], [200, challenge.id]);
      const movedChallenge = await inject(app, await withIfMatch(app, asCoach, `/admin/challenges/${challenge.id}`), 'PATCH', `/admin/challenges/${challenge.id}`, { cityId: ids.lonely });
      assert.deepEqual([movedChallenge.statusCode, movedChallenge.json().cityId], [200, ids.brest]);
      assert.deepEqual((await inject(app, asCoach, 'GET', `/admin/challenges/${elsewhere.id}`)).json(), NOT_FOUND);
      assert.deepEqual((await inject(app, asCoach, 'POST', `/admin/challenges/${elsewhere.id}/series`, { name: 'Intruse' })).json(), NOT_FOUND);
      assert.deepEqual((await inject(app, asRoot, 'GET', `/admin/challenges/${UNKNOWN}`)).json(), NOT_FOUND);
    });
  });
}
