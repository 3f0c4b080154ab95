import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importBundle } from '../../src/bundle/import.ts';
import { BundleValidationError } from '../../src/bundle/faults.ts';
import type { RecordFault } from '../../src/domain/rules/faults.ts';
import type { Bundle } from '../../src/bundle/schema.ts';
import { BUNDLE_IDS as ids, validBundle, writeBundleDir } from '../helpers/bundle-fixtures.ts';
import { dumpBundleTables } from '../helpers/bundle-tables.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';

/** A collection place's streets and area in the import bundle (docs/bundle.md and docs/api.md, from an address to a collection place). */

const FIRST = new Date('2026-02-01T00:00:00.000Z');
const LATER = new Date('2026-03-01T00:00:00.000Z');
const NORTH = '40000000-0000-4000-8000-0000000000a2';
const RULE = (n: number) => `44000000-0000-4000-8000-${n.toString().padStart(12, '0')}`;
const RING = [[4.84, 45.74], [4.86, 45.74], [4.86, 45.76], [4.84, 45.76], [4.84, 45.74]];
const PLACE_0 = 'cities[0].wasteCollectionPlaces[0]';
const PLACE_1 = 'cities[0].wasteCollectionPlaces[1]';

/** The valid bundle with a second place; streets on both sides of one street shared, and an area on each. */
function streetsBundle(): Bundle {
  const bundle = validBundle();
  const places = bundle.cities![0].wasteCollectionPlaces!;
  Object.assign(places[0], {
    streets: [
      { id: RULE(1), street: 'Rue de la République', fromNumber: 1, toNumber: 99, side: 'ODD' },
      { id: RULE(2), street: 'Place de la Mairie', side: 'ALL' },
    ],
    area: { type: 'Polygon', coordinates: [RING] },
  });
  places.push({
    id: NORTH,
    name: 'Nord',
    streets: [
      { id: RULE(3), street: 'rue de la republique', fromNumber: null, toNumber: null, side: 'EVEN' },
      { id: RULE(4), street: 'Rue de la République', fromNumber: 101, side: 'ODD' },
    ],
    area: { type: 'MultiPolygon', coordinates: [[RING], [[[4.9, 45.8], [4.91, 45.8], [4.91, 45.81], [4.9, 45.8]]]] },
  });
  return bundle;
}

const place = (b: Bundle, i: number) => b.cities![0].wasteCollectionPlaces![i];

interface FaultCase {
  name: string;
  change: (bundle: Bundle) => unknown;
  path: string;
  message: string;
}

const cases: FaultCase[] = [
  {
    name: 'a range ending before it starts',
    change: (b) => Object.assign(place(b, 0).streets![0], { fromNumber: 50, toNumber: 10 }),
    path: `${PLACE_0}.streets[0].toNumber`,
    message: 'doit être égal ou supérieur à fromNumber',
  },
  {
    name: 'a number below 1',
    change: (b) => (place(b, 1).streets![1].fromNumber = 0),
    path: `${PLACE_1}.streets[1].fromNumber`,
    message: 'doit être un numéro égal ou supérieur à 1 (null\u00a0: sans limite)',
  },
  {
    name: 'a side outside the list',
    change: (b) => ((place(b, 0).streets![0] as { side: string }).side = 'BOTH'),
    path: `${PLACE_0}.streets[0].side`,
    message: 'doit valoir "ALL", "ODD", "EVEN"',
  },
  {
    name: 'the same numbers of a street on two places (accents, case and hyphens aside)',
    change: (b) => (place(b, 1).streets![1] = { id: RULE(4), street: 'RUE DE LA REPUBLIQUE', fromNumber: 97, toNumber: 97, side: 'ALL' }),
    path: `${PLACE_1}.streets[1].street`,
    message: `recouvre les numéros de la rue « RUE DE LA REPUBLIQUE » déjà attribués à un autre lieu de collecte par ${PLACE_0}.streets[0]`,
  },
  {
    name: 'an area of another GeoJSON type',
    change: (b) => (place(b, 0).area = { type: 'LineString', coordinates: RING }),
    path: `${PLACE_0}.area.type`,
    message: 'doit être un Polygon ou un MultiPolygon GeoJSON',
  },
  {
    name: 'a ring that does not close',
    change: (b) => (place(b, 0).area = { type: 'Polygon', coordinates: [RING.slice(0, 4)] }),
    path: `${PLACE_0}.area.coordinates[0]`,
    message: 'doit se refermer\u00a0: sa dernière position doit être égale à la première',
  },
  {
    name: 'a ring that crosses itself (a bow tie)',
    change: (b) =>
      (place(b, 0).area = { type: 'Polygon', coordinates: [[[4.84, 45.74], [4.86, 45.76], [4.86, 45.74], [4.84, 45.76], [4.84, 45.74]]] }),
    path: `${PLACE_0}.area.coordinates[0]`,
    message: 'ne doit pas se croiser\u00a0: ses côtés partant des positions 0 et 2 se coupent',
  },
  {
    name: 'a ring whose side touches another position (a figure eight)',
    change: (b) =>
      (place(b, 0).area = {
        type: 'Polygon',
        coordinates: [[[0, 0], [2, 0], [2, 2], [1, 1], [0, 2], [1, 1], [0, 0]]],
      }),
    path: `${PLACE_0}.area.coordinates[0]`,
    message: 'ne doit pas se croiser\u00a0: ses côtés partant des positions 2 et 4 se coupent',
  },
  {
    name: 'a ring of fewer than 4 positions',
    change: (b) => (place(b, 1).area = { type: 'MultiPolygon', coordinates: [[[RING[0], RING[1], RING[0]]]] }),
    path: `${PLACE_1}.area.coordinates[0][0]`,
    message: 'doit compter au moins 4 positions (un anneau fermé)',
  },
  {
    name: 'a longitude out of range',
    change: (b) => (place(b, 0).area = { type: 'Polygon', coordinates: [[RING[0], [184.86, 45.74], RING[2], RING[0]]] }),
    path: `${PLACE_0}.area.coordinates[0][1][0]`,
    message: 'doit être une longitude entre -180 et 180',
  },
  {
    name: 'a latitude out of range',
    change: (b) => (place(b, 0).area = { type: 'Polygon', coordinates: [[RING[0], [4.86, -95], RING[2], RING[0]]] }),
    path: `${PLACE_0}.area.coordinates[0][1][1]`,
    message: 'doit être une latitude entre -90 et 90',
  },
  {
    name: 'a position that is not two numbers',
    change: (b) => (place(b, 0).area = { type: 'Polygon', coordinates: [[RING[0], [4.86], RING[2], RING[0]]] }),
    path: `${PLACE_0}.area.coordinates[0][1]`,
    message: 'doit être une position [longitude, latitude] en nombres',
  },
];

for (const kind of testDatabaseKinds()) {
  describe(`import bundle: streets and areas (${kind})`, () => {
    async function setup(t: { after: (fn: () => Promise<void>) => void }) {
      const database = await createTestDatabase(kind);
      t.after(() => database.close());
      const written = await writeBundleDir(t);
      const run = (bundle: Bundle, now: Date) => importBundle(database, bundle, { baseDir: written.dir, mediaDir: written.mediaDir, now });
      return { database, db: database.db, run };
    }

    it('stores each rule with its street key and each area with its bounding box; importing it again changes nothing', async (t) => {
      const { db, run } = await setup(t);
      const summary = await run(streetsBundle(), FIRST);
      assert.equal(summary.counts.streetRules, 4);
      const rules = await db.selectFrom('place_street').selectAll().orderBy('id').execute();
      assert.deepEqual(
        rules.map((r) => [r.place_id, r.street, r.street_key, r.from_number, r.to_number, r.side]),
        [
          [ids.place, 'Rue de la République', 'rue de la republique', 1, 99, 'ODD'],
          [ids.place, 'Place de la Mairie', 'place de la mairie', null, null, 'ALL'],
          [NORTH, 'rue de la republique', 'rue de la republique', null, null, 'EVEN'],
          [NORTH, 'Rue de la République', 'rue de la republique', 101, null, 'ODD'],
        ],
      );
      const places = await db.selectFrom('collection_place').selectAll().orderBy('id').execute();
      assert.deepEqual(places.map((p) => [p.id, p.area, p.area_min_lon, p.area_min_lat, p.area_max_lon, p.area_max_lat]), [
        [ids.place, { type: 'Polygon', coordinates: [RING] }, 4.84, 45.74, 4.86, 45.76],
        [NORTH, place(streetsBundle(), 1).area, 4.84, 45.74, 4.91, 45.81],
      ]);

      const before = await dumpBundleTables(db);
      const again = await run(streetsBundle(), LATER);
      assert.equal(again.changedRows, 0);
      assert.equal(again.deletedRows, 0);
      assert.deepEqual(await dumpBundleTables(db), before);
    });

    it('updates a changed rule and area, and deletes the rules a place no longer lists', async (t) => {
      const { db, run } = await setup(t);
      await run(streetsBundle(), FIRST);
      const bundle = streetsBundle();
      place(bundle, 0).streets = [{ id: RULE(1), street: 'Rue de la République', fromNumber: 1, toNumber: 49, side: 'ODD' }];
      place(bundle, 1).area = null;
      const summary = await run(bundle, LATER);
      assert.equal(summary.deletedRows, 1);
      const rules = await db.selectFrom('place_street').select(['id', 'to_number']).orderBy('id').execute();
      assert.deepEqual(rules, [{ id: RULE(1), to_number: 49 }, { id: RULE(3), to_number: null }, { id: RULE(4), to_number: null }]);
      const north = await db.selectFrom('collection_place').selectAll().where('id', '=', NORTH).executeTakeFirstOrThrow();
      assert.deepEqual([north.area, north.area_min_lon, north.area_max_lat], [null, null, null]);
    });

    for (const c of cases) {
      it(`rejects ${c.name} at ${c.path}, writing nothing`, async (t) => {
        const { db, run } = await setup(t);
        await run(streetsBundle(), FIRST);
        const before = await dumpBundleTables(db);
        const bundle = streetsBundle();
        place(bundle, 0).name = 'Renommé';
        c.change(bundle);
        const error = await run(bundle, LATER).then(
          () => assert.fail('the import should have been rejected'),
          (err: unknown) => err,
        );
        assert.ok(error instanceof BundleValidationError, String(error));
        const faults: RecordFault[] = error.faults;
        const fault = faults.find((f) => f.path === c.path);
        assert.ok(fault, `expected a fault at ${c.path}, got ${JSON.stringify(faults)}`);
        assert.equal(fault.message, c.message);
        assert.deepEqual(await dumpBundleTables(db), before, 'nothing is written');
      });
    }

    it('accepts overlapping rules on one place, and one street on two cities', async (t) => {
      const { run } = await setup(t);
      const bundle = streetsBundle();
      place(bundle, 0).streets!.push({ id: RULE(5), street: 'Rue de la République', fromNumber: 1, toNumber: 9, side: 'ODD' });
      bundle.cities!.push({
        id: '20000000-0000-4000-8000-0000000000b1',
        name: 'Autreville',
        country: 'France',
        status: 'ACTIF',
        wasteCollectionPlaces: [
          { id: '40000000-0000-4000-8000-0000000000b1', name: 'Bourg', streets: [{ id: RULE(6), street: 'Rue de la République', side: 'ALL' }] },
        ],
      });
      assert.equal((await run(bundle, FIRST)).counts.streetRules, 6);
    });
  });
}
