import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { insertChallenge, insertChallengeWorld, setChallengeEnabled } from '../helpers/challenge-fixtures.ts';

const DEVICE = 'device-abc_123';

function complete(app: FastifyInstance, body: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: '/public/challenges/complete', payload: body });
}

for (const kind of testDatabaseKinds()) {
  describe(`GET /public/challenges/:cityId (${kind})`, () => {
    it('lists the available challenges of an ACTIF city with every optional field present', async (t) => {
      const clock = fixedClock('2026-06-15T12:00:00.000Z');
      const { app, database } = await buildTestApp(t, kind, { clock });
      const world = await insertChallengeWorld(database.db);
      const first = await insertChallenge(database.db, {
        cityId: world.cityId,
        name: 'Tri sélectif',
        order: 1,
        series: [{ name: 'Série 1', questionIds: [world.questionIds.q2, world.questionIds.q1] }],
      });
      await insertChallenge(database.db, {
        cityId: world.cityId,
        name: 'Compost',
        order: 2,
        startDate: '2026-07-01T00:00:00.000Z',
        badge: { name: 'Jardinier' },
      });
      const res = await app.inject(`/public/challenges/${world.cityId}`);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), [
        {
          id: first.id,
          name: 'Tri sélectif',
          description: null,
          enabled: true,
          startDate: null,
          endDate: null,
          order: 1,
          requiredChallengeId: null,
          requiredChallenge: null,
          passingScore: 60,
          series: [
            {
              id: first.serieIds[0],
              name: 'Série 1',
              description: null,
              order: 0,
              quizQuestions: [
                { id: world.questionIds.q1, material: 'Bouteille en verre', question: 'Où va la bouteille ?', correctWasteTypeId: world.wasteTypeIds.glass, order: 1 },
                { id: world.questionIds.q2, material: 'Canette', question: 'Où va la canette ?', correctWasteTypeId: world.wasteTypeIds.packaging, order: 2 },
              ],
            },
          ],
          badge: null,
        },
      ]);

      // Once "Compost" has started, it appears, with its badge.
      clock.set('2026-07-01T00:00:00.000Z');
      const later = (await app.inject(`/public/challenges/${world.cityId}`)).json();
      assert.deepEqual(later.map((c: { name: string }) => c.name), ['Tri sélectif', 'Compost']);
      assert.equal(later[1].badge.name, 'Jardinier');
      assert.equal(later[1].badge.imageUrl, null);
    });

    it('answers 404 for an unknown or NON_ACTIF city and 400 for a malformed id', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      const world = await insertChallengeWorld(database.db);
      await insertChallenge(database.db, { cityId: world.inactiveCityId, name: 'Caché' });
      for (const id of [randomUUID(), world.inactiveCityId]) {
        const res = await app.inject(`/public/challenges/${id}`);
        assert.equal(res.statusCode, 404);
        assert.deepEqual(res.json(), { statusCode: 404, message: 'Ville introuvable', error: 'Not Found', code: 'cityNotFound', field: null });
      }
      const bad = await app.inject('/public/challenges/not-a-uuid');
      assert.equal(bad.statusCode, 400);
      assert.match(bad.json().message, /cityId/);
    });
  });

  describe(`POST /public/challenges/complete (${kind})`, () => {
    it('answers 201 with the completion record and keeps the best score', async (t) => {
      const clock = fixedClock('2026-06-15T12:00:00.000Z');
      const { app, database } = await buildTestApp(t, kind, { clock });
      const world = await insertChallengeWorld(database.db);
      const challenge = await insertChallenge(database.db, {
        cityId: world.cityId,
        name: 'Verre',
        description: 'Tout sur le verre',
        badge: { name: 'Verrier', description: 'Expert du verre', icon: 'glass', imageUrl: 'https://example.org/v.png' },
      });
      const badge = { id: challenge.badgeId, name: 'Verrier', description: 'Expert du verre', icon: 'glass', imageUrl: 'https://example.org/v.png' };

      const first = await complete(app, { deviceId: DEVICE, challengeId: challenge.id, score: 60 });
      assert.equal(first.statusCode, 201);
      const record = first.json();
      assert.match(record.id, /^[0-9a-f-]{36}$/);
      assert.deepEqual(record, {
        id: record.id,
        deviceId: DEVICE,
        challengeId: challenge.id,
        score: 60,
        completedAt: '2026-06-15T12:00:00.000Z',
        challenge: { id: challenge.id, name: 'Verre', description: 'Tout sur le verre', badge },
      });

      // A lower score, later: the stored record (best score, its moment) comes back.
      clock.set('2026-06-16T08:00:00.000Z');
      const lower = await complete(app, { deviceId: DEVICE, challengeId: challenge.id, score: 40 });
      assert.equal(lower.statusCode, 201);
      assert.deepEqual(lower.json(), record);
      // An equal score does not move completedAt either.
      assert.deepEqual((await complete(app, { deviceId: DEVICE, challengeId: challenge.id, score: 60 })).json(), record);

      // A better score replaces it, with the moment it was reached; the record keeps its id.
      clock.set('2026-06-17T09:30:00.000Z');
      const better = await complete(app, { deviceId: DEVICE, challengeId: challenge.id, score: 92.5 });
      assert.equal(better.statusCode, 201);
      assert.deepEqual(better.json(), { ...record, score: 92.5, completedAt: '2026-06-17T09:30:00.000Z' });

      const progress = (await app.inject(`/public/challenges/progress/${DEVICE}`)).json();
      assert.deepEqual(progress, [
        { challengeId: challenge.id, challengeName: 'Verre', score: 92.5, completedAt: '2026-06-17T09:30:00.000Z', badge },
      ]);
      const rows = await database.db.selectFrom('challenge_completion').selectAll().execute();
      assert.equal(rows.length, 1);
    });

    it('gives the badge only at the pass mark: below it the score is recorded without the badge', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      const world = await insertChallengeWorld(database.db);
      const strict = await insertChallenge(database.db, { cityId: world.cityId, name: 'Strict', passingScore: 80, badge: { name: 'Expert' } });
      const usual = await insertChallenge(database.db, { cityId: world.cityId, name: 'Habituel', badge: { name: 'Trieur' } });
      const listed = (await app.inject(`/public/challenges/${world.cityId}`)).json() as { id: string; passingScore: number }[];
      assert.deepEqual(Object.fromEntries(listed.map((c) => [c.id, c.passingScore])), { [strict.id]: 80, [usual.id]: 60 });

      // One right answer of five: 20 %.
      const failed = await complete(app, { deviceId: DEVICE, challengeId: usual.id, score: 20 });
      assert.equal(failed.statusCode, 201);
      assert.equal(failed.json().score, 20);
      assert.equal(failed.json().challenge.badge, null);
      assert.equal((await complete(app, { deviceId: DEVICE, challengeId: strict.id, score: 79.9 })).json().challenge.badge, null);
      const progress = async () => (await app.inject(`/public/challenges/progress/${DEVICE}`)).json() as { challengeId: string; badge: { name: string } | null }[];
      assert.deepEqual((await progress()).map((p) => p.badge), [null, null]);

      // At the mark exactly, the badge; a later lower score keeps it (the best score counts).
      assert.equal((await complete(app, { deviceId: DEVICE, challengeId: usual.id, score: 60 })).json().challenge.badge.name, 'Trieur');
      assert.equal((await complete(app, { deviceId: DEVICE, challengeId: usual.id, score: 10 })).json().challenge.badge.name, 'Trieur');
      assert.equal((await complete(app, { deviceId: DEVICE, challengeId: strict.id, score: 80 })).json().challenge.badge.name, 'Expert');
      assert.deepEqual((await progress()).map((p) => p.badge?.name).sort(), ['Expert', 'Trieur']);
    });

    it('rejects invalid bodies with 400 naming the field', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      const world = await insertChallengeWorld(database.db);
      const challenge = await insertChallenge(database.db, { cityId: world.cityId, name: 'Verre' });
      const valid = { deviceId: DEVICE, challengeId: challenge.id, score: 50 };
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ ...valid, score: '50' }, /score/],
        [{ ...valid, score: -1 }, /score/],
        [{ ...valid, score: 100.01 }, /score/],
        [{ ...valid, score: null }, /score/],
        [{ deviceId: DEVICE, challengeId: challenge.id }, /score/],
        [{ ...valid, deviceId: 'short' }, /deviceId/],
        [{ ...valid, deviceId: 'x'.repeat(129) }, /deviceId/],
        [{ ...valid, deviceId: 'has space!' }, /deviceId/],
        [{ ...valid, deviceId: 12345678 }, /deviceId/],
        [{ ...valid, challengeId: 'nope' }, /challengeId/],
      ];
      for (const [body, field] of cases) {
        const res = await complete(app, body);
        assert.equal(res.statusCode, 400, JSON.stringify(body));
        assert.equal(res.json().error, 'Bad Request');
        assert.match(res.json().message, field, JSON.stringify(body));
      }
      // 1e400 parses to Infinity: not a finite number.
      const infinite = await app.inject({
        method: 'POST',
        url: '/public/challenges/complete',
        headers: { 'content-type': 'application/json' },
        payload: `{"deviceId":"${DEVICE}","challengeId":"${challenge.id}","score":1e400}`,
      });
      assert.equal(infinite.statusCode, 400);
      // The bounds themselves are accepted, and nothing was recorded by the rejected requests before.
      const empty = await app.inject(`/public/challenges/progress/${DEVICE}`);
      assert.deepEqual(empty.json(), []);
      assert.equal(empty.headers['cache-control'], 'no-cache', 'per-device progress is always revalidated');
      assert.equal((await complete(app, { ...valid, score: 0 })).statusCode, 201);
      assert.equal((await complete(app, { ...valid, score: 100 })).json().score, 100);
    });

    it('answers 404 for an unknown, disabled, or NON_ACTIF city challenge', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      const world = await insertChallengeWorld(database.db);
      const disabled = await insertChallenge(database.db, { cityId: world.cityId, name: 'Éteint', enabled: false });
      const elsewhere = await insertChallenge(database.db, { cityId: world.inactiveCityId, name: 'Ailleurs' });
      for (const challengeId of [randomUUID(), disabled.id, elsewhere.id]) {
        const res = await complete(app, { deviceId: DEVICE, challengeId, score: 10 });
        assert.equal(res.statusCode, 404);
        assert.equal(res.json().error, 'Not Found');
        assert.match(res.json().message, /^Défi introuvable/);
      }
      assert.deepEqual((await app.inject(`/public/challenges/progress/${DEVICE}`)).json(), []);
    });

    it('answers 400 before the start and after the end, saying which, and accepts the bounds', async (t) => {
      const clock = fixedClock('2026-05-31T21:59:59.999Z');
      const { app, database } = await buildTestApp(t, kind, { clock });
      const world = await insertChallengeWorld(database.db);
      const summer = await insertChallenge(database.db, {
        cityId: world.cityId,
        name: 'Été',
        startDate: '2026-05-31T22:00:00.000Z',
        endDate: '2026-08-31T21:59:59.999Z',
      });
      const body = { deviceId: DEVICE, challengeId: summer.id, score: 70 };

      const early = await complete(app, body);
      assert.equal(early.statusCode, 400);
      assert.equal(early.json().message, 'Le défi « Été » n’a pas encore commencé : il ouvre le 1er juin 2026 à 0\u00a0h.');

      clock.set('2026-05-31T22:00:00.000Z');
      assert.equal((await complete(app, body)).statusCode, 201);
      clock.set('2026-08-31T21:59:59.999Z');
      assert.equal((await complete(app, { ...body, score: 80 })).statusCode, 201);

      clock.set('2026-08-31T22:00:00.000Z');
      const late = await complete(app, { ...body, score: 90 });
      assert.equal(late.statusCode, 400);
      assert.equal(late.json().message, 'Le défi « Été » est terminé depuis le 31 août 2026 à 23\u00a0h\u00a059.');

      // Progress survives the end of the challenge, with the best score reached while it was open.
      const progress = (await app.inject(`/public/challenges/progress/${DEVICE}`)).json();
      assert.deepEqual(
        progress.map((p: { challengeId: string; score: number; completedAt: string }) => [p.challengeId, p.score, p.completedAt]),
        [[summer.id, 80, '2026-08-31T21:59:59.999Z']],
      );
    });

    it('requires the prerequisite challenge to be completed by the same device first', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      const world = await insertChallengeWorld(database.db);
      const basics = await insertChallenge(database.db, { cityId: world.cityId, name: 'Les bases', order: 1 });
      const expert = await insertChallenge(database.db, {
        cityId: world.cityId,
        name: 'Expert',
        order: 2,
        requiredChallengeId: basics.id,
      });

      const listed = (await app.inject(`/public/challenges/${world.cityId}`)).json();
      assert.deepEqual(listed[1].requiredChallenge, { id: basics.id, name: 'Les bases' });

      const blocked = await complete(app, { deviceId: DEVICE, challengeId: expert.id, score: 90 });
      assert.equal(blocked.statusCode, 400);
      assert.equal(blocked.json().message, 'Terminez d’abord le défi « Les bases » avant celui-ci.');

      // Another device's completion does not unlock it for this one.
      assert.equal((await complete(app, { deviceId: 'other-device', challengeId: basics.id, score: 10 })).statusCode, 201);
      assert.equal((await complete(app, { deviceId: DEVICE, challengeId: expert.id, score: 90 })).statusCode, 400);

      assert.equal((await complete(app, { deviceId: DEVICE, challengeId: basics.id, score: 10 })).statusCode, 201);
      const unlocked = await complete(app, { deviceId: DEVICE, challengeId: expert.id, score: 90 });
      assert.equal(unlocked.statusCode, 201);
      assert.equal(unlocked.json().challengeId, expert.id);

      // The prerequisite counts even once it is disabled: completing it is what matters.
      await setChallengeEnabled(database.db, basics.id, false);
      assert.equal((await complete(app, { deviceId: DEVICE, challengeId: expert.id, score: 95 })).statusCode, 201);
    });

    it('keeps one record with the maximum score under 50 concurrent completions', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      const world = await insertChallengeWorld(database.db);
      const challenge = await insertChallenge(database.db, { cityId: world.cityId, name: 'Course' });
      const scores = Array.from({ length: 50 }, () => Math.round(Math.random() * 10_000) / 100);
      const answers = await Promise.all(
        scores.map((score) => complete(app, { deviceId: DEVICE, challengeId: challenge.id, score })),
      );
      assert.deepEqual(answers.map((a) => a.statusCode), scores.map(() => 201));
      assert.equal(new Set(answers.map((a) => a.json().id)).size, 1);
      const progress = (await app.inject(`/public/challenges/progress/${DEVICE}`)).json();
      assert.equal(progress.length, 1);
      assert.equal(progress[0].score, Math.max(...scores));
    });

    if (kind === 'postgres') {
      it('keeps one record with the maximum score when two instances share the database', async (t) => {
        const { app: first, database } = await buildTestApp(t, kind);
        const { app: second } = await buildTestApp(t, kind, { database });
        const world = await insertChallengeWorld(database.db);
        const challenge = await insertChallenge(database.db, { cityId: world.cityId, name: 'Relais' });
        const scores = Array.from({ length: 50 }, () => Math.round(Math.random() * 10_000) / 100);
        const answers = await Promise.all(
          scores.map((score, i) => complete(i % 2 ? first : second, { deviceId: DEVICE, challengeId: challenge.id, score })),
        );
        assert.ok(answers.every((a) => a.statusCode === 201));
        const progress = (await second.inject(`/public/challenges/progress/${DEVICE}`)).json();
        assert.equal(progress.length, 1);
        assert.equal(progress[0].score, Math.max(...scores));
        const rows = await database.db.selectFrom('challenge_completion').select('score').execute();
        assert.deepEqual(rows.map((r) => r.score), [Math.max(...scores)]);
      });
    }
  });

  describe(`GET /public/challenges/progress/:deviceId (${kind})`, () => {
    it('lists completions newest first, with badges, kept after disabling; [] for an unknown device', async (t) => {
      const clock = fixedClock('2026-03-01T10:00:00.000Z');
      const { app, database } = await buildTestApp(t, kind, { clock });
      const world = await insertChallengeWorld(database.db);
      const a = await insertChallenge(database.db, { cityId: world.cityId, name: 'A', passingScore: 25, badge: { name: 'Badge A', icon: 'a' } });
      const b = await insertChallenge(database.db, { cityId: world.cityId, name: 'B', badge: { name: 'Badge B' } });
      assert.equal((await complete(app, { deviceId: DEVICE, challengeId: a.id, score: 30 })).statusCode, 201);
      clock.set('2026-03-02T10:00:00.000Z');
      assert.equal((await complete(app, { deviceId: DEVICE, challengeId: b.id, score: 55.5 })).statusCode, 201);
      assert.equal((await complete(app, { deviceId: 'someone-else', challengeId: b.id, score: 99 })).statusCode, 201);

      await setChallengeEnabled(database.db, a.id, false);
      const res = await app.inject(`/public/challenges/progress/${DEVICE}`);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), [
        { challengeId: b.id, challengeName: 'B', score: 55.5, completedAt: '2026-03-02T10:00:00.000Z', badge: null },
        {
          challengeId: a.id,
          challengeName: 'A',
          score: 30,
          completedAt: '2026-03-01T10:00:00.000Z',
          badge: { id: a.badgeId, name: 'Badge A', description: null, icon: 'a', imageUrl: null },
        },
      ]);
      // Disabled challenges are gone from the list but not from progress.
      assert.deepEqual((await app.inject(`/public/challenges/${world.cityId}`)).json().map((c: { id: string }) => c.id), [b.id]);

      const unknown = await app.inject('/public/challenges/progress/never-seen-device');
      assert.equal(unknown.statusCode, 200);
      assert.deepEqual(unknown.json(), []);
    });

    it('answers 400 for a malformed deviceId', async (t) => {
      const { app } = await buildTestApp(t, kind);
      for (const deviceId of ['short', 'bad%20device!', 'x'.repeat(129)]) {
        const res = await app.inject(`/public/challenges/progress/${deviceId}`);
        assert.equal(res.statusCode, 400, deviceId);
        assert.match(res.json().message, /deviceId/);
      }
    });
  });
}
