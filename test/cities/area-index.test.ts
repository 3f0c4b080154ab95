import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { areaIndex, type IndexedArea } from '../../src/cities/area-index.ts';
import { areaContains, type GeoArea } from '../../src/kernel/geo.ts';

/**
 * The in-memory area index (src/cities/area-index.ts) answers exactly the areas whose polygon holds a position, as
 * testing every area would: sectors of a few hundred metres to a whole département, convex or not, with holes,
 * touching on grid lines, and positions drawn inside, on vertices and edges, and anywhere around.
 */

interface Drawn {
  cityId: string;
  area: GeoArea;
}

/** Grid lines (multiples of 0.02°) near Brest, where a wrong cell would lose an area. */
const LINE_LON = -4.5;
const LINE_LAT = 48.38;

const coordinate = (around: number, spread: number) =>
  fc.oneof(
    fc.double({ min: around - spread, max: around + spread, noNaN: true }),
    // Exactly on a grid line, or one ulp either side of it.
    fc.constantFrom(around, around + 0.02, around - 0.02).chain((line) => fc.constantFrom(line, line + 1e-12, line - 1e-12)),
  );

/** A polygon: a star-shaped ring around a centre (non-convex), sometimes with a square hole, sometimes huge. */
const drawnArea: fc.Arbitrary<Drawn> = fc
  .record({
    cityId: fc.constantFrom('a', 'b'),
    lon: coordinate(LINE_LON, 0.05),
    lat: coordinate(LINE_LAT, 0.05),
    radii: fc.array(fc.double({ min: 0.001, max: 0.03, noNaN: true }), { minLength: 3, maxLength: 9 }),
    scale: fc.constantFrom(1, 1, 1, 40),
    hole: fc.boolean(),
  })
  .map(({ cityId, lon, lat, radii, scale, hole }) => {
    const ring = radii.map((r, i) => {
      const angle = (2 * Math.PI * i) / radii.length;
      return [lon + r * scale * Math.cos(angle), lat + r * scale * Math.sin(angle)];
    });
    ring.push(ring[0]);
    const min = Math.min(...radii) * scale * 0.3;
    const rings = [ring];
    if (hole) rings.push([[lon - min, lat - min], [lon + min, lat - min], [lon + min, lat + min], [lon - min, lat + min], [lon - min, lat - min]]);
    return { cityId, area: { type: 'Polygon', coordinates: rings } as GeoArea };
  });

function indexed(drawn: Drawn[]): IndexedArea<number>[] {
  return drawn.map(({ cityId, area }, row) => {
    const points = (area.coordinates as number[][][]).flat();
    const lons = points.map((p) => p[0]);
    const lats = points.map((p) => p[1]);
    return { row, cityId, area, minLon: Math.min(...lons), maxLon: Math.max(...lons), minLat: Math.min(...lats), maxLat: Math.max(...lats) };
  });
}

describe('the in-memory area index', () => {
  it('answers the same areas as testing every polygon, for any areas and positions', () => {
    fc.assert(
      fc.property(
        fc.array(drawnArea, { minLength: 1, maxLength: 12 }),
        fc.array(fc.record({ lon: coordinate(LINE_LON, 0.08), lat: coordinate(LINE_LAT, 0.08) }), { minLength: 1, maxLength: 20 }),
        fc.constantFrom(null, 'a', 'b'),
        (drawn, positions, cityId) => {
          const areas = indexed(drawn);
          // Positions on the areas' own vertices and edges' midpoints too: the borders two sectors share.
          const ring = (drawn[0].area.coordinates as number[][][])[0];
          const probes = [...positions, { lon: ring[0][0], lat: ring[0][1] }, { lon: (ring[0][0] + ring[1][0]) / 2, lat: (ring[0][1] + ring[1][1]) / 2 }];
          const index = areaIndex(areas);
          for (const at of probes) {
            const expected = areas.filter((a) => (cityId === null || a.cityId === cityId) && areaContains(a.area, at)).map((a) => a.row);
            assert.deepEqual(index.at(at, cityId).sort((x, y) => x - y), expected, JSON.stringify(at));
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('finds the sector around a position, and both sectors on the border they share', () => {
    const square = (lon: number, lat: number): GeoArea => ({
      type: 'Polygon',
      coordinates: [[[lon, lat], [lon + 0.02, lat], [lon + 0.02, lat + 0.02], [lon, lat + 0.02], [lon, lat]]],
    });
    const index = areaIndex(indexed([{ cityId: 'a', area: square(-4.5, 48.38) }, { cityId: 'a', area: square(-4.5, 48.4) }]));
    assert.deepEqual(index.at({ lon: -4.49, lat: 48.39 }, null), [0]);
    assert.deepEqual(index.at({ lon: -4.49, lat: 48.41 }, 'a'), [1]);
    assert.deepEqual(index.at({ lon: -4.49, lat: 48.4 }, null).sort(), [0, 1]);
    assert.deepEqual(index.at({ lon: -4.49, lat: 48.39 }, 'b'), []);
    assert.deepEqual(index.at({ lon: 2.35, lat: 48.85 }, null), []);
  });
});
