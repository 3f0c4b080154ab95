/** Calendar helpers for the demo: days are plain `YYYY-MM-DD` strings until they are written as timestamps. */

export type Weekday = 'lundi' | 'mardi' | 'mercredi' | 'jeudi' | 'vendredi' | 'samedi' | 'dimanche';

export const WEEKDAYS: readonly Weekday[] = ['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche'];

const MONTHS = [
  'janvier', 'février', 'mars', 'avril', 'mai', 'juin',
  'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre',
];

const DAY_MS = 86_400_000;

function dayNumber(day: string): number {
  return Date.parse(`${day}T00:00:00.000Z`) / DAY_MS;
}

function fromDayNumber(n: number): string {
  return new Date(n * DAY_MS).toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  return fromDayNumber(dayNumber(day) + days);
}

export function weekdayOf(day: string): Weekday {
  // 1970-01-01 was a Thursday (index 3 from Monday).
  return WEEKDAYS[(((dayNumber(day) + 3) % 7) + 7) % 7];
}

/** The Monday of the week (Monday to Sunday) that holds `day`. */
export function mondayOf(day: string): string {
  return addDays(day, -WEEKDAYS.indexOf(weekdayOf(day)));
}

export function weeksBetween(fromDay: string, toDay: string): number {
  return Math.round((dayNumber(mondayOf(toDay)) - dayNumber(mondayOf(fromDay))) / 7);
}

/** `samedi 26 décembre 2026`, the way French citizens read a date. */
export function frenchDate(day: string, withYear = true): string {
  const [y, m, d] = day.split('-').map(Number);
  const dayLabel = d === 1 ? '1er' : String(d);
  return `${weekdayOf(day)} ${dayLabel} ${MONTHS[m - 1]}${withYear ? ` ${y}` : ''}`;
}

const parisOffset = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Paris', timeZoneName: 'longOffset' });

/** Minutes Europe/Paris is ahead of UTC at an instant. */
function parisOffsetMinutes(instant: Date): number {
  const name = parisOffset.formatToParts(instant).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/**
 * The timestamp that stands for a day (CONTRACT section 3): midnight Europe/Paris of that day, in UTC ISO form.
 * `2026-12-25` gives `2026-12-24T23:00:00.000Z`.
 */
export function parisMidnight(day: string): string {
  const utcMidnight = Date.parse(`${day}T00:00:00.000Z`);
  // Midnight is never inside a DST jump in Europe/Paris (they happen at 02:00 and 03:00).
  const offset = parisOffsetMinutes(new Date(utcMidnight - 12 * 3_600_000));
  return new Date(utcMidnight - offset * 60_000).toISOString();
}

/** A wall-clock time in Europe/Paris on a day, in UTC ISO form (for publication times). */
export function parisTime(day: string, hhmm: string): string {
  const [h, m] = hhmm.split(':').map(Number);
  const midnight = Date.parse(parisMidnight(day));
  const guess = new Date(midnight + (h * 60 + m) * 60_000);
  const shift = parisOffsetMinutes(guess) - parisOffsetMinutes(new Date(midnight));
  return new Date(guess.getTime() - shift * 60_000).toISOString();
}

export interface PublicHoliday {
  day: string;
  /** The holiday's usual French name (the calendar route names 25 December `Noël`). */
  name: string;
}

function easterSunday(year: number): string {
  // Anonymous Gregorian algorithm (Meeus/Jones/Butcher).
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The eleven legal public holidays of metropolitan France in a year. */
export function frenchPublicHolidays(year: number): PublicHoliday[] {
  const easter = easterSunday(year);
  return [
    { day: `${year}-01-01`, name: "Jour de l'an" },
    { day: addDays(easter, 1), name: 'Lundi de Pâques' },
    { day: `${year}-05-01`, name: 'Fête du Travail' },
    { day: `${year}-05-08`, name: 'Victoire 1945' },
    { day: addDays(easter, 39), name: 'Ascension' },
    { day: addDays(easter, 50), name: 'Lundi de Pentecôte' },
    { day: `${year}-07-14`, name: 'Fête nationale' },
    { day: `${year}-08-15`, name: 'Assomption' },
    { day: `${year}-11-01`, name: 'Toussaint' },
    { day: `${year}-11-11`, name: 'Armistice 1918' },
    { day: `${year}-12-25`, name: 'Noël' },
  ];
}

/** Public holidays from `fromDay` (inclusive) to `toDay` (exclusive), in date order. */
export function publicHolidaysBetween(fromDay: string, toDay: string): PublicHoliday[] {
  const years = [Number(fromDay.slice(0, 4)), Number(toDay.slice(0, 4))];
  const all: PublicHoliday[] = [];
  for (let y = years[0]; y <= years[1]; y++) all.push(...frenchPublicHolidays(y));
  return all.filter((h) => h.day >= fromDay && h.day < toDay).sort((a, b) => a.day.localeCompare(b.day));
}
