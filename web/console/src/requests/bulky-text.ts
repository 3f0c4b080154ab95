// Bulky-waste pickup days as agents read them (docs/api.md, bulky-waste pickups): the months of the
// calendar, the days of the week in French (the API's names), what a day holds, and the crew's order of a day's
// bookings (by street, then by number: the order a truck drives them, not the order of the addresses as text).
import { counted } from '../french.ts';
import type { PickupBooking, PickupDay } from '../types.ts';

/** The API's names of the days of the week (`weekdays` of POST /admin/cities/:cityId/bulky-pickups), Monday first. */
export const WEEKDAYS = ['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const DAY = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** The month (YYYY-MM) a `?mois=` names, or null when it names none. */
export const readMonth = (value: string | null): string | null => (value && MONTH.test(value) ? value : null);

/** The calendar day (YYYY-MM-DD) a `?jour=` names, or null when it names no real day (`2026-02-30`). */
export function readDay(value: string | null): string | null {
  const match = value ? DAY.exec(value) : null;
  if (!match) return null;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value ? value : null;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The month `by` months after `month` (before when negative). */
export function shiftMonth(month: string, by: number): string {
  const [year, m] = month.split('-').map(Number);
  const date = new Date(Date.UTC(year, m - 1 + by, 1));
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}`;
}

/** Every day of a month, in order. */
export function daysOf(month: string): string[] {
  const [year, m] = month.split('-').map(Number);
  const length = new Date(Date.UTC(year, m, 0)).getUTCDate();
  return Array.from({ length }, (_, i) => `${month}-${pad(i + 1)}`);
}

/** 0 for a Monday … 6 for a Sunday. */
export const weekdayIndex = (day: string): number => (new Date(`${day}T12:00:00Z`).getUTCDay() + 6) % 7;

/** `décembre 2026`. */
export const monthName = (month: string): string =>
  new Intl.DateTimeFormat('fr-FR', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-15T12:00:00Z`));

/** A sentence's first letter in capitals (`Mercredi 16 décembre 2026`, `Décembre 2026`). */
export const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** What a day of the calendar holds, line by line: `3 places`, `1 rendez-vous`, `2 libres`; `Fermé`; `Non ouvert`. */
export function dayLines(day: PickupDay | undefined): string[] {
  if (!day) return ['Non ouvert'];
  if (day.capacity === 0) return day.booked > 0 ? ['Fermé', counted(day.booked, 'rendez-vous', 'rendez-vous')] : ['Fermé'];
  return [
    counted(day.capacity, 'place', 'places'),
    counted(day.booked, 'rendez-vous', 'rendez-vous'),
    day.remaining === 0 ? 'complet' : counted(day.remaining, 'libre', 'libres'),
  ];
}

/** The state a day of the calendar is drawn in. */
export function dayState(day: PickupDay | undefined): 'unset' | 'closed' | 'full' | 'open' {
  if (!day) return 'unset';
  if (day.capacity === 0) return 'closed';
  return day.remaining === 0 ? 'full' : 'open';
}

// ---- the crew's order -------------------------------------------------------------------------------------------

/** A house number at the start of an address, with its `bis`, `ter` or letter: `12 bis, rue de Siam`, `3B rue …`. */
const HOUSE_NUMBER = /^\s*(\d+)\s*(bis|ter|quater|[a-z])?(?=[\s,])[\s,]*/i;
const SUFFIXES = ['bis', 'ter', 'quater'];
const french = new Intl.Collator('fr', { sensitivity: 'base', numeric: true });

/** An address as the crew reads it: its street (the address without its house number), its number and suffix. */
export function streetOf(address: string): { street: string; number: number; suffix: number } {
  const match = HOUSE_NUMBER.exec(address);
  if (!match) return { street: address.trim(), number: 0, suffix: 0 };
  const suffix = (match[2] ?? '').toLowerCase();
  const rank = suffix === '' ? 0 : SUFFIXES.includes(suffix) ? SUFFIXES.indexOf(suffix) + 1 : SUFFIXES.length + suffix.charCodeAt(0);
  return { street: address.slice(match[0].length).trim(), number: Number(match[1]), suffix: rank };
}

/**
 * A day's bookings in the crew's order: by street in French collation (accents and capitals aside), then by house
 * number (7 before 25), `bis` after the plain number; bookings without an address last, by reference.
 */
export function crewOrder(bookings: PickupBooking[]): PickupBooking[] {
  const keyed = bookings.map((booking) => ({ booking, at: booking.address === null ? null : streetOf(booking.address) }));
  keyed.sort((a, b) => {
    if (a.at === null || b.at === null) return (a.at === null ? 1 : 0) - (b.at === null ? 1 : 0) || french.compare(a.booking.reference, b.booking.reference);
    return (
      french.compare(a.at.street, b.at.street) ||
      a.at.number - b.at.number ||
      a.at.suffix - b.at.suffix ||
      french.compare(a.booking.reference, b.booking.reference)
    );
  });
  return keyed.map((k) => k.booking);
}
