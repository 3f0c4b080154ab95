/**
 * Forgiving French text matching for the built-in assistant: citizens type on phones, without accents,
 * with plurals and typos. Both the citizen's text and the city's data go through the same normalization,
 * so a rule such as plural stripping only has to be consistent, not linguistically perfect.
 */

/** Lowercase, accents and punctuation removed, apostrophes split ("l'huile" -> "l huile"), spaces collapsed. */
export function normalizeText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/œ/g, 'oe')
    .replace(/æ/g, 'ae')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Crude French plural stripping: "bouteilles" -> "bouteille", "journaux" -> "journau" (on both sides). */
export function stem(word: string): string {
  if (word.length > 3 && /[sx]$/.test(word) && !/ss$/.test(word)) return word.slice(0, -1);
  return word;
}

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

/** Damerau-Levenshtein distance (optimal string alignment), stopping early past `max`. */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) rows.push([i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    let rowMin = Infinity;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
      rows[i][j] = d;
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > max) return max + 1;
  }
  return rows[a.length][b.length];
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

