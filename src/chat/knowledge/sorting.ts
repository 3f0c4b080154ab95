import { contentTokens, editDistance, normalizeText, wordMatches } from '../text-match.ts';
import { SORTING_WORDS } from '../lexicon.ts';
import type { CityKnowledge, WasteType } from './model.ts';

/**
 * The city's sorting guide as the assistant reads it: its entries (waste-type details and quiz materials), the words
 * of a question that name the object, and the material a text names. The guide's ranked search, shared with the guide
 * route, is guide-search.ts's.
 */

/** One entry of the sorting guide: a material (waste-type detail or quiz material) and where it goes. */
export interface MaterialEntry {
  material: string;
  wasteType: WasteType;
  description: string | null;
  instructions: string | null;
  /** Ways to name it: content words of the name, its alternatives and its "Aussi appelé" synonyms. */
  phrases: string[][];
  /** Every word said about it: names, synonyms, parentheses, and the quiz question about it. */
  vocabulary: string[];
}

/** Qualifiers in parentheses that are not another name of the thing ("Boîte de conserve (vide)"). */
const QUALIFIERS = new Set(['vide', 'alimentaire', 'propre', 'usage', 'en verre', 'papier', 'et bouchon']);

/** "Bocal ou pot en verre (alimentaire)" -> ["bocal en verre", "pot en verre"] and synonyms in parentheses. */
function namesOf(label: string): string[] {
  const names: string[] = [];
  const inner = [...label.matchAll(/\(([^)]*)\)/g)].map((m) => m[1].trim());
  const main = label.replace(/\([^)]*\)/g, ' ').replace(/\s+/g, ' ').trim();
  const alternatives = main.split(/\s+ou\s+/i);
  const last = alternatives[alternatives.length - 1].split(' ');
  const tail = last.length > 1 ? last.slice(1).join(' ') : '';
  for (const alternative of alternatives) {
    names.push(alternative.includes(' ') || alternative === alternatives[alternatives.length - 1] ? alternative : `${alternative} ${tail}`);
  }
  for (const part of inner) {
    const alt = /^ou\s+(.+)$/i.exec(part);
    // "Bouteille d'eau (en verre)": the parentheses qualify the name, they are part of it.
    if (/^(?:(?:en|de)\s+|d')/i.test(part) && !part.includes(',')) names[names.length - 1] = `${names[names.length - 1]} ${part}`;
    else if (alt) names.push(alt[1]);
    else if (!part.includes(',') && !part.includes(' ') && part.length >= 5 && !QUALIFIERS.has(normalizeText(part))) names.push(part);
  }
  return names;
}

function synonymsOf(description: string | null): string[] {
  const match = description ? /Aussi appel[ée]e?s?\s*:\s*(.+?)\.?$/im.exec(description) : null;
  return match ? match[1].split(',').flatMap((s) => namesOf(s.trim())) : [];
}

/** Sorting guides already built, per knowledge object: one answer looks a material up several times. */
const guides = new WeakMap<CityKnowledge, { entries: MaterialEntry[]; words: Set<string> }>();

/** The city's sorting guide (see materialEntries) and every word it uses, built once per knowledge object. */
function sortingGuide(knowledge: CityKnowledge): { entries: MaterialEntry[]; words: Set<string> } {
  let guide = guides.get(knowledge);
  if (!guide) {
    const entries = buildMaterialEntries(knowledge);
    guide = { entries, words: new Set(entries.flatMap((e) => e.vocabulary)) };
    guides.set(knowledge, guide);
  }
  return guide;
}

/** The city's sorting guide: waste-type details first, then quiz materials not already listed. */
export function materialEntries(knowledge: CityKnowledge): MaterialEntry[] {
  return sortingGuide(knowledge).entries;
}

function buildMaterialEntries(knowledge: CityKnowledge): MaterialEntry[] {
  const { city } = knowledge;
  const entries: MaterialEntry[] = [];
  const byKey = new Map<string, MaterialEntry>();
  const add = (material: string, wasteType: WasteType, description: string | null, instructions: string | null, question = '') => {
    const key = `${normalizeText(material)}|${wasteType.id}`;
    const known = byKey.get(key);
    if (known) {
      known.vocabulary.push(...contentTokens(question));
      return;
    }
    const phrases = [...namesOf(material), ...synonymsOf(description)].map(contentTokens).filter((p) => p.length > 0);
    const synonyms = description ? (/Aussi appel[ée]e?s?\s*:\s*(.+)$/im.exec(description)?.[1] ?? '') : '';
    const vocabulary = [...contentTokens(material), ...contentTokens(synonyms), ...contentTokens(question)];
    const entry = { material, wasteType, description, instructions, phrases, vocabulary };
    entries.push(entry);
    byKey.set(key, entry);
  };
  for (const wasteType of city.wasteTypes) {
    for (const d of wasteType.details) add(d.material, wasteType, d.description, d.instructions);
  }
  for (const q of city.quizQuestions) {
    const wasteType = city.wasteTypes.find((w) => w.id === q.correctWasteTypeId);
    if (wasteType) add(q.material, wasteType, null, null, q.question);
  }
  return entries;
}

/** Words of a sorting question that say nothing about the object ("où jeter", "quelle poubelle"). */
const MATERIAL_FILLER = new Set(SORTING_WORDS.materialFiller);

/** The filler words long enough to be typed with a typo. */
const LONG_MATERIAL_FILLER = [...MATERIAL_FILLER].filter((f) => f.length >= 5);

/** A filler word, allowing one typo in words of five letters or more ("jetter") that the guide does not use. */
function isMaterialFiller(t: string, guideWords: Set<string>): boolean {
  if (MATERIAL_FILLER.has(t)) return true;
  return t.length >= 5 && !guideWords.has(t) && LONG_MATERIAL_FILLER.some((f) => editDistance(t, f, 1) <= 1);
}

/** The words of a sorting question that name the object (« où jeter une capsule de café ? » -> capsule, cafe). */
export function objectWords(knowledge: CityKnowledge, text: string): string[] {
  const { words: guideWords } = sortingGuide(knowledge);
  return contentTokens(text).filter((t) => !isMaterialFiller(t, guideWords));
}

export type MaterialLookup =
  | { kind: 'found'; entry: MaterialEntry; score: number }
  /** Not in the guide as typed, but its main word names one entry ("litière du chat" -> "Litière d'animal domestique"). */
  | { kind: 'near'; entry: MaterialEntry }
  | { kind: 'ambiguous'; entries: MaterialEntry[] }
  | { kind: 'none' };

/**
 * Finds the material a text names. A full match (every word of a name or synonym) wins, the most specific
 * first. Without one, a text whose every word is said about some materials ("bouteille", "pot de yaourt")
 * makes them candidates: one waste type, found; several, ambiguous. A word no material knows ("pot de
 * peinture") makes it unknown rather than a guess.
 */
export function findMaterial(knowledge: CityKnowledge, text: string): MaterialLookup {
  const typed = contentTokens(text);
  // A word the guide itself uses is meant as such, never as a typo of another ("lingette" is not "lingerie").
  const { entries, words: guideWords } = sortingGuide(knowledge);
  const matches = (t: string, w: string) =>
    t === w || ((!guideWords.has(t) || w.startsWith(t) || t.startsWith(w)) && wordMatches(t, w));
  const hasAll = (phrase: string[]) => phrase.length > 0 && phrase.every((w) => typed.some((t) => matches(t, w)));
  let best: MaterialEntry[] = [];
  let bestScore = 0;
  for (const entry of entries) {
    const score = Math.max(0, ...entry.phrases.filter(hasAll).map((p) => p.length));
    if (score > bestScore) {
      best = [entry];
      bestScore = score;
    } else if (score > 0 && score === bestScore) {
      best.push(entry);
    }
  }
  if (best.length > 0) {
    const types = new Set(best.map((e) => e.wasteType.id));
    return types.size === 1 ? { kind: 'found', entry: best[0], score: bestScore } : { kind: 'ambiguous', entries: best };
  }
  const asked = typed.filter((t) => !isMaterialFiller(t, guideWords));
  if (asked.length === 0) return { kind: 'none' };
  const candidates = entries.filter((e) => asked.every((w) => e.vocabulary.some((v) => matches(w, v))));
  if (candidates.length === 0) {
    // The first word typed is the object ("litière du chat"); it may name a single entry's head word.
    const head = asked[0];
    const near = head.length >= 5 ? entries.filter((e) => e.phrases.some((p) => matches(head, p[0]))) : [];
    return near.length > 0 && new Set(near.map((e) => e.wasteType.id)).size === 1 && new Set(near.map((e) => e.material)).size === 1
      ? { kind: 'near', entry: near[0] }
      : { kind: 'none' };
  }
  const types = new Set(candidates.map((e) => e.wasteType.id));
  return types.size === 1 ? { kind: 'found', entry: candidates[0], score: 1 } : { kind: 'ambiguous', entries: candidates };
}
