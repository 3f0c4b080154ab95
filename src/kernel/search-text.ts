/**
 * Matching what citizens type against the names of things (materials, their synonyms, waste types): accents, case,
 * punctuation and plurals folded, linking words ignored, word order free, a typo or two tolerated. Pure functions; the
 * folding is the address matcher's (`words` of address.ts) and the typo measure the street matcher's (street-rules.ts),
 * so a word is folded and forgiven the same way wherever a citizen types it.
 */
import { words } from './address.ts';
import { editDistance, typoAllowance } from './street-rules.ts';

/** Crude French plural stripping: "bouteilles" -> "bouteille", "journaux" -> "journau" (consistent on both sides). */
export function stem(word: string): string {
  if (word.length > 3 && /[sx]$/.test(word) && !/ss$/.test(word)) return word.slice(0, -1);
  return word;
}

/** `stem`, with the `-aux` plural of `-al` words brought back to it ("journaux" -> "journal", like "Journal"). */
export function singular(word: string): string {
  if (word.length > 4 && word.endsWith('aux')) return `${word.slice(0, -3)}al`;
  return stem(word);
}

/**
 * Words that name nothing a citizen throws away: articles, prepositions, and the verbs of "où jeter … ?". Dropped
 * from both sides, so `pot de yaourt` is `pot yaourt` and `Huile de vidange` is `huile vidange`.
 */
const LINKING_WORDS = new Set([
  'a', 'au', 'aux', 'avec', 'd', 'de', 'des', 'du', 'en', 'et', 'l', 'la', 'le', 'les', 'ou', 'par', 'pour', 'sans',
  'sur', 'dans', 'un', 'une', 'mon', 'ma', 'mes', 'ce', 'ces', 'cet', 'cette', 'je', 'j', 'on', 'il', 'est', 'que', 'qu',
  'comment', 'faut', 'peut', 'jeter', 'jete', 'jette', 'recycler', 'trier', 'mettre', 'met',
]);

/** The folded singular words of a text that carry its meaning (all of them when it holds only linking words). */
export function meaningfulWords(text: string): string[] {
  const all = words(text);
  const kept = all.filter((word) => !LINKING_WORDS.has(word));
  return (kept.length > 0 ? kept : all).map(singular);
}

/** Longest query kept by the search counts (characters of its normalised form). */
export const COUNTED_QUERY_MAX_LENGTH = 100;

/**
 * A query as the search counts keep it: folded (case, accents), punctuation gone, words as typed (plurals kept, so the
 * city sees what its citizens write), one space between them, at most COUNTED_QUERY_MAX_LENGTH characters.
 */
export function normalisedQuery(text: string): string {
  return words(text).join(' ').slice(0, COUNTED_QUERY_MAX_LENGTH).trim();
}

/** A name prepared once for every search: its keys for exact matching, its words, its heads, its trigrams. */
export interface SearchableText {
  /** `meaningfulWords` joined: of the whole text, and of the text without its parentheses (`Café (marc)` -> `cafe`). */
  keys: string[];
  /** Meaningful words of the whole text, parentheses included. */
  words: string[];
  /**
   * The words that say what the thing is: the first meaningful word outside parentheses, and the first after each
   * « et » / « ou » (`Bocal ou pot en verre` -> `bocal`, `pot`). The other words qualify it: a query naming only them
   * names something else (`vaisselle` is not what « Lave-vaisselle » is).
   */
  heads: string[];
  /** Trigrams of each head, in `heads`' order. */
  headTrigrams: Set<string>[];
  trigrams: Set<string>;
}

/** Trigrams of words as pg_trgm makes them: each word padded with two spaces before and one after. */
function trigramsOf(textWords: readonly string[]): Set<string> {
  const grams = new Set<string>();
  for (const word of textWords) {
    const padded = `  ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  }
  return grams;
}

/** The heads of a text (SearchableText.heads): never empty when the text has a meaningful word. */
function headsOf(text: string): string[] {
  const heads: string[] = [];
  let expecting = true;
  for (const word of words(text.replace(/\([^)]*\)?/g, ' '))) {
    if (word === 'et' || word === 'ou') expecting = true;
    else if (expecting && !LINKING_WORDS.has(word)) {
      heads.push(singular(word));
      expecting = false;
    }
  }
  return heads.length > 0 ? heads : meaningfulWords(text).slice(0, 1);
}

export function searchableText(text: string): SearchableText {
  const textWords = meaningfulWords(text);
  const keys = [textWords.join(' ')];
  const bare = text.replace(/\([^)]*\)?/g, ' ');
  if (bare !== text) {
    const bareKey = meaningfulWords(bare).join(' ');
    if (bareKey !== '' && bareKey !== keys[0]) keys.push(bareKey);
  }
  const heads = headsOf(text);
  return { keys, words: textWords, heads, headTrigrams: heads.map((head) => trigramsOf([head])), trigrams: trigramsOf(textWords) };
}

/**
 * How a query matched a name, best first: the same words (`exact`); every query word among the name's (`words`); every
 * query word a typo away from, or the start of, one of the name's (`near`); some of several query words found so
 * (`partial`, with how many); or only enough trigrams in common (`similar`). `head`: a query word reads as one of the
 * name's heads, i.e. the query names what the thing is, not only what qualifies it.
 */
export type TextMatch =
  | { kind: 'exact' }
  | { kind: 'words'; head: boolean; extraWords: number }
  | { kind: 'near'; head: boolean; cost: number; extraWords: number }
  | { kind: 'partial'; head: boolean; found: number; cost: number; extraWords: number; similarity: number }
  | { kind: 'similar'; similarity: number };

/** Least trigram similarity for `similar` (pg_trgm's default threshold). */
export const SIMILARITY_THRESHOLD = 0.3;
/** Shortest typed word read as the start of a longer one (`frig` for `frigo`; `po` is too short to mean anything). */
const PREFIX_MIN_LENGTH = 3;

/** What reading `typed` as `known` costs: 0 the same word, 1 a start of it, the typos within the allowance; null too far. */
function wordCost(typed: string, known: string): number | null {
  if (typed === known) return 0;
  if (typed.length >= PREFIX_MIN_LENGTH && known.startsWith(typed)) return 1;
  // Allowance by what the citizen typed: a typo adds letters as often as it removes them (`pille` for `pile`).
  const allowed = typoAllowance(typed);
  if (allowed === 0) return null;
  const distance = editDistance(typed, known, allowed);
  return distance <= allowed ? distance : null;
}

/** A query prepared once per search. */
export interface SearchQuery {
  key: string;
  words: string[];
  /** Trigrams of each word, in `words`' order. */
  wordTrigrams: Set<string>[];
  trigrams: Set<string>;
}

export function searchQuery(text: string): SearchQuery {
  const queryWords = meaningfulWords(text);
  return {
    key: queryWords.join(' '),
    words: queryWords,
    wordTrigrams: queryWords.map((word) => trigramsOf([word])),
    trigrams: trigramsOf(queryWords),
  };
}

/** The cheapest reading of `typed` as one of `known`, or null when none is close enough. */
function bestCost(typed: string, known: readonly string[]): number | null {
  let best: number | null = null;
  for (const word of known) {
    const c = wordCost(typed, word);
    if (c !== null && (best === null || c < best)) best = c;
    if (best === 0) break;
  }
  return best;
}

/**
 * What reading every query word as one of `known` costs (0 when all are among them), or null when one is not close
 * to any: how a text other than a name (a description) is matched.
 */
export function wordsCost(query: SearchQuery, known: readonly string[]): number | null {
  if (query.words.length === 0 || known.length === 0) return null;
  let cost = 0;
  for (const word of query.words) {
    const c = bestCost(word, known);
    if (c === null) return null;
    cost += c;
  }
  return cost;
}

/**
 * Least trigram similarity of a typed word to a head for the query to name that head (`vere`, too short for a
 * forgiven typo, names « Verre »; `miro` « Micro-ondes »): a looser reading than wordCost's, used only to tell what a
 * query names, never to count a word as found.
 */
const HEAD_SIMILARITY = 0.35;

function readsAsHead(query: SearchQuery, i: number, target: SearchableText): boolean {
  if (bestCost(query.words[i], target.heads) !== null) return true;
  return target.headTrigrams.some((grams) => trigramSimilarity(query.wordTrigrams[i], grams) >= HEAD_SIMILARITY);
}

/** How `query` matches `target`, or null when it does not. */
export function matchText(query: SearchQuery, target: SearchableText): TextMatch | null {
  if (query.words.length === 0) return null;
  if (target.keys.includes(query.key)) return { kind: 'exact' };
  const extraWords = Math.max(0, target.words.length - query.words.length);
  const head = query.words.some((_, i) => readsAsHead(query, i, target));
  if (query.words.every((word) => target.words.includes(word))) return { kind: 'words', head, extraWords };
  let cost = 0;
  let found = 0;
  for (const word of query.words) {
    const c = bestCost(word, target.words);
    if (c === null) continue;
    found++;
    cost += c;
  }
  if (found === query.words.length) return { kind: 'near', head, cost, extraWords };
  const similarity = trigramSimilarity(query.trigrams, target.trigrams);
  if (found > 0) return { kind: 'partial', head, found, cost, extraWords: Math.max(0, target.words.length - found), similarity };
  return similarity >= SIMILARITY_THRESHOLD ? { kind: 'similar', similarity } : null;
}

/** Shared trigrams over all trigrams of either (pg_trgm's `similarity`). */
export function trigramSimilarity(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const gram of a) if (b.has(gram)) shared++;
  return shared / (a.size + b.size - shared);
}
