import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { CompletionBatcher } from '../../src/challenges/completion-batch.ts';
import { completeChallenge } from '../../src/challenges/completion.ts';
import { DomainError } from '../../src/kernel/errors.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';
import { countingDatabase } from '../helpers/query-counter.ts';
import { insertChallenge, insertChallengeWorld } from '../helpers/challenge-fixtures.ts';

const NOW = new Date('2026-06-15T12:00:00.000Z');

/** What a promise settles to, as data: the record, or the error's status and message. */
async function outcome(promise: Promise<unknown>) {
  try {
    return { ok: await promise };
  } catch (err) {
    if (err instanceof DomainError) return { status: err.statusCode, message: err.message };
    return { failed: err instanceof Error ? err.message : String(err) };
  }
}

for (const kind of testDatabaseKinds()) {
  describe(`completion batches (${kind})`, () => {
    it('writes the completions that arrive together in one statement, each answered with its own record', async (t) => {
      const base = await createTestDatabase(kind);
      t.after(() => base.close());
      const world = await insertChallengeWorld(base.db);
      const glass = await insertChallenge(base.db, {
        cityId: world.cityId,
        name: 'Verre',
        description: 'Tout sur le verre',
        badge: { name: 'Verrier', icon: 'glass' },
      });
      const paper = await insertChallenge(base.db, { cityId: world.cityId, name: 'Papier' });
      const { database, counter } = countingDatabase(base);
      const batcher = new CompletionBatcher(database.db, 1);

      const attempts = Array.from({ length: 30 }, (_, i) => ({
        deviceId: `device-${i}`,
        challengeId: i % 2 ? glass.id : paper.id.toUpperCase(),
        score: i * 3,
      }));
      const records = await Promise.all(attempts.map((a, i) => batcher.complete(a, new Date(NOW.getTime() + i * 1000))));

      assert.equal(counter.queries, 1, 'one statement for the 30 completions');
      records.forEach((record, i) => {
        const challenge = i % 2 ? glass : paper;
        assert.deepEqual(record, {
          id: record.id,
          deviceId: `device-${i}`,
          challengeId: challenge.id,
          score: i * 3,
          completedAt: new Date(NOW.getTime() + i * 1000).toISOString(),
          challenge:
            i % 2
              ? { id: glass.id, name: 'Verre', description: 'Tout sur le verre', // The badge only at the pass mark (60 by default).
                badge: i * 3 >= 60 ? { id: glass.badgeId, name: 'Verrier', description: null, icon: 'glass', imageUrl: null } : null }
              : { id: paper.id, name: 'Papier', description: null, badge: null },
        });
      });
      const stored = await base.db.selectFrom('challenge_completion').select(['id', 'device_id', 'score']).orderBy('score').execute();
      assert.deepEqual(
        stored.map((r) => [r.id, r.device_id, r.score]),
        records.map((r) => [r.id, r.deviceId, r.score]),
      );
    });

    it('answers each attempt of a mixed batch as if it had been sent alone', async (t) => {
      const base = await createTestDatabase(kind);
      t.after(() => base.close());
      const world = await insertChallengeWorld(base.db);
      const open = await insertChallenge(base.db, { cityId: world.cityId, name: 'Ouvert' });
      const expert = await insertChallenge(base.db, { cityId: world.cityId, name: 'Expert', requiredChallengeId: open.id });
      const disabled = await insertChallenge(base.db, { cityId: world.cityId, name: 'Éteint', enabled: false });
      const later = await insertChallenge(base.db, { cityId: world.cityId, name: 'Rentrée', startDate: '2026-09-01T00:00:00.000Z' });
      const elsewhere = await insertChallenge(base.db, { cityId: world.inactiveCityId, name: 'Ailleurs' });
      // A stored record with a good score, and a device that holds the prerequisite.
      const best = await completeChallenge(base.db, { deviceId: 'champion', challengeId: open.id, score: 90 }, new Date('2026-06-01T08:00:00.000Z'));
      await completeChallenge(base.db, { deviceId: 'ready', challengeId: open.id, score: 50 }, NOW);

      const { database, counter } = countingDatabase(base);
      const batcher = new CompletionBatcher(database.db, 1);
      const answers = await Promise.all(
        [
          { deviceId: 'newcomer', challengeId: open.id, score: 40 },
          { deviceId: 'champion', challengeId: open.id, score: 70 },
          { deviceId: 'newcomer', challengeId: expert.id, score: 80 },
          { deviceId: 'ready', challengeId: expert.id, score: 85 },
          { deviceId: 'newcomer', challengeId: disabled.id, score: 10 },
          { deviceId: 'newcomer', challengeId: later.id, score: 10 },
          { deviceId: 'newcomer', challengeId: elsewhere.id, score: 10 },
          { deviceId: 'newcomer', challengeId: randomUUID(), score: 10 },
        ].map((attempt) => outcome(batcher.complete(attempt, NOW))),
      );

      const ok = (a: (typeof answers)[number]) => ('ok' in a ? (a.ok as { deviceId: string; challengeId: string; score: number; completedAt: string }) : null);
      assert.deepEqual([ok(answers[0])?.challengeId, ok(answers[0])?.score, ok(answers[0])?.completedAt], [open.id, 40, NOW.toISOString()]);
      // A lower score: the stored record, untouched.
      assert.deepEqual(ok(answers[1]), best);
      // The prerequisite completed by an earlier attempt of the same batch is not visible to the batch's statement;
      // the replay, after the batch's commit, sees it: the answer is the one of the two sent in that order.
      assert.deepEqual([ok(answers[2])?.challengeId, ok(answers[2])?.score], [expert.id, 80]);
      assert.deepEqual([ok(answers[3])?.challengeId, ok(answers[3])?.score], [expert.id, 85]);
      for (const refused of [answers[4], answers[6], answers[7]]) {
        assert.deepEqual(refused, { status: 404, message: 'Défi introuvable : aucun défi disponible ne correspond à « challengeId ».' });
      }
      assert.deepEqual(answers[5], { status: 400, message: 'Le défi « Rentrée » n’a pas encore commencé : il ouvre le 1er septembre 2026 à 2\u00a0h.' });
      // One batch statement, then one replay for each of the six attempts it did not write.
      assert.equal(counter.queries, 1 + 6);

      const stored = await base.db.selectFrom('challenge_completion').select(['device_id', 'challenge_id', 'score']).orderBy('device_id').orderBy('score').execute();
      assert.deepEqual(
        stored.map((r) => [r.device_id, r.challenge_id, r.score]),
        [
          ['champion', open.id, 90],
          ['newcomer', open.id, 40],
          ['newcomer', expert.id, 80],
          ['ready', open.id, 50],
          ['ready', expert.id, 85],
        ],
      );
    });

    it('never puts two attempts on one record in the same batch, and keeps the best score', async (t) => {
      const base = await createTestDatabase(kind);
      t.after(() => base.close());
      const world = await insertChallengeWorld(base.db);
      const race = await insertChallenge(base.db, { cityId: world.cityId, name: 'Course' });
      const { database, counter } = countingDatabase(base);
      const batcher = new CompletionBatcher(database.db, 1);
      const scores = [12, 88, 40, 88, 99.5, 3];
      const records = await Promise.all(
        scores.map((score, i) => batcher.complete({ deviceId: 'same-device', challengeId: i % 2 ? race.id.toUpperCase() : race.id, score }, NOW)),
      );
      // Each answer is the record as stored after that attempt: scores only go up, and the last ones see 99.5.
      assert.deepEqual(records.map((r) => r.score), [12, 88, 88, 88, 99.5, 99.5]);
      assert.equal(new Set(records.map((r) => r.id)).size, 1);
      // Six batches of one, and a replay for each attempt that was not better (40, the second 88, 3).
      assert.equal(counter.queries, 6 + 3);
      const stored = await base.db.selectFrom('challenge_completion').select('score').execute();
      assert.deepEqual(stored.map((r) => r.score), [99.5]);
    });

    it('replays every attempt alone when the batch statement fails, so one bad attempt fails alone', async (t) => {
      const base = await createTestDatabase(kind);
      t.after(() => base.close());
      const world = await insertChallengeWorld(base.db);
      const quiz = await insertChallenge(base.db, { cityId: world.cityId, name: 'Quiz' });
      const batcher = new CompletionBatcher(base.db, 1);
      // Out of the database's CHECK (0..100): the route's schema never lets it through; here it makes the
      // whole batch statement fail.
      const answers = await Promise.all(
        [
          { deviceId: 'first', score: 10 },
          { deviceId: 'broken', score: 150 },
          { deviceId: 'third', score: 30 },
        ].map((a) => outcome(batcher.complete({ ...a, challengeId: quiz.id }, NOW))),
      );
      assert.equal(('ok' in answers[0] && (answers[0].ok as { score: number }).score), 10);
      assert.ok('failed' in answers[1], 'the bad attempt fails');
      assert.equal(('ok' in answers[2] && (answers[2].ok as { score: number }).score), 30);
      const stored = await base.db.selectFrom('challenge_completion').select(['device_id', 'score']).orderBy('device_id').execute();
      assert.deepEqual(stored.map((r) => [r.device_id, r.score]), [['first', 10], ['third', 30]]);
    });
  });
}
