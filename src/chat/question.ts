import { asksCollection, readIntents, strayWords, unknownWords, type Intents } from './intents.ts';
import { normalizeText } from './text-match.ts';
import { formatDayNumber, todayIn, type DayNumber } from '../kernel/dates.ts';
import { dayAsked, type AskedDay } from './dates.ts';
import {
  addressMentioned,
  findMaterial,
  placeMentioned,
  placesCollecting,
  wasteTypesMentioned,
  type AddressMention,
  type CityKnowledge,
  type GuidanceTopic,
  type MaterialEntry,
  type MaterialLookup,
  type Place,
  type PlaceMatch,
  type WasteType,
} from './knowledge.ts';
import { asksOpenNow, pointsNamed } from './opening.ts';
import { isSure, rankedMaterial, rankedOverride, type RankedMaterial } from './guide-search.ts';
import { bestPassage, type ContentPassage } from './content.ts';
import type { AddressMatch } from '../domain/address-match.ts';

/**
 * The question model of the built-in assistant (issue 22): a message is read once into a `Reading` (its intents and
 * what it names: waste types, material, day, place, address, points), then into one typed `Question`, its kind and
 * slots, by the first rule of `RULES` that applies. The rules' order is the precedence between kinds. Each kind is
 * answered by one handler (handlers.ts). What the conversation remembers between messages is `AssistantState`, data
 * stored on the conversation, never recovered from the assistant's own replies.
 */

export type ConsignTopic = Exclude<GuidanceTopic, 'holidays'>;

export type Question =
  | { kind: 'empty' }
  | { kind: 'english' }
  | { kind: 'handoff' }
  | { kind: 'streetShared'; matches: AddressMatch<Place>[] }
  | { kind: 'openNow' }
  | { kind: 'placeGiven'; resume: string | null }
  | { kind: 'greeting'; thanksOnly: boolean }
  | { kind: 'outOfScope' }
  | { kind: 'help' }
  | { kind: 'collectionsOnDay'; day: DayNumber; wasteTypes: WasteType[]; withHolidayRule: boolean }
  | { kind: 'notCollectedAnywhere'; wasteTypes: WasteType[] }
  | { kind: 'holidays' }
  | { kind: 'nextCollections'; wasteTypes: WasteType[]; topics: ConsignTopic[] }
  | { kind: 'unknownStream' }
  | { kind: 'material'; entry: MaterialEntry; guess: boolean }
  | { kind: 'nearMaterial'; entry: MaterialEntry }
  | { kind: 'ambiguousMaterial'; entries: MaterialEntry[] }
  | { kind: 'unknownMaterial' }
  | { kind: 'wasteTypes'; wasteTypes: WasteType[] }
  | { kind: 'guidance'; topics: ConsignTopic[] }
  | { kind: 'schedule' }
  | { kind: 'points'; pointIds: string[] }
  | { kind: 'pointMaterials'; pointIds: string[] }
  | { kind: 'contact' }
  | { kind: 'content'; passage: ContentPassage }
  | { kind: 'notInData' };

export type QuestionKind = Question['kind'];

/** What the assistant remembers of a conversation, stored on it as data (migration 0016). */
export interface AssistantState {
  /** The citizen's question that waits for a place: answered once the place is given. */
  awaitingPlace: { question: string } | null;
  /** The last question answered, for a follow-up (« et le verre ? », « et le samedi ? »). */
  last: { kind: QuestionKind; wasteTypeIds: string[]; day: string | null; pointIds: string[] } | null;
}

export const NO_STATE: AssistantState = { awaitingPlace: null, last: null };

/** Reads a stored state defensively: anything unexpected is no state. */
export function assistantState(stored: unknown): AssistantState {
  if (!stored || typeof stored !== 'object') return NO_STATE;
  const s = stored as Partial<AssistantState>;
  const awaiting = s.awaitingPlace && typeof s.awaitingPlace.question === 'string' ? { question: s.awaitingPlace.question } : null;
  const l = s.last;
  const last =
    l && typeof l.kind === 'string'
      ? {
          kind: l.kind,
          wasteTypeIds: Array.isArray(l.wasteTypeIds) ? l.wasteTypeIds.filter((x) => typeof x === 'string') : [],
          day: typeof l.day === 'string' ? l.day : null,
          pointIds: Array.isArray(l.pointIds) ? l.pointIds.filter((x) => typeof x === 'string') : [],
        }
      : null;
  return { awaitingPlace: awaiting, last };
}

/** Everything a message names, read once. */
export interface Reading {
  knowledge: CityKnowledge;
  state: AssistantState;
  now: Date;
  today: DayNumber;
  /** The message as the citizen wrote it (within the analysed bounds). */
  whole: string;
  /** The message without the address it gave. */
  text: string;
  intents: Intents;
  address: AddressMention | null;
  addressPlace: Place | null;
  streetShared: boolean;
  placeMatch: PlaceMatch | null;
  /** The place the message names (by name, address or a number answering the list), or null. */
  named: Place | null;
  /** The place the question is about: named, else the conversation's, else the city's only one. */
  place: Place | null;
  awaitingPlace: boolean;
  wasteTypes: WasteType[];
  material: MaterialLookup;
  namedMaterial: boolean;
  /** The day asked, unless the day's words name a material (« sapin de Noël »). */
  day: AskedDay | null;
  rawDay: AskedDay | null;
  followUp: boolean;
  collection: boolean;
  topics: ConsignTopic[];
  /** The waste types a collection question is about (named, or the material's). */
  collectionTypes: WasteType[];
  nowhere: boolean;
  ranked: () => RankedMaterial | null;
  passage: () => ContentPassage | null;
}

const COLLECTION_KINDS: QuestionKind[] = ['nextCollections', 'collectionsOnDay', 'notCollectedAnywhere', 'unknownStream'];
const POINT_KINDS: QuestionKind[] = ['openNow', 'points', 'pointMaterials'];

/**
 * The place a message names. A place counts by its distinctive words. One such word is weak evidence when a material
 * explains it too; a name made of everyday words ("Bourg", "Le Passage", "Quartier Nord") counts only given alone or
 * as where the citizen lives, even after "which sector?" ("la capitale du Nord" answers nothing).
 */
function placeNamed(knowledge: CityKnowledge, whole: string, address: AddressMention | null, intents: Intents, material: MaterialLookup, awaitingPlace: boolean) {
  const expectsPlace = awaitingPlace || intents.residence;
  const placeMatch = placeMentioned(knowledge, whole);
  const addressPlace = address && 'place' in address ? address.place : null;
  const streetShared = address !== null && 'shared' in address;
  const byName =
    !streetShared &&
    placeMatch &&
    (placeMatch.weak ? intents.residence || placeMatch.alone : placeMatch.score >= 2 || expectsPlace || placeMatch.alone || material.kind === 'none')
      ? placeMatch.place
      : null;
  // "2" answers the numbered list of places the assistant just gave.
  const byNumber = intents.number !== null && awaitingPlace ? (knowledge.city.wasteCollectionPlaces[intents.number - 1] ?? null) : null;
  return { placeMatch, addressPlace, streetShared, named: addressPlace ?? byName ?? byNumber };
}

export function readMessage(knowledge: CityKnowledge, place: Place | null, state: AssistantState, whole: string, now: Date): Reading {
  // An address of the city's street rules ("j'habite 12 rue de Siam") says the place better than a name does; the
  // question is read from the rest of the message (a street's words name no bin, no material, no point).
  const wholeIntents = readIntents(whole);
  const address = addressMentioned(knowledge, whole, { residence: wholeIntents.residence });
  // "mon adresse : …" introduces the address; it asks for no point's address.
  const text = address ? whole.replace(address.text, ' ').replace(/\b(?:mon|notre)\s+adresse\b/giu, ' ') : whole;
  // Without the address, the rest is read for the question; an address given alone is still no empty message.
  const intents = address ? { ...readIntents(text), residence: true, empty: wholeIntents.empty } : wholeIntents;
  const places = knowledge.city.wasteCollectionPlaces;
  const onlyPlace = places.length === 1 ? places[0] : null;
  const today = todayIn(knowledge.timeZone, now);
  const wasteTypes = wasteTypesMentioned(knowledge, text);
  const material = findMaterial(knowledge, text);
  const awaitingPlace = state.awaitingPlace !== null;

  const { placeMatch, addressPlace, streetShared, named } = placeNamed(knowledge, whole, address, intents, material, awaitingPlace);

  // "sapin de Noël" is a material, not a holiday question; "et à Noël ?" is not the Christmas tree.
  const rawDay = dayAsked(text, today);
  const withoutDay = rawDay?.named && material.kind === 'found' ? findMaterial(knowledge, text.replace(rawDay.words, ' ')) : material;
  const namedMaterial = material.kind === 'found' && (material.score >= 2 || intents.material || withoutDay.kind === 'found') && !intents.collection;
  const day = namedMaterial ? null : rawDay;
  const ownIntent = intents.collection || intents.material || intents.points || intents.guidance.length > 0 || intents.help;
  // "et le verre ?", "et le 1er janvier ?" after a collection question ask the same for another stream or day.
  const lastKind = state.last?.kind ?? null;
  const followUp = !ownIntent && (wasteTypes.length > 0 || day !== null) && lastKind !== null && COLLECTION_KINDS.includes(lastKind);
  const collection = intents.collection || followUp;
  const materialType = material.kind === 'found' && !intents.material && !day?.named ? [material.entry.wasteType] : [];
  const collectionTypes = wasteTypes.length > 0 ? wasteTypes : materialType;
  let ranked: RankedMaterial | null | undefined;
  let passage: ContentPassage | null | undefined;
  return {
    knowledge,
    state,
    now,
    today,
    whole,
    text,
    intents,
    address,
    addressPlace,
    streetShared,
    placeMatch,
    named,
    place: named ?? place ?? onlyPlace,
    awaitingPlace,
    wasteTypes,
    material,
    namedMaterial,
    day,
    rawDay,
    followUp,
    collection,
    topics: consignTopics(intents, collectionTypes, day),
    collectionTypes,
    nowhere: collectionTypes.length > 0 && collectionTypes.every((w) => placesCollecting(knowledge, w).length === 0),
    ranked: () => (ranked === undefined ? (ranked = rankedMaterial(knowledge, text)) : ranked),
    passage: () => (passage === undefined ? (passage = bestPassage(knowledge, text)) : passage),
  };
}

/** The consigns asked; « à quelle heure passe le camion ? » asks when to put the bins out. */
function consignTopics(intents: Intents, types: WasteType[], day: AskedDay | null): ConsignTopic[] {
  const topics = intents.guidance.filter((g): g is ConsignTopic => g !== 'holidays');
  const truckHour = intents.hour && types.length === 0 && day === null && asksCollection(intents, false);
  if (truckHour && !topics.includes('outOfTheBins')) topics.push('outOfTheBins');
  return topics;
}

function hasOwnQuestion(r: Reading): boolean {
  const i = r.intents;
  return (
    i.handoff || i.help || i.collection || i.material || i.points || i.guidance.length > 0 || i.contact || r.wasteTypes.length > 0 || r.material.kind !== 'none'
  );
}

type Rule = (r: Reading) => Question | null;

/**
 * The precedence between kinds: the first rule that reads a question wins. Each rule says in its name what it
 * recognises; the comments say why it comes before the next.
 */
const RULES: [string, Rule][] = [
  ['empty', (r) => (r.intents.empty ? { kind: 'empty' } : null)],
  ['english', (r) => (r.intents.english ? { kind: 'english' } : null)],
  ['handoff', (r) => (r.intents.handoff ? { kind: 'handoff' } : null)],
  // A street shared between sectors, without its number: which numbers go where, and the number asked.
  ['street shared', (r) => (!r.named && r.streetShared && r.address && 'shared' in r.address ? { kind: 'streetShared', matches: r.address.shared } : null)],
  // « La déchèterie est-elle ouverte ? »: yes or no now, and the next change, from the points' specs.
  // « le couvercle fermé » is a consign, not a point's hours: without a point's name, a consign comes first.
  [
    'open now',
    (r) =>
      asksOpenNow(r.intents.tokens, r.intents.points, r.rawDay !== null && r.rawDay.day !== r.today) && (r.topics.length === 0 || r.intents.pointNoun) && aboutPoints(r)
        ? { kind: 'openNow' }
        : null,
  ],
  // « et le samedi ? » after a question about a point: its hours again.
  [
    'point follow-up',
    (r) =>
      !hasOwnQuestion(r) && r.state.last && POINT_KINDS.includes(r.state.last.kind) && r.state.last.pointIds.length > 0 && r.intents.weekday
        ? { kind: 'points', pointIds: r.state.last.pointIds }
        : null,
  ],
  // A message that only gives a place (or an address): noted, and the question that waited for it answered.
  [
    'place given',
    (r) => {
      if (hasOwnQuestion(r) || r.day !== null || r.intents.wasteWord) return null;
      if (r.named && (r.placeMatch?.alone || r.awaitingPlace || r.intents.residence || r.addressPlace)) {
        return { kind: 'placeGiven', resume: r.state.awaitingPlace?.question ?? null };
      }
      return null;
    },
  ],
  ['contact', (r) => (r.intents.contact && !r.intents.collection && r.wasteTypes.length === 0 ? { kind: 'contact' } : null)],
  [
    'greeting or nothing to answer',
    (r) => {
      if (hasOwnQuestion(r) || r.day !== null || r.intents.wasteWord) return null;
      if (r.intents.greeting || r.intents.thanks) return { kind: 'greeting', thanksOnly: r.intents.thanks && !r.intents.greeting };
      const passage = r.passage();
      return passage ? { kind: 'content', passage } : { kind: 'outOfScope' };
    },
  ],
  ['help', (r) => (r.intents.help && !r.intents.collection && !r.intents.material && r.wasteTypes.length === 0 && r.day === null ? { kind: 'help' } : null)],
  // "est-ce que ça passe le 25 décembre ?", "et à Noël ?": what the calendar holds that day.
  [
    'collections on a day',
    (r) => {
      const ownIntent = r.intents.collection || r.intents.material || r.intents.points || r.intents.guidance.length > 0 || r.intents.help;
      if (r.day === null || !(r.collection || r.day.named || r.collectionTypes.length > 0 || !ownIntent)) return null;
      if (r.nowhere) return { kind: 'notCollectedAnywhere', wasteTypes: r.collectionTypes };
      // « les collectes de Noël ? » without a place: the city's holiday rule, and which sectors to choose from.
      if (r.day.named && !r.place) return { kind: 'holidays' };
      return { kind: 'collectionsOnDay', day: r.day.day, wasteTypes: r.collectionTypes, withHolidayRule: r.day.named || r.intents.guidance.includes('holidays') };
    },
  ],
  ['holidays', (r) => (r.intents.guidance.includes('holidays') && !r.namedMaterial ? { kind: 'holidays' } : null)],
  // « le bac jaune c'est toutes les semaines ? »: the place's weekly days.
  ['schedule', (r) => (r.intents.frequency && (r.wasteTypes.length > 0 || r.intents.collection || r.intents.tokens.includes('bac')) && r.topics.length === 0 ? { kind: 'schedule' } : null)],
  // "Quand sortir les bacs ?" asks the rule; "quand sortir la poubelle jaune ?" asks a date too.
  [
    'next collections',
    (r) => {
      const asks = asksCollection({ ...r.intents, collection: r.collection }, r.collectionTypes.length > 0 || r.followUp);
      if (!asks || (r.topics.length > 0 && r.collectionTypes.length === 0)) return null;
      // Glass banks are the same for every sector: no need to ask which one.
      if (r.nowhere && !r.place) return { kind: 'notCollectedAnywhere', wasteTypes: r.collectionTypes };
      if (r.place) {
        const unknown = r.collectionTypes.length === 0 && r.material.kind === 'none' ? unknownWords(r.intents, r.knowledge) : [];
        if (unknown.length > 0) return { kind: 'unknownStream' };
      }
      return { kind: 'nextCollections', wasteTypes: r.collectionTypes, topics: r.topics };
    },
  ],
  // « qu'est-ce qu'on peut déposer à la déchèterie de Lavallot ? »: what a named point takes.
  [
    'point materials',
    (r) => {
      if (!r.intents.points || !r.intents.material || r.material.kind === 'found') return null;
      const points = pointsNamed(r.knowledge, r.text).filter((p) => r.knowledge.city.recyclingPoints.length > 1 && p);
      return points.length > 0 && points.length < r.knowledge.city.recyclingPoints.length ? { kind: 'pointMaterials', pointIds: points.map((p) => p.id) } : null;
    },
  ],
  // « Quels sont les points de recyclage de la commune ? »: the points, not the recyclable stream.
  ['every point', (r) => (r.intents.points && r.intents.pointNoun && (r.intents.allPoints || /\bquels? sont\b|\bliste\b/.test(normalizeText(r.text))) && r.material.kind !== 'found' ? { kind: 'points', pointIds: pointsAsked(r) } : null)],
  // The ranked search of the sorting guide (the public search's) has the last word on what the object is: a sure hit
  // of another material than the phrase match (« capsule de café » is not « Café (marc) ») wins.
  [
    'material',
    (r) => {
      if (r.material.kind !== 'found' || !(r.intents.material || !r.intents.points)) return null;
      const override = rankedOverride(r.material, r.ranked());
      if (override) return { kind: 'material', entry: override.entry, guess: override.guess };
      return { kind: 'material', entry: r.material.entry, guess: false };
    },
  ],
  // "Où déposer le verre ?": a stream named as such is better answered by the stream than by a list of objects.
  ['stream before objects', (r) => (r.material.kind === 'ambiguous' && r.wasteTypes.length > 0 && !r.intents.points ? { kind: 'wasteTypes', wasteTypes: r.wasteTypes } : null)],
  ['ambiguous material', (r) => (r.material.kind === 'ambiguous' && (r.intents.material || !r.intents.points) ? { kind: 'ambiguousMaterial', entries: r.material.entries } : null)],
  ['consigns', (r) => (r.topics.length > 0 ? { kind: 'guidance', topics: r.topics } : null)],
  ['points', (r) => (r.intents.points && aboutPoints(r) ? { kind: 'points', pointIds: pointsAsked(r) } : null)],
  ['waste types', (r) => (r.wasteTypes.length > 0 ? { kind: 'wasteTypes', wasteTypes: r.wasteTypes } : null)],
  [
    'object of the guide',
    (r) => {
      if (!(r.intents.material || r.intents.wasteWord || r.material.kind === 'near')) return null;
      const ranked = r.ranked();
      if (ranked !== null && isSure(ranked)) return { kind: 'material', entry: ranked.entry, guess: false };
      if (r.material.kind === 'near') return { kind: 'nearMaterial', entry: r.material.entry };
      if (ranked) return { kind: 'material', entry: ranked.entry, guess: true };
      const passage = r.passage();
      return passage ? { kind: 'content', passage } : { kind: 'unknownMaterial' };
    },
  ],
  ['collection without a subject', (r) => (r.intents.collection && !r.place ? { kind: 'nextCollections', wasteTypes: [], topics: [] } : null)],
  [
    'the city’s pages',
    (r) => {
      const passage = r.passage();
      return passage ? { kind: 'content', passage } : null;
    },
  ],
  ['not in the data', () => ({ kind: 'notInData' })],
];

/**
 * Whether a message about hours or opening is about the city's points: it names a kind of point or a point, or it
 * says nothing else (« et elle est ouverte quand ? »); « les horaires de la piscine » is about something else.
 */
function aboutPoints(r: Reading): boolean {
  if (r.intents.pointNoun) return true;
  const all = r.knowledge.city.recyclingPoints;
  const named = pointsNamed(r.knowledge, r.text);
  if (named.length > 0 && named.length < all.length) return true;
  return strayWords(r.intents).length === 0;
}

/** The points a points question is about: those it names, else every point of the city. */
function pointsAsked(r: Reading): string[] {
  const all = r.knowledge.city.recyclingPoints;
  const named = pointsNamed(r.knowledge, r.text);
  // « tous les points » asks for every one, whatever else the words match.
  const ids = named.length > 0 && named.length < all.length && !r.intents.allPoints ? named : all;
  return ids.map((p) => p.id);
}

/** The typed question of a message: the first rule of the precedence that reads one. */
export function readQuestion(r: Reading): Question {
  for (const [, rule] of RULES) {
    const question = rule(r);
    if (question) return question;
  }
  return { kind: 'notInData' };
}

/** The state after answering `q`: what a follow-up may continue. */
export function nextState(r: Reading, q: Question, awaitingPlace: boolean): AssistantState {
  const day = q.kind === 'collectionsOnDay' ? formatDayNumber(q.day) : null;
  const wasteTypeIds = 'wasteTypes' in q ? q.wasteTypes.map((w) => w.id) : [];
  const pointIds = 'pointIds' in q ? q.pointIds : q.kind === 'openNow' ? pointsNamed(r.knowledge, r.text).map((p) => p.id) : [];
  // A place given resumes the question that waited: its own state is that question's.
  if (q.kind === 'greeting') return { awaitingPlace: null, last: r.state.last };
  // A place given alone is answered with its next collections: « les ordures ? » then continues them.
  if (q.kind === 'placeGiven') return { awaitingPlace: null, last: q.resume ? r.state.last : { kind: 'nextCollections', wasteTypeIds: [], day: null, pointIds: [] } };
  // A question waiting for its place is still the last question: « et le verre ? » continues it.
  return { awaitingPlace: awaitingPlace ? { question: r.whole } : null, last: { kind: q.kind, wasteTypeIds, day, pointIds } };
}
