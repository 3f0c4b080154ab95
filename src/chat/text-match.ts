/**
 * Forgiving French text matching for the built-in assistant: citizens type on phones, without accents,
 * with plurals and typos. Both the citizen's text and the city's data go through the same normalization,
 * so a rule such as plural stripping only has to be consistent, not linguistically perfect.
 */
import { stem } from '../kernel/search-text.ts';

/**
 * Texts already normalized, up to NORMALIZED_KEPT: one answer reads the same message and the city's same names many
 * times over. Only short texts are kept (a citizen's message as the assistant reads it, names, questions).
 */
const normalized = new Map<string, string>();
const NORMALIZED_KEPT = 4096;
const NORMALIZED_LONGEST = 1000;

/** Lowercase, accents and punctuation removed, apostrophes split ("l'huile" -> "l huile"), spaces collapsed. */
export function normalizeText(text: string): string {
  const known = normalized.get(text);
  if (known !== undefined) return known;
  const result = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/œ/g, 'oe')
    .replace(/æ/g, 'ae')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  if (text.length <= NORMALIZED_LONGEST) {
    if (normalized.size >= NORMALIZED_KEPT) normalized.clear();
    normalized.set(text, result);
  }
  return result;
}

// The plural stripping is the kernel's, shared with the sorting guide's search.
export { stem };

/** Normalized, stemmed words of a text. */
export function tokenize(text: string): string[] {
  const normalized = normalizeText(text);
  return normalized === '' ? [] : normalized.split(' ').map(stem);
}

/** Words that carry no meaning for matching a material, a place or a waste type. */
export const STOPWORDS = new Set(
  [
    'a', 'au', 'aux', 'avec', 'ce', 'ces', 'cet', 'cette', 'ca', 'd', 'dans', 'de', 'des', 'du', 'elle', 'en', 'est',
    'et', 'il', 'j', 'je', 'l', 'la', 'le', 'les', 'leur', 'lui', 'm', 'ma', 'me', 'mes', 'mon', 'n', 'ne', 'nous',
    'on', 'ou', 'par', 'pas', 'pour', 'qu', 'que', 'quel', 'quelle', 'qui', 'quoi', 's', 'sa', 'se', 'ses', 'si',
    'son', 'sur', 't', 'ta', 'te', 'tes', 'ton', 'tu', 'un', 'une', 'vous', 'y', 'vos', 'nos', 'votre', 'notre', 'sont',
    'suis', 'ai', 'as', 'avez', 'ont', 'faut', 'peut', 'peux', 'puis', 'doit', 'dois', 'comment', 'quand',
    'bonjour', 'merci', 'svp', 'plait', 'stp', 'c', 'moi', 'sais', 'savoir', 'voudrais', 'aimerais', 'il', 'mettre',
    'jeter', 'jette', 'met', 'va', 'vont', 'aller', 'chez', 'estce', 'cela', 'ceci',
  ].map(stem),
);

/** Content words of a text: tokens minus stop words. */
export function contentTokens(text: string): string[] {
  return tokenize(text).filter((t) => !STOPWORDS.has(t));
}

/** Three rows of the distance table, reused by every call (the assistant compares thousands of word pairs per message). */
let rows = new Int32Array(64);

/**
 * Damerau-Levenshtein distance (optimal string alignment), stopping early past `max`: `max + 1` means "more
 * than max". Only the band of cells within `max` of the diagonal is computed, so a bounded comparison costs
 * a few operations per letter and allocates nothing.
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  // No distance exceeds the longer length: that bound makes an unbounded call a full table.
  const limit = Math.min(max, Math.max(a.length, b.length));
  const width = b.length + 1;
  if (rows.length < 3 * width) rows = new Int32Array(3 * width * 2);
  const far = limit + 1;
  let before = 0; // row i - 2
  let previous = width; // row i - 1
  let current = 2 * width; // row i
  for (let j = 0; j < width; j++) rows[previous + j] = j <= limit ? j : far;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - limit);
    const to = Math.min(b.length, i + limit);
    rows[current + from - 1] = from === 1 ? i : far;
    let rowMin = from === 1 ? i : far;
    for (let j = from; j <= to; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(rows[previous + j] + 1, rows[current + j - 1] + 1, rows[previous + j - 1] + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
        d = Math.min(d, rows[before + j - 2] + 1);
      }
      rows[current + j] = d;
      if (d < rowMin) rowMin = d;
    }
    // The cell right of the band is read by the next row: beyond reach.
    if (to < b.length) rows[current + to + 1] = far;
    if (rowMin > limit) return max + 1;
    [before, previous, current] = [previous, current, before];
  }
  const distance = rows[previous + b.length];
  return distance > limit ? max + 1 : distance;
}

/** How many typos a word of this length may carry: none under 5 letters, 1 from 5, 2 from 8. */
export function allowedTypos(word: string): number {
  return word.length >= 8 ? 2 : word.length >= 5 ? 1 : 0;
}

/**
 * Everyday French words that are one letter away from a word of the data ("toute" / "tonte", "verte" /
 * "verre", "porte" / "poste"): typed as such, they are meant as such and are never read as a typo.
 */
const REAL_WORDS = new Set(
  [
    'toute', 'toutes', 'tout', 'tous', 'verte', 'vertes', 'autre', 'autres', 'notre', 'votre', 'comme', 'avant',
    'apres', 'entre', 'cette', 'celle', 'celui', 'merci', 'bonne', 'faire', 'porte', 'poste', 'carte', 'quand',
    'quelle', 'quelles', 'combien', 'pourquoi', 'depuis', 'encore', 'jamais', 'toujours', 'alors', 'parce', 'donc',
    'aussi', 'juste', 'place', 'passe', 'passer', 'poser', 'pause', 'heure', 'heures', 'ville', 'voisin', 'voisine',
    'dehors', 'mairie', 'maison', 'semaine', 'matin', 'soir', 'midi', 'annee', 'monde', 'france', 'pays', 'ferme',
    'fermee', 'ouvert', 'ouverte', 'sortir', 'sortie', 'rentre', 'rentrer', 'mettre', 'metre', 'petit', 'petite',
    'grand', 'grande', 'plein', 'pleine', 'noire', 'blanche', 'rouge', 'jaune', 'brune', 'grise',
  ].map(stem),
);

/** Whether a typed word stands for a known word (same after normalization, or within the typo allowance). */
export function wordMatches(typed: string, known: string): boolean {
  if (typed === known) return true;
  // An inflection is still the same word ("petit" / "petite").
  if (REAL_WORDS.has(typed) && !known.startsWith(typed) && !typed.startsWith(known)) return false;
  const allowance = Math.min(allowedTypos(known), allowedTypos(typed));
  return allowance > 0 && editDistance(typed, known, allowance) <= allowance;
}

/** Whether any of the typed words stands for the known word. */
export function hasWord(typed: readonly string[], known: string): boolean {
  return typed.some((t) => wordMatches(t, known));
}

/** Whether every word of a phrase appears (in any order) among the typed words. */
export function hasAllWords(typed: readonly string[], phrase: readonly string[]): boolean {
  return phrase.length > 0 && phrase.every((w) => hasWord(typed, w));
}

