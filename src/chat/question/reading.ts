import type { CityApi } from '../../domain/city-model/schemas.ts';
import { todayIn, type DayNumber } from '../../kernel/dates.ts';
import { asksCollection, readIntents, strayWords, type Intents } from '../intents.ts';
import { dayAsked, type AskedDay } from '../dates.ts';
import {
  addressMentioned,
  findMaterial,
  placeMentioned,
  placesCollecting,
  wasteTypesMentioned,
  type AddressMention,
  type CityKnowledge,
  type MaterialLookup,
  type Place,
  type PlaceMatch,
  type WasteType,
} from '../knowledge.ts';
import { pointsNamed } from '../opening.ts';
import { rankedMaterial, type RankedMaterial } from '../guide-search.ts';
import { bestPassage, type ContentPassage } from '../content.ts';
import { hazardNamed, lookupOfFamily, rankedOfFamily, type HazardFamily } from '../hazards.ts';
import type { AssistantState, ConsignTopic, Question, QuestionKind } from './model.ts';

/**
 * A message read once into a `Reading`: its intents, what it names (waste types, a material of the guide, a day, a
 * place, an address, points) and the predicates several rules share, computed here once. The rules (question.ts's
 * phases) only look at it; the costly parts (the guide's ranked search, the pages' best passage, the points named)
 * are computed on a rule's first call and kept.
 */

/** A rule of the question reader: the question it reads in a message, or null when it does not apply. */
export type Rule = (r: Reading) => Question | null;

type Point = CityApi['recyclingPoints'][number];

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
  /** The dangerous object the message names (a gas bottle, batteries, medicines…), or null. */
  hazard: HazardFamily | null;
  /** The guide's entry the message names; with a dangerous object, only an entry of its family (hazards.ts). */
  material: MaterialLookup;
  namedMaterial: boolean;
  /** The day asked, unless the day's words name a material (« sapin de Noël »). */
  day: AskedDay | null;
  rawDay: AskedDay | null;
  /** It asks in words of its own: a collection, where an object goes, points, a consign, help, or a move. */
  ownIntent: boolean;
  /** It asks nothing in words of its own but names a stream or a day after a collection question (« et le verre ? »). */
  followUp: boolean;
  collection: boolean;
  topics: ConsignTopic[];
  /** The waste types a collection question is about (named, or the material's). */
  collectionTypes: WasteType[];
  nowhere: boolean;
  /** It asks a question of its own: an intent of its own, a person, the contact, or it names a stream or an object. */
  ownQuestion: boolean;
  /** It asks nothing the data answers: no question of its own, no day, no word of waste. */
  asksNothing: boolean;
  /** The sorting guide's ranked search on the words naming the object. */
  ranked: () => RankedMaterial | null;
  /** The best passage of the group's pages for the message. */
  passage: () => ContentPassage | null;
  /** The points the message singles out by name: some of the city's, never all ([] when it names none or all). */
  namedPoints: () => Point[];
  /** A message about hours or opening is about the city's points (not « les horaires de la piscine »). */
  aboutPoints: () => boolean;
  /** The points a points question is about: those it names, else every point of the city. */
  askedPoints: () => string[];
}

const COLLECTION_KINDS: QuestionKind[] = ['nextCollections', 'collectionsOnDay', 'collectionMoved', 'notCollectedAnywhere', 'unknownStream'];

export function readMessage(knowledge: CityKnowledge, place: Place | null, state: AssistantState, whole: string, now: Date): Reading {
  const { address, text, intents } = withoutAddress(knowledge, whole);
  const places = knowledge.city.wasteCollectionPlaces;
  const onlyPlace = places.length === 1 ? places[0] : null;
  const today = todayIn(knowledge.timeZone, now);
  const wasteTypes = wasteTypesMentioned(knowledge, text);
  const hazard = hazardNamed(text);
  const material = lookupOfFamily(findMaterial(knowledge, text), hazard);
  const awaitingPlace = state.awaitingPlace !== null;
  const { placeMatch, addressPlace, streetShared, named } = placeNamed(knowledge, whole, address, intents, material, awaitingPlace);
  const subject = readSubject(knowledge, state, text, today, intents, wasteTypes, material);
  const ownQuestion = subject.ownIntent || intents.handoff || intents.contact || wasteTypes.length > 0 || material.kind !== 'none' || hazard !== null;
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
    hazard,
    material,
    ...subject,
    ownQuestion,
    asksNothing: !ownQuestion && subject.day === null && !intents.wasteWord,
    ...costlyReadings(knowledge, whole, text, intents, hazard),
  };
}

/**
 * An address of the city's street rules ("j'habite 12 rue de Siam") says the place better than a name does; the
 * question is read from the rest of the message (a street's words name no bin, no material, no point).
 */
function withoutAddress(knowledge: CityKnowledge, whole: string): { address: AddressMention | null; text: string; intents: Intents } {
  const wholeIntents = readIntents(whole);
  const address = addressMentioned(knowledge, whole, { residence: wholeIntents.residence });
  // "mon adresse : …" introduces the address; it asks for no point's address.
  const text = address ? whole.replace(address.text, ' ').replace(/\b(?:mon|notre)\s+adresse\b/giu, ' ') : whole;
  // Without the address, the rest is read for the question; an address given alone is still no empty message.
  const intents = address ? { ...readIntents(text), residence: true, empty: wholeIntents.empty } : wholeIntents;
  return { address, text, intents };
}

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

/** What a message asks about: the day, whether it asks a collection, for which waste types, and which consigns. */
function readSubject(
  knowledge: CityKnowledge,
  state: AssistantState,
  text: string,
  today: DayNumber,
  intents: Intents,
  wasteTypes: WasteType[],
  material: MaterialLookup,
) {
  // "sapin de Noël" is a material, not a holiday question; "et à Noël ?" is not the Christmas tree.
  const rawDay = dayAsked(text, today);
  const withoutDay = rawDay?.named && material.kind === 'found' ? findMaterial(knowledge, text.replace(rawDay.words, ' ')) : material;
  const namedMaterial = material.kind === 'found' && (material.score >= 2 || intents.material || withoutDay.kind === 'found') && !intents.collection;
  const day = namedMaterial ? null : rawDay;
  const ownIntent = intents.collection || intents.material || intents.points || intents.guidance.length > 0 || intents.help || intents.moved;
  // "et le verre ?", "et le 1er janvier ?" after a collection question ask the same for another stream or day.
  const lastKind = state.last?.kind ?? null;
  const followUp = !ownIntent && (wasteTypes.length > 0 || day !== null) && lastKind !== null && COLLECTION_KINDS.includes(lastKind);
  const materialType = material.kind === 'found' && !intents.material && !day?.named ? [material.entry.wasteType] : [];
  const collectionTypes = wasteTypes.length > 0 ? wasteTypes : materialType;
  return {
    namedMaterial,
    day,
    rawDay,
    ownIntent,
    followUp,
    collection: intents.collection || followUp,
    topics: consignTopics(intents, collectionTypes, day),
    collectionTypes,
    nowhere: collectionTypes.length > 0 && collectionTypes.every((w) => placesCollecting(knowledge, w).length === 0),
  };
}

/** The consigns asked; « à quelle heure passe le camion ? » asks when to put the bins out. */
function consignTopics(intents: Intents, types: WasteType[], day: AskedDay | null): ConsignTopic[] {
  const topics = intents.guidance.filter((g): g is ConsignTopic => g !== 'holidays');
  const truckHour = intents.hour && types.length === 0 && day === null && asksCollection(intents, false);
  if (truckHour && !topics.includes('outOfTheBins')) topics.push('outOfTheBins');
  return topics;
}

/** The readings few messages need, each computed on its first call and kept. */
function costlyReadings(knowledge: CityKnowledge, whole: string, text: string, intents: Intents, hazard: HazardFamily | null) {
  const all = knowledge.city.recyclingPoints;
  const namedPoints = once(() => {
    const named = pointsNamed(knowledge, text, whole);
    return named.length > 0 && named.length < all.length ? named : [];
  });
  return {
    ranked: once(() => rankedOfFamily(rankedMaterial(knowledge, text), hazard)),
    passage: once(() => bestPassage(knowledge, text)),
    namedPoints,
    // It names a kind of point or a point, or it says nothing else (« et elle est ouverte quand ? »).
    aboutPoints: once(() => intents.pointNoun || namedPoints().length > 0 || strayWords(intents).length === 0),
    // « tous les points » asks for every one, whatever else the words match.
    askedPoints: once(() => (namedPoints().length > 0 && !intents.allPoints ? namedPoints() : all).map((p) => p.id)),
  };
}

function once<T>(compute: () => T): () => T {
  let kept: { value: T } | null = null;
  return () => (kept ??= { value: compute() }).value;
}
