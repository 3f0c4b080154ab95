import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { looseStreetKey, nameKey, parseAddress, streetKey } from '../kernel/address.ts';
import { compareFrench } from '../kernel/french.ts';
import { areaContains, boxAround, greatCircleMeters, type Position } from '../kernel/geo.ts';
import { editDistance, numberMatches, numbersLabel, typoAllowance } from '../kernel/street-rules.ts';
import {
  findLocationsInBox,
  findLocationsOfCity,
  findPlacesWithAreaBoxAt,
  findStreetRulesOfCity,
  type LookupPlaceRow,
  type StreetRuleRow,
} from './lookup-repository.ts';

/**
 * From an address or a position to collection places (CONTRACT section 11, GET /public/places/lookup).
 *
 * An address is matched in code against the city's own street rules and attached-location names, read by one indexed
 * query each: a commune holds tens to a few thousand rules, and the matching wants what a trigram index does not
 * give: a word-prefix tier for suggestions while the citizen types (`12 rue de si`), and keys that know French
 * abbreviations and articles. The tiers, best first:
 *   0. the same street key (`r. de siam` = `Rue de Siam`);
 *   1. the same loose key, articles aside (`rue siam`);
 *   2. the same name, the street type aside (`12 siam`);
 *   3. a word prefix of the loose key or the name (`rue de si`, `jean ja`), from two letters of name;
 *   4. a typo or two (edit distance on the loose key or the name: one under 10 letters, two from there).
 * A position is matched through the GiST index of the places' area boxes, then the polygon in code (kernel/geo.ts);
 * failing an area, the attached locations within 300 m.
 */

export type MatchedBy = 'street' | 'area' | 'location';

export interface PlaceCandidate {
  cityId: string;
  cityName: string;
  placeId: string;
  placeName: string;
  matchedBy: MatchedBy;
  label: string;
  distanceMeters: number | null;
}

/** Most candidates answered (CONTRACT section 11). */
export const LOOKUP_LIMIT = 10;

/** How far from a position an attached location may be (CONTRACT section 11). */
export const LOCATION_RADIUS_M = 300;

/** Shortest typed name (street type and articles aside) completed by the prefix tier. */
const PREFIX_MIN_LENGTH = 2;

const NBSP = '\u00a0';

interface TypedKeys {
  key: string;
  loose: string;
  name: string;
}

function keysOf(key: string): TypedKeys {
  const loose = looseStreetKey(key);
  return { key, loose, name: nameKey(loose) };
}

/** How well a stored name's keys match the typed ones: its tier and, within the typo tier, its distance; null if not. */
function matchTier(typed: TypedKeys, stored: TypedKeys): { tier: number; distance: number } | null {
  if (typed.loose === '') return null;
  if (typed.key === stored.key) return { tier: 0, distance: 0 };
  if (typed.loose === stored.loose) return { tier: 1, distance: 0 };
  if (typed.name === stored.name) return { tier: 2, distance: 0 };
  if (typed.name.length >= PREFIX_MIN_LENGTH && (isWordPrefix(typed.loose, stored.loose) || isWordPrefix(typed.name, stored.name))) {
    return { tier: 3, distance: 0 };
  }
  const distance = Math.min(typoDistance(typed.loose, stored.loose), typoDistance(typed.name, stored.name));
  return distance === Infinity ? null : { tier: 4, distance };
}

/** `rue de si` is a word prefix of `rue de siam`: every typed word but the last equal, the last one begun. */
function isWordPrefix(typed: string, stored: string): boolean {
  if (typed === '' || !stored.startsWith(typed)) return false;
  const typedWords = typed.split(' ');
  const storedWords = stored.split(' ');
  return typedWords.length <= storedWords.length && typedWords.every((word, i) => (i < typedWords.length - 1 ? word === storedWords[i] : storedWords[i].startsWith(word)));
}

function typoDistance(typed: string, stored: string): number {
  const allowed = typoAllowance(stored);
  if (allowed === 0 || typed === '') return Infinity;
  const distance = editDistance(typed, stored, allowed);
  return distance <= allowed ? distance : Infinity;
}

/** One candidate before ranking: its place, what matched and how well. */
interface Ranked {
  candidate: PlaceCandidate;
  tier: number;
  distance: number;
  /** Street matches before location matches at the same tier. */
  kind: 0 | 1;
  /** The matched name, for the order between names. */
  name: string;
  /** Order within one name (a shared street's places by their first number). */
  within: number;
}

function candidate(place: LookupPlaceRow, matchedBy: MatchedBy, label: string, distanceMeters: number | null = null): PlaceCandidate {
  return {
    cityId: place.city_id,
    cityName: place.city_name,
    placeId: place.place_id,
    placeName: place.place_name,
    matchedBy,
    label,
    distanceMeters,
  };
}

/** `numéros impairs de 1 à 99 et numéros pairs de 2 à 40`. */
function listLabels(labels: string[]): string {
  return labels.length <= 1 ? labels.join('') : `${labels.slice(0, -1).join(', ')} et ${labels.at(-1)}`;
}

/**
 * The candidates of one street: with a number that some rule holds, each place whose rule holds it; else (no number,
 * or one no rule holds) each place sharing the street, labelled with the numbers it serves.
 */
function streetCandidates(rules: StreetRuleRow[], houseNumber: number | null): { candidate: PlaceCandidate; within: number }[] {
  const street = rules[0].street;
  const holding = houseNumber === null ? [] : rules.filter((rule) => numberMatches(ruleOf(rule), houseNumber));
  const chosen = holding.length > 0 ? holding : rules;
  const byPlace = new Map<string, StreetRuleRow[]>();
  for (const rule of chosen) byPlace.set(rule.place_id, [...(byPlace.get(rule.place_id) ?? []), rule]);
  return [...byPlace.values()].map((placeRules) => {
    const ordered = [...placeRules].sort((a, b) => (a.from_number ?? 1) - (b.from_number ?? 1) || a.side.localeCompare(b.side));
    const label = holding.length > 0 ? numbersLabel(ruleOf(ordered[0])) : listLabels(ordered.map((rule) => numbersLabel(ruleOf(rule))));
    return { candidate: candidate(ordered[0], 'street', `${street}, ${label}`), within: ordered[0].from_number ?? 1 };
  });
}

function ruleOf(row: StreetRuleRow) {
  return { fromNumber: row.from_number, toNumber: row.to_number, side: row.side };
}

/** Candidates for a free-text address in one city, best first (at most LOOKUP_LIMIT). */
export async function lookupAddress(db: Kysely<DB>, city: { id: string; name: string }, text: string): Promise<PlaceCandidate[]> {
  const parsed = parseAddress(text, { communeNames: [city.name] });
  const typed = keysOf(parsed.key);
  if (typed.loose === '') return [];
  const [rules, locations] = await Promise.all([findStreetRulesOfCity(db, city.id), findLocationsOfCity(db, city.id)]);
  const ranked: Ranked[] = [];

  const streets = new Map<string, StreetRuleRow[]>();
  for (const rule of rules) streets.set(rule.street_key, [...(streets.get(rule.street_key) ?? []), rule]);
  for (const [key, streetRules] of streets) {
    const stored = keysOf(key);
    const match = matchTier(typed, stored);
    if (!match) continue;
    for (const { candidate: c, within } of streetCandidates(streetRules, parsed.number)) {
      ranked.push({ candidate: c, ...match, kind: 0, name: streetRules[0].street, within });
    }
  }
  // A location named as a street that has rules (seed data names streets as locations) gives way to the rules: they
  // say which numbers go where, the location does not.
  const ruledLooseKeys = new Set([...streets.keys()].map(looseStreetKey));
  for (const location of locations) {
    const stored = keysOf(streetKey(location.name));
    if (ruledLooseKeys.has(stored.loose)) continue;
    const match = matchTier(typed, stored);
    if (!match) continue;
    ranked.push({ candidate: candidate(location, 'location', location.name), ...match, kind: 1, name: location.name, within: 0 });
  }

  ranked.sort(
    (a, b) =>
      a.tier - b.tier ||
      a.distance - b.distance ||
      a.kind - b.kind ||
      compareFrench(a.name, b.name) ||
      a.within - b.within ||
      compareFrench(a.candidate.placeName, b.candidate.placeName),
  );
  return ranked.slice(0, LOOKUP_LIMIT).map((r) => r.candidate);
}

/**
 * Candidates for a position: the places whose area holds it (by city, then place name), else the attached locations
 * within LOCATION_RADIUS_M, nearest first, one per place. `cityId` null: every ACTIF city.
 */
export async function lookupPosition(db: Kysely<DB>, at: Position, cityId: string | null): Promise<PlaceCandidate[]> {
  const inArea = (await findPlacesWithAreaBoxAt(db, at, cityId))
    .filter((row) => areaContains(row.area, at))
    .sort((a, b) => compareFrench(a.city_name, b.city_name) || compareFrench(a.place_name, b.place_name))
    .slice(0, LOOKUP_LIMIT);
  if (inArea.length > 0) return inArea.map((row) => candidate(row, 'area', `Zone de collecte «${NBSP}${row.place_name}${NBSP}»`));

  const near = (await findLocationsInBox(db, boxAround(at, LOCATION_RADIUS_M), cityId))
    .map((row) => ({ row, meters: greatCircleMeters(at, { lat: row.latitude, lon: row.longitude }) }))
    .filter(({ meters }) => meters <= LOCATION_RADIUS_M)
    .sort((a, b) => a.meters - b.meters || compareFrench(a.row.name, b.row.name));
  const seen = new Set<string>();
  const answer: PlaceCandidate[] = [];
  for (const { row, meters } of near) {
    if (seen.has(row.place_id)) continue;
    seen.add(row.place_id);
    answer.push(candidate(row, 'location', row.name, meters));
    if (answer.length === LOOKUP_LIMIT) break;
  }
  return answer;
}
