import { areaContains, type GeoArea, type Position } from '../kernel/geo.ts';

/**
 * Every ACTIF place's area in memory, on a grid of its bounding boxes: a position lookup reads the one cell the
 * position falls in, tests the boxes, then the polygons (kernel/geo.ts). Built once per data version from one query
 * (lookup.ts says when it is used and what answers while it is built).
 *
 * Why in memory: the GiST query answers the boxes, but each answer then carries the candidates' GeoJSON to be
 * parsed and tested per request; kept parsed, a lookup is a few array reads. Memory is the areas' own size (the
 * bench's 4,000 sector polygons of 2,000 communes weigh a few MiB), and a place whose box covers too many cells
 * (a whole département drawn as one sector) is kept apart and tested by its box on every lookup instead of being
 * copied into thousands of cells.
 */

export interface IndexedArea<T> {
  row: T;
  cityId: string;
  area: GeoArea;
  minLat: number;
  maxLat: number;
  minLon: number;
  maxLon: number;
}

/** A grid cell's side in degrees (about 2 km of latitude): a commune's sector spans a handful of cells. */
const CELL_DEGREES = 0.02;
/** Past this many cells, an area is kept in the list every lookup scans (by box first). */
const MOST_CELLS = 64;

const cellOf = (degrees: number) => Math.floor(degrees / CELL_DEGREES);
/** One number per cell: longitudes' cells (−9000…9000) and latitudes' (−4500…4500) fit side by side exactly. */
const cellKey = (x: number, y: number) => x * 100_000 + y;

export interface AreaIndex<T> {
  /** The areas holding a position, optionally of one city only, in no particular order. */
  at(position: Position, cityId: string | null): T[];
  readonly size: number;
}

export function areaIndex<T>(areas: IndexedArea<T>[]): AreaIndex<T> {
  const cells = new Map<number, IndexedArea<T>[]>();
  const wide: IndexedArea<T>[] = [];
  for (const area of areas) {
    const [x0, x1, y0, y1] = [cellOf(area.minLon), cellOf(area.maxLon), cellOf(area.minLat), cellOf(area.maxLat)];
    if ((x1 - x0 + 1) * (y1 - y0 + 1) > MOST_CELLS) {
      wide.push(area);
      continue;
    }
    for (let x = x0; x <= x1; x++) {
      for (let y = y0; y <= y1; y++) {
        const key = cellKey(x, y);
        const list = cells.get(key);
        if (list) list.push(area);
        else cells.set(key, [area]);
      }
    }
  }
  const holds = (area: IndexedArea<T>, at: Position, cityId: string | null) =>
    (cityId === null || area.cityId === cityId) &&
    at.lat >= area.minLat &&
    at.lat <= area.maxLat &&
    at.lon >= area.minLon &&
    at.lon <= area.maxLon &&
    areaContains(area.area, at);
  return {
    size: areas.length,
    at(position, cityId) {
      const found: T[] = [];
      // A position on a cell's border belongs to one cell; an area touching that border from the other side is in
      // both cells' lists (its box spans both), so one cell suffices.
      for (const area of cells.get(cellKey(cellOf(position.lon), cellOf(position.lat))) ?? []) {
        if (holds(area, position, cityId)) found.push(area.row);
      }
      for (const area of wide) if (holds(area, position, cityId)) found.push(area.row);
      return found;
    },
  };
}
