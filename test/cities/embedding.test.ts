import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { BUNDLE_IDS, importValidBundle } from '../helpers/bundle-fixtures.ts';

for (const kind of testDatabaseKinds()) {
  describe(`a city embeds its available challenges (${kind})`, () => {
    it('carries the same challenges as GET /public/challenges/:cityId, in the list and the detail', async (t) => {
      const clock = fixedClock('2026-06-01T10:00:00.000Z');
      const { app, database } = await buildTestApp(t, kind, { clock });
      await importValidBundle(t, database);
      const own = (await app.inject(`/public/challenges/${BUNDLE_IDS.city}`)).json();
      assert.ok(own.length >= 2, 'the fixture has two available challenges');
      const detail = (await app.inject(`/public/cities/${BUNDLE_IDS.city}`)).json();
      assert.deepEqual(detail.challenges, own);
      const listed = (await app.inject('/public/cities')).json().find((c: { id: string }) => c.id === BUNDLE_IDS.city);
      assert.deepEqual(listed.challenges, own);
      const expert = own.find((c: { id: string }) => c.id === BUNDLE_IDS.challengeExpert);
      assert.deepEqual(expert.requiredChallenge, { id: BUNDLE_IDS.challengeBeginner, name: own.find((c: { id: string }) => c.id === BUNDLE_IDS.challengeBeginner).name });
    });
  });
}
