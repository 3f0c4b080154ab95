import type { CityKnowledge, GuidanceTopic } from './knowledge.ts';
import { STOPWORDS, editDistance, normalizeText, tokenize, wordMatches } from './text-match.ts';
import { INTENT_WORDS, stems } from './lexicon.ts';

/**
 * What a citizen's message asks, read from its words. Several intents may hold at once ("quand sortir la
 * poubelle jaune" asks a date and the bins-out rule); the assistant decides which to answer.
 */
export interface Intents {
  tokens: string[];
  handoff: boolean;
  greeting: boolean;
  thanks: boolean;
  help: boolean;
  /** A date of collection is asked ("quand", "prochaine collecte", "passe"…). */
  collection: boolean;
  /** Where something goes ("où jeter", "quelle poubelle", "recycler"…). */
  material: boolean;
  /** Recycling centres, drop-off points, their hours or addresses. */
  points: boolean;
  guidance: GuidanceTopic[];
  /** The citizen says where they live ("j'habite", "mon quartier", "ma rue"). */
  residence: boolean;
  /** The message is a bare number (an answer to a numbered list). */
  number: number | null;
  /** No word at all: emoji, punctuation. */
  empty: boolean;
  /** Written in English. */
  english: boolean;
  /** Names a kind of waste or object the citizen wants rid of, known to the data or not ("piles", "frigo"). */
  wasteWord: boolean;
  /** Asks how to reach the service (telephone, e-mail). */
  contact: boolean;
  /** Names a day of the week. */
  weekday: boolean;
  /** Asks how often (« toutes les semaines ? »). */
  frequency: boolean;
  /** Asks for every point (« tous les points »). */
  allPoints: boolean;
  /** Names a kind of point (« déchèterie », « borne », « point de collecte »), not only hours. */
  pointNoun: boolean;
  /** Asks an hour (« à quelle heure »). */
  hour: boolean;
  /** Asks whether a collection moved, or was kept (« reportée », « décalée », « maintenu »). */
  moved: boolean;
  /** Asks what comes after a day (« après le 25 décembre », not « après-demain »). */
  after: boolean;
}

const W = INTENT_WORDS;
/** Intent words tolerate typos only when long: short ones ("ouvert", "sort") are too close to other words. */
const matches = (typed: string, word: string) => (word.length >= 7 ? wordMatches(typed, word) : typed === word);
const hasAny = (tokens: string[], list: string[]) => list.some((w) => tokens.some((t) => matches(t, w)));
const hasPhrase = (tokens: string[], phrase: string[]) => phrase.every((w) => tokens.includes(w));


export function readIntents(text: string): Intents {
  // "mot de passe" is no collection ("passe").
  const tokens = tokenize(text.replace(/mots?\s+de\s+passe/gi, 'motdepasse'));
  const raw = normalizeText(text);
  const rawWords = raw === '' ? [] : raw.split(' ');
  const englishWords = rawWords.filter((w) => W.english.has(w)).length;
  const frenchWords = tokens.filter((t) => W.frenchMarkers.has(t)).length;
  const guidance: GuidanceTopic[] = [];
  // "jour férié" is about holidays, not about a collection day.
  const holiday = hasAny(tokens, W.holiday) || W.holidayPhrases.some((p) => hasPhrase(tokens, p));
  if (holiday) guidance.push('holidays');
  if (hasAny(tokens, W.out)) guidance.push('outOfTheBins');
  if (hasAny(tokens, W.present) || W.presentPhrases.some((p) => hasPhrase(tokens, p))) guidance.push('presentationOfBins');
  if (hasAny(tokens, W.return)) guidance.push('returnOfBins');
  if (hasAny(tokens, W.calendar) || hasPhrase(tokens, stems('mauvais jour'))) guidance.push('respectOfCalendar');
  const number = /^\s*(\d{1,2})\s*\.?\s*$/.exec(text);
  return {
    tokens,
    handoff: hasAny(tokens, W.handoff) || W.handoffPhrases.some((p) => hasPhrase(tokens, p)),
    residence: hasAny(tokens, W.residence),
    greeting: hasAny(tokens, W.greeting),
    thanks: hasAny(tokens, W.thanks),
    help: hasAny(tokens, W.help) || (tokens.includes('faire') && hasAny(tokens, stems('sais peux sait'))),
    collection: !holiday && hasAny(tokens, W.temporal),
    material: hasAny(tokens, W.material) || hasPhrase(tokens, stems('quelle poubelle')) || hasPhrase(tokens, stems('quel bac')),
    points: hasAny(tokens, W.points) || W.pointPhrases.some((p) => hasPhrase(tokens, p)),
    guidance,
    number: number ? Number(number[1]) : null,
    empty: tokens.length === 0,
    english: englishWords >= 2 && englishWords > frenchWords,
    wasteWord: hasAny(tokens, W.wasteWords),
    contact: hasAny(tokens, W.contact),
    weekday: hasAny(tokens, W.weekday),
    frequency: hasAny(tokens, W.frequency) || W.frequencyPhrases.some((p) => hasPhrase(tokens, p)),
    allPoints: hasAny(tokens, W.allPoints),
    pointNoun: hasAny(tokens, W.pointNouns),
    hour: hasAny(tokens, W.truckHour),
    // Exact words: a typo's distance would take « avance » (« sortir le bac en avance ») for « avancée ».
    moved: tokens.some((t) => W.moved.includes(t)),
    after: /\bapres (?!demain\b)/.test(raw),
  };
}

/** Whether the message asks for a collection date, given what it names. */
export function asksCollection(intents: Intents, namesWasteType: boolean): boolean {
  return intents.collection && (namesWasteType || hasAny(intents.tokens, W.collectionSubject));
}

/** A filler word, allowing one typo in words of four letters or more ("pase", "camoin"). */
const isFiller = (t: string) => W.collectionFiller.includes(t) || (t.length >= 4 && W.collectionFiller.some((w) => w.length >= 4 && editDistance(t, w, 1) <= 1));

/** Words of a collection question that are neither filler nor a place: the stream the citizen named, unknown to the data. */
export function unknownWords(intents: Intents, knowledge: CityKnowledge): string[] {
  const placeWords = new Set(
    knowledge.city.wasteCollectionPlaces.flatMap((p) => [p.name, ...p.attachedLocations.map((l) => l.name)]).flatMap((n) => tokenize(n)),
  );
  return intents.tokens.filter((t) => t.length > 2 && !STOPWORDS.has(t) && !isFiller(t) && !placeWords.has(t) && !/^\d+$/.test(t));
}

/** Words of a message that are none of the assistant's own words: what else it is about (« la piscine »). */
export function strayWords(intents: Intents): string[] {
  const own = new Set([...W.points, ...W.pointNouns, ...W.temporal, ...W.allPoints, ...W.weekday, ...W.greeting, ...W.material, ...W.collectionFiller]);
  return intents.tokens.filter((t) => t.length > 2 && !STOPWORDS.has(t) && !own.has(t) && !/^\d+$/.test(t));
}
