import type { RecordFault } from '../domain/rules/faults.ts';
import { bundleMessages } from '../kernel/validation-messages.ts';
import { streetKey } from '../kernel/address.ts';
import type { StreetSide } from '../kernel/street-rules.ts';

/**
 * The rules of a collection place's streets and area (docs/api.md, from an address to a collection place), for the import bundle (src/bundle/walk.ts)
 * and the admin API alike. Paths are relative to the record checked: a street rule (`toNumber`) or a place
 * (`area.coordinates[0][3]`).
 */

/** Far above any house number, and within the database's integer column. */
export const MAX_STREET_NUMBER = 999_999;

export interface StreetRuleFields {
  street: string;
  fromNumber?: number | null;
  toNumber?: number | null;
  side: StreetSide;
}

/** Numbers from 1; an inclusive range whose ends may be open (null). */
export function streetRuleFaults(rule: StreetRuleFields): RecordFault[] {
  const faults: RecordFault[] = [];
  for (const field of ['fromNumber', 'toNumber'] as const) {
    const n = rule[field];
    if (n != null && n < 1) faults.push({ path: field, message: bundleMessages.streetNumberBelowOne });
  }
  if (faults.length === 0 && rule.fromNumber != null && rule.toNumber != null && rule.fromNumber > rule.toNumber) {
    faults.push({ path: 'toNumber', message: bundleMessages.streetNumbersReversed });
  }
  return faults;
}

/**
 * Whether two rules claim at least one common address: the same street (by key), ranges that meet, and a number
 * in the common range on a side both hold (`ODD 1–3` and `EVEN 2–2` share none; `ALL 2–2` and `ODD 1–9` neither).
 */
export function streetRulesOverlap(a: StreetRuleFields, b: StreetRuleFields): boolean {
  if (streetKey(a.street) !== streetKey(b.street)) return false;
  const side = commonSide(a.side, b.side);
  if (side === null) return false;
  const from = Math.max(a.fromNumber ?? 1, b.fromNumber ?? 1);
  const to = Math.min(a.toNumber ?? Infinity, b.toNumber ?? Infinity);
  if (from > to) return false;
  if (side === 'ALL') return true;
  const first = (from % 2 === 1) === (side === 'ODD') ? from : from + 1;
  return first <= to;
}

function commonSide(a: StreetSide, b: StreetSide): StreetSide | null {
  if (a === 'ALL') return b;
  if (b === 'ALL' || a === b) return a;
  return null;
}

/** A rule held by another place of the city, and how a fault names it. */
export interface OtherPlaceRule {
  rule: StreetRuleFields;
  describedAs: string;
}

/** The first rule of another place that claims an address this one claims: a fault at `street` naming it. */
export function streetOverlapFaults(rule: StreetRuleFields, others: Iterable<OtherPlaceRule>): RecordFault[] {
  for (const other of others) {
    if (streetRulesOverlap(rule, other.rule)) {
      return [{ path: 'street', message: bundleMessages.streetRuleOverlaps(rule.street, other.describedAs) }];
    }
  }
  return [];
}

/**
 * A place's `area`: a GeoJSON Polygon (rings of positions) or MultiPolygon (polygons of rings); each ring at least
 * four positions, closed (last = first); positions `[longitude, latitude]` in range. Its path starts at `area`.
 */
export function areaFaults(area: { type: string; coordinates: unknown } | null | undefined): RecordFault[] {
  if (area == null) return [];
  const faults: RecordFault[] = [];
  if (area.type === 'Polygon') polygonFaults(area.coordinates, 'area.coordinates', faults);
  else if (area.type === 'MultiPolygon') {
    const polygons = area.coordinates;
    if (!Array.isArray(polygons)) faults.push({ path: 'area.coordinates', message: bundleMessages.areaNotAList });
    else if (polygons.length === 0) faults.push({ path: 'area.coordinates', message: bundleMessages.areaMultiPolygonEmpty });
    else polygons.forEach((polygon, i) => polygonFaults(polygon, `area.coordinates[${i}]`, faults));
  } else faults.push({ path: 'area.type', message: bundleMessages.areaType });
  return faults;
}

function polygonFaults(rings: unknown, path: string, faults: RecordFault[]): void {
  if (!Array.isArray(rings)) return void faults.push({ path, message: bundleMessages.areaNotAList });
  if (rings.length === 0) return void faults.push({ path, message: bundleMessages.areaPolygonEmpty });
  rings.forEach((ring, i) => ringFaults(ring, `${path}[${i}]`, faults));
}

function ringFaults(ring: unknown, path: string, faults: RecordFault[]): void {
  if (!Array.isArray(ring)) return void faults.push({ path, message: bundleMessages.areaNotAList });
  const before = faults.length;
  ring.forEach((position, i) => positionFaults(position, `${path}[${i}]`, faults));
  if (faults.length > before) return;
  if (ring.length < 4) return void faults.push({ path, message: bundleMessages.areaRingTooShort });
  const [first, last] = [ring[0] as number[], ring[ring.length - 1] as number[]];
  if (first[0] !== last[0] || first[1] !== last[1]) return void faults.push({ path, message: bundleMessages.areaRingNotClosed });
  const crossing = selfCrossing(ring as number[][]);
  if (crossing) faults.push({ path, message: bundleMessages.areaRingSelfIntersects(crossing[0], crossing[1]) });
}

/** Rings longer than this are not checked for crossings (n² pairs of sides): a commune's sector has far fewer. */
const CROSSING_CHECK_MAX_POSITIONS = 2000;

/**
 * The first two sides of a closed ring that cross or touch, other than neighbours meeting at their shared position
 * (a bow tie, a figure eight): the indexes of the positions they start from; null when the ring is simple.
 */
function selfCrossing(ring: number[][]): [number, number] | null {
  const sides = ring.length - 1;
  if (ring.length > CROSSING_CHECK_MAX_POSITIONS) return null;
  for (let i = 0; i < sides; i++) {
    for (let j = i + 1; j < sides; j++) {
      const neighbours = j === i + 1 || (i === 0 && j === sides - 1);
      if (neighbours) continue;
      if (segmentsMeet(ring[i], ring[i + 1], ring[j], ring[j + 1])) return [i, j];
    }
  }
  return null;
}

function orientation(a: number[], b: number[], c: number[]): number {
  const value = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  return value > 0 ? 1 : value < 0 ? -1 : 0;
}

function onSegment(a: number[], b: number[], p: number[]): boolean {
  return Math.min(a[0], b[0]) <= p[0] && p[0] <= Math.max(a[0], b[0]) && Math.min(a[1], b[1]) <= p[1] && p[1] <= Math.max(a[1], b[1]);
}

function segmentsMeet(p1: number[], p2: number[], q1: number[], q2: number[]): boolean {
  const [o1, o2, o3, o4] = [orientation(p1, p2, q1), orientation(p1, p2, q2), orientation(q1, q2, p1), orientation(q1, q2, p2)];
  if (o1 !== o2 && o3 !== o4) return true;
  return (o1 === 0 && onSegment(p1, p2, q1)) || (o2 === 0 && onSegment(p1, p2, q2)) || (o3 === 0 && onSegment(q1, q2, p1)) || (o4 === 0 && onSegment(q1, q2, p2));
}

function positionFaults(position: unknown, path: string, faults: RecordFault[]): void {
  if (!Array.isArray(position) || position.length < 2 || position.length > 3 || !position.every((n) => typeof n === 'number' && Number.isFinite(n))) {
    return void faults.push({ path, message: bundleMessages.areaNotAPosition });
  }
  const [lon, lat] = position as number[];
  if (lon < -180 || lon > 180) faults.push({ path: `${path}[0]`, message: bundleMessages.areaLongitude });
  if (lat < -90 || lat > 90) faults.push({ path: `${path}[1]`, message: bundleMessages.areaLatitude });
}

/** The bounding box of a valid area, for the place's area_min/max columns (a loop: an area may hold many positions). */
export function areaBox(area: { type: string; coordinates: unknown }) {
  const polygons = (area.type === 'Polygon' ? [area.coordinates] : area.coordinates) as number[][][][];
  const box = { minLon: Infinity, minLat: Infinity, maxLon: -Infinity, maxLat: -Infinity };
  for (const polygon of polygons) {
    for (const ring of polygon) {
      for (const [lon, lat] of ring) {
        box.minLon = Math.min(box.minLon, lon);
        box.maxLon = Math.max(box.maxLon, lon);
        box.minLat = Math.min(box.minLat, lat);
        box.maxLat = Math.max(box.maxLat, lat);
      }
    }
  }
  return box;
}

/** A place's area as its columns: the GeoJSON as text and its bounding box, all null without an area. */
export function areaColumns(area: { type: string; coordinates: unknown } | null | undefined) {
  if (area == null) return { area: null, area_min_lon: null, area_min_lat: null, area_max_lon: null, area_max_lat: null };
  const box = areaBox(area);
  return {
    area: JSON.stringify({ type: area.type, coordinates: area.coordinates }),
    area_min_lon: box.minLon,
    area_min_lat: box.minLat,
    area_max_lon: box.maxLon,
    area_max_lat: box.maxLat,
  };
}
