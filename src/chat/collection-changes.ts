import { frenchDate as kernelFrenchDate, compareFrench } from '../kernel/french.ts';
import type { Occurrence } from '../domain/collection-calendar.ts';
import { collectionsAfter, dayFates, frenchDate, upcomingChanges, type CityKnowledge, type DayFate, type Place, type WasteType } from './knowledge.ts';

/**
 * The French sentences of collections that are not as the weekly rules have them (docs/api.md, collections that move and service notices): « La collecte
 * des emballages du vendredi 25 décembre est reportée au samedi 26 décembre 2026 », « reportée du vendredi 25
 * décembre » beside a next collection, a cancelled one, an added one, one kept on a holiday. Every day and reason comes
 * from the calendar engine's occurrences: an exception's name and description, else the holiday rule's note.
 */

/** `Emballages` → `des emballages`, `Verre` → `du verre`, `Huile` → `de l’huile` (as the alerts write it). */
export function ofWasteType(name: string): string {
  const lower = name.toLocaleLowerCase('fr');
  if (/[sx]$/.test(lower.split(/\s+/)[0])) return `des ${lower}`;
  if (/^[aeiouyhàâéèêëîïôûü]/.test(lower)) return `de l’${lower}`;
  return `du ${lower}`;
}

/** A day without its year when it is in the year of `other` (« vendredi 25 décembre »), else with it. */
function dayBeside(day: string, other: string): string {
  return day.slice(0, 4) === other.slice(0, 4) ? kernelFrenchDate(day) : frenchDate(day);
}

/**
 * Why an occurrence is not as planned: the exception's name and description (`exception`); else, for a holiday rule,
 * the holiday its note names after the planned day (`Reportée du vendredi 25 décembre (Noël)` → `Noël`), or the
 * note itself when it is worded otherwise; null when nothing says why.
 */
export function reasonOf(o: Occurrence): { text: string; from: 'exception' | 'holiday' | 'note' } | null {
  const exception = [o.exceptionName, o.exceptionDescription].filter((t) => t).join(' – ');
  if (exception) return { text: exception, from: 'exception' };
  if (!o.note) return null;
  const after = `${kernelFrenchDate(o.originalDate ?? o.date)} (`;
  const at = o.note.lastIndexOf(after);
  if (at >= 0 && o.note.endsWith(')')) return { text: o.note.slice(at + after.length, -1), from: 'holiday' };
  return { text: o.note, from: 'note' };
}

/** A reason at the end of a sentence: « (Noël) » for a holiday, « : Travaux rue de Brest » otherwise. */
function reasonAtEnd(o: Occurrence): string {
  const reason = reasonOf(o);
  if (!reason) return '';
  return reason.from === 'holiday' ? ` (${reason.text})` : `\u00a0: ${reason.text}`;
}

/** A reason inside a line of a list: « (Noël) », « (Travaux rue de Brest) ». */
function reasonInList(o: Occurrence): string {
  const reason = reasonOf(o);
  return reason ? ` (${reason.text})` : '';
}

/** A sentence closed with a full stop, unless its reason already ends one. */
const closed = (sentence: string) => (/[.!?…]$/.test(sentence) ? sentence : `${sentence}.`);

const moveWord = (o: Occurrence) => (o.date > o.originalDate! ? 'reportée' : 'avancée');

/** « reportée du vendredi 25 décembre (Noël) »: a moved collection said beside its new day. */
export function movedFrom(o: Occurrence): string {
  return `${moveWord(o)} du ${dayBeside(o.originalDate!, o.date)}${reasonInList(o)}`;
}

/** « reportée au samedi 26 décembre 2026 (Noël) »: a moved collection said beside the day it was planned for. */
export function movedTo(o: Occurrence): string {
  return `${moveWord(o)} au ${frenchDate(o.date)}${reasonInList(o)}`;
}

/** « collecte supplémentaire (Collecte des fêtes) »: an added collection said beside its day. */
export function addedNote(o: Occurrence): string {
  return `collecte supplémentaire${reasonInList(o)}`;
}

/** The next collection of a waste type, as a sentence of its own; nothing when it was not looked for (undefined). */
function nextSentence(name: string, next: Occurrence | null | undefined): string {
  if (next === undefined) return '';
  if (next === null) return ` Aucune autre collecte ${ofWasteType(name)} n’est prévue dans les douze prochains mois.`;
  const change = next.status === 'MOVED' ? `, ${movedFrom(next)}` : next.status === 'ADDED' ? `, ${addedNote(next)}` : '';
  return ` Prochaine collecte ${ofWasteType(name)}\u00a0: ${frenchDate(next.date)}${change}.`;
}

/** One change as a sentence: moved, added, cancelled, kept as usual, or not held that day. */
export function fateSentence(fate: DayFate): string {
  if (fate.kind === 'notHeld') {
    return `La collecte ${ofWasteType(fate.wasteTypeName)} prévue le ${frenchDate(fate.day)} n’a pas lieu ce jour-là.${nextSentence(fate.wasteTypeName, fate.next)}`;
  }
  const o = fate.occurrence;
  const what = `La collecte ${ofWasteType(o.wasteTypeName)}`;
  switch (fate.kind) {
    case 'moved':
      return closed(`${what} du ${dayBeside(o.originalDate!, o.date)} est ${moveWord(o)} au ${frenchDate(o.date)}${reasonAtEnd(o)}`);
    case 'added':
      return closed(`Une collecte supplémentaire ${ofWasteType(o.wasteTypeName)} a lieu le ${frenchDate(o.date)}${reasonAtEnd(o)}`);
    case 'cancelled':
      return `${closed(`${what} du ${frenchDate(o.date)} est annulée${reasonAtEnd(o)}`)}${nextSentence(o.wasteTypeName, fate.next)}`;
    case 'kept':
      return `${what} du ${frenchDate(o.date)}${o.holiday ? ` (${o.holiday})` : ''} est maintenue\u00a0: elle a lieu comme d’habitude.`;
  }
}

/** The fates of a day in the order a citizen reads them: by waste type, the collections held before the others. */
export function sortFates(fates: DayFate[]): DayFate[] {
  const name = (f: DayFate) => (f.kind === 'notHeld' ? f.wasteTypeName : f.occurrence.wasteTypeName);
  const held = (f: DayFate) => (f.kind === 'kept' || f.kind === 'added' ? 0 : 1);
  return [...fates].sort((a, b) => compareFrench(name(a), name(b)) || held(a) - held(b));
}

/** A change ahead (an occurrence moved, added or cancelled) as the fate of its planned day. */
export function fateOfChange(o: Occurrence): DayFate {
  if (o.status === 'CANCELLED') return { kind: 'cancelled', occurrence: { ...o, status: 'CANCELLED' } };
  return { kind: o.status === 'ADDED' ? 'added' : o.status === 'MOVED' ? 'moved' : 'kept', occurrence: o };
}

/**
 * What the calendar holds for one day at a place: the collections held (as planned, moved onto it, added), then those
 * that are not (moved away, cancelled by an exception or a holiday rule).
 */
export function collectionsOn(k: CityKnowledge, place: Place, day: string, wasteTypes: WasteType[] | null): string {
  const asked = (wasteTypeId: string) => wasteTypes === null || wasteTypes.some((w) => w.id === wasteTypeId);
  const fates = sortFates(dayFates(k, place, day).filter((f) => asked(f.kind === 'notHeld' ? f.wasteTypeId : f.occurrence.wasteTypeId)));
  const date = frenchDate(day);
  if (fates.length === 0) {
    const what = wasteTypes === null ? 'Aucune collecte n’est prévue' : `Aucune collecte « ${wasteTypes.map((w) => w.name).join(' » ni « ')} » n’est prévue`;
    return `${what} le ${date} à ${place.name} (${k.city.name}).`;
  }
  const held: string[] = [];
  const removed: string[] = [];
  for (const f of fates) {
    if (f.kind === 'notHeld') {
      removed.push(`- ${f.wasteTypeName} : pas de collecte le ${date}.`);
      continue;
    }
    const o = f.occurrence;
    const holiday = o.holiday ? ` (${o.holiday})` : '';
    if (f.kind === 'kept') held.push(`- ${o.wasteTypeName} : ${date}${holiday}`);
    else if (f.kind === 'added') held.push(`- ${o.wasteTypeName} : ${date}${holiday}, ${addedNote(o)}`);
    else if (f.kind === 'moved' && o.date === day) held.push(`- ${o.wasteTypeName} : ${date}${holiday}, ${movedFrom(o)}`);
    else if (f.kind === 'moved') removed.push(`- ${o.wasteTypeName} : pas de collecte le ${date}, ${movedTo(o)}.`);
    else {
      const reason = reasonOf(o);
      const label = o.exceptionName ? ` (${o.exceptionName})` : reason?.from === 'holiday' ? ` (${reason.text})` : '';
      const description = o.exceptionDescription ?? (reason?.from === 'note' ? reason.text : null);
      removed.push(`- ${o.wasteTypeName} : pas de collecte le ${date}${label}${description ? ` : ${description}` : '.'}`);
    }
  }
  return [`À ${place.name} (${k.city.name}) :`, ...held, ...removed].join('\n');
}

/**
 * The changes of the next two months at a place, for the waste types asked (all when null), one line each (none when
 * there is none): moves and additions with their days, cancellations with their reason (a long one, such as a winter
 * pause, once).
 */
export function changesAhead(k: CityKnowledge, place: Place, wasteTypes: WasteType[] | null, now: Date): string[] {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const o of upcomingChanges(k, place, now)) {
    if (wasteTypes !== null && !wasteTypes.some((w) => w.id === o.wasteTypeId)) continue;
    if (o.status === 'CANCELLED') {
      // An exception over weeks cancels many collections: it is said once, at its first one.
      const key = o.exceptionName || o.exceptionDescription ? `${o.exceptionName ?? ''}|${o.exceptionDescription ?? ''}|${o.wasteTypeId}` : null;
      if (key !== null && seen.has(key)) continue;
      if (key !== null) seen.add(key);
      const reason = reasonOf(o);
      const label = o.exceptionName ? ` (${o.exceptionName})` : reason?.from === 'holiday' ? ` (${reason.text})` : '';
      const description = o.exceptionDescription ?? (reason?.from === 'note' ? reason.text : null);
      lines.push(`${frenchDate(o.date)}${label}, ${o.wasteTypeName} : ${description ?? 'pas de collecte.'}`);
    } else {
      lines.push(fateSentence(fateOfChange(o)));
    }
  }
  return lines;
}

/** Lines of a list, one per line. */
export const listed = (lines: readonly string[]): string => lines.map((line) => `- ${line}`).join('\n');

/**
 * « La collecte des emballages du vendredi 25 décembre est reportée au samedi 26 décembre 2026. »: what became of the
 * collections planned on a day at a place (kept as usual, moved, cancelled with the next one, added); when none was
 * planned that day, the next collections after it.
 */
export function collectionMovesOn(k: CityKnowledge, place: Place, day: string, wasteTypes: WasteType[] | null): string {
  const asked = (wasteTypeId: string) => wasteTypes === null || wasteTypes.some((w) => w.id === wasteTypeId);
  const fates = sortFates(dayFates(k, place, day).filter((f) => asked(f.kind === 'notHeld' ? f.wasteTypeId : f.occurrence.wasteTypeId)));
  if (fates.length > 0) return [`À ${place.name} (${k.city.name})\u00a0:`, ...fates.map(fateSentence)].join('\n');
  const what = wasteTypes === null ? 'Aucune collecte n’était prévue' : `Aucune collecte ${wasteTypes.map((w) => ofWasteType(w.name)).join(' ni ')} n’était prévue`;
  const lines = [`${what} le ${frenchDate(day)} à ${place.name} (${k.city.name}).`];
  const after = collectionsAfter(k, place, day).filter((o) => asked(o.wasteTypeId));
  if (after.length > 0) {
    lines.push(`Collectes suivantes\u00a0:`);
    for (const o of after) {
      const change = o.status === 'MOVED' ? `, ${movedFrom(o)}` : o.status === 'ADDED' ? `, ${addedNote(o)}` : '';
      lines.push(`- ${o.wasteTypeName} : ${frenchDate(o.date)}${o.holiday ? ` (${o.holiday})` : ''}${change}`);
    }
  }
  return lines.join('\n');
}
