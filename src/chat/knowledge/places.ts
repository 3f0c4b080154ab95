import { addressesIn, parseAddress } from '../../kernel/address.ts';
import { addressIndex, matchAddress, type AddressMatch } from '../../domain/address-match.ts';
import { contentTokens, hasWord, wordMatches } from '../text-match.ts';
import { PLACE_WORDS } from '../lexicon.ts';
import type { CityKnowledge, Place } from './model.ts';

/** The collection place a message names: by the place's name or one of its streets, or by an address of its rules. */

/** Words that only say what kind of place it is ("Rue …", "Quartier …", "Centre-ville"). */
const PLACE_KIND_WORDS = new Set(PLACE_WORDS.kindWords);

/**
 * Words of place names that also belong to everyday speech or to the assistant's own subject: alone, they
 * are no evidence of a place ("la capitale de la France" is not "Rue Anatole France", "prochain passage" is
 * not "Le Passage"). A name made only of such words is recognized when given in full, or in context.
 */
const COMMON_PLACE_WORDS = new Set(PLACE_WORDS.commonWords);

/** Words around a place given alone ("j'habite au bourg", "c'est le secteur 2"). */
const PLACE_FILLER = new Set(PLACE_WORDS.filler);

/**
 * "Saint-Marc", "St Martin", "Centre-ville": one word ("saintmarc"), so that neither "saint" nor "marc de café"
 * alone names it.
 */
function placeTokens(text: string): string[] {
  const tokens = contentTokens(text);
  const merged: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if ((t === 'saint' || t === 'sainte' || t === 'st' || t === 'ste') && i + 1 < tokens.length) {
      merged.push(`saint${tokens[++i]}`);
    } else if (t === 'centre' && tokens[i + 1] === 'ville') {
      merged.push(`centre${tokens[++i]}`);
    } else {
      merged.push(t);
    }
  }
  return merged;
}

/** Place and street names are proper nouns: a typo is forgiven only in a long one ("Lambezelec"). */
const placeWordIn = (typed: string[], word: string) => typed.includes(word) || (word.length >= 7 && hasWord(typed, word));

interface NameMatch {
  score: number;
  /** The name holds no distinctive word: it counts only in context or given alone. */
  weak: boolean;
  /** The typed words the name accounts for. */
  used: Set<string>;
}

function nameMatch(typed: string[], name: string): NameMatch | null {
  const core = placeTokens(name).filter((w) => w.length >= 3 && !PLACE_KIND_WORDS.has(w));
  if (core.length === 0) return null;
  const rare = core.filter((w) => !COMMON_PLACE_WORDS.has(w));
  const hits = core.filter((w) => placeWordIn(typed, w));
  const used = new Set(typed.filter((t) => core.some((w) => t === w || (w.length >= 7 && wordMatches(t, w)))));
  if (hits.length === core.length) return { score: 2 + core.length, weak: rare.length === 0, used };
  const rareHits = rare.filter((w) => hits.includes(w)).length;
  if (rareHits > 0) return { score: rareHits, weak: false, used };
  // "Hameaux et écarts": a name without a distinctive word may be given in part, when the context is a place.
  return rare.length === 0 && hits.length > 0 ? { score: hits.length / 2, weak: true, used } : null;
}

export interface PlaceMatch {
  place: Place;
  /** Higher for a full name or street than for one distinctive word. */
  score: number;
  /** Only words common in everyday speech matched: trust it only when a place is expected. */
  weak: boolean;
  /** The message says nothing but the place ("Bourg", "rue de Siam"). */
  alone: boolean;
}

/**
 * The collection place a text names, by the place's own name or one of its streets (attached locations),
 * or null when none or several fit equally. A place matches by its distinctive words only: "de", "la",
 * "saint" or "France" alone name no place.
 */
export function placeMentioned(knowledge: CityKnowledge, text: string): PlaceMatch | null {
  const typed = placeTokens(text);
  let best: { place: Place; match: NameMatch } | null = null;
  let tie = false;
  for (const place of knowledge.city.wasteCollectionPlaces) {
    for (const name of [place.name, ...place.attachedLocations.map((l) => l.name)]) {
      const match = nameMatch(typed, name);
      if (!match) continue;
      const better = !best || match.score > best.match.score || (match.score === best.match.score && best.match.weak && !match.weak);
      if (better) {
        best = { place, match };
        tie = false;
      } else if (best && best.place.id !== place.id && match.score === best.match.score && match.weak === best.match.weak) {
        tie = true;
      }
    }
  }
  if (!best || tie) return null;
  const rest = typed.filter((t) => !best.match.used.has(t) && !PLACE_KIND_WORDS.has(t) && !PLACE_FILLER.has(t));
  return { place: best.place, score: best.match.score, weak: best.match.weak, alone: rest.length === 0 };
}

/** An address a message gives: the one place it is in, or the places sharing its street when it has no number. */
export type AddressMention = ({ place: Place } | { shared: AddressMatch<Place>[] }) & {
  /** The stretch of the message that is the address. */
  text: string;
};

/**
 * The address a message holds (`j'habite au 12 rue de Siam`), matched as GET /public/places/lookup matches one
 * (domain/address-match.ts) on the city's street rules and attached locations, streets begun aside: the longest
 * stretch of the sentence from a street type word that names a known street (a typo or two tolerated). Null when
 * the message names no street of the city.
 */
export function addressMentioned(knowledge: CityKnowledge, text: string, options: { residence?: boolean } = {}): AddressMention | null {
  const candidates = addressesIn(text);
  if (candidates.length === 0) return null;
  const places = new Map(knowledge.city.wasteCollectionPlaces.map((p) => [p.id, p]));
  const rules = knowledge.streets.flatMap((rule) => {
    const place = places.get(rule.placeId);
    return place ? [{ ...rule, place, placeName: place.name }] : [];
  });
  const locations = knowledge.city.wasteCollectionPlaces.flatMap((place) =>
    place.attachedLocations.map((l) => ({ place, placeId: place.id, placeName: place.name, name: l.name })),
  );
  const index = addressIndex(rules, locations);
  for (const candidate of candidates) {
    const matches = matchAddress(parseAddress(candidate, { communeNames: [knowledge.city.name] }), index, { prefixes: false });
    if (matches.length === 0) continue;
    // A name of everyday words only (« Le Passage ») is no address in « prochain passage des déchets verts »: it
    // needs a distinctive word of the message, a house number, or to be given as where the citizen lives.
    const typed = contentTokens(candidate);
    const distinctive = (name: string) => placeTokens(name).some((w) => w.length >= 3 && !PLACE_KIND_WORDS.has(w) && !COMMON_PLACE_WORDS.has(w) && typed.includes(w));
    if (!/\d/.test(candidate) && !options.residence && !distinctive(matches[0].name)) continue;
    const best = matches.filter((m) => m.tier === matches[0].tier && m.name === matches[0].name);
    const ids = new Set(best.map((m) => m.place.id));
    return ids.size === 1 ? { place: best[0].place, text: candidate } : { shared: best, text: candidate };
  }
  return null;
}
