// docs/api.md, collections that move and service notices in the import bundle: an exception's `kind` and `movedTo`, a city's `holidayCalendar`, a group's
// `holidayRules`. They are checked with the admin API's rules (paths into the bundle), written, exported back as
// given, and re-imported without a change; a group that leaves its rules out keeps the stored ones, [] deletes them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importBundle } from '../../src/bundle/import.ts';
import { exportBundle } from '../../src/bundle/export.ts';
import { BundleValidationError } from '../../src/bundle/faults.ts';
import type { Bundle } from '../../src/bundle/schema.ts';
import type { Database } from '../../src/db/database.ts';
import { buildTestApp } from '../helpers/app.ts';
import { BUNDLE_IDS as ids, validBundle, writeBundleDir } from '../helpers/bundle-fixtures.ts';
import { dumpBundleTables } from '../helpers/bundle-tables.ts';
import { testDatabaseKinds } from '../helpers/database.ts';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const MOVE_ID = '42000000-0000-4000-8000-000000000002';
const ADD_ID = '42000000-0000-4000-8000-000000000003';
const OTHER_GROUP = '10000000-0000-4000-8000-0000000000bb';
const OTHER_CITY = '20000000-0000-4000-8000-0000000000bb';
const OTHER_WASTE = '30000000-0000-4000-8000-0000000000bb';

async function importInto(t: { after: (fn: () => Promise<void>) => void }, database: Database, bundle: Bundle) {
  const dir = await writeBundleDir(t, bundle);
  return importBundle(database, bundle, { baseDir: dir.dir, mediaDir: dir.mediaDir, now: NOW });
}

/** The valid bundle with a move, an addition, Alsace-Moselle's calendar and two holiday rules. */
function movingBundle(): Bundle {
  const bundle = validBundle();
  const city = bundle.cities![0];
  city.holidayCalendar = 'FR-ALSACE-MOSELLE';
  city.wasteCollectionPlaces![0].exceptions!.push(
    {
      id: MOVE_ID, kind: 'MOVE', dateFrom: '2026-12-01T00:00:00.000Z', movedTo: '2026-12-02T00:00:00.000Z', dateTo: null,
      wasteTypeId: ids.wasteTypeHousehold, name: 'Marché', description: null,
    },
    { id: ADD_ID, kind: 'ADD', dateFrom: '2026-12-05T00:00:00.000Z', wasteTypeId: ids.wasteTypePackaging, name: null, description: null },
  );
  bundle.cityGroups![0].holidayRules = [
    { holiday: '*', wasteTypeId: null, action: 'NEXT_DAY' },
    { holiday: 'saint-etienne', wasteTypeId: ids.wasteTypePackaging, action: 'CANCEL' },
  ];
  return bundle;
}

async function faultsOf(t: { after: (fn: () => Promise<void>) => void }, database: Database, bundle: Bundle) {
  try {
    await importInto(t, database, bundle);
  } catch (err) {
    if (err instanceof BundleValidationError) return err.faults.map((f) => f.path);
    throw err;
  }
  assert.fail('the bundle was accepted');
}

for (const kind of testDatabaseKinds()) {
  describe(`collections that move in the import bundle (${kind})`, () => {
    it('imports kinds, moves, the holiday calendar and rules, exports them as given, and re-imports without a change', async (t) => {
      const source = await buildTestApp(t, kind);
      const summary = await importInto(t, source.database, movingBundle());
      assert.equal(summary.counts.holidayRules, 2);
      const { app } = source;
      const calendar = (await app.inject(`/public/cities/${ids.city}/places/${ids.place}/collections?from=2026-12-01&to=2026-12-05`)).json();
      assert.deepEqual(
        calendar.map((o: { date: string; status: string; originalDate: string | null }) => [o.date, o.status, o.originalDate]),
        [['2026-12-02', 'MOVED', '2026-12-01'], ['2026-12-05', 'ADDED', null]],
      );

      const { bundle } = await exportBundle(source.database.db, null, false);
      const exceptions = bundle.cities![0].wasteCollectionPlaces![0].exceptions!;
      assert.deepEqual(
        exceptions.map((e) => [e.id, e.kind, e.movedTo]),
        [[ids.exception, 'CANCEL', null], [MOVE_ID, 'MOVE', '2026-12-02T00:00:00.000Z'], [ADD_ID, 'ADD', null]],
      );
      assert.equal(bundle.cities![0].holidayCalendar, 'FR-ALSACE-MOSELLE');
      assert.deepEqual(bundle.cityGroups![0].holidayRules, movingBundle().cityGroups![0].holidayRules);

      // Into an empty database: the same rows; back into its own: nothing changes.
      const target = await buildTestApp(t, kind);
      await importInto(t, target.database, bundle);
      const tables = await dumpBundleTables(target.database.db);
      assert.deepEqual(tables.holiday_rule, (await dumpBundleTables(source.database.db)).holiday_rule);
      const again = await importInto(t, target.database, bundle);
      assert.equal(again.changedRows, 0);
      assert.equal(again.deletedRows, 0);
      assert.deepEqual(await dumpBundleTables(target.database.db), tables);
    });

    it('keeps a group’s rules when its entry leaves them out, replaces them when listed, deletes them with []', async (t) => {
      const { database } = await buildTestApp(t, kind);
      await importInto(t, database, movingBundle());
      const rules = () => database.db.selectFrom('holiday_rule').select(['position', 'holiday', 'action']).orderBy('position').execute();

      const leftOut = movingBundle();
      delete leftOut.cityGroups![0].holidayRules;
      const kept = await importInto(t, database, leftOut);
      assert.equal(kept.changedRows, 0);
      assert.equal((await rules()).length, 2);

      const reordered = movingBundle();
      reordered.cityGroups![0].holidayRules!.reverse();
      reordered.cityGroups![0].holidayRules![0].action = 'KEEP';
      const changed = await importInto(t, database, reordered);
      assert.ok(changed.changedRows >= 2);
      assert.deepEqual(await rules(), [
        { position: 0, holiday: 'saint-etienne', action: 'KEEP' },
        { position: 1, holiday: '*', action: 'NEXT_DAY' },
      ]);

      const none = movingBundle();
      none.cityGroups![0].holidayRules = [];
      await importInto(t, database, none);
      assert.deepEqual(await rules(), []);
    });

    it('refuses what a kind does not allow and rules that name another group’s waste type, at their paths', async (t) => {
      const { database } = await buildTestApp(t, kind);
      const bundle = movingBundle();
      const place = 'cities[0].wasteCollectionPlaces[0].exceptions';
      const [, move, add] = bundle.cities![0].wasteCollectionPlaces![0].exceptions!;
      move.movedTo = '2026-12-20T00:00:00.000Z';
      add.dateTo = '2026-12-06T00:00:00.000Z';
      bundle.cities![0].wasteCollectionPlaces![0].exceptions![0].movedTo = '2026-12-26T00:00:00.000Z';
      // A second group with a city of its own: its waste type is not the first group's.
      bundle.cityGroups!.push({
        id: OTHER_GROUP, name: 'Autre', type: 'Métropole', code: 'AU', siren: '200000098',
        holidayRules: [{ holiday: 'noel', wasteTypeId: ids.wasteTypeHousehold, action: 'CANCEL' }],
      });
      bundle.cities!.push({
        id: OTHER_CITY, name: 'Autreville', country: 'France', status: 'ACTIF', cityGroupId: OTHER_GROUP,
        wasteTypes: [{ id: OTHER_WASTE, name: 'Verre' }],
      });
      bundle.cityGroups![0].holidayRules!.push(
        { holiday: 'noel', wasteTypeId: OTHER_WASTE, action: 'CANCEL' },
        { holiday: '*', wasteTypeId: null, action: 'KEEP' },
      );
      const paths = await faultsOf(t, database, bundle);
      assert.deepEqual(paths.sort(), [
        'cityGroups[0].holidayRules[2].wasteTypeId',
        'cityGroups[0].holidayRules[3]',
        'cityGroups[1].holidayRules[0].wasteTypeId',
        `${place}[0].movedTo`,
        `${place}[1].movedTo`,
        `${place}[2].dateTo`,
      ].sort());
      assert.equal(await database.db.selectFrom('city').select('id').executeTakeFirst(), undefined, 'nothing written');

      const unknown = movingBundle() as unknown as { cityGroups: { holidayRules: { holiday: string }[] }[] };
      unknown.cityGroups[0].holidayRules[0].holiday = 'paques';
      assert.deepEqual(await faultsOf(t, database, unknown as unknown as Bundle), ['cityGroups[0].holidayRules[0].holiday']);
    });

    it('takes a rule naming a waste type of a stored city of the group that the bundle does not hold', async (t) => {
      const { database } = await buildTestApp(t, kind);
      await importInto(t, database, validBundle());
      const groupOnly: Bundle = {
        cityGroups: [{ ...validBundle().cityGroups![0], holidayRules: [{ holiday: 'noel', wasteTypeId: ids.wasteTypeHousehold, action: 'NEXT_DAY' }] }],
      };
      await importInto(t, database, groupOnly);
      const rows = await database.db.selectFrom('holiday_rule').select(['holiday', 'waste_type_id', 'action']).execute();
      assert.deepEqual(rows, [{ holiday: 'noel', waste_type_id: ids.wasteTypeHousehold, action: 'NEXT_DAY' }]);
    });
  });
}
