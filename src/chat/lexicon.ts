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
