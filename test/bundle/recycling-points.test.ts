import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importBundle } from '../../src/bundle/import.ts';
import type { Bundle } from '../../src/bundle/schema.ts';
import { BUNDLE_IDS as ids, validBundle, writeBundleDir } from '../helpers/bundle-fixtures.ts';
import { dumpBundleTables } from '../helpers/bundle-tables.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';

const FIRST = new Date('2026-02-01T00:00:00.000Z');
const LATER = new Date('2026-03-01T00:00:00.000Z');
const SECOND_POINT = '50000000-0000-4000-8000-000000000002';

/** The docs/api.md, recycling points and open data fields of recycling points and city groups, through the import bundle. */
for (const kind of testDatabaseKinds()) {
  describe(`import bundle: recycling points' hours, kind and materials (${kind})`, () => {
    async function setup(t: { after: (fn: () => Promise<void>) => void }) {
      const database = await createTestDatabase(kind);
      t.after(() => database.close());
      const written = await writeBundleDir(t);
      const run = (bundle: Bundle, now: Date) => importBundle(database, bundle, { baseDir: written.dir, mediaDir: written.mediaDir, now });
      return { db: database.db, run };
    }

    const materialsOf = (db: Awaited<ReturnType<typeof setup>>['db']) =>
      db.selectFrom('recycling_point_material').selectAll().orderBy(['recycling_point_id', 'waste_type_id']).execute();

    it('stores the spec, the kind, the materials and the group SIRET; absent fields are null', async (t) => {
      const { db, run } = await setup(t);
      const bundle = validBundle();
      bundle.cityGroups![0].siret = '20000000100017';
      bundle.cities![0].recyclingPoints!.push({ id: SECOND_POINT, name: 'Borne à verre' });
      await run(bundle, FIRST);

      const points = await db.selectFrom('recycling_point').selectAll().orderBy('id').execute();
      assert.equal(points[0].opening_hours_spec, 'Mo-Sa 09:00-18:00; PH off');
      assert.equal(points[0].kind, 'CENTRE');
      assert.equal(points[1].opening_hours_spec, null);
      assert.equal(points[1].kind, null);
      assert.deepEqual(await materialsOf(db), [
        { recycling_point_id: ids.recyclingPoint, waste_type_id: ids.wasteTypePackaging, city_id: ids.city },
      ]);
      const group = await db.selectFrom('city_group').select('siret').executeTakeFirstOrThrow();
      assert.equal(group.siret, '20000000100017');
    });

    it('synchronises materials: a material the bundle drops is removed, a new one added, the rest untouched', async (t) => {
      const { db, run } = await setup(t);
      await run(validBundle(), FIRST);
      const bundle = validBundle();
      bundle.cities![0].recyclingPoints![0].materials = [ids.wasteTypeHousehold.toUpperCase()];
      const summary = await run(bundle, LATER);
      assert.equal(summary.deletedRows, 1);
      assert.deepEqual(await materialsOf(db), [
        { recycling_point_id: ids.recyclingPoint, waste_type_id: ids.wasteTypeHousehold, city_id: ids.city },
      ]);

      const dump = await dumpBundleTables(db);
      const again = await run(bundle, LATER);
      assert.equal(again.changedRows + again.deletedRows, 0, 'importing it again changes nothing');
      assert.deepEqual(await dumpBundleTables(db), dump);
    });

    it('removes the materials of a point the bundle no longer lists, and of a waste type it drops', async (t) => {
      const { db, run } = await setup(t);
      const bundle = validBundle();
      bundle.cities![0].recyclingPoints!.push({ id: SECOND_POINT, name: 'Borne', materials: [ids.wasteTypeHousehold] });
      await run(bundle, FIRST);
      assert.equal((await materialsOf(db)).length, 2);

      const fewer = validBundle();
      fewer.cities![0].recyclingPoints![0].materials = [ids.wasteTypeHousehold];
      fewer.cities![0].wasteTypes = fewer.cities![0].wasteTypes!.filter((w) => w.id === ids.wasteTypeHousehold);
      // What referred to the dropped waste type goes with it.
      fewer.cities![0].wasteCollectionPlaces![0].collectionDays = fewer.cities![0].wasteCollectionPlaces![0].collectionDays!.filter(
        (d) => d.wasteTypeId === ids.wasteTypeHousehold,
      );
      fewer.cities![0].wasteCollectionPlaces![0].exceptions = fewer.cities![0].wasteCollectionPlaces![0].exceptions!.filter(
        (e) => e.wasteTypeId === ids.wasteTypeHousehold,
      );
      fewer.cities![0].quizQuestions = fewer.cities![0].quizQuestions!.filter((q) => q.correctWasteTypeId === ids.wasteTypeHousehold);
      const kept = new Set(fewer.cities![0].quizQuestions.map((q) => q.id));
      for (const c of fewer.cities![0].challenges!) {
        for (const s of c.series ?? []) s.quizQuestionIds = (s.quizQuestionIds ?? []).filter((q) => kept.has(q));
      }
      await run(fewer, LATER);
      assert.deepEqual(await materialsOf(db), [
        { recycling_point_id: ids.recyclingPoint, waste_type_id: ids.wasteTypeHousehold, city_id: ids.city },
      ]);
    });

    it('refuses, in the database itself, a material of another city', async (t) => {
      const { db, run } = await setup(t);
      const bundle = validBundle();
      bundle.cities!.push({
        id: '20000000-0000-4000-8000-0000000000ff',
        name: 'Autreville',
        country: 'France',
        status: 'ACTIF',
        wasteTypes: [{ id: '30000000-0000-4000-8000-0000000000ff', name: 'Verre' }],
      });
      await run(bundle, FIRST);
      await assert.rejects(
        db
          .insertInto('recycling_point_material')
          .values({ recycling_point_id: ids.recyclingPoint, waste_type_id: '30000000-0000-4000-8000-0000000000ff', city_id: ids.city })
          .execute(),
        /foreign key|violates/i,
      );
    });
  });
}
