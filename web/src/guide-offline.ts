// « Où jeter ? » when the network is out of reach: a plain search, on the device, over the sorting guide the app keeps
// (the city's waste types and their materials, GET /public/cities/:cityId, kept by the service worker). Simpler than
// the server's ranked search (src/domain/sorting-guide.ts), which answers whenever it can be reached: accents, case,
// punctuation and plurals folded, linking words ignored, each word typed the start of a word of a material's name or
// of one of its synonyms (« Aussi appelé : »); whole matches first, names before synonyms, a
// waste type's name ranked as a material's after the materials.
import type { City, GuideResult, RecyclingPointStatus } from './types.ts';

/** As many results as the server gives. */
const MAX_RESULTS = 10;

const LINKING_WORDS = new Set(['a', 'au', 'aux', 'd', 'de', 'des', 'du', 'en', 'et', 'l', 'la', 'le', 'les', 'ou', 'un', 'une', 'pour', 'avec', 'sans']);
const SYNONYMS = /aussi\s+appel[ée]e?s?\s*:\s*([^\n]*)/i;

/** "bouteilles" -> "bouteille", "journaux" -> "journal" (the same on both sides). */
function singular(word: string): string {
  if (word.length > 4 && word.endsWith('aux')) return `${word.slice(0, -3)}al`;
  if (word.length > 3 && /[sx]$/.test(word) && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** The folded words of a text that carry its meaning (all of them when it holds only linking words). */
function wordsOf(text: string): string[] {
  const all = text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
  const kept = all.filter((w) => !LINKING_WORDS.has(w));
  return (kept.length > 0 ? kept : all).map(singular);
}

/** The synonyms a description lists after « Aussi appelé : », split on the commas outside parentheses. */
function synonymsOf(description: string | null): string[] {
  const list = description && SYNONYMS.exec(description)?.[1];
  if (!list) return [];
  const found: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of list) {
    if (char === '(') depth++;
    if (char === ')') depth = Math.max(0, depth - 1);
    if (char === ',' && depth === 0) {
      found.push(current);
      current = '';
    } else current += char;
  }
  found.push(current);
  return found.map((s) => s.trim().replace(/[.…\s]+$/u, '')).filter((s) => s !== '');
}

/** 0 the whole text, 1 every query word the start of one of its words; null when it does not match. */
function matchOf(query: string[], text: string): number | null {
  const words = wordsOf(text);
  if (words.join(' ') === query.join(' ')) return 0;
  return query.every((q) => words.some((w) => w.startsWith(q))) ? 1 : null;
}

/**
 * The city's materials (and waste types) matching `text`, best first, answered as the server answers them;
 * `points`, the recycling points the app keeps (none when it keeps none), give each its points.
 */
export function searchGuideOnDevice(city: City, points: RecyclingPointStatus[], text: string): GuideResult[] {
  const query = wordsOf(text);
  if (query.length === 0) return [];
  const pointsTaking = (wasteTypeId: string) =>
    points
      .filter((p) => p.materials.includes(wasteTypeId))
      .sort((a, b) => a.name.localeCompare(b.name, 'fr'))
      .map((p) => p.id);
  const found: { rank: number; order: number; result: GuideResult }[] = [];
  const seen = new Set<string>();
  const add = (rank: number, material: string, type: City['wasteTypes'][number], instructions: string | null) => {
    const key = `${material}\n${type.id}`;
    if (seen.has(key)) return;
    seen.add(key);
    found.push({
      rank,
      order: found.length,
      result: { material, wasteTypeId: type.id, wasteTypeName: type.name, instructions: instructions ?? type.instructions, recyclingPointIds: pointsTaking(type.id) },
    });
  };
  for (const type of city.wasteTypes) {
    for (const detail of type.details) {
      const byName = matchOf(query, detail.material);
      const bySynonym = Math.min(...synonymsOf(detail.description).map((s) => matchOf(query, s) ?? Infinity));
      // Tiers: the whole name, a whole synonym, the words in the name, the words in a synonym.
      const rank = byName === 0 ? 0 : bySynonym === 0 ? 1 : byName === 1 ? 2 : bySynonym === 1 ? 3 : null;
      if (rank !== null) add(rank, detail.material, type, detail.instructions);
    }
  }
  for (const type of city.wasteTypes) {
    const match = matchOf(query, type.name);
    // Ranked as a material's name, after the materials of the same tier (as the server does).
    if (match !== null) add(match === 0 ? 0 : 2, type.name, type, null);
  }
  return found
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .slice(0, MAX_RESULTS)
    .map((f) => f.result);
}
