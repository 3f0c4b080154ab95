import { hasAllWords, tokenize } from '../text-match.ts';
import { colourWordsOf, wasteTypeVocabulary } from '../vocabulary.ts';
import type { CityKnowledge, WasteType } from './model.ts';

/** Waste types the text points at: by name, by everyday words ("ordures", "compost") or by bin colour. */
export function wasteTypesMentioned(knowledge: CityKnowledge, text: string): WasteType[] {
  const typed = tokenize(text);
  const vocabulary = wasteTypeVocabulary(knowledge.city.wasteTypes);
  const colours = new Set(typed.flatMap((t) => colourWordsOf(t)));
  // A colour is a colour: "vertes" is the green bin, never a typo of "verre".
  const words = typed.filter((t) => colourWordsOf(t).length === 0);
  return knowledge.city.wasteTypes.filter((w) => {
    const vocab = vocabulary.get(w.id)!;
    if (vocab.colours.some((c) => colours.has(c))) return true;
    return vocab.phrases.some((phrase) => hasAllWords(words, phrase) || (phrase.every((p) => typed.includes(p))));
  });
}
