/**
 * The sorting guide's ranked search (docs/api.md, what citizens search), pure: what GET /public/cities/:cityId/sorting-guide answers
 * (src/guide) and what the assistant answers « où jeter … ? » from (src/chat), so that both rank the same way.
 */
import {
  matchText,
  meaningfulWords,
  searchableText,
  searchQuery,
  wordsCost,
  type SearchableText,
  type SearchQuery,
  type TextMatch,
} from '../kernel/search-text.ts';
import type { ActiveCity } from './cities.ts';

/** Everything of a city the sorting guide searches, as stored. */
export interface CityGuideRows {
  city: Pick<ActiveCity, 'id' | 'name' | 'timeZone'>;
  wasteTypes: { id: string; name: string; instructions: string | null }[];
  /** Materials by name (French collation). */
  details: { id: string; wasteTypeId: string; material: string; description: string | null; instructions: string | null }[];
  /** Quiz materials in the quiz's order, each with the waste type that answers it. */
  quizMaterials: { material: string; wasteTypeId: string }[];
  /** The city's recycling points by name, each with the waste types it takes. */
  points: { id: string; wasteTypeIds: string[] }[];
}

/** Most results answered (docs/api.md, what citizens search). */
export const MAX_RESULTS = 10;

/** One answer of the sorting guide. */
export interface GuideResult {
  material: string;
  wasteTypeId: string;
  wasteTypeName: string;
  instructions: string | null;
  recyclingPointIds: string[];
}

/** A searchable thing: a material (with its synonyms) or a waste type, prepared once per city and data version. */
interface GuideEntry {
  result: GuideResult;
  name: SearchableText;
  synonyms: SearchableText[];
  /** The meaningful words of the description beyond its « Aussi appelé : » list (those are `synonyms`). */
  descriptionWords: string[];
}

/** A city's sorting guide, ready to search: built from its rows once, searched many times. */
export interface CityGuide {
  city: Pick<ActiveCity, 'id' | 'name' | 'timeZone'>;
  entries: GuideEntry[];
}

const SYNONYMS = /aussi\s+appel[ée]e?s?\s*:\s*([^\n]*)/i;

/**
 * The synonyms a description lists after « Aussi appelé : » (commas inside parentheses do not separate them):
 * `Aussi appelé : Frigidaire, Frigo.` -> `Frigidaire`, `Frigo`.
 */
export function synonymsOf(description: string | null): string[] {
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

/** What a description says beyond its synonyms, as searchable words: `Piles et accumulateurs. Aussi appelé : Pile.` -> `pile`, `accumulateur`. */
function descriptionWordsOf(description: string | null): string[] {
  const rest = description?.replace(SYNONYMS, ' ').trim();
  return rest ? meaningfulWords(rest) : [];
}

/**
 * The city's entries: its materials (each with its synonyms), its quiz materials not already among them (answered by
 * the question's waste type), then its waste types by name. One entry per (material, waste type).
 */
export function buildCityGuide(rows: CityGuideRows): CityGuide {
  const types = new Map(rows.wasteTypes.map((w) => [w.id, w]));
  const pointsTaking = (wasteTypeId: string) => rows.points.filter((p) => p.wasteTypeIds.includes(wasteTypeId)).map((p) => p.id);
  const entries: GuideEntry[] = [];
  const seen = new Set<string>();
  const add = (material: string, wasteTypeId: string, instructions: string | null, description: string | null) => {
    const type = types.get(wasteTypeId);
    const key = `${material}\u0000${wasteTypeId}`;
    if (!type || seen.has(key)) return;
    seen.add(key);
    entries.push({
      result: {
        material,
        wasteTypeId,
        wasteTypeName: type.name,
        instructions: instructions ?? type.instructions,
        recyclingPointIds: pointsTaking(wasteTypeId),
      },
      name: searchableText(material),
      synonyms: synonymsOf(description).map(searchableText),
      descriptionWords: descriptionWordsOf(description),
    });
  };
  for (const d of rows.details) add(d.material, d.wasteTypeId, d.instructions, d.description);
  for (const q of rows.quizMaterials) add(q.material, q.wasteTypeId, null, null);
  for (const w of rows.wasteTypes) add(w.name, w.id, null, null);
  return { city: rows.city, entries };
}

/**
 * How sure a hit is: `exact` (the whole name or a whole synonym), `words` (every word typed is a word of it), `near`
 * (typos or word starts), `partial` (some of the words typed), `similar` (a guess: only trigrams in common, or one
 * shared word that is not what the thing is), `description` (its description names it). Only the first two may be
 * presented as what the citizen named; the others are a guess.
 */
export type GuideMatchKind = 'exact' | 'words' | 'near' | 'partial' | 'similar' | 'description';

/**
 * Where a match ranks, as a tuple compared left to right (smaller first): the tier, then within a tier what makes a
 * match closer. Tiers: 0 the whole name, 1 a whole synonym, 2 every word in a name or synonym, one of them its head,
 * 3 the same with typos or word starts, 4 every word but none its head (`medicament` in « Bouteille de sirop de
 * médicament »), 5 some of the words (the head among them, or several), 6 guesses (trigrams alone, or a single shared
 * word that is not the head: `vaisselle cassée` and « Lave-vaisselle »), 7 the description's words.
 */
type Rank = number[];

/**
 * Guesses: answered only when nothing else matched, not even a description (`textile` does not bring « Télé » along
 * with « Textiles », nor `lithium` « Lit » along with a description naming lithium).
 */
const GUESS_TIER = 6;

function rankOf(match: TextMatch, synonym: boolean): { rank: Rank; kind: GuideMatchKind } {
  const by = synonym ? 1 : 0;
  switch (match.kind) {
    case 'exact':
      return { rank: [by], kind: 'exact' };
    case 'words':
      // A name holding the words beats a synonym holding them (`couche`: « Couche-culotte » before a product whose
      // synonym is « Sous-couche »); then the fewer words the name has beyond the query's.
      return match.head ? { rank: [2, by, match.extraWords], kind: 'words' } : { rank: [4, 0, by, match.extraWords], kind: 'words' };
    case 'near':
      return { rank: [match.head ? 3 : 4, match.cost, by, match.extraWords], kind: 'near' };
    case 'partial':
      // One word of several in common, and not the one saying what the thing is: a guess.
      if (!match.head && match.found < 2) return { rank: [GUESS_TIER, -match.similarity, by], kind: 'similar' };
      return { rank: [5, -match.found, match.head ? 0 : 1, -match.similarity, match.cost, by, match.extraWords], kind: 'partial' };
    case 'similar':
      return { rank: [GUESS_TIER, -match.similarity, by], kind: 'similar' };
  }
}

function compareRanks(a: Rank, b: Rank): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The best rank of an entry for a query, or null when neither its name, a synonym nor its description matches. */
function entryRank(query: SearchQuery, entry: GuideEntry): { rank: Rank; kind: GuideMatchKind } | null {
  let best: { rank: Rank; kind: GuideMatchKind } | null = null;
  const consider = (text: SearchableText, synonym: boolean) => {
    const match = matchText(query, text);
    if (!match) return;
    const ranked = rankOf(match, synonym);
    if (!best || compareRanks(ranked.rank, best.rank) < 0) best = ranked;
  };
  consider(entry.name, false);
  for (const synonym of entry.synonyms) consider(synonym, true);
  if (best) return best;
  const cost = wordsCost(query, entry.descriptionWords);
  return cost === null ? null : { rank: [7, cost], kind: 'description' };
}

/**
 * Up to MAX_RESULTS entries matching `q` with how each matched, best first (ties in the entries' order); [] when none.
 * Guesses only when nothing else matched.
 */
export function searchGuideMatches(guide: CityGuide, q: string): { result: GuideResult; match: GuideMatchKind }[] {
  const query = searchQuery(q);
  if (query.words.length === 0) return [];
  const ranked: { rank: Rank; kind: GuideMatchKind; index: number; result: GuideResult }[] = [];
  guide.entries.forEach((entry, index) => {
    const hit = entryRank(query, entry);
    if (hit) ranked.push({ ...hit, index, result: entry.result });
  });
  const sure = ranked.some((r) => r.rank[0] !== GUESS_TIER);
  return ranked
    .filter((r) => !sure || r.rank[0] !== GUESS_TIER)
    .sort((a, b) => compareRanks(a.rank, b.rank) || a.index - b.index)
    .slice(0, MAX_RESULTS)
    .map((r) => ({ result: r.result, match: r.kind }));
}

/** Up to MAX_RESULTS entries matching `q`, best first (ties in the entries' order); [] when none. */
export function searchGuide(guide: CityGuide, q: string): GuideResult[] {
  return searchGuideMatches(guide, q).map((m) => m.result);
}
