import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeCompletions } from '../../src/challenges/completion-statement.ts';
import { completeChallenge } from '../../src/challenges/completion.ts';
import { DomainError, errors } from '../../src/kernel/errors.ts';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { insertChallenge, insertChallengeWorld, type ChallengeFixture } from '../helpers/challenge-fixtures.ts';

const NOW = '2026-06-15T12:00:00.000Z';
const JUST_AFTER = '2026-06-15T12:00:00.001Z';
const JUST_BEFORE = '2026-06-15T11:59:59.999Z';

type Expected = 'open' | 'not-started' | 'ended' | 'hidden';

/**
 * One availability rule (migration 0005) decides the list, the city's nested list, the batch write and the
 * one-statement write: every case below, at its edge, must come out the same on each of them.
 */
const CASES: { name: string; inactiveCity?: boolean; fixture: Omit<ChallengeFixture, 'cityId' | 'name'>; expected: Expected }[] = [
  { name: 'Sans dates', fixture: {}, expected: 'open' },
  { name: 'Ouvre maintenant', fixture: { startDate: NOW, endDate: '2026-07-01T00:00:00.000Z' }, expected: 'open' },
  { name: 'Ferme maintenant', fixture: { startDate: '2026-06-01T00:00:00.000Z', endDate: NOW }, expected: 'open' },
  { name: 'Ouvre bientôt', fixture: { startDate: JUST_AFTER }, expected: 'not-started' },
  { name: 'Fermé à l’instant', fixture: { endDate: JUST_BEFORE }, expected: 'ended' },
  { name: 'Éteint', fixture: { enabled: false }, expected: 'hidden' },
  { name: 'Éteint et à venir', fixture: { enabled: false, startDate: JUST_AFTER }, expected: 'hidden' },
  { name: 'Ville en sommeil', inactiveCity: true, fixture: {}, expected: 'hidden' },
  { name: 'Ville en sommeil, fermé', inactiveCity: true, fixture: { endDate: JUST_BEFORE }, expected: 'hidden' },
];

/** The error the completion of a case answers, from the catalogue (times in Europe/Paris). */
function expectedError(name: string, expected: Expected): DomainError | null {
  if (expected === 'hidden') return errors.challengeNotFound();
  if (expected === 'not-started') return errors.challengeNotStarted(name, '15 juin 2026 à 14\u00a0h');
  if (expected === 'ended') return errors.challengeEnded(name, '15 juin 2026 à 13\u00a0h\u00a059');
  return null;
}

for (const kind of testDatabaseKinds()) {
  describe(`challenge availability, one rule for every path (${kind})`, () => {
    it('lists, nests, writes in batch and writes alone the same challenges, at the edges of the rule', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { clock: fixedClock(NOW) });
      const world = await insertChallengeWorld(database.db);
      const challenges = [];
      for (const c of CASES) {
        const cityId = c.inactiveCity ? world.inactiveCityId : world.cityId;
        const { id } = await insertChallenge(database.db, { cityId, name: c.name, ...c.fixture });
        challenges.push({ ...c, id });
      }
      const open = challenges.filter((c) => c.expected === 'open');
      const openIds = open.map((c) => c.id).sort();
      const ids = (list: { id: string }[]) => list.map((c) => c.id).sort();

      const listed = await app.inject(`/public/challenges/${world.cityId}`);
      assert.deepEqual(ids(listed.json()), openIds, 'GET /public/challenges/:cityId');
      const city = await app.inject(`/public/cities/${world.cityId}`);
      assert.deepEqual(ids(city.json().challenges), openIds, 'GET /public/cities/:id');

      const now = new Date(NOW);
      const batch = await writeCompletions(
        database.db,
        challenges.map((c) => ({ deviceId: 'device-batch', challengeId: c.id, score: 50, now })),
      );
      assert.deepEqual(batch.map((w) => w.record.challengeId).sort(), openIds, 'complete_challenges');

      for (const c of challenges) {
        const error = expectedError(c.name, c.expected);
        const alone = completeChallenge(database.db, { deviceId: 'device-alone', challengeId: c.id, score: 50 }, now);
        if (error) await assert.rejects(alone, { code: error.code, message: error.message }, `complete_challenge: ${c.name}`);
        else assert.equal((await alone).challengeId, c.id);

        const posted = await app.inject({
          method: 'POST',
          url: '/public/challenges/complete',
          payload: { deviceId: 'device-route', challengeId: c.id, score: 50 },
        });
        assert.equal(posted.statusCode, error?.statusCode ?? 201, `POST /public/challenges/complete: ${c.name}`);
        if (error) assert.equal(posted.json().message, error.message);
      }
    });
  });
}
