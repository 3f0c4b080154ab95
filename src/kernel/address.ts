/**
 * French addresses as citizens type them (docs/api.md, From an address to a collection place): the street-name key
 * used to store and match street rules and the parser that reads a house number, its suffix and a street from free
 * text. Pure functions; no database, no area.
 *
 * Matching, as the lookup is meant to use these keys:
 * 1. `streetKey` of the typed street equals the stored rule's `streetKey` (case, accents, hyphens, apostrophes,
 *    dots and the usual abbreviations do not matter: `r. de l'eglise` = `Rue de l’Église`);
 * 2. else the loose keys are equal: `looseStreetKey` drops the articles (`de`, `du`, `des`, `la`, `l`…), which
 *    citizens type or omit at will (`rue eglise` = `Rue de l’Église`, `impasse tilleuls` = `Impasse des Tilleuls`);
 *    the street's type word stays (a commune may have a `Rue de Brest` and a `Place de Brest`);
 * 3. else a typo or two: trigram similarity in SQL (pg_trgm on the stored key), or `isNearMiss` in code.
 *
 * The number rules of a street and the typo measure are in street-rules.ts.
 */

/**
 * Longest address text the lookup reads; longer is the caller's 400 (docs/api.md, From an address to a collection
 * place).
 */
export const ADDRESS_MAX_LENGTH = 200;

/** Highest house number: four digits (five are a postcode; more are not an address number). */
export const MAX_HOUSE_NUMBER = 9999;

export type HouseNumberSuffix = 'bis' | 'ter' | 'quater';

/** Word tables are Maps: a typed word such as `constructor` must find nothing, not Object.prototype's. */
function dictionary<T>(entries: Record<string, T>): ReadonlyMap<string, T> {
  return new Map(Object.entries(entries));
}

/**
 * Street types and their usual abbreviations (La Poste's and the cadastre's, plus common variants), expanded only
 * as the first word of a street: several are French words elsewhere in a name (`Rue du Lot`, `Chemin du Pas`).
 * Full words map to themselves so that `isTypeWord` knows them.
 */
const TYPE_WORDS: ReadonlyMap<string, string> = dictionary({
  rue: 'rue', r: 'rue',
  avenue: 'avenue', av: 'avenue', ave: 'avenue',
  boulevard: 'boulevard', bd: 'boulevard', bld: 'boulevard', blvd: 'boulevard', bvd: 'boulevard', boul: 'boulevard',
  place: 'place', pl: 'place',
  impasse: 'impasse', imp: 'impasse',
  allee: 'allee', all: 'allee',
  chemin: 'chemin', ch: 'chemin', chem: 'chemin',
  route: 'route', rte: 'route',
  square: 'square', sq: 'square',
  cours: 'cours', crs: 'cours',
  quai: 'quai', qu: 'quai',
  passage: 'passage', pas: 'passage', pass: 'passage',
  residence: 'residence', res: 'residence', resid: 'residence',
  lotissement: 'lotissement', lot: 'lotissement', lotiss: 'lotissement',
  faubourg: 'faubourg', fg: 'faubourg', fbg: 'faubourg',
  hameau: 'hameau', ham: 'hameau',
  esplanade: 'esplanade', esp: 'esplanade',
  promenade: 'promenade', prom: 'promenade',
  sentier: 'sentier', sent: 'sentier',
  montee: 'montee', mte: 'montee',
  venelle: 'venelle', ven: 'venelle',
  cite: 'cite', villa: 'villa', voie: 'voie', quartier: 'quartier', parvis: 'parvis', ruelle: 'ruelle',
  venue: 'venue', carrefour: 'carrefour', rocade: 'rocade', port: 'port', domaine: 'domaine',
});

/** Abbreviations that are no French word, expanded wherever they stand (`Rue St-Martin`, `Rue du Dr Roux`). */
const ANYWHERE_WORDS: ReadonlyMap<string, string> = dictionary({
  st: 'saint', ste: 'sainte', sts: 'saints', stes: 'saintes', fg: 'faubourg', fbg: 'faubourg',
  dr: 'docteur', gal: 'general', gen: 'general', pdt: 'president', cdt: 'commandant', mgr: 'monseigneur',
});

/** Articles and linking words a citizen may type or leave out; dropped by `looseStreetKey`. */
const ARTICLES = new Set(['de', 'du', 'des', 'd', 'la', 'le', 'les', 'l', 'a', 'au', 'aux']);

const MONTHS = new Set([
  'janvier', 'fevrier', 'mars', 'avril', 'mai', 'juin', 'juillet', 'aout', 'septembre', 'octobre', 'novembre', 'decembre',
]);

const SUFFIXES: ReadonlyMap<string, HouseNumberSuffix> = dictionary({
  bis: 'bis', b: 'bis', ter: 'ter', t: 'ter', quater: 'quater', q: 'quater',
});

/** Lowercase, accents and ligatures removed, compatibility forms folded (`ﬁ` → `fi`); punctuation kept. */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/œ/g, 'oe')
    .replace(/æ/g, 'ae')
    .replace(/ß/g, 'ss');
}

/** Folded words of a text: every run of characters other than letters and digits separates words. */
export function words(text: string): string[] {
  return fold(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/**
 * The normalised form of a street name used for storage and matching: lowercase, without accents, hyphens,
 * apostrophes or punctuation (all become spaces), the street type and the usual abbreviations written in full,
 * articles kept. `Bd de l’Europe` → `boulevard de l europe`; `R. St-Martin` → `rue saint martin`. Idempotent.
 */
export function streetKey(name: string): string {
  return words(name)
    .map((word, index) => (index === 0 ? TYPE_WORDS.get(word) : undefined) ?? ANYWHERE_WORDS.get(word) ?? word)
    .join(' ');
}

/** A street key without its articles (`rue de l eglise` → `rue eglise`): the second matching key. */
export function looseStreetKey(key: string): string {
  return key.split(' ').filter((word) => !ARTICLES.has(word)).join(' ');
}

/**
 * A loose key without its leading street type (`rue siam` → `siam`): citizens often leave the type out
 * (`12 siam`); the lookup compares at this level after the full and the loose keys.
 */
export function nameKey(looseKey: string): string {
  const [first, ...rest] = looseKey.split(' ');
  return TYPE_WORDS.has(first) && rest.length > 0 ? rest.join(' ') : looseKey;
}

/** Whether a key holds a name beyond its type word and articles (`rue de` does not; `rue de siam` does). */
function hasName(keyWords: readonly string[]): boolean {
  return keyWords.some((word, index) => !ARTICLES.has(word) && !(index === 0 && TYPE_WORDS.has(word)));
}

export interface ParsedAddress {
  /** House number, 1 to 9999; null when the text has none (or an impossible one: 0, six digits or more). */
  number: number | null;
  suffix: HouseNumberSuffix | null;
  /** The street as typed, trimmed (`r. de siam`). */
  street: string;
  /** `streetKey(street)`. */
  key: string;
}

export interface ParseAddressOptions {
  /** Names of the city's communes: written after or before the street (`… Brest`, `Brest, …`), they are dropped. */
  communeNames?: readonly string[];
}

interface Token {
  text: string;
  /** Folded, without the punctuation at its ends. */
  bare: string;
  /** First token after a comma or semicolon. */
  afterComma: boolean;
}

const NUMBER = /^(\d+)(?:[-/]\d+)?([a-z]*)$/;

/** Reads a house-number token (`12`, `12bis`, `12b`, `12-14`): its digits and attached suffix, else null. */
function readNumber(bare: string): { digits: string; suffix: HouseNumberSuffix | null } | null {
  const match = NUMBER.exec(bare);
  if (!match) return null;
  const letters = match[2];
  // A single other letter (`12A`) is a building letter: the number stands, the letter is not a suffix.
  if (letters.length > 1 && !SUFFIXES.has(letters)) return null;
  return { digits: match[1], suffix: SUFFIXES.get(letters) ?? null };
}

function houseNumber(digits: string): number | null {
  const value = Number(digits);
  return digits.length <= 4 && value >= 1 && value <= MAX_HOUSE_NUMBER ? value : null;
}

/**
 * Reads a free-text address: `12 bis r. de siam`, `12bis rue de Siam`, `12 B rue de Siam`, `12, rue de Siam`,
 * `12-14 rue de Siam` (the first number), `Rue de Siam, 12` (the number after a comma, or last without one unless
 * it ends a date: `Rue du 8 Mai 1945`), `rue de Siam` (no number). A postcode (five digits) and the commune
 * written after it are dropped, as is one of the city's commune names (`options.communeNames`) written last or
 * first (`Brest, rue de Siam`), unless it is the street's own name (`Rue de Brest`). A single other letter after
 * the number (`12 A`) is a building letter, dropped. The caller refuses texts over `ADDRESS_MAX_LENGTH` first.
 */
export function parseAddress(text: string, options: ParseAddressOptions = {}): ParsedAddress {
  let tokens = tokenize(text);
  tokens = dropPostcodes(tokens);
  if (options.communeNames?.length) tokens = dropCommune(tokens, options.communeNames);

  let number: number | null = null;
  let suffix: HouseNumberSuffix | null = null;
  const leading = tokens.length > 0 ? readNumber(tokens[0].bare) : null;
  const nextWord = tokens[1]?.bare;
  if (leading && !(nextWord !== undefined && MONTHS.has(nextWord))) {
    number = houseNumber(leading.digits);
    suffix = number === null ? null : leading.suffix;
    tokens = tokens.slice(1);
    if (number !== null && suffix === null && tokens.length > 0 && SUFFIXES.has(tokens[0].bare) && !tokens[0].afterComma) {
      suffix = SUFFIXES.get(tokens[0].bare) ?? null;
      tokens = tokens.slice(1);
    } else if (number !== null && tokens.length > 0 && !tokens[0].afterComma && /^[a-z]$/.test(tokens[0].bare) && !TYPE_WORDS.has(tokens[0].bare)) {
      tokens = tokens.slice(1); // `12 A rue de Siam`: a building letter
    }
  } else {
    const trailing = readTrailingNumber(tokens);
    if (trailing) {
      number = houseNumber(trailing.digits);
      suffix = number === null ? null : trailing.suffix;
      tokens = tokens.slice(0, trailing.at);
    }
  }

  const street = tokens
    .map((token) => token.text)
    .join(' ')
    .replace(/^[\s.,;:'’-]+|[\s.,;:'’-]+$/g, '');
  return { number, suffix, street, key: streetKey(street) };
}

/** Words of the text with their comma flags; a word of punctuation only (`-`, `n°`) is dropped. */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let afterComma = false;
  for (const piece of text.normalize('NFC').split(/([,;])|\s+/)) {
    if (piece === ',' || piece === ';') afterComma = true;
    if (!piece || piece === ',' || piece === ';') continue;
    const bare = fold(piece).replace(/^n(?:°|o(?=\.?\d))\.?/, '').replace(/^[.'’‘`-]+|[.'’‘`-]+$/g, '');
    if (bare === '') continue;
    tokens.push({ text: piece, bare, afterComma });
    afterComma = false;
  }
  return tokens;
}

/** Drops five-digit postcodes; one written after the street takes the rest of its comma part (the commune) along. */
function dropPostcodes(tokens: Token[]): Token[] {
  const kept: Token[] = [];
  let skipping = false;
  for (const token of tokens) {
    if (token.afterComma) skipping = false;
    if (/^\d{5}$/.test(token.bare)) {
      skipping = kept.length > 0;
      continue;
    }
    if (!skipping) kept.push(token);
  }
  return kept;
}

/** Words compared with commune names, abbreviations written in full: `St-Pol-de-Léon` is `Saint-Pol-de-Léon`. */
export const communeWords = (text: string) => words(text).map((word) => ANYWHERE_WORDS.get(word) ?? word);

/** Whether a folded word begins a street (`rue`, `r`, `av`, `imp`…): what may follow a commune written first. */
export const isStreetTypeWord = (word: string) => TYPE_WORDS.has(word);

/** Whether a folded word is an article or linking word (`de`, `la`, `l`…): a commune name after one is a street's. */
export const isArticle = (word: string) => ARTICLES.has(word);

/** How many tokens from `start` (going forward, or backward when `step` is -1) spell `commune` exactly; 0 if none. */
function communeLength(tokenWords: readonly string[][], commune: readonly string[], start: number, step: 1 | -1): number {
  const spelled: string[] = [];
  for (let i = start, count = 1; i >= 0 && i < tokenWords.length; i += step, count++) {
    if (step === 1) spelled.push(...tokenWords[i]);
    else spelled.unshift(...tokenWords[i]);
    if (spelled.length > commune.length) return 0;
    if (spelled.length === commune.length) return spelled.join(' ') === commune.join(' ') ? count : 0;
  }
  return 0;
}

/**
 * Drops one commune name written last (`… rue de Siam Brest`, `…, Brest`), unless it follows an article (then it
 * is the street's name: `Route de Brest`) or the street would be left without a name; and one written first when a
 * comma or the house number follows it (`Brest, rue de Siam`, `Brest 12 rue de Siam`).
 */
function dropCommune(tokens: Token[], communeNames: readonly string[]): Token[] {
  const communes = communeNames.map(communeWords).filter((name) => name.length > 0);
  communes.sort((a, b) => b.length - a.length); // `Saint-Pol-de-Léon` before a `Léon`
  const tokenWords = tokens.map((token) => communeWords(token.text));
  const named = (rest: Token[]) =>
    hasName(streetKey(rest.map((token) => token.text).join(' ')).split(' ').filter((word) => !/^\d/.test(word)));
  for (const commune of communes) {
    const last = communeLength(tokenWords, commune, tokens.length - 1, -1);
    const start = tokens.length - last;
    if (last === 0 || start === 0) continue;
    const before = tokenWords[start - 1].at(-1);
    if (!tokens[start].afterComma && before !== undefined && ARTICLES.has(before)) continue;
    if (named(tokens.slice(0, start))) return tokens.slice(0, start);
  }
  for (const commune of communes) {
    const first = communeLength(tokenWords, commune, 0, 1);
    const next = tokens[first];
    if (first === 0 || next === undefined || !(next.afterComma || readNumber(next.bare))) continue;
    if (named(tokens.slice(first))) return tokens.slice(first);
  }
  return tokens;
}

/** The number written after the street (`Rue de Siam, 12 bis`), with the index where it starts. */
function readTrailingNumber(tokens: Token[]): { digits: string; suffix: HouseNumberSuffix | null; at: number } | null {
  let at = tokens.length - 1;
  if (at < 1) return null;
  let suffixWord: HouseNumberSuffix | null = null;
  if (SUFFIXES.has(tokens[at].bare) && !tokens[at].afterComma && readNumber(tokens[at - 1].bare)) {
    suffixWord = SUFFIXES.get(tokens[at].bare) ?? null;
    at -= 1;
  }
  const read = readNumber(tokens[at].bare);
  if (!read || at < 1) return null;
  const previous = tokens[at - 1].bare;
  // Without a comma, a date in the street's name is no house number (`Rue du 8 Mai 1945`, `Place du 19 Mars 1962`).
  if (!tokens[at].afterComma && (MONTHS.has(previous) || ARTICLES.has(previous) || readNumber(previous))) return null;
  if (!hasName(streetKey(tokens.slice(0, at).map((token) => token.text).join(' ')).split(' '))) return null;
  return { digits: read.digits, suffix: suffixWord ?? read.suffix, at };
}

/**
 * Street types that begin an address inside a sentence (`j'habite au 12 rue de Siam`): the full words and the
 * abbreviations that are no everyday French word (`pas`, `port`, `all` are left out).
 */
const SENTENCE_TYPE_WORDS = new Set([
  'rue', 'avenue', 'av', 'boulevard', 'bd', 'place', 'impasse', 'imp', 'allee', 'chemin', 'route', 'rte', 'square', 'cours',
  'quai', 'passage', 'residence', 'lotissement', 'faubourg', 'hameau', 'esplanade', 'promenade', 'sentier', 'venelle',
  'cite', 'villa', 'voie', 'parvis', 'ruelle', 'montee',
]);

/**
 * The addresses a sentence may hold, longest first: from a street type word (with the house number just before it,
 * if any) to the end of its clause, then one word shorter each time (`12 rue de Siam et le verre`, `12 rue de Siam
 * et le`, …, `12 rue de Siam`, `12 rue de`), down to the type word and one more. The caller keeps the first that
 * names a street it knows. Empty when the sentence has no street type word.
 */
export function addressesIn(sentence: string): string[] {
  // Clauses end at ? ! ; : or a new line, and at a full stop before a capital unless it ends an abbreviation
  // (`r. Jean-Jaurès`, `av. Foch`, `St. Marc`).
  const clauses = sentence.split(/[?!;:\n]|(?<!(?:^|[\s'’])(?:r|av|bd|bvd|pl|imp|rte|sq|qu|ch|all|fg|st|ste|dr|gal|pdt|cdt|mgr))\.\s+(?=\p{Lu})/iu);
  const found: string[] = [];
  for (const clause of clauses) {
    const raw = clause.trim().split(/\s+/).filter(Boolean);
    const folded = raw.map((word) => fold(word).replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '').replace(/^(?:l|d|j|qu)['’]/, ''));
    const at = folded.findIndex((word, i) => SENTENCE_TYPE_WORDS.has(word) || /^r\.$/i.test(raw[i]));
    if (at < 0) continue;
    let start = at;
    // `12 rue`, `12 bis rue`, `12bis rue`, `12, rue`: the number goes with the street.
    if (start > 0 && SUFFIXES.has(folded[start - 1]) && start > 1 && readNumber(folded[start - 2])) start -= 2;
    else if (start > 0 && readNumber(folded[start - 1])) start -= 1;
    for (let end = raw.length; end >= at + 2; end--) found.push(raw.slice(start, end).join(' '));
  }
  return found;
}
