import type { Question, QuestionKind } from './model.ts';
import type { Reading, Rule } from './reading.ts';
import { reportedType } from '../reports.ts';

/**
 * The second phase: a message that asks no question of its own (`ownQuestion`, `asksNothing`). It continues the
 * conversation (another day of the point just asked about, the place the waiting question needed), or it greets,
 * thanks, or says something the data does not cover. No topic rule reads such a message, so this phase cannot
 * shadow one; it comes before them because a place given with a greeting (« bonjour, j'habite au Bourg ») is a
 * place given.
 */

const POINT_KINDS: QuestionKind[] = ['openNow', 'points', 'pointMaterials'];

/** « et le samedi ? » after a question about a point: its hours again. */
export function pointFollowUp(r: Reading): Question | null {
  const last = r.state.last;
  return !r.ownQuestion && last && POINT_KINDS.includes(last.kind) && last.pointIds.length > 0 && r.intents.weekday
    ? { kind: 'points', pointIds: last.pointIds }
    : null;
}

/** A message that only gives a place (or an address): noted, and the question that waited for it answered. */
export function placeGiven(r: Reading): Question | null {
  if (!r.asksNothing || !r.named) return null;
  return r.placeMatch?.alone || r.awaitingPlace || r.intents.residence || r.addressPlace
    ? { kind: 'placeGiven', resume: r.state.awaitingPlace?.question ?? null }
    : null;
}

/** « bonjour », « merci »: a greeting or thanks, nothing asked beside. */
export function greeting(r: Reading): Question | null {
  return r.asksNothing && (r.intents.greeting || r.intents.thanks) ? { kind: 'greeting', thanksOnly: r.intents.thanks && !r.intents.greeting } : null;
}

/** Words that ask nothing of the data: the passage of the group's pages they name, else out of scope. */
export function nothingAsked(r: Reading): Question | null {
  if (!r.asksNothing) return null;
  const passage = r.passage();
  return passage ? { kind: 'content', passage } : { kind: 'outOfScope' };
}

/**
 * « mon bac n'a pas été vidé », « la colonne à verre déborde », « un dépôt sauvage rue de Siam »: a report, which the
 * service takes through its request forms. A report asks nothing of the data (it would read as out of scope) and its
 * words (« bac », « verre ») would read as a collection's day or a sorting question: it comes before both.
 */
export function report(r: Reading): Question | null {
  const typeCode = reportedType(r.text);
  return typeCode ? { kind: 'report', typeCode } : null;
}

export const CONVERSATION_RULES: readonly Rule[] = [pointFollowUp, placeGiven, report, greeting, nothingAsked];
