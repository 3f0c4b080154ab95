import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { greatCircleMeters } from '../../src/kernel/geo.ts';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { BUNDLE_IDS as ids } from '../helpers/bundle-fixtures.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { CENTRE_SPEC, GLASS_POSITION, POINT_IDS, importRecyclingBundle } from '../helpers/recycling-fixtures.ts';

const url = (query = '', cityId: string = ids.city) => `/public/cities/${cityId}/recycling-points${query}`;

interface Point {
  id: string;
  name: string;
  kind: string | null;
  materials: string[];
  openingHoursSpec: string | null;
  openNow: boolean | null;
  nextChange: string | null;
  distanceMeters: number | null;
}

describe('great-circle distance', () => {
  it('gives a degree of latitude as the mean Earth radius says, and nothing between a point and itself', () => {
    assert.equal(greatCircleMeters({ lat: 45, lon: 4 }, { lat: 46, lon: 4 }), 111_195);
    assert.equal(greatCircleMeters({ lat: 48.39, lon: -4.49 }, { lat: 48.39, lon: -4.49 }), 0);
    // Paris (Notre-Dame) to Lyon (Bellecour): 392 km as the crow flies.
    assert.equal(Math.round(greatCircleMeters({ lat: 48.853, lon: 2.3499 }, { lat: 45.7578, lon: 4.832 }) / 1000), 392);
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`GET /public/cities/:cityId/recycling-points (${kind})`, () => {
    async function setup(t: { after: (fn: () => Promise<void>) => void }, now = '2026-11-24T10:00:00.000Z') {
      const clock = fixedClock(now);
      const { app, database } = await buildTestApp(t, kind, { clock });
      await importRecyclingBundle(t, database);
      const get = async (query = '') => {
        const res = await app.inject(url(query));
        assert.equal(res.statusCode, 200, res.body);
        return res.json() as Point[];
      };
      const centreAt = async (at: string) => (await get(`?at=${encodeURIComponent(at)}`)).find((p) => p.id === POINT_IDS.centre)!;
      return { app, clock, get, centreAt };
    }

    it('answers the seed\'s RecyclingPoint plus kind, materials, spec, opening state and distance, by name', async (t) => {
      const { get } = await setup(t);
      const points = await get();
      assert.deepEqual(
        points.map((p) => p.name),
        ['Atelier "Seconde Main"', 'Borne à verre, place du Marché', 'Collecte solidaire, mairie', 'Déchèterie de Testville'],
      );
      const centre = points.find((p) => p.id === POINT_IDS.centre)!;
      assert.deepEqual(centre, {
        id: POINT_IDS.centre,
        name: 'Déchèterie de Testville',
        address: '1 rue du Tri, 69000 Testville',
        latitude: 45.76,
        longitude: 4.86,
        openingHours: 'Du lundi au samedi, 9 h – 18 h',
        kind: 'CENTRE',
        // By waste type name: Déchets verts, Emballages et papiers, Textiles, Verre.
        materials: [POINT_IDS.wasteTypeGreen, ids.wasteTypePackaging, POINT_IDS.wasteTypeTextiles, POINT_IDS.wasteTypeGlass],
        openingHoursSpec: CENTRE_SPEC,
        // Tuesday 11:00 in Paris: open until the lunch break.
        openNow: true,
        nextChange: '2026-11-24T11:00:00.000Z',
        distanceMeters: null,
      });
      const unlocated = points.find((p) => p.id === POINT_IDS.unlocated)!;
      assert.deepEqual(
        [unlocated.kind, unlocated.materials, unlocated.openingHoursSpec, unlocated.openNow, unlocated.nextChange],
        [null, [], null, null, null],
        'without a spec, openNow and nextChange are null',
      );
    });

    it('is closed over the lunch break, and says when it opens again', async (t) => {
      const { centreAt } = await setup(t);
      // Tuesday 24 November, 12:30 in Paris (UTC+1).
      const centre = await centreAt('2026-11-24T11:30:00.000Z');
      assert.equal(centre.openNow, false);
      assert.equal(centre.nextChange, '2026-11-24T13:00:00.000Z');
    });

    it('is open on Saturday afternoon until 18 h', async (t) => {
      const { centreAt } = await setup(t);
      const centre = await centreAt('2026-11-28T16:00:00+01:00');
      assert.equal(centre.openNow, true);
      assert.equal(centre.nextChange, '2026-11-28T17:00:00.000Z');
    });

    it('is closed on a French public holiday (PH off) and opens the next working morning', async (t) => {
      const { centreAt } = await setup(t);
      // Wednesday 11 November 2026, Armistice, 11:00 in Paris.
      const armistice = await centreAt('2026-11-11T10:00:00.000Z');
      assert.equal(armistice.openNow, false);
      assert.equal(armistice.nextChange, '2026-11-12T08:00:00.000Z');
      // The Wednesday before, at the same hour, it is open.
      assert.equal((await centreAt('2026-11-04T10:00:00.000Z')).openNow, true);
    });

    it('counts hours on the city\'s wall clock across a daylight-saving change', async (t) => {
      const { centreAt } = await setup(t);
      // Saturday 24 October 2026, 18:30 summer time; the clocks go back that night. Monday 09:00 is winter time.
      const autumn = await centreAt('2026-10-24T16:30:00.000Z');
      assert.equal(autumn.openNow, false);
      assert.equal(autumn.nextChange, '2026-10-26T08:00:00.000Z');
      // Saturday 27 March 2027, 18:30 winter time; the clocks go forward that night, and Monday 29 is Easter Monday.
      const spring = await centreAt('2027-03-27T17:30:00.000Z');
      assert.equal(spring.openNow, false);
      assert.equal(spring.nextChange, '2027-03-30T07:00:00.000Z');
    });

    it('gives a 24/7 point open with no next change', async (t) => {
      const { get } = await setup(t);
      const glass = (await get('?at=2026-12-25T03:00:00.000Z')).find((p) => p.id === POINT_IDS.glass)!;
      assert.equal(glass.openNow, true);
      assert.equal(glass.nextChange, null);
    });

    it('puts the nearest first with lat and lon, and the points without a position last', async (t) => {
      const { get } = await setup(t);
      const points = await get(`?lat=${GLASS_POSITION.lat}&lon=${GLASS_POSITION.lon}`);
      assert.deepEqual(
        points.map((p) => p.id),
        [POINT_IDS.glass, POINT_IDS.centre, POINT_IDS.shop, POINT_IDS.unlocated],
      );
      assert.equal(points[0].distanceMeters, 0);
      assert.equal(points[1].distanceMeters, greatCircleMeters(GLASS_POSITION, { lat: 45.76, lon: 4.86 }));
      assert.ok(points[1].distanceMeters! > 900 && points[1].distanceMeters! < 1200, String(points[1].distanceMeters));
      assert.equal(points[3].distanceMeters, null);
      assert.ok(points.slice(0, 3).every((p, i, all) => i === 0 || all[i - 1].distanceMeters! <= p.distanceMeters!));
    });

    it('keeps the points that take wasteTypeId, whatever the letter case of the id', async (t) => {
      const { get } = await setup(t);
      const glass = await get(`?wasteTypeId=${POINT_IDS.wasteTypeGlass.toUpperCase()}`);
      assert.deepEqual(glass.map((p) => p.id).sort(), [POINT_IDS.centre, POINT_IDS.glass].sort());
      const textiles = await get(`?wasteTypeId=${POINT_IDS.wasteTypeTextiles}&lat=45.7&lon=4.9`);
      assert.deepEqual(textiles.map((p) => p.id), [POINT_IDS.shop, POINT_IDS.centre]);
      assert.deepEqual(await get('?wasteTypeId=ffffffff-0000-4000-8000-000000000000'), []);
    });

    it('answers 400 naming the parameter, and 404 for an unknown or NON_ACTIF city', async (t) => {
      const { app } = await setup(t);
      const cases: [string, RegExp][] = [
        ['?lat=45.7', /«\slon\s»/],
        ['?lon=4.8', /«\slat\s»/],
        ['?lat=91&lon=4', /«\slat\s»/],
        ['?lat=45&lon=-181', /«\slon\s»/],
        ['?lat=nord&lon=4', /«\slat\s»/],
        ['?at=demain', /«\sat\s»/],
        ['?at=2026-11-24', /«\sat\s»/],
        ['?wasteTypeId=verre', /«\swasteTypeId\s»/],
      ];
      for (const [query, message] of cases) {
        const res = await app.inject(url(query));
        assert.equal(res.statusCode, 400, query);
        assert.equal(res.json().error, 'Bad Request');
        assert.match(res.json().message, message, query);
      }
      const malformed = await app.inject(url('', 'pas-un-uuid'));
      assert.equal(malformed.statusCode, 400);
      for (const cityId of [POINT_IDS.inactiveCity, 'ffffffff-0000-4000-8000-000000000000']) {
        const res = await app.inject(url('', cityId));
        assert.equal(res.statusCode, 404);
        assert.deepEqual(res.json(), { statusCode: 404, message: 'Ville introuvable', error: 'Not Found', code: 'cityNotFound', field: null });
      }
    });

    it('keeps a "now" answer cached only until the first opening or closing', async (t) => {
      // 11:59:30 in Paris: the déchèterie closes for lunch in 30 seconds.
      const { clock, get, app } = await setup(t, '2026-11-24T10:59:30.000Z');
      const first = await app.inject(url());
      assert.equal(first.headers['cache-control'], 'public, max-age=30');
      const centre = () => get().then((points) => points.find((p) => p.id === POINT_IDS.centre)!);
      assert.equal((await centre()).openNow, true);
      clock.set('2026-11-24T10:59:50.000Z');
      assert.equal((await centre()).openNow, true);
      clock.set('2026-11-24T11:00:01.000Z');
      const after = await centre();
      assert.equal(after.openNow, false, 'the cached answer expired at the change');
      assert.equal(after.nextChange, '2026-11-24T13:00:00.000Z');
      // An answer for a given instant does not depend on the clock.
      const fixed = await app.inject(url('?at=2026-11-24T10:59:30.000Z'));
      assert.equal(fixed.headers['cache-control'], 'public, max-age=60');
    });
  });
}
