import { communeWords, isArticle, isStreetTypeWord, words } from '../kernel/address.ts';
import { compareFrench } from '../kernel/french.ts';
import { editDistance } from '../kernel/street-rules.ts';

/**
 * Which communes a citizen's text names (docs/api.md, finding one's commune or address without choosing a commune):
 * the matcher behind GET /public/search/communes and the commune read from an address typed on the home screen.
 * Pure: the caller says which communes the service covers (tens to a few thousand) and what a commune is (`C`).
 *
 * Names are compared folded (case, accents, hyphens, apostrophes aside, `St`/`Ste` written in full) and without
 * their spaces (`le relecq kerhuon` = `Le Relecq-Kerhuon`). Tiers, best first:
 *   0. the same name, or the same without its article (`relecq kerhuon`), or one of its postcodes (`29200`);
 *   1. a name begun (`plouz`), a postcode begun (`292`), when asked (suggestions while typing);
 *   2. a later word of the name begun (`kerhuon`, `daoulas`), when asked;
 *   3. a typo or two: Damerau-Levenshtein (optimal string alignment) distance at most one for a text of 4 to 7
 *      letters, two from 8 (`brst`, `brets`, `plouzanne`); none under 4 letters, where one letter changes the word;
 *   4. a name begun with a typo (`plouzn`), when asked.
 */

export interface CommuneEntry<C> {
  commune: C;
  name: string;
  /** Five-digit postcodes. */
  postcodes: readonly string[];
}

export interface CommuneMatch<C> {
  commune: C;
  name: string;
  /** The tier above (0 best). */
  tier: number;
  /** Typo distance within tiers 3 and 4, else 0. */
  distance: number;
}

interface Indexed<C> {
  entry: CommuneEntry<C>;
  /** The folded name without spaces: `lerelecqkerhuon`. */
  compact: string;
  /** The same without a leading article: `relecqkerhuon` (equal to `compact` when there is none). */
  bare: string;
  /** The compact name from each later word on: `relecqkerhuon`, `kerhuon`. */
  tails: string[];
}

/** A service's communes with their keys computed once: what matchCommunes reads. */
export interface CommuneIndex<C> {
  entries: Indexed<C>[];
}

const POSTCODE = /^\d{5}$/;

/** Fewest letters of name a typo is tolerated in. */
const TYPO_MIN_LENGTH = 4;

/** Typos tolerated in a typed name of `length` letters: none under 4, one under 8, two from there. */
export function communeTypoAllowance(length: number): number {
  return length < TYPO_MIN_LENGTH ? 0 : length < 8 ? 1 : 2;
}

export function communeIndex<C>(entries: readonly CommuneEntry<C>[]): CommuneIndex<C> {
  return {
    entries: entries.map((entry) => {
      const nameWords = communeWords(entry.name);
      const bareWords = nameWords.length > 1 && isArticle(nameWords[0]) ? nameWords.slice(1) : nameWords;
      return {
        entry,
        compact: nameWords.join(''),
        bare: bareWords.join(''),
        tails: nameWords.slice(1).map((_, i) => nameWords.slice(i + 1).join('')),
      };
    }),
  };
}

export interface CommuneMatchOptions {
  /** Whether a name begun matches (tiers 1, 2 and 4): yes for suggestions, no for a commune read from an address. */
  prefixes: boolean;
}

function tierOf<C>(typed: string, c: Indexed<C>, options: CommuneMatchOptions): { tier: number; distance: number } | null {
  if (typed === c.compact || typed === c.bare) return { tier: 0, distance: 0 };
  if (options.prefixes && (c.compact.startsWith(typed) || c.bare.startsWith(typed))) return { tier: 1, distance: 0 };
  if (options.prefixes && typed.length >= 2 && c.tails.some((tail) => tail.startsWith(typed))) return { tier: 2, distance: 0 };
  const allowed = communeTypoAllowance(typed.length);
  if (allowed === 0) return null;
  const whole = Math.min(editDistance(typed, c.compact, allowed), editDistance(typed, c.bare, allowed));
  if (whole <= allowed) return { tier: 3, distance: whole };
  if (!options.prefixes) return null;
  // The name begun, a typo in it: the typed text against the name's start of the same length, give or take one.
  let begun = allowed + 1;
  for (const name of [c.compact, c.bare]) {
    for (let length = typed.length - 1; length <= typed.length + 1; length++) {
      if (length < TYPO_MIN_LENGTH || length >= name.length) continue;
      begun = Math.min(begun, editDistance(typed, name.slice(0, length), allowed));
    }
  }
  return begun <= allowed ? { tier: 4, distance: begun } : null;
}

/** Communes a text names, best first: by tier, typo distance, then name. A text of digits is read as a postcode. */
export function matchCommunes<C>(text: string, index: CommuneIndex<C>, options: CommuneMatchOptions): CommuneMatch<C>[] {
  const typedWords = communeWords(text);
  const postcodes = typedWords.filter((word) => /^\d+$/.test(word));
  const nameWords = typedWords.filter((word) => !/^\d+$/.test(word));
  const found: CommuneMatch<C>[] = [];
  if (nameWords.length === 0) {
    // Digits only: a postcode, whole or (for suggestions) begun from two digits.
    const code = postcodes.join('');
    if (postcodes.length !== 1 || code.length > 5 || (code.length < 5 && (!options.prefixes || code.length < 2))) return [];
    for (const c of index.entries) {
      if (c.entry.postcodes.includes(code)) found.push({ commune: c.entry.commune, name: c.entry.name, tier: 0, distance: 0 });
      else if (c.entry.postcodes.some((p) => p.startsWith(code))) found.push({ commune: c.entry.commune, name: c.entry.name, tier: 1, distance: 0 });
    }
  } else {
    const typed = nameWords.join('');
    // A postcode beside the name (`29200 Brest`) keeps only the communes it belongs to, when some do.
    const code = postcodes.find((p) => POSTCODE.test(p));
    for (const c of index.entries) {
      const matched = tierOf(typed, c, options);
      if (matched) found.push({ commune: c.entry.commune, name: c.entry.name, ...matched });
    }
    if (code !== undefined) {
      const withCode = found.filter((m) => index.entries.find((c) => c.entry.commune === m.commune)?.entry.postcodes.includes(code));
      if (withCode.length > 0) return sortMatches(withCode);
    }
  }
  return sortMatches(found);
}

function sortMatches<C>(found: CommuneMatch<C>[]): CommuneMatch<C>[] {
  return found.sort((a, b) => a.tier - b.tier || a.distance - b.distance || compareFrench(a.name, b.name));
}

/** What `readCommune` finds in an address: the communes it names (best first) and the address without them. */
export interface CommuneInAddress<C> {
  communes: C[];
  /** The text left once the commune and its postcode are taken out (`12 rue jean jaures`). */
  rest: string;
}

/** Longest commune name read from an address, in words (`Saint-Thégonnec Loc-Eguiner` holds four). */
const COMMUNE_MAX_WORDS = 5;

interface Piece {
  text: string;
  /** Folded words (`l'aber` → `l`, `aber`). */
  words: string[];
  afterComma: boolean;
}

function piecesOf(text: string): Piece[] {
  const pieces: Piece[] = [];
  let afterComma = false;
  for (const raw of text.split(/([,;])|\s+/)) {
    if (raw === ',' || raw === ';') afterComma = true;
    if (!raw || raw === ',' || raw === ';') continue;
    const pieceWords = words(raw);
    if (pieceWords.length === 0) continue;
    pieces.push({ text: raw, words: pieceWords, afterComma });
    afterComma = false;
  }
  return pieces;
}

const isNumber = (piece: Piece | undefined) => piece !== undefined && /^\d{1,4}[a-z]*$/.test(piece.words.join(''));

/** Whether pieces still hold a street's name: a word of letters beyond the house number, street type and articles. */
function namesStreet(pieces: readonly Piece[]): boolean {
  const all = pieces.flatMap((piece) => piece.words);
  let i = 0;
  while (i < all.length && (/^\d/.test(all[i]) || /^(?:bis|ter|quater|[a-z])$/.test(all[i]))) i++;
  if (i < all.length && isStreetTypeWord(all[i])) i++;
  return all.slice(i).some((word) => /\p{L}/u.test(word) && !isArticle(word));
}

/**
 * The commune an address names, by its postcode (`29200`) or its name written last (`12 rue Jean Jaurès Brest`,
 * `…, brst`) or first (`Brest, 12 rue de Siam`, `Brest 12 rue de Siam`, `Brest rue de Siam`), a typo or two aside;
 * null when it names none. A name after an article is the street's (`Rue de Brest`), as is one that would leave no
 * street. Several communes when the postcode or a typo leaves a doubt (`29860`), best first.
 */
export function readCommune<C>(text: string, index: CommuneIndex<C>): CommuneInAddress<C> | null {
  let pieces = piecesOf(text);
  let byCode: C[] | null = null;
  // A postcode, and a commune's name written right after it (`29200 Brest`), with or without a comma.
  const at = pieces.findIndex((piece) => piece.words.length === 1 && POSTCODE.test(piece.words[0]));
  if (at >= 0) {
    const code = pieces[at].words[0];
    byCode = index.entries.filter((c) => c.entry.postcodes.includes(code)).map((c) => c.entry.commune);
    pieces = [...pieces.slice(0, at), ...pieces.slice(at + 1)];
  }
  const named = namedCommune(pieces, index);
  if (named) {
    const communes = byCode?.length ? named.communes.filter((c) => byCode.includes(c)) : named.communes;
    // A name and a postcode that disagree: the name, written in full, says more than five digits.
    return { communes: communes.length > 0 ? communes : named.communes, rest: named.rest };
  }
  if (byCode === null || byCode.length === 0) return null;
  return { communes: byCode, rest: pieces.map((piece) => piece.text).join(' ') };
}

function namedCommune<C>(pieces: Piece[], index: CommuneIndex<C>): CommuneInAddress<C> | null {
  const spelled = (span: readonly Piece[]) => span.map((piece) => piece.text).join(' ');
  const matches = (span: readonly Piece[]) => {
    // A commune's name holds no digit: a span with the house number is no commune (`Brest, 12`).
    if (span.some((piece) => piece.words.some((word) => /\d/.test(word)))) return [];
    const found = matchCommunes(spelled(span), index, { prefixes: false });
    const best = found[0];
    return best ? found.filter((m) => m.tier === best.tier && m.distance === best.distance).map((m) => m.commune) : [];
  };
  const most = Math.min(COMMUNE_MAX_WORDS, pieces.length - 1);
  // Written last: the longest name first (`Saint Pabu` before a `Pabu`).
  for (let count = most; count >= 1; count--) {
    const start = pieces.length - count;
    const before = pieces[start - 1];
    if (!pieces[start].afterComma && isArticle(before.words.at(-1)!)) continue;
    const rest = pieces.slice(0, start);
    if (!namesStreet(rest)) continue;
    const communes = matches(pieces.slice(start));
    if (communes.length > 0) return { communes, rest: spelled(rest) };
  }
  // Written first, followed by a comma, the house number or a street type.
  for (let count = most; count >= 1; count--) {
    const next = pieces[count];
    if (!(next.afterComma || isNumber(next) || isStreetTypeWord(next.words[0]))) continue;
    const rest = pieces.slice(count);
    if (!namesStreet(rest)) continue;
    const communes = matches(pieces.slice(0, count));
    if (communes.length > 0) return { communes, rest: spelled(rest) };
  }
  return null;
}
