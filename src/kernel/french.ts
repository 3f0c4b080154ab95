import { dayInTimeZone, formatDayNumber, wallClockParts } from './dates.ts';
/**
 * French text and dates, as every area needs them: the one ordering rule of the API (docs/api.md, Conventions:
 * names in French collation), and timestamps in the API's text form.
 */

/** French collation, used for every "ordered by name" rule so both databases sort alike (numbers in natural order). */
export const frenchCollator = new Intl.Collator('fr', { numeric: true });

/** Compares two texts in French collation. */
export const compareFrench = (a: string, b: string): number => frenchCollator.compare(a, b);

/** Sorts in place by a text key in French collation; ties are broken by id so the order is stable. */
export function sortByText<T extends { id: string }>(items: T[], key: (item: T) => string): T[] {
  return items.sort((a, b) => frenchCollator.compare(key(a), key(b)) || compareIds(a, b));
}

/** The last tie-break of every public order: the id, as text, so that an order never depends on the database. */
export const compareIds = (a: { id: string }, b: { id: string }): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Timestamps from the database (Date) to the contract's text form. */
export function iso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** A record's creation and last change, as the contract shows them (in this order). */
export const timestamps = (row: { created_at: Date; updated_at: Date }) => ({ createdAt: iso(row.created_at)!, updatedAt: iso(row.updated_at)! });

/** `n` things in French, with a no-break space: `1 ville`, `2 villes`, `0 ville`. */
export const counted = (n: number, singular: string, plural: string): string => `${n}\u00a0${n > 1 ? plural : singular}`;

/** `2 villes et 1 site`: the things counted, those of none left out; null when there is none of any. */
export function countedList(counts: readonly (readonly [n: number, singular: string, plural: string])[]): string | null {
  const parts = counts.filter(([n]) => n > 0).map(([n, singular, plural]) => counted(n, singular, plural));
  return parts.length === 0 ? null : frenchList(parts);
}

/** Items joined the French way: `a`, `a et b`, `a, b et c`. */
export function frenchList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} et ${items.at(-1)}`;
}

const FRENCH_MONTHS = ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'];
const FRENCH_WEEKDAYS_SUNDAY_FIRST = ['dimanche', 'lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi'];

export interface FrenchDateOptions {
  /** `mardi 1er décembre` (default true). */
  weekday?: boolean;
  /** `… 2026` (default false). */
  year?: boolean;
}

/**
 * A calendar day (`YYYY-MM-DD`, a day of the city's own calendar) as French readers write it: `mardi 1er décembre`,
 * `vendredi 25 décembre 2026`: the first of the month is `1er`, never `1` (Intl writes `1`). No time zone enters:
 * the day is the one given.
 */
export function frenchDate(day: string, options: FrenchDateOptions = {}): string {
  const { weekday = true, year = false } = options;
  const [y, m, d] = day.split('-').map(Number);
  const dayOfWeek = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  const parts = [d === 1 ? '1er' : String(d), FRENCH_MONTHS[m - 1]];
  if (weekday) parts.unshift(FRENCH_WEEKDAYS_SUNDAY_FIRST[dayOfWeek]);
  if (year) parts.push(String(y));
  return parts.join(' ');
}

/** A time of day as French readers write it: `9 h`, `18 h 30`, `0 h 05` (no-break spaces). */
export function frenchTime(hours: number, minutes: number): string {
  return minutes === 0 ? `${hours}\u00a0h` : `${hours}\u00a0h\u00a0${String(minutes).padStart(2, '0')}`;
}

/** An instant as citizens of a time zone read it: `1er septembre 2026 à 2\u00a0h`, `15 juin 2026 à 18\u00a0h\u00a030`. */
export function frenchMoment(instant: Date, timeZone: string): string {
  const [y, m, d, h, min] = wallClockParts(instant, timeZone);
  const day = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  return `${frenchDate(day, { weekday: false, year: true })} à ${frenchTime(h, min)}`;
}

/**
 * An instant said from `now` on the wall clock of `timeZone`: « aujourd’hui à 18 h », « demain à 9 h »,
 * « lundi 30 novembre à 9 h », « mardi 1er décembre à 9 h ».
 */
export function frenchMomentFrom(at: Date, now: Date, timeZone: string): string {
  const [, , , hour, minute] = wallClockParts(at, timeZone);
  const day = dayInTimeZone(at, timeZone);
  const today = dayInTimeZone(now, timeZone);
  const time = frenchTime(hour, minute);
  if (day === today) return `aujourd’hui à ${time}`;
  if (day === today + 1) return `demain à ${time}`;
  return `${frenchDate(formatDayNumber(day))} à ${time}`;
}
