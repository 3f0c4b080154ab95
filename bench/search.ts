/**
 * The sorting-guide case of `npm run bench` (docs/api.md, what citizens search): GET /public/cities/:cityId/sorting-guide
 * with what citizens type, against its baseline, the bare trigram query on the same table (`waste_type_detail`) sent
 * straight through the same driver.
 *
 * The k-th request is built from k alone, so the service and the baseline see the same sequence: city k mod C (the
 * bundle's ACTIF cities), one of its materials (k / C mod M), lowercased, accents off, parentheses dropped, and one
 * letter deleted inside a word of 5 letters or more (`bouteile en plastique`), the spot turning with k. Within a run
 * no two requests in C × M × spots share a query: the route answers each from its rules (it is never served from the
 * response cache, each search being counted) and the baseline cannot lean on a repeated plan input either.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../src/db/types.ts';

export interface SearchProbe {
  cityId: string;
  materials: string[];
}

/** Every ACTIF city of the bundle with its materials (waste type details). */
export function searchProbes(bundle: any): SearchProbe[] {
  return bundle.cities
    .filter((c: any) => c.status === 'ACTIF')
    .map((c: any) => ({ cityId: c.id, materials: c.wasteTypes.flatMap((w: any) => w.details.map((d: any) => d.material)) }))
    .filter((p: SearchProbe) => p.materials.length > 0);
}

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\([^)]*\)?/g, ' ')
    .replace(/[^a-z0-9' -]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** Letters that may be deleted as a typo: inside a word of at least 5 letters, never its first or last. */
function typoSpots(text: string): number[] {
  const spots: number[] = [];
  for (const m of text.matchAll(/[a-z]{5,}/g)) for (let i = 1; i < m[0].length - 1; i++) spots.push(m.index + i);
  return spots;
}

/** The k-th search: a city and what a citizen types for one of its materials, with a typo when it has room for one. */
export function searchRequest(probes: SearchProbe[], k: number): { cityId: string; q: string; material: string } {
  const probe = probes[k % probes.length];
  const j = Math.floor(k / probes.length);
  const material = probe.materials[j % probe.materials.length];
  const text = fold(material);
  const spots = typoSpots(text);
  if (spots.length === 0) return { cityId: probe.cityId, q: text, material };
  const spot = spots[Math.floor(j / probe.materials.length) % spots.length];
  return { cityId: probe.cityId, q: text.slice(0, spot) + text.slice(spot + 1), material };
}

export const searchPath = (r: { cityId: string; q: string }) => `/public/cities/${r.cityId}/sorting-guide?q=${encodeURIComponent(r.q)}`;

/** The GIN trigram index the baseline uses, made for the run and dropped after (bench/lookup.ts openBaselineDatabase). */
export const SEARCH_TRIGRAM_INDEX = { name: 'bench_waste_type_detail_trgm_idx', table: 'waste_type_detail', column: 'material' };

/**
 * The bare trigram query of the k-th search: the city's materials `%` the typed text, the 10 most similar. Nothing
 * of what the route adds: no folding, plurals, synonyms, quiz materials, waste type names, tiers, instructions,
 * points, nor the search's count.
 */
export function bareSearch(db: Kysely<DB>, probes: SearchProbe[], k: number) {
  const r = searchRequest(probes, k);
  return sql`SELECT d.material FROM waste_type_detail d JOIN waste_type w ON w.id = d.waste_type_id
    WHERE w.city_id = ${r.cityId} AND d.material % ${r.q}
    ORDER BY similarity(d.material, ${r.q}) DESC LIMIT 10`.execute(db);
}

/**
 * Checks the case measures what it claims: `count` searches of the sequence answered 200, and the share whose
 * first result is the material the query was made from (despite the typo).
 */
export async function verifySearches(port: number, probes: SearchProbe[], count: number): Promise<number> {
  let first = 0;
  for (let k = 0; k < count; k++) {
    const r = searchRequest(probes, k * 7919);
    const res = await fetch(`http://127.0.0.1:${port}${searchPath(r)}`);
    if (res.status !== 200) throw new Error(`search "${r.q}": ${res.status} ${await res.text()}`);
    const got = (await res.json()) as { material: string }[];
    if (got[0]?.material === r.material) first++;
  }
  return first / count;
}
