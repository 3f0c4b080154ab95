import type { CityApi } from '../../domain/city-model/schemas.ts';
import { contentTokens, hasWord, tokenize } from '../text-match.ts';
import { SORTING_WORDS } from '../lexicon.ts';
import type { CityKnowledge, WasteType } from './model.ts';

/** The city's recycling points a question is about; whether one is open now is opening.ts's. */

/** Words of a question about drop-off points that do not tell which point. */
const POINT_FILLER = new Set(SORTING_WORDS.pointFiller);

/**
 * Recycling points the text points at: by a word of their name ("verre", "déchèterie"), else by a word of
 * what their hours say they take ("vêtements"), else all of them.
 */
export function recyclingPointsFor(knowledge: CityKnowledge, text: string): CityApi['recyclingPoints'] {
  const points = knowledge.city.recyclingPoints;
  const typed = contentTokens(text).filter((w) => !POINT_FILLER.has(w));
  const byName = points.filter((p) => typed.some((w) => hasWord(tokenize(p.name), w)));
  if (byName.length > 0) return byName;
  const byUse = points.filter((p) => typed.some((w) => hasWord(contentTokens(p.openingHours ?? ''), w)));
  return byUse.length > 0 ? byUse : points;
}

/** Recycling points named after a waste type ("Point d'apport volontaire verre" for "Verre"). */
export function recyclingPointsOfWasteType(knowledge: CityKnowledge, wasteType: WasteType): CityApi['recyclingPoints'] {
  const words = contentTokens(wasteType.name);
  return knowledge.city.recyclingPoints.filter((p) => {
    const name = tokenize(p.name);
    return words.some((w) => name.includes(w));
  });
}
