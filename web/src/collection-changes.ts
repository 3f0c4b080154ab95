// What changes in a place's calendar, in French, from the collections answer alone (docs/api.md, collections that move and service notices): its
// `status`, `originalDate`, `note` and `holiday` come from the server's one calendar engine, so the app never works out
// from the city's exceptions what they do (an exception may cancel, move or add a collection, and a group's holiday
// rules change collections no exception names).
import { longDay } from './text.ts';
import type { Collection } from './types.ts';

/** A collection taking place (planned, moved here or added), as opposed to one cancelled. */
export const takesPlace = (c: Collection) => c.status !== 'CANCELLED';

/** « reportée » when the collection comes later than planned, « avancée » when earlier. */
function way(c: Collection): 'reportée' | 'avancée' {
  return c.originalDate !== null && c.originalDate > c.date ? 'avancée' : 'reportée';
}

/** The day a collection was planned for, as short as is clear beside its new day: « vendredi 25 », else with the month. */
function plannedDay(c: Collection): string {
  const day = longDay(c.originalDate!);
  return c.originalDate!.slice(0, 7) === c.date.slice(0, 7) ? day.replace(/ \S+$/, '') : day;
}

/** The engine's own wording for what a holiday rule did (`Reportée du vendredi 25 décembre (Noël)`, docs/api.md, collections that move and service notices). */
const RULE_NOTE = /^(?:Reportée du|Avancée du|Pas de collecte le) [^()]+ \(([^()]+)\)$/;

/**
 * Why a collection changed, split so that nothing is said twice: a holiday rule's note repeats the days the screen
 * already shows, so only its holiday is kept; an exception's note (its name and description, written by the
 * commune) is shown as it is.
 */
export function reasonOf(c: Collection): { holiday: string | null; note: string | null } {
  const rule = c.note?.match(RULE_NOTE);
  if (rule) return { holiday: rule[1], note: null };
  return { holiday: c.status === 'CANCELLED' ? c.holiday : null, note: c.note };
}

/** The short mark of a moved or added collection beside its day: « reportée du vendredi 25 (Noël) »; else null. */
export function changeMark(c: Collection): string | null {
  if (c.status === 'ADDED') return 'collecte supplémentaire';
  if (c.status !== 'MOVED' || !c.originalDate) return null;
  const { holiday } = reasonOf(c);
  return `${way(c)} du ${plannedDay(c)}${holiday ? ` (${holiday})` : ''}`;
}

/** Consecutive cancelled collections of one waste type for the same reason (a winter pause), said once. */
export type CancelledRun = Collection[];

/**
 * The cancelled collections grouped in runs: one waste type, the same note, no collection of that waste type between
 * them. Sorted by their first day (the answer is sorted by date).
 */
export function cancelledRuns(collections: Collection[]): CancelledRun[] {
  const runs: CancelledRun[] = [];
  const open = new Map<string, CancelledRun>();
  for (const c of collections) {
    if (takesPlace(c)) {
      open.delete(c.wasteTypeId);
      continue;
    }
    const run = open.get(c.wasteTypeId);
    if (run && run[0].note === c.note) {
      run.push(c);
    } else {
      const next = [c];
      runs.push(next);
      open.set(c.wasteTypeId, next);
    }
  }
  return runs;
}

/** « Pas de collecte le vendredi 1er janvier (Jour de l'an) », « Pas de collecte du mardi 1er décembre au mardi 23 février ». */
export function cancelledSentence(run: CancelledRun): string {
  const first = run[0];
  const last = run[run.length - 1];
  if (run.length > 1) return `Pas de collecte du ${longDay(first.date)} au ${longDay(last.date)}`;
  const { holiday } = reasonOf(first);
  return `Pas de collecte le ${longDay(first.date)}${holiday ? ` (${holiday})` : ''}`;
}

/** « Collecte du vendredi 25 décembre reportée au samedi 26 décembre (Noël) », « Collecte supplémentaire le samedi 2 janvier ». */
export function changeSentence(c: Collection): string {
  if (c.status === 'ADDED') return `Collecte supplémentaire le ${longDay(c.date)}`;
  if (c.status === 'MOVED' && c.originalDate) {
    const { holiday } = reasonOf(c);
    return `Collecte du ${longDay(c.originalDate)} ${way(c)} au ${longDay(c.date)}${holiday ? ` (${holiday})` : ''}`;
  }
  return `Collecte maintenue le ${longDay(c.date)}${c.holiday ? ` (${c.holiday})` : ''}`;
}

/** One line of « Exceptions et jours fériés »: a move, an addition, a run of cancellations, or a holiday kept. */
export interface Change {
  key: string;
  status: Collection['status'] | 'HOLIDAY';
  /** The day it is listed by: the earlier of a move's two days, a run's first day. */
  day: string;
  collection: Collection;
  sentence: string;
  note: string | null;
}

/**
 * What changes up to `until` (inclusive): moves (both days), additions, cancellations (a run said once, however long),
 * and the public holidays on which a collection is kept, by day.
 */
export function upcomingChanges(collections: Collection[], until: string): Change[] {
  const changes: Change[] = [];
  for (const c of collections) {
    if (c.status === 'MOVED' && c.originalDate) {
      const day = c.originalDate < c.date ? c.originalDate : c.date;
      if (day <= until) changes.push({ key: `M${c.date}${c.wasteTypeId}`, status: 'MOVED', day, collection: c, sentence: changeSentence(c), note: reasonOf(c).note });
    } else if (c.status === 'ADDED' && c.date <= until) {
      changes.push({ key: `A${c.date}${c.wasteTypeId}`, status: 'ADDED', day: c.date, collection: c, sentence: changeSentence(c), note: c.note });
    } else if (c.status === 'PLANNED' && c.holiday && c.date <= until) {
      changes.push({ key: `H${c.date}${c.wasteTypeId}`, status: 'HOLIDAY', day: c.date, collection: c, sentence: changeSentence(c), note: null });
    }
  }
  for (const run of cancelledRuns(collections)) {
    const first = run[0];
    if (first.date > until) continue;
    changes.push({ key: `C${first.date}${first.wasteTypeId}`, status: 'CANCELLED', day: first.date, collection: first, sentence: cancelledSentence(run), note: reasonOf(first).note });
  }
  return changes.sort((a, b) => a.day.localeCompare(b.day) || a.collection.wasteTypeName.localeCompare(b.collection.wasteTypeName, 'fr'));
}

/** « Emballages (reportée du vendredi 25) » for the « Ce soir, sortez » line. */
export function nameWithMark(c: Collection): string {
  const mark = changeMark(c);
  return mark ? `${c.wasteTypeName} (${mark})` : c.wasteTypeName;
}
