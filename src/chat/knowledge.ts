import { computeCalendar, nextCollections, todayIn, type CancelledOccurrence, type Occurrence, type PlaceSchedule } from '../calendar/calendar.ts';
import type { FrenchWeekday } from '../calendar/calendar-dates.ts';
import type { CityApi, WasteCollectionPlaceApi, WasteTypeApi } from '../cities/schemas.ts';
import { contentTokens, hasAllWords, hasWord, normalizeText, stem, tokenize, wordMatches } from './text-match.ts';
import { colourWordsOf, wasteTypeVocabulary } from './vocabulary.ts';

/**
 * What the assistants know: plain functions over one city's published data (the same data the public API
 * serves). The built-in assistant and the language model's tools both call these, so every fact either of them
 * states comes from here. No I/O.
 */

export interface CityKnowledge {
  city: CityApi;
  /** IANA zone of the city, for "today" and for writing dates. */
  timeZone: string;
}

export type Place = WasteCollectionPlaceApi;
export type WasteType = WasteTypeApi;

/** The calendar engine's view of a place. */
export function scheduleOf(knowledge: CityKnowledge, place: Place): PlaceSchedule {
  return {
    timeZone: knowledge.timeZone,
    days: place.collectionDays.map((d) => ({
      name: d.name as FrenchWeekday,
      wasteTypeId: d.wasteTypeId,
      biweekly: d.biweekly,
      startDate: d.startDate ? new Date(d.startDate) : null,
    })),
    exceptions: place.exceptions.map((e) => ({
      dateFrom: new Date(e.dateFrom),
      dateTo: e.dateTo ? new Date(e.dateTo) : null,
      wasteTypeId: e.wasteTypeId,
      name: e.name,
      description: e.description,
    })),
    wasteTypes: knowledge.city.wasteTypes.map((w) => ({ id: w.id, name: w.name, color: w.color })),
  };
}

const longDate = new Intl.DateTimeFormat('fr-FR', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * "mardi 24 novembre 2026". The engine's dates are already calendar days in the city's time zone, so the
 * day is formatted as the UTC midnight that stands for it (formatting it in another zone could shift it).
 */
export function frenchDate(day: string): string {
  return longDate.format(new Date(`${day}T00:00:00.000Z`));
}

export interface NextCollectionFact {
  wasteType: WasteType;
  /** The next collection on or after today, or null when none is planned within a year. */
  next: Occurrence | null;
  /** Regular collections removed by an exception between today and the next one (what happens instead). */
  cancelled: CancelledOccurrence[];
}

/** The next collection of each waste type asked about (all collected ones when `wasteTypes` is null) at a place. */
export function nextCollectionFacts(
  knowledge: CityKnowledge,
  place: Place,
  wasteTypes: WasteType[] | null,
  now: Date,
): NextCollectionFact[] {
  const schedule = scheduleOf(knowledge, place);
  const nexts = nextCollections(schedule, now);
  const today = todayIn(knowledge.timeZone, now);
  const { cancelled } = computeCalendar(schedule, { from: today, to: today + 366 });
  const collected = new Set(place.collectionDays.map((d) => d.wasteTypeId));
  const asked = wasteTypes ?? knowledge.city.wasteTypes.filter((w) => collected.has(w.id));
  return asked.map((wasteType) => {
    const next = nexts.find((o) => o.wasteTypeId === wasteType.id) ?? null;
    const skipped = cancelled.filter((c) => c.wasteTypeId === wasteType.id && (next === null || c.date < next.date));
    return { wasteType, next, cancelled: skipped };
  }).sort((a, b) => (a.next?.date ?? '9999').localeCompare(b.next?.date ?? '9999'));
}

/** Regular collections that exceptions remove over the coming days at a place (holidays, winter pause…). */
export function upcomingExceptions(knowledge: CityKnowledge, place: Place, now: Date, days = 60): CancelledOccurrence[] {
  const today = todayIn(knowledge.timeZone, now);
  return computeCalendar(scheduleOf(knowledge, place), { from: today, to: today + days }).cancelled;
}

/** Waste types the text points at: by name, by everyday words ("ordures", "compost") or by bin colour. */
export function wasteTypesMentioned(knowledge: CityKnowledge, text: string): WasteType[] {
  const typed = tokenize(text);
  const vocabulary = wasteTypeVocabulary(knowledge.city.wasteTypes);
  const colours = new Set(typed.flatMap((t) => colourWordsOf(t)));
  return knowledge.city.wasteTypes.filter((w) => {
    const words = vocabulary.get(w.id)!;
    if (words.colours.some((c) => colours.has(c))) return true;
    return words.phrases.some((phrase) => hasAllWords(typed, phrase));
  });
}

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

/** The city's sorting guide: waste-type details first, then quiz materials not already listed. */
export function materialEntries(knowledge: CityKnowledge): MaterialEntry[] {
  const { city } = knowledge;
  const entries: MaterialEntry[] = [];
  const add = (material: string, wasteType: WasteType, description: string | null, instructions: string | null, question = '') => {
    const key = `${normalizeText(material)}|${wasteType.id}`;
    const known = entries.find((e) => `${normalizeText(e.material)}|${e.wasteType.id}` === key);
    if (known) {
      known.vocabulary.push(...contentTokens(question));
      return;
    }
    const phrases = [...namesOf(material), ...synonymsOf(description)].map(contentTokens).filter((p) => p.length > 0);
    const synonyms = description ? (/Aussi appel[ée]e?s?\s*:\s*(.+)$/im.exec(description)?.[1] ?? '') : '';
    const vocabulary = [...contentTokens(material), ...contentTokens(synonyms), ...contentTokens(question)];
    entries.push({ material, wasteType, description, instructions, phrases, vocabulary });
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
const MATERIAL_FILLER = new Set(
  ('dechet poubelle bac sac produit objet truc chose trier tri trie recycler recyclable recycle deposer depose ' +
    'debarrasser quel quelle quels quelles faire fait usage usagee vieux vieille vide vides jete jeter mettre mets ' +
    'peut peux dois doit va vont aller ou comment est ce que mon ma mes un une des les')
    .split(' ')
    .map(stem),
);

export type MaterialLookup =
  | { kind: 'found'; entry: MaterialEntry; score: number }
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
  const entries = materialEntries(knowledge);
  let best: MaterialEntry[] = [];
  let bestScore = 0;
  for (const entry of entries) {
    const score = Math.max(0, ...entry.phrases.filter((p) => hasAllWords(typed, p)).map((p) => p.length));
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
  const asked = typed.filter((t) => !MATERIAL_FILLER.has(t));
  if (asked.length === 0) return { kind: 'none' };
  const candidates = entries.filter((e) => asked.every((w) => e.vocabulary.some((v) => wordMatches(w, v))));
  if (candidates.length === 0) return { kind: 'none' };
  const types = new Set(candidates.map((e) => e.wasteType.id));
  return types.size === 1 ? { kind: 'found', entry: candidates[0], score: 1 } : { kind: 'ambiguous', entries: candidates };
}

/** Words of a question about drop-off points that do not tell which point. */
const POINT_FILLER = new Set(
  'horaire horaires ouvert ouverte ouverture ouvre ferme fermee fermeture adresse plus proche deposer depose amener apporter emmener quel quelle heure'
    .split(' ')
    .map(stem),
);

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

export type GuidanceTopic = 'outOfTheBins' | 'presentationOfBins' | 'returnOfBins' | 'respectOfCalendar' | 'holidays';

export function guidanceText(knowledge: CityKnowledge, topic: GuidanceTopic): string | null {
  return knowledge.city[topic];
}

/** Words of a place name that say little alone ("Centre-ville", "Saint-…"): they count half. */
const WEAK_PLACE_WORDS = new Set(['ville', 'centre', 'saint', 'sainte', 'rue', 'route', 'avenue', 'place', 'quartier', 'secteur', 'bourg'].map(stem));
const STREET_WORDS = new Set(['rue', 'route', 'avenue', 'place', 'chemin', 'impasse', 'boulevard', 'allee'].map(stem));

/** Place and street names are proper nouns: a typo is forgiven only in a long one ("Lambezelec"). */
const placeWordIn = (typed: string[], word: string) => typed.includes(word) || (word.length >= 7 && hasWord(typed, word));

function placeScore(typed: string[], name: string): number {
  const words = contentTokens(name).filter((w) => w.length >= 3);
  let score = 0;
  for (const w of words) if (placeWordIn(typed, w)) score += WEAK_PLACE_WORDS.has(w) ? 0.5 : 1;
  // A name given in full (every distinctive word) is a stronger sign than one shared word.
  const distinctive = words.filter((w) => !STREET_WORDS.has(w));
  return distinctive.length > 0 && distinctive.every((w) => placeWordIn(typed, w)) ? score + 0.5 : score;
}

export interface PlaceMatch {
  place: Place;
  /** 1 for one distinctive word ("Lambézellec"), more for a full name or a street. */
  score: number;
}

/**
 * The collection place a text names, by the place's own name or one of its streets (attached locations),
 * or null when none or several fit equally.
 */
export function placeMentioned(knowledge: CityKnowledge, text: string): PlaceMatch | null {
  const typed = contentTokens(text);
  let best: Place | null = null;
  let bestScore = 0;
  let tie = false;
  for (const place of knowledge.city.wasteCollectionPlaces) {
    const score = Math.max(placeScore(typed, place.name), ...place.attachedLocations.map((l) => placeScore(typed, l.name)));
    if (score > bestScore) {
      best = place;
      bestScore = score;
      tie = false;
    } else if (score === bestScore && score > 0) {
      tie = true;
    }
  }
  return best && bestScore >= 1 && !tie ? { place: best, score: bestScore } : null;
}
