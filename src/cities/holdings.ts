import { countedList } from '../kernel/french.ts';

/** What a city or a group may hold that its deletion would lose, named as the 409 names it (singular, plural). */
const HOLDINGS = {
  cities: ['ville', 'villes'],
  posts: ['article de blog', 'articles de blog'],
  sites: ['site', 'sites'],
  wasteTypes: ['type de déchet', 'types de déchets'],
  places: ['lieu de collecte', 'lieux de collecte'],
  points: ['point de collecte', 'points de collecte'],
  questions: ['question de quiz', 'questions de quiz'],
  challenges: ['défi', 'défis'],
  conversations: ['conversation', 'conversations'],
} as const;

/**
 * `2 villes et 1 article de blog`: what a city or a group holds, in the order above, or null when it holds nothing its
 * deletion would lose.
 */
export function holdingsOf(counts: Partial<Record<keyof typeof HOLDINGS, number>>): string | null {
  return countedList(Object.entries(HOLDINGS).map(([key, [singular, plural]]) => [counts[key as keyof typeof HOLDINGS] ?? 0, singular, plural]));
}
