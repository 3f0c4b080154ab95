// French text of a place's rules, shared by the places list and the place screen.
import { dayToTimestamp, frenchDate } from '../french.ts';
import type { AdminException, CollectionDay } from '../types.ts';

export { dayToTimestamp, frenchDate };

/** The calendar day (YYYY-MM-DD) an instant falls on in a time zone. */
export function dayIn(timestamp: string, timeZone: string): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(timestamp));
}

/** `chaque lundi`, `un mardi sur deux (à partir de la semaine du …)`. */
export function dayRule(day: Pick<CollectionDay, 'name' | 'biweekly' | 'startDate'>, timeZone: string): string {
  if (!day.biweekly) return `chaque ${day.name}${day.startDate ? ` à partir du ${frenchDate(dayIn(day.startDate, timeZone))}` : ''}`;
  return `un ${day.name} sur deux${day.startDate ? ` (semaine du ${frenchDate(dayIn(day.startDate, timeZone))})` : ''}`;
}

/** `vendredi 25 décembre`, with the year when it is not this year's. */
export function dayText(day: string): string {
  return frenchDate(day, { year: day.slice(0, 4) !== String(new Date().getFullYear()) });
}

/** « Annulée du … au … », « Déplacée du vendredi 25 décembre au samedi 26 décembre », « Ajoutée le … »: an exception in French. */
export function exceptionText(x: Pick<AdminException, 'kind' | 'dateFrom' | 'dateTo' | 'movedTo'>, timeZone: string): string {
  const from = dayIn(x.dateFrom, timeZone);
  if (x.kind === 'MOVE') return x.movedTo ? `Déplacée du ${dayText(from)} au ${dayText(dayIn(x.movedTo, timeZone))}` : `Déplacée du ${dayText(from)}`;
  if (x.kind === 'ADD') return `Ajoutée le ${dayText(from)}`;
  const to = x.dateTo ? dayIn(x.dateTo, timeZone) : from;
  return to === from ? `Annulée le ${dayText(from)}` : `Annulée du ${dayText(from)} au ${dayText(to)}`;
}
