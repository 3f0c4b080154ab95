import { frenchDate as kernelFrenchDate } from '../kernel/french.ts';
import { todayIn, parseCalendarDate, type FrenchWeekday } from '../kernel/dates.ts';
import { computeCalendar, nextCollections, type CancelledOccurrence, type Occurrence, type PlaceSchedule } from '../domain/collection-calendar.ts';
import type { CityApi } from '../domain/city-model/schemas.ts';
import { contentTokens, editDistance, hasAllWords, hasWord, normalizeText, tokenize, wordMatches } from './text-match.ts';
import { colourWordsOf, wasteTypeVocabulary } from './vocabulary.ts';
import { PLACE_WORDS, SORTING_WORDS } from './lexicon.ts';
import { addressesIn, parseAddress } from '../kernel/address.ts';
import { addressIndex, matchAddress, type AddressMatch } from '../domain/address-match.ts';
import type { CityKnowledge, Place, WasteType } from './knowledge-model.ts';

/**
 * What the assistants know: plain functions over one city's published data (the same data the public API
 * serves). The built-in assistant and the language model's tools both call these, so every fact either of them
 * states comes from here. No I/O.
 */

export type { CityKnowledge, KnowledgePoint, KnowledgeStreetRule, Place, WasteType } from './knowledge-model.ts';

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

/** "mardi 24 novembre 2026", "mardi 1er décembre 2026": the kernel's French date with its year. */
export function frenchDate(day: string): string {
  return kernelFrenchDate(day, { year: true });
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

/** The collections of one day ("YYYY-MM-DD") at a place, and those exceptions remove that day. */
export function collectionsOfDay(knowledge: CityKnowledge, place: Place, day: string) {
  const n = parseCalendarDate(day)!;
  return computeCalendar(scheduleOf(knowledge, place), { from: n, to: n });
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
  // A colour is a colour: "vertes" is the green bin, never a typo of "verre".
  const words = typed.filter((t) => colourWordsOf(t).length === 0);
  return knowledge.city.wasteTypes.filter((w) => {
    const vocab = vocabulary.get(w.id)!;
    if (vocab.colours.some((c) => colours.has(c))) return true;
    return vocab.phrases.some((phrase) => hasAllWords(words, phrase) || (phrase.every((p) => typed.includes(p))));
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

/** The places of the city where a waste type is collected door to door. */
export function placesCollecting(knowledge: CityKnowledge, wasteType: WasteType): Place[] {
  return knowledge.city.wasteCollectionPlaces.filter((p) => p.collectionDays.some((d) => d.wasteTypeId === wasteType.id));
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

/** Words that only say what kind of place it is ("Rue …", "Quartier …", "Centre-ville"). */
const PLACE_KIND_WORDS = new Set(PLACE_WORDS.kindWords);

/**
 * Words of place names that also belong to everyday speech or to the assistant's own subject: alone, they
 * are no evidence of a place ("la capitale de la France" is not "Rue Anatole France", "prochain passage" is
 * not "Le Passage"). A name made only of such words is recognized when given in full, or in context.
 */
const COMMON_PLACE_WORDS = new Set(PLACE_WORDS.commonWords);

/**
 * "Saint-Marc", "St Martin", "Centre-ville": one word ("saintmarc"), so that neither "saint" nor "marc de café"
 * alone names it.
 */
function placeTokens(text: string): string[] {
  const tokens = contentTokens(text);
  const merged: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if ((t === 'saint' || t === 'sainte' || t === 'st' || t === 'ste') && i + 1 < tokens.length) {
      merged.push(`saint${tokens[++i]}`);
    } else if (t === 'centre' && tokens[i + 1] === 'ville') {
      merged.push(`centre${tokens[++i]}`);
    } else {
      merged.push(t);
    }
  }
  return merged;
}

/** Place and street names are proper nouns: a typo is forgiven only in a long one ("Lambezelec"). */
const placeWordIn = (typed: string[], word: string) => typed.includes(word) || (word.length >= 7 && hasWord(typed, word));

interface NameMatch {
  score: number;
  /** The name holds no distinctive word: it counts only in context or given alone. */
  weak: boolean;
  /** The typed words the name accounts for. */
  used: Set<string>;
}

function nameMatch(typed: string[], name: string): NameMatch | null {
  const core = placeTokens(name).filter((w) => w.length >= 3 && !PLACE_KIND_WORDS.has(w));
  if (core.length === 0) return null;
  const rare = core.filter((w) => !COMMON_PLACE_WORDS.has(w));
  const hits = core.filter((w) => placeWordIn(typed, w));
  const used = new Set(typed.filter((t) => core.some((w) => t === w || (w.length >= 7 && wordMatches(t, w)))));
  if (hits.length === core.length) return { score: 2 + core.length, weak: rare.length === 0, used };
  const rareHits = rare.filter((w) => hits.includes(w)).length;
  if (rareHits > 0) return { score: rareHits, weak: false, used };
  // "Hameaux et écarts": a name without a distinctive word may be given in part, when the context is a place.
  return rare.length === 0 && hits.length > 0 ? { score: hits.length / 2, weak: true, used } : null;
}

export interface PlaceMatch {
  place: Place;
  /** Higher for a full name or street than for one distinctive word. */
  score: number;
  /** Only words common in everyday speech matched: trust it only when a place is expected. */
  weak: boolean;
  /** The message says nothing but the place ("Bourg", "rue de Siam"). */
  alone: boolean;
}

/**
 * The collection place a text names, by the place's own name or one of its streets (attached locations),
 * or null when none or several fit equally. A place matches by its distinctive words only: "de", "la",
 * "saint" or "France" alone name no place.
 */
export function placeMentioned(knowledge: CityKnowledge, text: string): PlaceMatch | null {
  const typed = placeTokens(text);
  let best: { place: Place; match: NameMatch } | null = null;
  let tie = false;
  for (const place of knowledge.city.wasteCollectionPlaces) {
    for (const name of [place.name, ...place.attachedLocations.map((l) => l.name)]) {
      const match = nameMatch(typed, name);
      if (!match) continue;
      const better = !best || match.score > best.match.score || (match.score === best.match.score && best.match.weak && !match.weak);
      if (better) {
        best = { place, match };
        tie = false;
      } else if (best && best.place.id !== place.id && match.score === best.match.score && match.weak === best.match.weak) {
        tie = true;
      }
    }
  }
  if (!best || tie) return null;
  const rest = typed.filter((t) => !best.match.used.has(t) && !PLACE_KIND_WORDS.has(t) && !PLACE_FILLER.has(t));
  return { place: best.place, score: best.match.score, weak: best.match.weak, alone: rest.length === 0 };
}

/** An address a message gives: the one place it is in, or the places sharing its street when it has no number. */
export type AddressMention = ({ place: Place } | { shared: AddressMatch<Place>[] }) & {
  /** The stretch of the message that is the address. */
  text: string;
};

/**
 * The address a message holds (`j'habite au 12 rue de Siam`), matched as GET /public/places/lookup matches one
 * (domain/address-match.ts) on the city's street rules and attached locations, streets begun aside: the longest
 * stretch of the sentence from a street type word that names a known street (a typo or two tolerated). Null when
 * the message names no street of the city.
 */
export function addressMentioned(knowledge: CityKnowledge, text: string, options: { residence?: boolean } = {}): AddressMention | null {
  const candidates = addressesIn(text);
  if (candidates.length === 0) return null;
  const places = new Map(knowledge.city.wasteCollectionPlaces.map((p) => [p.id, p]));
  const rules = knowledge.streets.flatMap((rule) => {
    const place = places.get(rule.placeId);
    return place ? [{ ...rule, place, placeName: place.name }] : [];
  });
  const locations = knowledge.city.wasteCollectionPlaces.flatMap((place) =>
    place.attachedLocations.map((l) => ({ place, placeId: place.id, placeName: place.name, name: l.name })),
  );
  const index = addressIndex(rules, locations);
  for (const candidate of candidates) {
    const matches = matchAddress(parseAddress(candidate, { communeNames: [knowledge.city.name] }), index, { prefixes: false });
    if (matches.length === 0) continue;
    // A name of everyday words only (« Le Passage ») is no address in « prochain passage des déchets verts »: it
    // needs a distinctive word of the message, a house number, or to be given as where the citizen lives.
    const typed = contentTokens(candidate);
    const distinctive = (name: string) => placeTokens(name).some((w) => w.length >= 3 && !PLACE_KIND_WORDS.has(w) && !COMMON_PLACE_WORDS.has(w) && typed.includes(w));
    if (!/\d/.test(candidate) && !options.residence && !distinctive(matches[0].name)) continue;
    const best = matches.filter((m) => m.tier === matches[0].tier && m.name === matches[0].name);
    const ids = new Set(best.map((m) => m.place.id));
    return ids.size === 1 ? { place: best[0].place, text: candidate } : { shared: best, text: candidate };
  }
  return null;
}

/** Words around a place given alone ("j'habite au bourg", "c'est le secteur 2"). */
const PLACE_FILLER = new Set(PLACE_WORDS.filler);
