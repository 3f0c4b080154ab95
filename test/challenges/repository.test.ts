import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { availableChallengesByCity } from '../../src/domain/challenges.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';
import { insertChallenge, insertChallengeWorld } from '../helpers/challenge-fixtures.ts';

const NOW = new Date('2026-06-15T12:00:00.000Z');

for (const kind of testDatabaseKinds()) {
  describe(`availableChallengesByCity (${kind})`, () => {
    it('builds the nested challenges of several cities, available ones only, in order', async (t) => {
      const database = await createTestDatabase(kind);
      t.after(() => database.close());
      const db = database.db;
      const world = await insertChallengeWorld(db);
      const { q1, q2, q3 } = world.questionIds;

      const first = await insertChallenge(db, {
        cityId: world.cityId,
        name: 'Premier pas',
        description: 'Le début',
        order: 1,
        startDate: '2026-01-01T00:00:00.000Z',
        badge: { name: 'Apprenti', icon: 'leaf' },
        series: [
          { name: 'Série B', order: 2, questionIds: [q3, q1] },
          { name: 'Série A', order: 1, description: 'facile', questionIds: [q3, q2, q1] },
          { name: 'Série vide', order: 2 },
        ],
      });
      const second = await insertChallenge(db, {
        cityId: world.cityId,
        name: 'Écologie',
        order: 2,
        endDate: '2026-06-15T12:00:00.000Z',
        requiredChallengeId: first.id,
      });
      // Same order as "Écologie": French collation puts "Déchets" first.
      const third = await insertChallenge(db, { cityId: world.cityId, name: 'Déchets', order: 2 });
      // Not available: disabled, not started, ended, or in a NON_ACTIF city.
      await insertChallenge(db, { cityId: world.cityId, name: 'Désactivé', enabled: false });
      await insertChallenge(db, { cityId: world.cityId, name: 'Futur', startDate: '2026-06-15T12:00:00.001Z' });
      await insertChallenge(db, { cityId: world.cityId, name: 'Passé', endDate: '2026-06-15T11:59:59.999Z' });
      await insertChallenge(db, { cityId: world.inactiveCityId, name: 'Ailleurs' });

      const unknownCity = randomUUID();
      const byCity = await availableChallengesByCity(db, [world.cityId, world.inactiveCityId, unknownCity], NOW);
      assert.deepEqual(byCity.get(world.inactiveCityId), []);
      assert.deepEqual(byCity.get(unknownCity), []);
      const list = byCity.get(world.cityId)!;
      assert.deepEqual(
        list.map((c) => c.name),
        ['Premier pas', 'Déchets', 'Écologie'],
      );
      assert.deepEqual(list[0], {
        id: first.id,
        name: 'Premier pas',
        description: 'Le début',
        enabled: true,
        startDate: '2026-01-01T00:00:00.000Z',
        endDate: null,
        order: 1,
        requiredChallengeId: null,
        requiredChallenge: null,
        passingScore: 60,
        series: [
          {
            id: first.serieIds[1],
            name: 'Série A',
            description: 'facile',
            order: 1,
            quizQuestions: [
              { id: q1, material: 'Bouteille en verre', question: 'Où va la bouteille ?', correctWasteTypeId: world.wasteTypeIds.glass, order: 1 },
              { id: q2, material: 'Canette', question: 'Où va la canette ?', correctWasteTypeId: world.wasteTypeIds.packaging, order: 2 },
              { id: q3, material: 'Pot de yaourt', question: 'Où va le pot de yaourt ?', correctWasteTypeId: world.wasteTypeIds.packaging, order: 3 },
            ],
          },
          {
            id: first.serieIds[0],
            name: 'Série B',
            description: null,
            order: 2,
            quizQuestions: [
              { id: q1, material: 'Bouteille en verre', question: 'Où va la bouteille ?', correctWasteTypeId: world.wasteTypeIds.glass, order: 1 },
              { id: q3, material: 'Pot de yaourt', question: 'Où va le pot de yaourt ?', correctWasteTypeId: world.wasteTypeIds.packaging, order: 3 },
            ],
          },
          { id: first.serieIds[2], name: 'Série vide', description: null, order: 2, quizQuestions: [] },
        ],
        badge: { id: first.badgeId, name: 'Apprenti', description: null, icon: 'leaf', imageUrl: null },
      });
      assert.equal(list[1].id, third.id);
      assert.deepEqual(list[1].series, []);
      assert.equal(list[1].badge, null);
      assert.equal(list[2].id, second.id);
      assert.equal(list[2].endDate, '2026-06-15T12:00:00.000Z');
      assert.equal(list[2].requiredChallengeId, first.id);
      assert.deepEqual(list[2].requiredChallenge, { id: first.id, name: 'Premier pas' });
    });

    it('uses a fixed number of queries whatever the number of cities', async (t) => {
      const database = await createTestDatabase(kind);
      t.after(() => database.close());
      const db = database.db;
      const worlds = [await insertChallengeWorld(db), await insertChallengeWorld(db), await insertChallengeWorld(db)];
      for (const w of worlds) {
        for (let i = 0; i < 3; i++) {
          await insertChallenge(db, {
            cityId: w.cityId,
            name: `Défi ${i}`,
            order: i,
            badge: { name: `Badge ${i}` },
            series: [{ name: 'S', questionIds: [w.questionIds.q1, w.questionIds.q2] }],
          });
        }
      }
      let queries = 0;
      const counting = db.withPlugin({
        transformQuery(args) {
          queries++;
          return args.node;
        },
        async transformResult(args) {
          return args.result;
        },
      });
      const byCity = await availableChallengesByCity(counting, worlds.map((w) => w.cityId), NOW);
      assert.equal(queries, 4);
      for (const w of worlds) {
        const list = byCity.get(w.cityId)!;
        assert.equal(list.length, 3);
        assert.ok(list.every((c) => c.series[0].quizQuestions.length === 2 && c.badge !== null));
      }
    });
  });
}
