// French text of a place's rules, shared by the places list and the place screen.
import { dayToTimestamp, frenchDate } from '../french.ts';
import type { CollectionDay } from '../types.ts';

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
