import type { Question, QuestionKind } from './model.ts';
import type { Reading, Rule } from './reading.ts';
import { reportedType } from '../reports.ts';
import { pointDayAsked } from '../point-hours.ts';
import { normalizeText } from '../text-match.ts';
import { FRENCH_WEEKDAYS } from '../../kernel/dates.ts';

/**
 * The second phase: a message that asks no question of its own (`ownQuestion`, `asksNothing`). It continues the
 * conversation (another day of the point just asked about, the place the waiting question needed), or it greets,
 * thanks, or says something the data does not cover. No topic rule reads such a message, so this phase cannot
 * shadow one; it comes before them because a place given with a greeting (« bonjour, j'habite au Bourg ») is a
 * place given.
 */

const POINT_KINDS: QuestionKind[] = ['openNow', 'points', 'pointMaterials', 'pointHours'];

/** Words that, beside a day's, ask nothing more: « et », « alors », « pour », « le », « ce »… */
const ONLY_A_DAY = new Set(['et', 'alors', 'pour', 'puis', 'aussi', 'sinon', 'ensuite', 'le', 'la', 'l', 'les', 'ce', 'cette', 'a', 'au', 'prochain', 'prochaine', ...FRENCH_WEEKDAYS]);

/** « et demain ? », « et samedi prochain ? », « et le 24 décembre ? »: a day and nothing else. */
function onlyADay(r: Reading): boolean {
  const rest = normalizeText(r.rawDay ? r.text.replace(r.rawDay.words, ' ') : r.text);
  const words = rest === '' ? [] : rest.split(' ');
  return (r.rawDay !== null || r.intents.weekday) && words.every((w) => ONLY_A_DAY.has(w));
}

/**
 * « et samedi prochain ? », « et demain ? », « et le 24 décembre ? » after a question about a point: its hours on that
 * day (pointDayAsked). After its hours on a day, a weekday alone (« et dimanche ? ») is the next one too; after another
 * point question it may ask the habit, and « et le samedi ? » always does: the point's hours again, as written.
 */
export function pointFollowUp(r: Reading): Question | null {
  const last = r.state.last;
  if (!last || !POINT_KINDS.includes(last.kind) || last.pointIds.length === 0) return null;
  const onlyDay = onlyADay(r);
  if (r.ownQuestion && !onlyDay) return null;
  const dated = onlyDay && (last.kind === 'pointHours' || r.rawDay !== null || /\bprochaine?\b/.test(normalizeText(r.text)));
  const day = dated ? pointDayAsked(r.text, r.today) : null;
  if (day !== null) return { kind: 'pointHours', pointIds: last.pointIds, day };
  return !r.ownQuestion && r.intents.weekday ? { kind: 'points', pointIds: last.pointIds } : null;
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
