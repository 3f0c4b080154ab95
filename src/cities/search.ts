import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { communeIndex, matchCommunes, readCommune, type CommuneIndex } from '../domain/commune-match.ts';
import { communeWords } from '../kernel/address.ts';
import { compareFrench } from '../kernel/french.ts';
import { cityStreets, LOOKUP_LIMIT, rankedAddressCandidates, type CityStreets, type PlaceCandidate, type RankedCandidate } from './lookup.ts';
import { findActiveCommunes, findLocationsOfActiveCities, findPublishedAddresses, findStreetRulesOfActiveCities } from './lookup-repository.ts';

/**
 * Finding one's commune, or one's address without choosing a commune first (docs/api.md, finding one's commune or
 * address without choosing it first): GET /public/search/communes and GET /public/search/addresses, behind the home
 * screen's one box. The communes are matched by domain/commune-match.ts, the streets of each by
 * domain/address-match.ts, as GET /public/places/lookup does.
 */

/** A commune found by name or postcode. */
export interface CommuneCandidate {
  cityId: string;
  cityName: string;
  cityGroupName: string | null;
  postcodes: string[];
}

/** Most communes answered. */
export const COMMUNES_LIMIT = 10;

/**
 * Most ACTIF communes, and most streets across them, an address naming no commune is searched across: their rules are
 * kept in memory per data version and each keystroke matches every street (about 2 µs each on a busy two-core
 * machine: 20 ms for 10,000). A métropole's or an intercommunality's communes fit; past either, the address must name
 * its commune (or postcode) to be found.
 */
export const ALL_COMMUNES_MAX = 100;
export const ALL_STREETS_MAX = 10_000;

const POSTCODE_BESIDE_NAME = /\b(\d{5})\s+([^,;()\n\d]+)/g;

/**
 * Each commune's postcodes, read from the published addresses (`…, 29200 Brest`): a postcode counts for the communes
 * whose name (`Cedex` aside) is written right after it.
 */
function postcodesByName(addresses: readonly string[]): Map<string, Set<string>> {
  const byName = new Map<string, Set<string>>();
  for (const address of addresses) {
    for (const [, code, name] of address.matchAll(POSTCODE_BESIDE_NAME)) {
      const key = communeWords(name.replace(/\bcedex\b.*$/i, '')).join('');
      if (key === '') continue;
      byName.set(key, (byName.get(key) ?? new Set()).add(code));
    }
  }
  return byName;
}

/** Every ACTIF commune with its postcodes, indexed (read once per data version by the route). */
export async function loadCommunes(db: Kysely<DB>): Promise<CommuneIndex<CommuneCandidate>> {
  const [cities, addresses] = await Promise.all([findActiveCommunes(db), findPublishedAddresses(db)]);
  const postcodes = postcodesByName(addresses);
  return communeIndex(
    cities.map((city) => {
      const codes = [...(postcodes.get(communeWords(city.name).join('')) ?? [])].sort();
      return {
        commune: { cityId: city.id, cityName: city.name, cityGroupName: city.group_name, postcodes: codes },
        name: city.name,
        postcodes: codes,
      };
    }),
  );
}

/** Communes a text names, best first (at most COMMUNES_LIMIT): a name, begun or with a typo or two, or a postcode. */
export function searchCommunes(index: CommuneIndex<CommuneCandidate>, text: string): CommuneCandidate[] {
  return matchCommunes(text, index, { prefixes: true })
    .slice(0, COMMUNES_LIMIT)
    .map((match) => match.commune);
}

/**
 * Every ACTIF commune's street index, from two queries; null when the service covers more than ALL_COMMUNES_MAX
 * communes or ALL_STREETS_MAX streets (an address must then name its commune).
 */
export async function loadAllStreets(db: Kysely<DB>, communes: CommuneIndex<CommuneCandidate>): Promise<Map<string, CityStreets> | null> {
  if (communes.entries.length > ALL_COMMUNES_MAX) return null;
  const [rules, locations] = await Promise.all([findStreetRulesOfActiveCities(db), findLocationsOfActiveCities(db)]);
  if (new Set(rules.map((rule) => `${rule.city_id} ${rule.street_key}`)).size > ALL_STREETS_MAX) return null;
  const byCity = new Map<string, { rules: typeof rules; locations: typeof locations }>();
  const of = (cityId: string) => byCity.get(cityId) ?? byCity.set(cityId, { rules: [], locations: [] }).get(cityId)!;
  for (const rule of rules) of(rule.city_id).rules.push(rule);
  for (const location of locations) of(location.city_id).locations.push(location);
  const all = new Map<string, CityStreets>();
  for (const { entry } of communes.entries) {
    const rows = byCity.get(entry.commune.cityId) ?? { rules: [], locations: [] };
    all.set(entry.commune.cityId, cityStreets({ id: entry.commune.cityId, name: entry.commune.cityName }, rows.rules, rows.locations));
  }
  return all;
}

export interface AddressSearchSources {
  communes: CommuneIndex<CommuneCandidate>;
  /** Every commune's streets (loadAllStreets), or null when there are too many. */
  all: Map<string, CityStreets> | null;
  /** One commune's streets (the lookup route's per-city cache). */
  streetsOf: (cityId: string) => Promise<CityStreets | null>;
}

function merge(found: RankedCandidate[]): PlaceCandidate[] {
  return found
    .map((ranked, order) => ({ ranked, order }))
    .sort(
      (a, b) =>
        a.ranked.tier - b.ranked.tier ||
        a.ranked.distance - b.ranked.distance ||
        compareFrench(a.ranked.candidate.cityName, b.ranked.candidate.cityName) ||
        a.order - b.order,
    )
    .slice(0, LOOKUP_LIMIT)
    .map(({ ranked }) => ranked.candidate);
}

async function searchIn(sources: AddressSearchSources, cityIds: readonly string[], text: string): Promise<RankedCandidate[]> {
  const found: RankedCandidate[] = [];
  for (const cityId of cityIds) {
    const streets = sources.all?.get(cityId) ?? (await sources.streetsOf(cityId));
    if (streets) found.push(...rankedAddressCandidates(streets, text));
  }
  return found;
}

/**
 * Places for an address typed without choosing a commune, best first (at most LOOKUP_LIMIT), each naming its commune:
 * in the commune the text names (its name first or last, or its postcode, a typo aside), the street matched there;
 * else, or when nothing is found there, across every commune (within ALL_COMMUNES_MAX and ALL_STREETS_MAX).
 */
export async function searchAddresses(sources: AddressSearchSources, text: string): Promise<PlaceCandidate[]> {
  const named = readCommune(text, sources.communes);
  if (named) {
    const found = await searchIn(sources, named.communes.map((commune) => commune.cityId), named.rest);
    if (found.length > 0) return merge(found);
  }
  if (!sources.all) return [];
  const everywhere = [...sources.all.keys()];
  // The street in another commune than the one read (a resident's slip, or a typo that read the wrong one); failing
  // that, the words read as a commune were the street's.
  if (named) {
    const found = await searchIn(sources, everywhere, named.rest);
    if (found.length > 0) return merge(found);
  }
  return merge(await searchIn(sources, everywhere, text));
}
