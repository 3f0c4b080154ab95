import { sortByText } from '../kernel/french.ts';
import { buildCityGuide, searchGuideMatches, type CityGuide, type GuideMatchKind } from '../domain/sorting-guide.ts';
import { materialEntries, objectWords, type CityKnowledge, type MaterialEntry } from './knowledge.ts';
import { contentTokens, wordMatches } from './text-match.ts';

/**
 * « Où jeter une capsule de café ? » answered from the sorting guide's ranked search (domain/sorting-guide.ts, what
 * GET /public/cities/:cityId/sorting-guide answers), on the words of the question that name the object.
 */

/** The city's guide, built once per knowledge object (a conversation's city, until its data changes). */
const guides = new WeakMap<CityKnowledge, CityGuide>();

function guideOf(knowledge: CityKnowledge): CityGuide {
  let guide = guides.get(knowledge);
  if (!guide) {
    const { city } = knowledge;
    const names = new Map(city.recyclingPoints.map((p) => [p.id, p.name]));
    guide = buildCityGuide({
      city: { id: city.id, name: city.name, timeZone: knowledge.timeZone },
      wasteTypes: sortByText(city.wasteTypes, (w) => w.name).map((w) => ({ id: w.id, name: w.name, instructions: w.instructions })),
      details: sortByText(
        city.wasteTypes.flatMap((w) =>
          w.details.map((d) => ({ id: d.id, wasteTypeId: w.id, material: d.material, description: d.description, instructions: d.instructions })),
        ),
        (d) => d.material,
      ),
      quizMaterials: [...city.quizQuestions].sort((a, b) => a.order - b.order).map((q) => ({ material: q.material, wasteTypeId: q.correctWasteTypeId })),
      points: sortByText(knowledge.points, (p) => names.get(p.id) ?? '').map((p) => ({ id: p.id, wasteTypeIds: p.wasteTypeIds })),
    });
    guides.set(knowledge, guide);
  }
  return guide;
}

export interface RankedMaterial {
  entry: MaterialEntry;
  /** `exact` and `words` name the thing; `near` and `similar` are a guess, said as such. */
  match: GuideMatchKind;
}

/** The best hit of the ranked search for the object a question names, as the assistant's material entry; null when none. */
export function rankedMaterial(knowledge: CityKnowledge, text: string): RankedMaterial | null {
  const words = objectWords(knowledge, text);
  if (words.length === 0) return null;
  const [best] = searchGuideMatches(guideOf(knowledge), words.join(' '));
  if (!best) return null;
  const wasteType = knowledge.city.wasteTypes.find((w) => w.id === best.result.wasteTypeId);
  if (!wasteType) return null;
  const known = materialEntries(knowledge).find((e) => e.material === best.result.material && e.wasteType.id === wasteType.id);
  // A waste type found by its name: its own instructions are said once, as the waste type's.
  const entry = known ?? { material: best.result.material, wasteType, description: null, instructions: null, phrases: [], vocabulary: [] };
  return { entry, match: best.match };
}

/** A hit that names what the citizen wrote (the whole name, a synonym, or every word of it). */
export const isSure = (ranked: RankedMaterial): boolean => ranked.match === 'exact' || ranked.match === 'words';

/**
 * The assistant's phrase match (`findMaterial` found `entry`, by `score` words) checked against the ranked search: a
 * ranked hit of another waste type wins over a one-word match (« capsule de café » is not « Café (marc) », « pille »
 * not « pilule »), said as a guess unless it is sure. Null: keep the phrase match.
 */
export function rankedOverride(found: { entry: MaterialEntry; score: number }, ranked: RankedMaterial | null): { entry: MaterialEntry; guess: boolean } | null {
  if (!ranked || found.score >= 2 || ranked.entry.wasteType.id === found.entry.wasteType.id) return null;
  return { entry: ranked.entry, guess: !isSure(ranked) };
}

/**
 * A hit that shares a single word with the object the question names, and leaves another of its words unexplained
 * (« bouteille de gaz » and « Bouteille en verre (eau, vin) » share « bouteille » alone): not the same object.
 */
export function sharesOneWordOnly(knowledge: CityKnowledge, text: string, entry: MaterialEntry): boolean {
  const asked = objectWords(knowledge, text);
  const known = [...contentTokens(entry.material), ...entry.phrases.flat()];
  const shared = asked.filter((w) => known.some((k) => wordMatches(w, k)));
  // A typo guess (« pille ») shares no word as written: the ranked search judged it, said as a guess.
  return shared.length === 1 && asked.length > 1;
}
