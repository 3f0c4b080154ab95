import { asksCollection, readIntents, unknownWords, type Intents } from './intents.ts';
import { todayIn, formatDayNumber } from '../kernel/dates.ts';
import { dayAsked } from './dates.ts';
import {
  findMaterial,
  placesCollecting,
  placeMentioned,
  addressMentioned,
  wasteTypesMentioned,
  type CityKnowledge,
  type GuidanceTopic,
  type Place,
} from './knowledge.ts';
import * as say from './replies.ts';
import { asksOpenNow, openNowAnswer } from './opening.ts';
import { isSure, rankedMaterial, rankedOverride } from './guide-search.ts';

/**
 * The built-in assistant: deterministic French answers built only from the city's data. It reads the intents
 * of the message, picks what to answer, and lets `replies.ts` word it. It never calls anything outside.
 */

export interface ChatTurn {
  role: 'user' | 'assistant' | 'agent';
  content: string;
}

export interface AssistantInput {
  knowledge: CityKnowledge;
  /** The conversation's place, or null. */
  place: Place | null;
  /** The conversation's messages before this one, oldest first. */
  history: ChatTurn[];
  text: string;
  now: Date;
}

export interface AssistantReply {
  content: string;
  /** A place the message named: the conversation now has this place. */
  place: Place | null;
  /** The citizen asked for a person: the conversation now waits for an agent. */
  handoff: boolean;
}

function hasOwnQuestion(intents: Intents, namesWasteType: boolean, namesMaterial: boolean): boolean {
  return (
    intents.handoff ||
    intents.help ||
    intents.collection ||
    intents.material ||
    intents.points ||
    intents.guidance.length > 0 ||
    namesWasteType ||
    namesMaterial
  );
}

/** The place question the assistant asked last, if the conversation's last answer was one. */
function pendingQuestion(history: ChatTurn[]): string | null {
  const lastAnswer = [...history].reverse().find((m) => m.role !== 'user');
  if (!lastAnswer || !say.isPlaceQuestion(lastAnswer.content)) return null;
  const index = history.lastIndexOf(lastAnswer);
  const asked = history.slice(0, index).reverse().find((m) => m.role === 'user');
  return asked?.content ?? null;
}

/**
 * The citizen's previous question asked about collections (a date, or the next one): a bare "et le verre ?"
 * continues it. A message that only gave the place the assistant asked for is skipped: the question before it
 * is the one that was answered.
 */
function followsCollection(knowledge: CityKnowledge, history: ChatTurn[], today: number): boolean {
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i];
    if (message.role !== 'user') continue;
    const intents = readIntents(message.content);
    if (asksCollection(intents, wasteTypesMentioned(knowledge, message.content).length > 0)) return true;
    if (dayAsked(message.content, today) !== null && !intents.material) return true;
    const answered = history[i + 1];
    if (!answered || !say.isPlaceNoted(answered.content)) return false;
  }
  return false;
}

/**
 * How much of a message the assistant reads: its first ANALYSED_HEAD and last ANALYSED_TAIL characters (a question
 * opens or closes a long message). The whole message is stored and shown to agents; only the analysis is bounded, so
 * that a 2,000-character message costs what a 600-character one does.
 */
export const ANALYSED_HEAD = 400;
export const ANALYSED_TAIL = 200;
/** Earlier messages the assistant reads (a pending place question, a follow-up): the service loads no more. */
export const ASSISTANT_HISTORY_MESSAGES = 20;

/** The part of a text the assistant analyses, cut between words. */
export function analysedText(text: string): string {
  if (text.length <= ANALYSED_HEAD + ANALYSED_TAIL) return text;
  const head = text.slice(0, ANALYSED_HEAD);
  const tail = text.slice(-ANALYSED_TAIL);
  const headEnd = head.lastIndexOf(' ');
  const tailStart = tail.indexOf(' ');
  return `${headEnd > 0 ? head.slice(0, headEnd) : head} … ${tailStart >= 0 ? tail.slice(tailStart + 1) : tail}`;
}

/** The built-in assistant's answer to one message, reading a bounded part of it and of the conversation. */
export function answer(input: AssistantInput): AssistantReply {
  return answerBounded({
    ...input,
    text: analysedText(input.text),
    history: input.history.slice(-ASSISTANT_HISTORY_MESSAGES).map((m) => ({ role: m.role, content: analysedText(m.content) })),
  });
}

function answerBounded(input: AssistantInput): AssistantReply {
  const { knowledge, now } = input;
  const whole = readIntents(input.text);
  // Nothing here may move the conversation: no place, no hand-off.
  if (whole.injection) return { content: say.outOfScope(knowledge), place: null, handoff: false };
  if (whole.empty) return { content: say.notUnderstood(knowledge), place: null, handoff: false };
  if (whole.english) return { content: say.frenchOnly(knowledge), place: null, handoff: false };

  // An address of the city's street rules ("j'habite 12 rue de Siam") says the place better than a name does; the
  // question is read from the rest of the message (a street's words name no bin, no material, no point).
  const address = addressMentioned(knowledge, input.text);
  // "mon adresse : …" introduces the address; it asks for no point's address.
  const text = address ? input.text.replace(address.text, ' ').replace(/\b(?:mon|notre)\s+adresse\b/giu, ' ') : input.text;
  const intents = address ? { ...readIntents(text), residence: true } : whole;

  const places = knowledge.city.wasteCollectionPlaces;
  const onlyPlace = places.length === 1 ? places[0] : null;
  const today = todayIn(knowledge.timeZone, now);

  const wasteTypes = wasteTypesMentioned(knowledge, text);
  const material = findMaterial(knowledge, text);
  const pending = pendingQuestion(input.history);
  const expectsPlace = pending !== null || intents.residence;

  // A place counts by its distinctive words. One such word is weak evidence when a material explains it too;
  // a name made of everyday words ("Bourg", "Le Passage", "Quartier Nord") counts only given alone or as where
  // the citizen lives, even after "which sector?" ("la capitale du Nord" answers nothing).
  const match = placeMentioned(knowledge, input.text);
  const addressPlace = address && 'place' in address ? address.place : null;
  const streetShared = address !== null && 'shared' in address;
  let named =
    addressPlace ??
    (!streetShared &&
    match && (match.weak ? intents.residence || match.alone : match.score >= 2 || expectsPlace || match.alone || material.kind === 'none')
      ? match.place
      : null);
  // "2" answers the numbered list of places the assistant just gave.
  if (!named && intents.number !== null && pending !== null) named = places[intents.number - 1] ?? null;
  const place = named ?? input.place ?? onlyPlace;
  const reply = (content: string, handoff = false): AssistantReply => ({ content, place: named, handoff });

  if (intents.handoff) return reply(say.handoff(knowledge), true);
  // A street shared between sectors, without its number: which numbers go where, and the number asked.
  if (!named && streetShared) return reply(say.streetShared(address.shared));

  // "sapin de Noël" is a material, not a holiday question; "et à Noël ?" is not the Christmas tree.
  const asked = dayAsked(text, today);
  // « La déchèterie est-elle ouverte ? »: yes or no now, and the next change, from the points' specs.
  if (asksOpenNow(intents.tokens, intents.points, asked !== null && asked.day !== today)) return reply(openNowAnswer(knowledge, text, now));
  const withoutDay = asked?.named && material.kind === 'found' ? findMaterial(knowledge, text.replace(asked.words, ' ')) : material;
  const namedMaterial = material.kind === 'found' && (material.score >= 2 || intents.material || withoutDay.kind === 'found') && !intents.collection;
  const day = namedMaterial ? null : asked;
  const ownIntent = intents.collection || intents.material || intents.points || intents.guidance.length > 0 || intents.help;
  // "et le verre ?", "et le 1er janvier ?" after a collection question ask the same for another stream or day.
  const followUp = !ownIntent && (wasteTypes.length > 0 || day !== null) && followsCollection(knowledge, input.history, today);
  const collection = intents.collection || followUp;

  if (!hasOwnQuestion(intents, wasteTypes.length > 0, material.kind !== 'none') && day === null && !intents.wasteWord) {
    if (named && (match?.alone || expectsPlace || addressPlace)) {
      const resumed = pending ? answer({ ...input, text: pending, place: named, history: [] }).content : say.placeSummary(knowledge, named, now);
      return reply(`${say.placeNoted(named)}\n${resumed}`);
    }
    if (intents.greeting || intents.thanks) return { content: say.greeting(knowledge, intents.thanks && !intents.greeting), place: null, handoff: false };
    return { content: say.outOfScope(knowledge), place: null, handoff: false };
  }
  if (intents.help && !intents.collection && !intents.material && wasteTypes.length === 0 && day === null) return reply(say.help(knowledge));

  // "et à Noël ?": the holiday is the day asked, not the Christmas tree of the sorting guide.
  const materialType = material.kind === 'found' && !intents.material && !day?.named ? [material.entry.wasteType] : [];
  const collectionTypes = wasteTypes.length > 0 ? wasteTypes : materialType;
  const nowhere = collectionTypes.length > 0 && collectionTypes.every((w) => placesCollecting(knowledge, w).length === 0);

  // "est-ce que ça passe le 25 décembre ?", "et à Noël ?": what the calendar holds that day.
  if (day !== null && (collection || day.named || collectionTypes.length > 0 || !ownIntent)) {
    if (nowhere) return reply(say.notCollectedAnywhere(knowledge, collectionTypes));
    if (!place) return reply(say.placeQuestion(knowledge));
    const parts = [say.collectionsOn(knowledge, place, formatDayNumber(day.day), collectionTypes.length > 0 ? collectionTypes : null)];
    if (day.named || intents.guidance.includes('holidays')) parts.push(say.guidance(knowledge, 'holidays'));
    return reply(parts.join('\n'));
  }

  const guidance = intents.guidance;
  if (guidance.includes('holidays') && !namedMaterial) return reply(say.holidays(knowledge, place, now));

  const topics = guidance.filter((g): g is Exclude<GuidanceTopic, 'holidays'> => g !== 'holidays');
  const guidanceAnswer = () => {
    const parts = topics.map((topic) => say.guidance(knowledge, topic));
    if (topics.includes('respectOfCalendar') && place) parts.push(say.weeklySchedule(knowledge, place));
    return parts.join('\n');
  };

  // "Quand sortir les bacs ?" asks the rule; "quand sortir la poubelle jaune ?" asks a date too.
  const collectionIntents = { ...intents, collection };
  if (asksCollection(collectionIntents, collectionTypes.length > 0 || followUp) && (topics.length === 0 || collectionTypes.length > 0)) {
    // Glass banks are the same for every sector: no need to ask which one.
    if (nowhere && !place) return reply(say.notCollectedAnywhere(knowledge, collectionTypes));
    if (!place) return reply(say.placeQuestion(knowledge));
    const unknown = collectionTypes.length === 0 && material.kind === 'none' ? unknownWords(intents, knowledge) : [];
    if (unknown.length > 0) return reply(say.unknownStream(knowledge, place));
    const parts = [say.nextCollections(knowledge, place, collectionTypes.length > 0 ? collectionTypes : null, now)];
    if (topics.length > 0) parts.push(guidanceAnswer());
    return reply(parts.join('\n'));
  }

  // The ranked search of the sorting guide (the public search's) has the last word on what the object is: a sure hit
  // of another material than the phrase match (« capsule de café » is not « Café (marc) ») wins.
  const ranked = intents.material || intents.wasteWord || material.kind !== 'none' ? rankedMaterial(knowledge, text) : null;
  if (material.kind === 'found' && (intents.material || !intents.points)) {
    const override = rankedOverride(material, ranked);
    if (override) return reply(override.guess ? say.guessedMaterial(knowledge, override.entry) : say.material(knowledge, override.entry));
    return reply(say.material(knowledge, material.entry));
  }
  // "Où déposer le verre ?": a stream named as such is better answered by the stream than by a list of objects.
  if (material.kind === 'ambiguous' && wasteTypes.length > 0 && !intents.points) return reply(say.wasteTypes(knowledge, wasteTypes, place, now));
  if (material.kind === 'ambiguous' && (intents.material || !intents.points)) return reply(say.ambiguousMaterial(material.entries));

  if (topics.length > 0) return reply(guidanceAnswer());

  if (intents.points) return reply(say.recyclingPoints(knowledge, text));
  if (wasteTypes.length > 0) return reply(say.wasteTypes(knowledge, wasteTypes, place, now));
  if (intents.material || intents.wasteWord || material.kind === 'near') {
    if (ranked !== null && isSure(ranked)) return reply(say.material(knowledge, ranked.entry));
    if (material.kind === 'near') return reply(say.nearMaterial(knowledge, material.entry));
    if (ranked) return reply(say.guessedMaterial(knowledge, ranked.entry));
    return reply(say.unknownMaterial(knowledge));
  }
  if (intents.collection && !place) return reply(say.placeQuestion(knowledge));
  return reply(say.notInData(knowledge));
}
