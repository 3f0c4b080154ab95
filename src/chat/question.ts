import { formatDayNumber } from '../kernel/dates.ts';
import { pointsNamed } from './opening.ts';
import type { AssistantState, Question } from './question/model.ts';
import type { Reading, Rule } from './question/reading.ts';
import { CONTROL_RULES } from './question/control.ts';
import { CONVERSATION_RULES } from './question/conversation.ts';
import { TOPIC_RULES } from './question/topic.ts';
import { FALLBACK_RULES, notInData } from './question/fallback.ts';

export { assistantState, NO_STATE, type AssistantState, type ConsignTopic, type Question, type QuestionKind } from './question/model.ts';
export { readMessage, type Reading, type Rule } from './question/reading.ts';

/**
 * The question reader of the built-in assistant: a message is read once into a `Reading` (question/reading.ts), then
 * into one typed `Question` (question/model.ts), its kind and slots, by the first rule that applies, phase after
 * phase. Each kind is answered by one handler (handlers.ts).
 *
 * - control (question/control.ts): nothing to read, English, a person asked for, an address that needs its number;
 * - conversation (question/conversation.ts): a message with no question of its own: another day of the point just
 *   asked about, a place given, a greeting or thanks, words the data does not cover;
 * - topic (question/topic.ts): the subject questions, in the order of their precedence;
 * - fallback (question/fallback.ts): the group's pages, else « not in the data ».
 *
 * A rule is a named function of the Reading, in its phase's list; test/chat/question-rules.test.ts holds a table of
 * messages for each, read by the rule alone and by the whole reader.
 */

export type PhaseName = 'control' | 'conversation' | 'topic' | 'fallback';

export const PHASES: readonly { name: PhaseName; rules: readonly Rule[] }[] = [
  { name: 'control', rules: CONTROL_RULES },
  { name: 'conversation', rules: CONVERSATION_RULES },
  { name: 'topic', rules: TOPIC_RULES },
  { name: 'fallback', rules: FALLBACK_RULES },
];

/** The rule that reads a message's question (the first that applies, phase after phase), its phase and the question. */
export function ruleThatReads(r: Reading): { phase: PhaseName; rule: Rule; question: Question } {
  for (const phase of PHASES) {
    for (const rule of phase.rules) {
      const question = rule(r);
      if (question) return { phase: phase.name, rule, question };
    }
  }
  return { phase: 'fallback', rule: notInData, question: notInData() };
}

/** The typed question of a message. */
export function readQuestion(r: Reading): Question {
  return ruleThatReads(r).question;
}

/** The state after answering `q`: what a follow-up may continue. */
export function nextState(r: Reading, q: Question, awaitingPlace: boolean): AssistantState {
  const asked = q.kind === 'collectionsOnDay' || q.kind === 'collectionMoved' ? q.day : null;
  const day = asked === null ? null : formatDayNumber(asked);
  const wasteTypeIds = 'wasteTypes' in q ? q.wasteTypes.map((w) => w.id) : [];
  const pointIds = 'pointIds' in q ? q.pointIds : q.kind === 'openNow' ? pointsNamed(r.knowledge, r.text, r.whole).map((p) => p.id) : [];
  // A greeting moves nothing: the question before it may still be continued.
  if (q.kind === 'greeting') return { awaitingPlace: null, last: r.state.last };
  // A place given resumes the question that waited: its own state is that question's. A place given alone is
  // answered with its next collections: « les ordures ? » then continues them.
  if (q.kind === 'placeGiven') return { awaitingPlace: null, last: q.resume ? r.state.last : { kind: 'nextCollections', wasteTypeIds: [], day: null, pointIds: [] } };
  // A question waiting for its place is still the last question: « et le verre ? » continues it.
  return { awaitingPlace: awaitingPlace ? { question: r.whole } : null, last: { kind: q.kind, wasteTypeIds, day, pointIds } };
}
