// A challenge's pass mark and a city group's contact block (migration 0011) through the import bundle:
// imported, served by the public API, exported back.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { exportBundle } from '../../src/bundle/export.ts';
import { BUNDLE_IDS as ids, importValidBundle, validBundle } from '../helpers/bundle-fixtures.ts';
import { buildTestApp } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';

const CONTACT = {
  contactPhone: '+33 2 98 00 00 00',
  contactEmail: 'dechets@val-test.example',
  contactHours: 'du lundi au vendredi, de 9 h à 12 h',
  contactAddress: '1 place de la Mairie, 29000 Testville',
};

for (const kind of testDatabaseKinds()) {
  describe(`pass mark and group contact in the bundle (${kind})`, () => {
    it('imports passingScore (60 when absent) and the contact block, serves them publicly and exports them back', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      const bundle = validBundle();
      bundle.cities![0].challenges![0].passingScore = 80;
      Object.assign(bundle.cityGroups![0], CONTACT);
      await importValidBundle(t, database, { bundle, now: new Date() });

      const challenges = (await app.inject(`/public/challenges/${ids.city}`)).json() as { id: string; passingScore: number }[];
      assert.deepEqual(
        Object.fromEntries(challenges.map((c) => [c.id, c.passingScore])),
        { [ids.challengeBeginner]: 80, [ids.challengeExpert]: 60 },
      );
      const groups = (await app.inject('/public/city-groups')).json() as Record<string, unknown>[];
      const group = groups.find((g) => g.id === ids.cityGroup)!;
      assert.deepEqual(Object.fromEntries(Object.keys(CONTACT).map((k) => [k, group[k]])), CONTACT);

      const exported = await exportBundle(database.db, null, false);
      assert.equal(exported.bundle.cities![0].challenges!.find((c) => c.id === ids.challengeBeginner)!.passingScore, 80);
      assert.equal(exported.bundle.cities![0].challenges!.find((c) => c.id === ids.challengeExpert)!.passingScore, 60);
      assert.deepEqual(Object.fromEntries(Object.keys(CONTACT).map((k) => [k, (exported.bundle.cityGroups![0] as Record<string, unknown>)[k]])), CONTACT);
    });
  });
}
