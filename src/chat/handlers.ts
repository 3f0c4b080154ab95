import { formatDayNumber } from '../kernel/dates.ts';
import * as say from './replies.ts';
import { openNowAnswer } from './opening.ts';
import { contactBlock } from './contact.ts';
import { passageHits, passageHolds } from './content.ts';
import { materialEntries, objectWords } from './knowledge.ts';
import { hazardAnswer } from './hazards.ts';
import { pointDayAnswer, unknownPointAnswer } from './point-hours.ts';
import { colourWordsOf } from './vocabulary.ts';
import { changesAhead, collectionMovesOn, collectionsOn, listed } from './collection-changes.ts';
import type { Place } from './knowledge.ts';
import type { Question, QuestionKind, Reading } from './question.ts';

/**
 * One handler per kind of question (question.ts), each wording its answer with `replies.ts` from the city's data.
 * A handler that `needsPlace` is only called with one: without it the assistant asks for the place and keeps the
 * question waiting (AssistantState.awaitingPlace). `topic` is what the city's analytics count the question under;
 * `unanswered` marks the « je ne sais pas » answers they list.
 */

export interface HandlerContext {
  reading: Reading;
  /** The question's place (never null for a handler that needs one). */
  place: Place | null;
  /** The answer to a question that waited for the place just given. */
  resume: (question: string, place: Place) => string;
}

interface Handler<K extends QuestionKind> {
  topic: string;
  needsPlace?: boolean;
  unanswered?: boolean;
  answer: (q: Extract<Question, { kind: K }>, ctx: HandlerContext) => string;
}

type HandlerTable = { [K in QuestionKind]: Handler<K> };

const TOPIC = {
  collections: 'Jours de collecte',
  holidays: 'Jours fériés',
  sorting: 'Tri des déchets',
  points: 'Points de collecte et horaires',
  consigns: 'Sortie et présentation des bacs',
  contact: 'Contacter le service',
  report: 'Signalements',
  content: 'Pages et actualités du service',
  agent: 'Demande d’un agent',
  place: 'Secteur ou adresse',
  welcome: 'Accueil et aide',
  other: 'Hors sujet',
} as const;

export const HANDLERS: HandlerTable = {
  empty: { topic: TOPIC.other, unanswered: false, answer: (_q, { reading: r }) => say.notUnderstood(r.knowledge) },
  english: { topic: TOPIC.other, answer: (_q, { reading: r }) => say.frenchOnly(r.knowledge) },
  handoff: { topic: TOPIC.agent, answer: (_q, { reading: r }) => say.handoff(r.knowledge) },
  streetShared: { topic: TOPIC.place, answer: (q) => say.streetShared(q.matches) },
  openNow: { topic: TOPIC.points, answer: (_q, { reading: r }) => openNowAnswer(r.knowledge, r.text, r.now, r.whole) },
  placeGiven: {
    topic: TOPIC.place,
    answer: (q, { reading: r, resume }) => {
      const place = r.named!;
      const resumed = q.resume ? resume(q.resume, place) : say.placeSummary(r.knowledge, place, r.now);
      return `${say.placeNoted(place)}\n${resumed}`;
    },
  },
  greeting: { topic: TOPIC.welcome, answer: (q, { reading: r }) => say.greeting(r.knowledge, q.thanksOnly) },
  outOfScope: { topic: TOPIC.other, unanswered: true, answer: (_q, { reading: r }) => say.outOfScope(r.knowledge) },
  help: { topic: TOPIC.welcome, answer: (_q, { reading: r }) => say.help(r.knowledge) },
  report: { topic: TOPIC.report, answer: (q, { reading: r, place }) => say.report(r.knowledge, q.typeCode, place) },
  // « elle est reportée quand ? »: that day's collections, else the changes ahead (the next collections when none).
  collectionMoved: {
    topic: TOPIC.collections,
    needsPlace: true,
    answer: (q, { reading: r, place }) => {
      const types = q.wasteTypes.length > 0 ? q.wasteTypes : null;
      const parts: string[] = [];
      if (q.day !== null) parts.push(collectionMovesOn(r.knowledge, place!, formatDayNumber(q.day), types));
      else {
        const changes = changesAhead(r.knowledge, place!, types, r.now);
        if (changes.length > 0) parts.push(`Changements prévus à ${place!.name} dans les deux prochains mois\u00a0:\n${listed(changes)}`);
        else {
          parts.push(`Aucune collecte n’est reportée, avancée ni annulée à ${place!.name} dans les deux prochains mois\u00a0: elles ont lieu aux jours habituels.`);
          parts.push(say.nextCollections(r.knowledge, place!, types, r.now));
        }
      }
      if (q.withHolidayRule) parts.push(say.guidance(r.knowledge, 'holidays'));
      return parts.join('\n');
    },
  },
  collectionsOnDay: {
    topic: TOPIC.collections,
    needsPlace: true,
    answer: (q, { reading: r, place }) => {
      const parts = [collectionsOn(r.knowledge, place!, formatDayNumber(q.day), q.wasteTypes.length > 0 ? q.wasteTypes : null)];
      if (q.withHolidayRule) parts.push(say.guidance(r.knowledge, 'holidays'));
      return parts.join('\n');
    },
  },
  notCollectedAnywhere: { topic: TOPIC.collections, answer: (q, { reading: r }) => say.notCollectedAnywhere(r.knowledge, q.wasteTypes) },
  holidays: { topic: TOPIC.holidays, answer: (_q, { reading: r, place }) => say.holidays(r.knowledge, place, r.now) },
  nextCollections: {
    topic: TOPIC.collections,
    needsPlace: true,
    answer: (q, { reading: r, place }) => {
      const parts = [say.nextCollections(r.knowledge, place!, q.wasteTypes.length > 0 ? q.wasteTypes : null, r.now)];
      if (q.topics.length > 0) parts.push(consigns(r, q.topics, place));
      return parts.join('\n');
    },
  },
  unknownStream: { topic: TOPIC.collections, unanswered: true, needsPlace: true, answer: (_q, { reading: r, place }) => say.unknownStream(r.knowledge, place!) },
  // « toutes les semaines ? »: the place's days, else the city's rule and the question of the place.
  schedule: {
    topic: TOPIC.collections,
    answer: (_q, { reading: r, place }) => {
      const rule = r.knowledge.city.respectOfCalendar ? say.guidance(r.knowledge, 'respectOfCalendar') : null;
      const days = place ? say.weeklySchedule(r.knowledge, place) : say.placeQuestion(r.knowledge);
      return [place ? days : rule, place ? rule : days].filter(Boolean).join('\n');
    },
  },
  material: {
    topic: TOPIC.sorting,
    answer: (q, { reading: r }) => withPassage(r, q.guess ? say.guessedMaterial(r.knowledge, q.entry) : say.material(r.knowledge, q.entry)),
  },
  nearMaterial: { topic: TOPIC.sorting, answer: (q, { reading: r }) => say.nearMaterial(r.knowledge, q.entry) },
  ambiguousMaterial: { topic: TOPIC.sorting, answer: (q) => say.ambiguousMaterial(q.entries) },
  unknownMaterial: { topic: TOPIC.sorting, unanswered: true, answer: (_q, { reading: r }) => say.unknownMaterial(r.knowledge) },
  unsureMaterial: { topic: TOPIC.sorting, unanswered: true, answer: (q, { reading: r }) => say.unsureMaterial(r.knowledge, q.entry) },
  hazard: { topic: TOPIC.sorting, answer: (q, { reading: r }) => hazardAnswer(r.knowledge, q.family, materialEntries(r.knowledge), say.OFFER_AGENT) },
  wasteTypes: { topic: TOPIC.sorting, answer: (q, { reading: r, place }) => withPassage(r, say.wasteTypes(r.knowledge, q.wasteTypes, place, r.now)) },
  guidance: { topic: TOPIC.consigns, answer: (q, { reading: r, place }) => consigns(r, q.topics, place) },
  points: { topic: TOPIC.points, answer: (q, { reading: r }) => say.recyclingPointsById(r.knowledge, q.pointIds) },
  pointHours: { topic: TOPIC.points, answer: (q, { reading: r }) => pointDayAnswer(r.knowledge, q.pointIds, q.day, r.now) },
  unknownPoint: { topic: TOPIC.points, answer: (_q, { reading: r }) => unknownPointAnswer(r.knowledge, r.text) },
  pointMaterials: { topic: TOPIC.points, answer: (q, { reading: r }) => say.pointMaterials(r.knowledge, q.pointIds) },
  contact: {
    topic: TOPIC.contact,
    answer: (_q, { reading: r }) => {
      const block = contactBlock(r.knowledge);
      return block ? `Pour joindre le service de collecte de ${r.knowledge.city.name}\u00a0:\n${block}` : say.notInData(r.knowledge);
    },
  },
  content: { topic: TOPIC.content, answer: (q) => say.quote(q.passage) },
  notInData: { topic: TOPIC.other, unanswered: true, answer: (_q, { reading: r }) => say.notInData(r.knowledge) },
};

function consigns(r: Reading, topics: Extract<Question, { kind: 'guidance' }>['topics'], place: Place | null): string {
  const parts = topics.map((topic) => say.guidance(r.knowledge, topic));
  if (topics.includes('respectOfCalendar') && place) parts.push(say.weeklySchedule(r.knowledge, place));
  return parts.join('\n');
}

/**
 * A passage of the city's pages that speaks of the very object asked about adds to the guide's answer (« le papier
 * cadeau » is in the packaging stream, and the pages say « non plastifiés »): quoted after it, never merged into it.
 */
function withPassage(r: Reading, answer: string): string {
  const passage = r.passage();
  if (!passage || answer.includes(passage.text)) return answer;
  // Only a passage about this very object: every word naming it (« papier » and « cadeau »), bin colours aside, or
  // three of the question's words at least (« bio-seau », « astuce »).
  const object = objectWords(r.knowledge, r.text).filter((t) => colourWordsOf(t).length === 0);
  const aboutIt = object.length > 0 && passageHolds(passage, object);
  if (!aboutIt && passageHits(passage, r.text) < 3) return answer;
  return `${answer}\n${say.quote(passage)}`;
}

export function handlerOf<K extends QuestionKind>(kind: K): Handler<K> {
  return HANDLERS[kind] as Handler<K>;
}
