import { looseStreetKey, nameKey, streetKey, type ParsedAddress } from '../kernel/address.ts';
import { compareFrench } from '../kernel/french.ts';
import { editDistance, numberMatches, numbersLabel, typoAllowance, type StreetSide } from '../kernel/street-rules.ts';

/**
 * Which collection places a parsed address names, among a city's street rules and attached locations (docs/api.md, from an address to a collection place): the one matcher behind GET /public/places/lookup and the chat assistant's "j'habite 12 rue de Siam".
 * Pure: the caller reads the rules (a commune holds tens to a few thousand) and says what a place is (`P`).
 *
 * Matched in code rather than by a trigram index: the tiers want a word-prefix match for suggestions while a citizen
 * types (`12 rue de si`) and keys that know French abbreviations and articles, which trigram similarity does not
 * give. The tiers, best first:
 *   0. the same street key (`r. de siam` = `Rue de Siam`);
 *   1. the same loose key, articles aside (`rue siam`);
 *   2. the same name, the street type aside (`12 siam`);
 *   3. a word prefix of the loose key or the name (`rue de si`, `jean ja`), from two letters of name (when asked);
 *   4. a typo or two (edit distance on the loose key or the name: one under 10 letters, two from there).
 */

export interface AddressRule<P> {
  place: P;
  placeId: string;
  placeName: string;
  street: string;
  /** streetKey(street), as stored. */
  streetKey: string;
  fromNumber: number | null;
  toNumber: number | null;
  side: StreetSide;
}

export interface AddressLocation<P> {
  place: P;
  placeId: string;
  placeName: string;
  name: string;
}

export interface AddressMatch<P> {
  place: P;
  matchedBy: 'street' | 'location';
  /** The street or location matched, as written (`Rue de Siam`). */
  name: string;
  /** French: `Rue de Siam, numéros impairs de 1 à 99`, or the location's name. */
  label: string;
  /** The tier above (0 best). */
  tier: number;
  /** Typo distance within the typo tier (a street of another type than typed adds a half), else 0: ranks matches of several communes together. */
  distance: number;
}

export interface MatchOptions {
  /** Whether a street begun matches (tier 3): yes for suggestions, no for a sentence of the chat. */
  prefixes: boolean;
}

/** Shortest typed name (street type and articles aside) completed by the prefix tier. */
const PREFIX_MIN_LENGTH = 2;

interface Keys {
  key: string;
  loose: string;
  name: string;
  /** The loose key's first word (its street type, when it has one), kept: a search compares thousands of streets. */
  first: string;
}

function keysOf(key: string): Keys {
  const loose = looseStreetKey(key);
  return { key, loose, name: nameKey(loose), first: loose.split(' ')[0] };
}

/** How well a stored name's keys match the typed ones: its tier and, within the typo tier, its distance; null if not. */
function matchTier(typed: Keys, stored: Keys, options: MatchOptions): { tier: number; distance: number } | null {
  if (typed.loose === '') return null;
  if (typed.key === stored.key) return { tier: 0, distance: 0 };
  if (typed.loose === stored.loose) return { tier: 1, distance: 0 };
  if (typed.name === stored.name) return { tier: 2, distance: 0 };
  // Matched by its name alone, a street of another type than the one typed comes after (`rue eile zola`: the Rue Émile
  // Zola before the Chemin Émile Zola).
  const typePenalty = typed.name !== typed.loose && typed.first !== stored.first ? 0.5 : 0;
  if (options.prefixes && typed.name.length >= PREFIX_MIN_LENGTH) {
    if (isWordPrefix(typed.loose, stored.loose)) return { tier: 3, distance: 0 };
    if (isWordPrefix(typed.name, stored.name)) return { tier: 3, distance: typePenalty };
  }
  const distance = Math.min(typoDistance(typed.loose, stored.loose), typoDistance(typed.name, stored.name) + typePenalty);
  return distance === Infinity ? null : { tier: 4, distance };
}

/** `rue de si` is a word prefix of `rue de siam`: every typed word but the last equal, the last one begun. */
function isWordPrefix(typed: string, stored: string): boolean {
  if (typed === '' || !stored.startsWith(typed)) return false;
  const typedWords = typed.split(' ');
  const storedWords = stored.split(' ');
  return (
    typedWords.length <= storedWords.length &&
    typedWords.every((word, i) => (i < typedWords.length - 1 ? word === storedWords[i] : storedWords[i].startsWith(word)))
  );
}

function typoDistance(typed: string, stored: string): number {
  const allowed = typoAllowance(stored);
  if (allowed === 0 || typed === '') return Infinity;
  const distance = editDistance(typed, stored, allowed);
  return distance <= allowed ? distance : Infinity;
}

/** One match before ranking. */
interface Ranked<P> {
  match: Omit<AddressMatch<P>, 'distance'>;
  distance: number;
  /** Street matches before location matches at the same tier. */
  kind: 0 | 1;
  /** Order within one name (a shared street's places by their first number). */
  within: number;
  placeName: string;
}

/** `numéros impairs de 1 à 99 et numéros pairs de 2 à 40`. */
function listLabels(labels: string[]): string {
  return labels.length <= 1 ? labels.join('') : `${labels.slice(0, -1).join(', ')} et ${labels.at(-1)}`;
}

/**
 * The matches of one street: with a number that some rule holds, each place whose rule holds it; else (no number,
 * or one no rule holds) each place sharing the street, labelled with the numbers it serves.
 */
function streetMatches<P>(
  rules: AddressRule<P>[],
  houseNumber: number | null,
): { match: Omit<AddressMatch<P>, 'tier' | 'distance'>; within: number; placeName: string }[] {
  const street = rules[0].street;
  const holding = houseNumber === null ? [] : rules.filter((rule) => numberMatches(rule, houseNumber));
  const chosen = holding.length > 0 ? holding : rules;
  const byPlace = new Map<string, AddressRule<P>[]>();
  for (const rule of chosen) byPlace.set(rule.placeId, [...(byPlace.get(rule.placeId) ?? []), rule]);
  return [...byPlace.values()].map((placeRules) => {
    const ordered = [...placeRules].sort((a, b) => (a.fromNumber ?? 1) - (b.fromNumber ?? 1) || a.side.localeCompare(b.side));
    const label = holding.length > 0 ? numbersLabel(ordered[0]) : listLabels(ordered.map((rule) => numbersLabel(rule)));
    const match = { place: ordered[0].place, matchedBy: 'street' as const, name: street, label: `${street}, ${label}` };
    return { match, within: ordered[0].fromNumber ?? 1, placeName: ordered[0].placeName };
  });
}

/** A city's streets and locations with their keys computed once: what matchAddress reads. */
export interface AddressIndex<P> {
  streets: { keys: Keys; rules: AddressRule<P>[] }[];
  locations: { keys: Keys; location: AddressLocation<P> }[];
}

/**
 * Groups a city's rules by street and computes every key once. A location named as a street that has rules (seed
 * data names streets as locations) is left out: the rules say which numbers go where, the location does not.
 */
export function addressIndex<P>(rules: readonly AddressRule<P>[], locations: readonly AddressLocation<P>[]): AddressIndex<P> {
  const byStreet = new Map<string, AddressRule<P>[]>();
  for (const rule of rules) byStreet.set(rule.streetKey, [...(byStreet.get(rule.streetKey) ?? []), rule]);
  const streets = [...byStreet].map(([key, streetRules]) => ({ keys: keysOf(key), rules: streetRules }));
  const ruled = new Set(streets.map((street) => street.keys.loose));
  return {
    streets,
    locations: locations
      .map((location) => ({ keys: keysOf(streetKey(location.name)), location }))
      .filter(({ keys }) => !ruled.has(keys.loose)),
  };
}

/** Every match of an address, best first: by tier, typo distance, streets before locations, name, then numbers. */
export function matchAddress<P>(address: ParsedAddress, index: AddressIndex<P>, options: MatchOptions): AddressMatch<P>[] {
  const typed = keysOf(address.key);
  if (typed.loose === '') return [];
  const ranked: Ranked<P>[] = [];

  for (const street of index.streets) {
    const found = matchTier(typed, street.keys, options);
    if (!found) continue;
    for (const { match, within, placeName } of streetMatches(street.rules, address.number)) {
      ranked.push({ match: { ...match, tier: found.tier }, distance: found.distance, kind: 0, within, placeName });
    }
  }
  for (const { keys, location } of index.locations) {
    const found = matchTier(typed, keys, options);
    if (!found) continue;
    const match: Omit<AddressMatch<P>, 'distance'> = { place: location.place, matchedBy: 'location', name: location.name, label: location.name, tier: found.tier };
    ranked.push({ match, distance: found.distance, kind: 1, within: 0, placeName: location.placeName });
  }

  ranked.sort(
    (a, b) =>
      a.match.tier - b.match.tier ||
      a.distance - b.distance ||
      a.kind - b.kind ||
      compareFrench(a.match.name, b.match.name) ||
      a.within - b.within ||
      compareFrench(a.placeName, b.placeName),
  );
  return ranked.map((r) => ({ ...r.match, distance: r.distance }));
}
