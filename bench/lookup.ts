/**
 * The lookup cases of `npm run bench` (docs/api.md, from an address to a collection place): GET /public/places/lookup by address with a
 * typo and by position, and their baselines, the bare queries sent straight through the same driver.
 *
 * Probes are taken from the bundle's cities (the demo's, or the generated ones of `--scale`, bench/scale.ts): street
 * rules with their places, and places with their areas. The k-th request of a case is built from k alone, so the
 * service and the baseline see the same sequence:
 * - an address: street probe k mod P, a number that the probe's rule (turn by turn) holds, the street name lowercased,
 *   accents off and one letter deleted inside a word (`12 rue jean jaurs`, never the last letter: that would be a
 *   prefix, another tier), then a postcode 10000 + k mod 90000, which the lookup drops (`…, 10042`). Number, typo
 *   place and postcode all vary with k, so no two requests of a run share a URL within 90,000 × P: every request
 *   misses the response cache (keyed on cityId and address) and runs the lookup;
 * - a position: a point drawn (seeded by k) inside place probe k mod P's area, a fresh float each time, without
 *   cityId (every ACTIF city's places, as the bare query).
 */
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PGliteDialect, sql } from 'kysely';
import { openDatabase } from '../src/db/database.ts';
import type { DB } from '../src/db/types.ts';
import { parseAddress } from '../src/kernel/address.ts';
import { areaContains, type GeoArea } from '../src/kernel/geo.ts';
import { timedLoops } from './processes.ts';

export interface StreetRuleProbe {
  placeId: string;
  fromNumber: number | null;
  toNumber: number | null;
  side: 'ALL' | 'ODD' | 'EVEN';
}
export interface AddressProbe {
  cityId: string;
  street: string;
  /** Every rule of that street in the city, each with its place. */
  rules: StreetRuleProbe[];
}
export interface PositionProbe {
  placeId: string;
  area: GeoArea;
  box: { minLon: number; minLat: number; maxLon: number; maxLat: number };
}
export interface LookupProbes {
  addresses: AddressProbe[];
  positions: PositionProbe[];
}

/** Adds a bundle city's probes: up to `maxStreets` of its streets (shared ones first), every place with an area. */
export function addProbes(probes: LookupProbes, city: any, maxStreets = Infinity): void {
  const streets = new Map<string, StreetRuleProbe[]>();
  for (const place of city.wasteCollectionPlaces) {
    for (const rule of place.streets ?? []) {
      const rules = streets.get(rule.street) ?? [];
      rules.push({ placeId: place.id, fromNumber: rule.fromNumber ?? null, toNumber: rule.toNumber ?? null, side: rule.side });
      streets.set(rule.street, rules);
    }
    if (place.area) {
      const box = { minLon: Infinity, minLat: Infinity, maxLon: -Infinity, maxLat: -Infinity };
      const polygons = place.area.type === 'Polygon' ? [place.area.coordinates] : place.area.coordinates;
      for (const [lon, lat] of polygons.flat(2) as number[][]) {
        box.minLon = Math.min(box.minLon, lon);
        box.maxLon = Math.max(box.maxLon, lon);
        box.minLat = Math.min(box.minLat, lat);
        box.maxLat = Math.max(box.maxLat, lat);
      }
      probes.positions.push({ placeId: place.id, area: place.area, box });
    }
  }
  const ordered = [...streets].sort((a, b) => b[1].length - a[1].length);
  for (const [street, rules] of ordered.slice(0, maxStreets)) {
    if (typoable(street)) probes.addresses.push({ cityId: city.id, street, rules });
  }
}

const fold = (text: string) => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

/** Positions of letters that may be deleted as a typo: inside a word of at least 5 letters, never its first or last. */
function typoSpots(street: string): number[] {
  const text = fold(street);
  const spots: number[] = [];
  for (const m of text.matchAll(/[a-z]{5,}/g)) for (let i = 1; i < m[0].length - 1; i++) spots.push(m.index + i);
  // The street type's letters aside: `rue` has none anyway; `avenue`, `boulevard` would still be read as their type.
  const typeEnd = text.indexOf(' ');
  return spots.filter((i) => i > typeEnd);
}

const typoable = (street: string) => typoSpots(street).length > 0;

/** A number of the rule's range and side, chosen by `k`. */
function numberIn(rule: StreetRuleProbe, k: number): number {
  const from = rule.fromNumber ?? 1;
  const to = rule.toNumber ?? from + 199;
  let n = from + ((k * 37) % (to - from + 1));
  if ((rule.side === 'ODD' && n % 2 === 0) || (rule.side === 'EVEN' && n % 2 === 1)) n = n + 1 <= to ? n + 1 : n - 1;
  return n;
}

/** The k-th address request: its city, free text and the place expected first. */
export function addressRequest(probes: LookupProbes, k: number): { cityId: string; address: string; placeId: string } {
  const probe = probes.addresses[k % probes.addresses.length];
  const j = Math.floor(k / probes.addresses.length);
  const rule = probe.rules[j % probe.rules.length];
  const text = fold(probe.street);
  const spots = typoSpots(probe.street);
  const spot = spots[(j * 7 + k) % spots.length];
  const typo = text.slice(0, spot) + text.slice(spot + 1);
  return { cityId: probe.cityId, address: `${numberIn(rule, k)} ${typo}, ${10000 + (k % 90000)}`, placeId: rule.placeId };
}

export const addressPath = (r: { cityId: string; address: string }) =>
  `/public/places/lookup?cityId=${r.cityId}&address=${encodeURIComponent(r.address)}`;

/** The k-th position request: a point drawn inside a place's area (seeded by k), and that place. */
export function positionRequest(probes: LookupProbes, k: number): { lat: number; lon: number; placeId: string } {
  const probe = probes.positions[k % probes.positions.length];
  let seed = k + 1;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  for (let attempt = 0; attempt < 200; attempt++) {
    const lon = round6(probe.box.minLon + random() * (probe.box.maxLon - probe.box.minLon));
    const lat = round6(probe.box.minLat + random() * (probe.box.maxLat - probe.box.minLat));
    if (areaContains(probe.area, { lat, lon })) return { lat, lon, placeId: probe.placeId };
  }
  throw new Error(`no point found inside the area of place ${probe.placeId}`);
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

export const positionPath = (r: { lat: number; lon: number }) => `/public/places/lookup?lat=${r.lat}&lon=${r.lon}`;

/**
 * Checks the case measures what it claims: `count` requests of each sequence answered by the service, the expected
 * place among the candidates (despite the typo; for a position, matched by its area). Answers the share of address
 * requests whose expected place came first (a same-named street of another type, `Chemin Émile Zola` beside
 * `Rue Émile Zola`, can rank before it at the typo tier).
 */
export async function verifyLookups(port: number, probes: LookupProbes, count: number): Promise<number> {
  let first = 0;
  for (let k = 0; k < count; k++) {
    const a = addressRequest(probes, k * 7919);
    const got = (await (await fetch(`http://127.0.0.1:${port}${addressPath(a)}`)).json()) as { placeId: string; label: string }[];
    if (!got.some((c) => c.placeId === a.placeId)) throw new Error(`lookup of "${a.address}": expected place ${a.placeId}, got ${JSON.stringify(got)}`);
    if (got[0].placeId === a.placeId) first++;
    const p = positionRequest(probes, k * 7919);
    const near = (await (await fetch(`http://127.0.0.1:${port}${positionPath(p)}`)).json()) as { placeId: string; matchedBy: string }[];
    if (!near.some((c) => c.placeId === p.placeId && c.matchedBy === 'area')) {
      throw new Error(`lookup of ${p.lat},${p.lon}: expected place ${p.placeId}, got ${JSON.stringify(near)}`);
    }
  }
  return first / count;
}

/**
 * The baselines' database: the service's own, through the same driver (Kysely on PGlite in this process, the data
 * directory's files, the service being stopped; or a pg pool of 10 as the service's), with pg_trgm and a GIN trigram
 * index on place_street.street_key that only the baseline uses: made here, dropped by `close()` (the service's
 * PGlite loads no pg_trgm, and the schema stays as the migrations made it).
 */
export async function openBaselineDatabase(options: {
  databaseUrl: string | null;
  dataDir: string;
  /** The GIN trigram index only the baseline uses (default: place_street.street_key, the address lookup's). */
  trigramIndex?: { name: string; table: string; column: string };
}) {
  const index = options.trigramIndex ?? { name: 'bench_place_street_trgm_idx', table: 'place_street', column: 'street_key' };
  let db: Kysely<DB>;
  let close: () => Promise<void>;
  if (options.databaseUrl) {
    const database = await openDatabase({ databaseUrl: options.databaseUrl, dataDir: null, poolSize: 10 });
    db = database.db;
    close = () => database.close();
  } else {
    const pglite = await PGlite.create(path.join(path.resolve(options.dataDir), 'pgdata'), { extensions: { pg_trgm } });
    db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite }) });
    close = async () => {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    };
  }
  const had = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'pg_trgm'`.execute(db);
  const ownExtension = had.rows[0].n === 0;
  const started = performance.now();
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS ${sql.id(index.name)} ON ${sql.table(index.table)} USING gin (${sql.id(index.column)} gin_trgm_ops)`.execute(db);
  await sql`ANALYZE ${sql.table(index.table)}`.execute(db);
  const indexS = (performance.now() - started) / 1000;
  return {
    db,
    indexS,
    async close() {
      try {
        await sql`DROP INDEX IF EXISTS ${sql.id(index.name)}`.execute(db);
        if (ownExtension) await sql`DROP EXTENSION IF EXISTS pg_trgm`.execute(db);
      } finally {
        await close();
      }
    },
  };
}

/** The bare trigram query of the k-th address: the typed street key `%` the stored ones, among the city's places. */
export function bareTrigram(db: Kysely<DB>, probes: LookupProbes, k: number) {
  const r = addressRequest(probes, k);
  const key = parseAddress(r.address).key;
  return sql`SELECT s.place_id FROM place_street s JOIN collection_place p ON p.id = s.place_id WHERE p.city_id = ${r.cityId} AND s.street_key % ${key}`.execute(db);
}

/**
 * The bare containment query of the k-th position: places whose area box holds the point, in the form the GiST index
 * of migration 0008 serves. `box @> point` is not an operator of GiST's box_ops (PostgreSQL 18, PGlite alike: only
 * box-to-box operators), so `box(…) @> point($lon, $lat)` scans the table; the point is given as a degenerate box
 * (`@> box(point, point)`, the same answer), and `area IS NOT NULL` is the index's own predicate.
 */
export function bareContainment(db: Kysely<DB>, probes: LookupProbes, k: number) {
  const r = positionRequest(probes, k);
  return sql`SELECT id FROM collection_place WHERE area IS NOT NULL AND box(point(area_min_lon, area_min_lat), point(area_max_lon, area_max_lat)) @> box(point(${r.lon}, ${r.lat}), point(${r.lon}, ${r.lat}))`.execute(db);
}

/** `concurrency` loops sending one baseline's k-th query, k counting on in `counter` (shared by the loops and turns). */
export function measureBaseline(query: (k: number) => Promise<unknown>, options: { concurrency: number; durationS: number; counter: { k: number } }) {
  return timedLoops(options.concurrency, options.durationS, () => query(options.counter.k++));
}
