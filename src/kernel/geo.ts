/**
 * Positions on the Earth as the API takes them (WGS 84 degrees): distances, the boxes an index filters on, and
 * whether a place's GeoJSON area holds a position. Pure functions.
 */

/** Mean Earth radius (IUGG), in metres: the great-circle distance on a sphere errs by under 0.5 % against WGS 84. */
const EARTH_RADIUS_M = 6_371_008.8;

const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance between two WGS 84 positions (haversine formula), in whole metres. */
export function greatCircleMeters(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const dLat = radians(b.lat - a.lat);
  const dLon = radians(b.lon - a.lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.lat)) * Math.cos(radians(b.lat)) * Math.sin(dLon / 2) ** 2;
  return Math.round(2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h))));
}

/** A position as the API takes it: WGS 84 degrees. */
export interface Position {
  lat: number;
  lon: number;
}

/** A GeoJSON area as places store it (docs/api.md, from an address to a collection place): `[longitude, latitude]` positions, rings closed. */
export interface GeoArea {
  type: 'Polygon' | 'MultiPolygon';
  coordinates: unknown[];
}

/**
 * Whether a valid area holds a position: inside a polygon's exterior ring and in none of its holes (GeoJSON's rule;
 * even-odd crossing test on the plane of longitudes and latitudes, exact for the few-kilometre sectors of a commune).
 * A position on an edge counts as inside, so that two sectors sharing a border both answer rather than neither.
 */
export function areaContains(area: GeoArea, at: Position): boolean {
  const polygons = (area.type === 'Polygon' ? [area.coordinates] : area.coordinates) as number[][][][];
  return polygons.some((rings) => rings.length > 0 && ringHolds(rings[0], at) && !rings.slice(1).some((hole) => ringHoldsStrictly(hole, at)));
}

function ringHolds(ring: number[][], at: Position): boolean {
  return onEdge(ring, at) || crossings(ring, at);
}

function ringHoldsStrictly(ring: number[][], at: Position): boolean {
  return !onEdge(ring, at) && crossings(ring, at);
}

/** Even-odd rule: a ray from the position towards growing longitudes crosses the ring an odd number of times. */
function crossings(ring: number[][], { lat, lon }: Position): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function onEdge(ring: number[][], { lat, lon }: Position): boolean {
  for (let i = 1; i < ring.length; i++) {
    const [x1, y1] = ring[i - 1];
    const [x2, y2] = ring[i];
    const cross = (x2 - x1) * (lat - y1) - (y2 - y1) * (lon - x1);
    if (Math.abs(cross) > 1e-12) continue;
    if (lon >= Math.min(x1, x2) && lon <= Math.max(x1, x2) && lat >= Math.min(y1, y2) && lat <= Math.max(y1, y2)) return true;
  }
  return false;
}

/** The box of positions within `meters` of a position (a little wider, never narrower), for an index to filter on. */
export function boxAround(at: Position, meters: number): { minLat: number; maxLat: number; minLon: number; maxLon: number } {
  const dLat = (meters / EARTH_RADIUS_M) * (180 / Math.PI) * 1.01;
  const cosLat = Math.max(Math.cos(radians(Math.min(89, Math.abs(at.lat) + dLat))), 1e-6);
  const dLon = Math.min(180, dLat / cosLat);
  return { minLat: at.lat - dLat, maxLat: at.lat + dLat, minLon: at.lon - dLon, maxLon: at.lon + dLon };
}
