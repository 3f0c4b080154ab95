import type { Area, BundleCity } from '../../src/bundle/schema.ts';
import type { Commune } from './territory.ts';
import { areaContains, type GeoArea } from '../../src/kernel/geo.ts';

/**
 * The `area` of every collection place (CONTRACT section 11): invented, believable sector polygons. Each sector has
 * a site (where collection.ts puts its attached locations: the first sector on the commune's centre, the others
 * around it); a place's area is the Voronoi cell of its site among the sites of every demo commune, clipped to an
 * octagon around its commune's centre. So the areas never overlap, a commune's sectors cover its surroundings
 * (a few kilometres, less where a neighbouring commune is near), and each attached location lies in its own
 * sector's area (checkAreas proves it on every build).
 *
 * Geometry is done in a plane where one unit is one degree of latitude and longitudes are shrunk by the cosine
 * of the territory's latitude: at this scale its distances are proportional to those on the ground, so the
 * cells look right on a map.
 */

export interface SectorSite {
  /** The place's stable name (`city:29019/place:…`). */
  placeName: string;
  commune: Commune;
  lat: number;
  lon: number;
}

type Point = [x: number, y: number];

/** The territory's latitude: Brest and the Abers lie around 48.45° N. */
const LON_SCALE = Math.cos((48.45 * Math.PI) / 180);

/** How far a commune's sectors reach from its centre, in degrees of latitude (0.01° ≈ 1.1 km). */
function reach(commune: Commune): number {
  if (commune.population > 100_000) return 0.045;
  if (commune.population > 10_000) return 0.03;
  return 0.022;
}

const toPlane = (lat: number, lon: number): Point => [lon * LON_SCALE, lat];

function octagon(centre: Point, radius: number): Point[] {
  return Array.from({ length: 8 }, (_, i): Point => {
    const angle = (i * Math.PI) / 4 + Math.PI / 8;
    return [centre[0] + Math.cos(angle) * radius, centre[1] + Math.sin(angle) * radius];
  });
}

/** The part of a convex polygon on `own`'s side of the bisector of `own` and `other` (Sutherland–Hodgman). */
function clipToNearer(polygon: Point[], own: Point, other: Point): Point[] {
  const normal: Point = [other[0] - own[0], other[1] - own[1]];
  const mid: Point = [(own[0] + other[0]) / 2, (own[1] + other[1]) / 2];
  const side = (p: Point) => (p[0] - mid[0]) * normal[0] + (p[1] - mid[1]) * normal[1];
  const out: Point[] = [];
  polygon.forEach((current, i) => {
    const next = polygon[(i + 1) % polygon.length];
    const [a, b] = [side(current), side(next)];
    if (a <= 0) out.push(current);
    if ((a < 0 && b > 0) || (a > 0 && b < 0)) {
      const t = a / (a - b);
      out.push([current[0] + (next[0] - current[0]) * t, current[1] + (next[1] - current[1]) * t]);
    }
  });
  return out;
}

const round5 = (n: number) => Number(n.toFixed(5));

/** A closed, counter-clockwise ring of `[lon, lat]` positions rounded to 5 decimals, repeated vertices dropped. */
function ring(polygon: Point[]): number[][] {
  const positions: number[][] = [];
  for (const [x, y] of polygon) {
    const position = [round5(x / LON_SCALE), round5(y)];
    const last = positions[positions.length - 1];
    if (!last || last[0] !== position[0] || last[1] !== position[1]) positions.push(position);
  }
  if (positions.length > 1 && positions[0][0] === positions.at(-1)![0] && positions[0][1] === positions.at(-1)![1]) positions.pop();
  return [...positions, positions[0]];
}

/** The area of every sector site, by place name. */
export function sectorAreas(sites: SectorSite[]): Map<string, Area> {
  const areas = new Map<string, Area>();
  for (const site of sites) {
    const own = toPlane(site.lat, site.lon);
    let cell = octagon(toPlane(site.commune.lat, site.commune.lon), reach(site.commune));
    for (const other of sites) {
      if (other !== site) cell = clipToNearer(cell, own, toPlane(other.lat, other.lon));
    }
    const positions = ring(cell);
    if (positions.length < 4) throw new Error(`${site.placeName}: its area vanished`);
    areas.set(site.placeName, { type: 'Polygon', coordinates: [positions] });
  }
  return areas;
}

/** Twice the signed area of a ring: positive when counter-clockwise. */
function signedArea(positions: number[][]): number {
  let sum = 0;
  for (let i = 0; i + 1 < positions.length; i++) {
    sum += positions[i][0] * positions[i + 1][1] - positions[i + 1][0] * positions[i][1];
  }
  return sum;
}


/**
 * Throws unless every area is a closed counter-clockwise ring and a position lookup at each attached location
 * finds its own place's area and no other (over all the cities: a lookup by position may omit the city).
 */
export function checkAreas(cities: BundleCity[]): void {
  const places = cities.flatMap((city) => (city.wasteCollectionPlaces ?? []).map((place) => ({ city, place })));
  for (const { city, place } of places) {
    if (!place.area) continue;
    for (const positions of (place.area.coordinates as number[][][])) {
      const [first, last] = [positions[0], positions.at(-1)!];
      if (first[0] !== last[0] || first[1] !== last[1]) throw new Error(`${city.name} / ${place.name}: ring not closed`);
      if (signedArea(positions) <= 0) throw new Error(`${city.name} / ${place.name}: ring not counter-clockwise`);
    }
  }
  for (const { city, place } of places) {
    for (const location of place.attachedLocations ?? []) {
      const found = places.filter((p) => p.place.area && areaContains(p.place.area as GeoArea, { lon: location.longitude, lat: location.latitude }));
      const names = found.map((p) => `${p.city.name} / ${p.place.name}`);
      if (found.length !== 1 || found[0].place !== place) {
        throw new Error(`${city.name} / ${place.name}: attached location ${location.name} lies in [${names.join(', ')}]`);
      }
    }
  }
}
