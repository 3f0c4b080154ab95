import { asksCollection, readIntents, unknownWords, type Intents } from './intents.ts';
import {
  findMaterial,
  placeMentioned,
  wasteTypesMentioned,
  type CityKnowledge,
  type GuidanceTopic,
  type Place,
} from './knowledge.ts';
import * as say from './replies.ts';

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

export function answer(input: AssistantInput): AssistantReply {
  const { knowledge, text, now } = input;
  const intents = readIntents(text);
  const places = knowledge.city.wasteCollectionPlaces;
  const onlyPlace = places.length === 1 ? places[0] : null;

  const wasteTypes = wasteTypesMentioned(knowledge, text);
  const material = findMaterial(knowledge, text);
  const pending = pendingQuestion(input.history);

  // One shared word is weak evidence ("marc de café" is not Saint-Marc): it names a place only when the
  // assistant asked for one, the citizen says where they live, or no material explains the word.
  const match = placeMentioned(knowledge, text);
  let named =
    match && (match.score >= 1.5 || pending !== null || intents.residence || material.kind === 'none') ? match.place : null;
  // "2" answers the numbered list of places the assistant just gave.
  if (!named && intents.number !== null && pending !== null) named = places[intents.number - 1] ?? null;
  const place = named ?? input.place ?? onlyPlace;
  const reply = (content: string, handoff = false): AssistantReply => ({ content, place: named, handoff });

  if (intents.handoff) return reply(say.handoff(knowledge), true);

  if (!hasOwnQuestion(intents, wasteTypes.length > 0, material.kind !== 'none')) {
    if (named) {
      const resumed = pending ? answer({ ...input, text: pending, place: named, history: [] }).content : say.placeSummary(knowledge, named, now);
      return reply(`${say.placeNoted(named)}\n${resumed}`);
    }
    if (intents.greeting || intents.thanks) return reply(say.greeting(knowledge, intents.thanks && !intents.greeting));
    return reply(say.notInData(knowledge));
  }
  if (intents.help && !intents.collection && !intents.material && wasteTypes.length === 0) return reply(say.help(knowledge));

  const guidance = intents.guidance;
  // "sapin de Noël" is a material, not a holiday question.
  const namedMaterial = material.kind === 'found' && (material.score >= 2 || intents.material) && !intents.collection;
  if (guidance.includes('holidays') && !namedMaterial) return reply(say.holidays(knowledge, place, now));

  const topics = guidance.filter((g): g is Exclude<GuidanceTopic, 'holidays'> => g !== 'holidays');
  const guidanceAnswer = () => {
    const parts = topics.map((topic) => say.guidance(knowledge, topic));
    if (topics.includes('respectOfCalendar') && place) parts.push(say.weeklySchedule(knowledge, place));
    return parts.join('\n');
  };

  const collectionTypes = wasteTypes.length > 0 ? wasteTypes : material.kind === 'found' && !intents.material ? [material.entry.wasteType] : [];
  // "Quand sortir les bacs ?" asks the rule; "quand sortir la poubelle jaune ?" asks a date too.
  if (asksCollection(intents, collectionTypes.length > 0) && (topics.length === 0 || collectionTypes.length > 0)) {
    if (!place) return reply(say.placeQuestion(knowledge));
    const unknown = collectionTypes.length === 0 && material.kind === 'none' ? unknownWords(intents, knowledge) : [];
    const parts = [
      ...(unknown.length > 0 ? [say.unknownStream(knowledge)] : []),
      say.nextCollections(knowledge, place, collectionTypes.length > 0 ? collectionTypes : null, now),
    ];
    if (topics.length > 0) parts.push(guidanceAnswer());
    return reply(parts.join('\n'));
  }

  if (material.kind === 'found' && (intents.material || !intents.points)) return reply(say.material(knowledge, material.entry));
  // "Où déposer le verre ?": a stream named as such is better answered by the stream than by a list of objects.
  if (material.kind === 'ambiguous' && wasteTypes.length > 0 && !intents.points) return reply(say.wasteTypes(knowledge, wasteTypes, place, now));
  if (material.kind === 'ambiguous' && (intents.material || !intents.points)) return reply(say.ambiguousMaterial(material.entries));

  if (topics.length > 0) return reply(guidanceAnswer());

  if (intents.points) return reply(say.recyclingPoints(knowledge, text));
  if (wasteTypes.length > 0) return reply(say.wasteTypes(knowledge, wasteTypes, place, now));
  if (intents.material) return reply(say.unknownMaterial(knowledge));
  if (intents.collection && !place) return reply(say.placeQuestion(knowledge));
  return reply(say.notInData(knowledge));
}
