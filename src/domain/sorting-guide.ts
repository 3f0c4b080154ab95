/**
 * The sorting guide's ranked search (docs/api.md, what citizens search), pure: what GET /public/cities/:cityId/sorting-guide answers
 * (src/guide) and what the assistant answers « où jeter … ? » from (src/chat), so that both rank the same way.
 */
import { matchText, searchableText, searchQuery, type SearchableText, type SearchQuery, type TextMatch } from '../kernel/search-text.ts';
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

/**
 * The city's entries: its materials (each with its synonyms), its quiz materials not already among them (answered by
 * the question's waste type), then its waste types by name. One entry per (material, waste type).
 */
export function buildCityGuide(rows: CityGuideRows): CityGuide {
  const types = new Map(rows.wasteTypes.map((w) => [w.id, w]));
  const pointsTaking = (wasteTypeId: string) => rows.points.filter((p) => p.wasteTypeIds.includes(wasteTypeId)).map((p) => p.id);
  const entries: GuideEntry[] = [];
  const seen = new Set<string>();
  const add = (material: string, wasteTypeId: string, instructions: string | null, synonyms: string[]) => {
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
      synonyms: synonyms.map(searchableText),
    });
  };
  for (const d of rows.details) add(d.material, d.wasteTypeId, d.instructions, synonymsOf(d.description));
  for (const q of rows.quizMaterials) add(q.material, q.wasteTypeId, null, []);
  for (const w of rows.wasteTypes) add(w.name, w.id, null, []);
  return { city: rows.city, entries };
}

/**
 * Where a match ranks, as a tuple compared left to right (smaller first): the tier (0 exact name, 1 exact synonym,
 * 2 every word found, 3 typos or word starts, 4 trigram similarity), then within a tier what makes a match closer.
 */
type Rank = number[];

function rankOf(match: TextMatch, synonym: boolean): Rank {
  const by = synonym ? 1 : 0;
  switch (match.kind) {
    case 'exact':
      return [by];
    case 'words':
      // A name holding the words beats a synonym holding them (`couche`: « Couche-culotte » before a product whose
      // synonym is « Sous-couche »); then the fewer words the name has beyond the query's.
      return [2, by, match.extraWords];
    case 'near':
      return [3, match.cost, by, match.extraWords];
    case 'similar':
      return [4, -match.similarity, by];
  }
}

function compareRanks(a: Rank, b: Rank): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The best rank of an entry for a query, or null when neither its name nor a synonym matches. */
function entryRank(query: SearchQuery, entry: GuideEntry): Rank | null {
  let best: Rank | null = null;
  const consider = (text: SearchableText, synonym: boolean) => {
    const match = matchText(query, text);
    if (!match) return;
    const rank = rankOf(match, synonym);
    if (!best || compareRanks(rank, best) < 0) best = rank;
  };
  consider(entry.name, false);
  for (const synonym of entry.synonyms) consider(synonym, true);
  return best;
}

/**
 * How sure a hit is: `exact` (the whole name or a whole synonym), `words` (every word typed is a word of it), `near`
 * (typos or word starts), `similar` (only trigrams in common). Only the first two may be presented as what the
 * citizen named; the others are a guess.
 */
export type GuideMatchKind = 'exact' | 'words' | 'near' | 'similar';

const KIND_BY_TIER: GuideMatchKind[] = ['exact', 'exact', 'words', 'near', 'similar'];

/** Up to MAX_RESULTS entries matching `q` with how each matched, best first (ties in the entries' order); [] when none. */
export function searchGuideMatches(guide: CityGuide, q: string): { result: GuideResult; match: GuideMatchKind }[] {
  const query = searchQuery(q);
  if (query.words.length === 0) return [];
  const ranked: { rank: Rank; index: number; result: GuideResult }[] = [];
  guide.entries.forEach((entry, index) => {
    const rank = entryRank(query, entry);
    if (rank) ranked.push({ rank, index, result: entry.result });
  });
  ranked.sort((a, b) => compareRanks(a.rank, b.rank) || a.index - b.index);
  return ranked.slice(0, MAX_RESULTS).map((r) => ({ result: r.result, match: KIND_BY_TIER[r.rank[0]] }));
}

/** Up to MAX_RESULTS entries matching `q`, best first (ties in the entries' order); [] when none. */
export function searchGuide(guide: CityGuide, q: string): GuideResult[] {
  return searchGuideMatches(guide, q).map((m) => m.result);
}
