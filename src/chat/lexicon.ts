import { readFileSync } from 'node:fs';
import { stem } from './text-match.ts';

/**
 * The assistant's vocabularies are data (src/chat/lexicon/*.json), read once when the module loads: a city or a
 * translator extends them without touching code. Words are stored plain (lower case, no accents) and stemmed here.
 */

function read<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`./lexicon/${name}.json`, import.meta.url), 'utf8')) as T;
}

/** A space-separated list of words, stemmed. */
export const stems = (list: string): string[] => list.split(/\s+/).filter(Boolean).map(stem);
/** Phrases, each as its stemmed words. */
export const phrases = (list: string[]): string[][] => list.map(stems);

type IntentLexicon = Record<string, string> & { handoffPhrases: string[]; holidayPhrases: string[]; presentPhrases: string[]; frequencyPhrases: string[]; pointPhrases: string[] };
const intents = read<IntentLexicon>('intents');

export const INTENT_WORDS = {
  handoff: stems(intents.handoff),
  handoffPhrases: phrases(intents.handoffPhrases),
  residence: stems(intents.residence),
  greeting: stems(intents.greeting),
  thanks: stems(intents.thanks),
  help: stems(intents.help),
  temporal: stems(intents.temporal),
  collectionSubject: stems(intents.collectionSubject),
  material: stems(intents.material),
  points: stems(intents.points),
  allPoints: stems(intents.allPoints),
  pointNouns: stems(intents.pointNouns),
  pointPhrases: phrases(intents.pointPhrases),
  truckHour: stems(intents.truckHour),
  moved: stems(intents.moved),
  contact: stems(intents.contact),
  out: stems(intents.out),
  present: stems(intents.present),
  presentPhrases: phrases(intents.presentPhrases),
  return: stems(intents.return),
  calendar: stems(intents.calendar),
  frequency: stems(intents.frequency),
  frequencyPhrases: phrases(intents.frequencyPhrases),
  holiday: stems(intents.holiday),
  holidayPhrases: phrases(intents.holidayPhrases),
  weekday: stems(intents.weekday),
  wasteWords: stems(intents.wasteWords),
  collectionFiller: stems(intents.collectionFiller),
  /** Compared with unstemmed words: English plurals are not French ones. */
  english: new Set(intents.english.split(/\s+/)),
  frenchMarkers: new Set(stems(intents.frenchMarkers)),
};

export interface StreamFamily {
  anchors: string[];
  phrases: string[];
}

const streams = read<{ families: StreamFamily[]; colours: Record<string, string> }>('streams');
/** Everyday names of the waste streams (vocabulary.ts). */
export const STREAM_FAMILIES: StreamFamily[] = streams.families;
/** Colour words, to the colour family they name. */
export const COLOUR_WORDS: Record<string, string> = streams.colours;

const places = read<{ kindWords: string; commonWords: string; filler: string }>('places');
/** Words of place names (knowledge.ts). */
export const PLACE_WORDS = { kindWords: stems(places.kindWords), commonWords: stems(places.commonWords), filler: stems(places.filler) };

const opening = read<{ state: string; hours: string; filler: string }>('opening');
/** Words of questions about a point being open (opening.ts). */
export const OPENING_WORDS = { state: stems(opening.state), hours: stems(opening.hours), filler: stems(opening.filler) };

const sorting = read<{ materialFiller: string; pointFiller: string }>('sorting');
/** Words of sorting and drop-off questions that name no object and no point (knowledge.ts). */
export const SORTING_WORDS = { materialFiller: stems(sorting.materialFiller), pointFiller: stems(sorting.pointFiller) };

interface DaysLexicon {
  months: Record<string, number>;
  fixed: { phrases: string[]; month: number; day: number }[];
  movable: { phrases: string[]; holiday: string }[];
}
const days = read<DaysLexicon>('days');

/** Plain-letter phrases as a pattern on normalised text (`inText` false), or on the message as written (true). */
function phrasePattern(list: string[], inText: boolean): RegExp {
  const accents: Record<string, string> = { a: '[aàâä]', e: '[eéèêë]', i: '[iîï]', o: '[oôö]', u: '[uùûü]', c: '[cç]' };
  const written = (p: string) => p.replace(/[a-z]/g, (ch) => accents[ch] ?? ch).replace(/ /g, '[\\s’\'-]+');
  const alternatives = list.map((p) => (inText ? written(p) : p)).join('|');
  return inText ? new RegExp(`(?:${alternatives})`, 'iu') : new RegExp(`\\b(?:${alternatives})\\b`);
}

/** Month names and abbreviations, to their number. */
export const MONTH_WORDS: Record<string, number> = days.months;
/** Fixed-date holidays: the pattern on normalised text, the pattern on the message, the date. */
export const FIXED_DAYS = days.fixed.map((d) => ({ pattern: phrasePattern(d.phrases, false), written: phrasePattern(d.phrases, true), month: d.month, day: d.day }));
/** Holidays that move with Easter, by the kernel's name. */
export const MOVABLE_DAYS = days.movable.map((d) => ({ pattern: phrasePattern(d.phrases, false), written: phrasePattern(d.phrases, true), holiday: d.holiday }));
