import { MS_PER_DAY, dayNumberToUtcDate, type DayNumber } from './dates.ts';

/**
 * French legal public holidays (Code du travail, article L3133-1), for the two calendars a city may follow: `FR`, the
 * eleven national holidays, and `FR-ALSACE-MOSELLE` (Bas-Rhin, Haut-Rhin, Moselle: article L3134-13), which adds Good
 * Friday and 26 December. The dates are computed here, fixed ones and Easter's movable ones by the Gregorian computus;
 * the tests check them against the `date-holidays` library for every year from 1900 to 2200. Each holiday has its
 * usual short French name and the stable key holiday rules use.
 */

export const HOLIDAY_CALENDARS = ['FR', 'FR-ALSACE-MOSELLE'] as const;
export type HolidayCalendar = (typeof HOLIDAY_CALENDARS)[number];

export interface HolidayDefinition {
  /** The key holiday rules name it by. */
  key: string;
  /** Its usual French name. */
  name: string;
  /** The calendars on which it is a public holiday. */
  calendars: readonly HolidayCalendar[];
}

const BOTH: readonly HolidayCalendar[] = HOLIDAY_CALENDARS;
const ALSACE_MOSELLE: readonly HolidayCalendar[] = ['FR-ALSACE-MOSELLE'];

/**
 * Every holiday a rule may name, in the order of the year, by its date: a fixed `MM-DD`, or `easter N`, N days after
 * Easter Sunday (the rules' notation in `date-holidays`, which the tests compare against).
 */
const BY_RULE: Record<string, HolidayDefinition> = {
  '01-01': { key: 'jour-de-l-an', name: 'Jour de l\'an', calendars: BOTH },
  'easter -2': { key: 'vendredi-saint', name: 'Vendredi saint', calendars: ALSACE_MOSELLE },
  'easter 1': { key: 'lundi-de-paques', name: 'Lundi de Pâques', calendars: BOTH },
  '05-01': { key: 'fete-du-travail', name: 'Fête du Travail', calendars: BOTH },
  '05-08': { key: 'victoire-1945', name: 'Victoire 1945', calendars: BOTH },
  'easter 39': { key: 'ascension', name: 'Ascension', calendars: BOTH },
  'easter 50': { key: 'lundi-de-pentecote', name: 'Lundi de Pentecôte', calendars: BOTH },
  '07-14': { key: 'fete-nationale', name: 'Fête nationale', calendars: BOTH },
  '08-15': { key: 'assomption', name: 'Assomption', calendars: BOTH },
  '11-01': { key: 'toussaint', name: 'Toussaint', calendars: BOTH },
  '11-11': { key: 'armistice', name: 'Armistice 1918', calendars: BOTH },
  '12-25': { key: 'noel', name: 'Noël', calendars: BOTH },
  '12-26': { key: 'saint-etienne', name: 'Saint-Étienne', calendars: ALSACE_MOSELLE },
};

/** Every key a holiday rule may name (besides `*`), in the order of the year. */
export const HOLIDAY_KEYS: readonly string[] = Object.values(BY_RULE).map((h) => h.key);

/** A public holiday on a given day. */
export interface Holiday {
  key: string;
  name: string;
}

/** A date's day number, for any year (`Date.UTC` would read years 0 to 99 as 1900 to 1999). */
function dayOf(year: number, month: number, day: number): DayNumber {
  return new Date(0).setUTCFullYear(year, month - 1, day) / MS_PER_DAY;
}

/** Euclidean remainder, so the computus also holds for years before 0. */
const mod = (n: number, d: number): number => ((n % d) + d) % d;

/** Easter Sunday of a Gregorian year: the anonymous Gregorian algorithm (Meeus, Jones, Butcher). */
function easterSunday(year: number): DayNumber {
  const a = mod(year, 19);
  const b = Math.floor(year / 100);
  const c = mod(year, 100);
  const h = mod(19 * a + b - Math.floor(b / 4) - Math.floor((b - Math.floor((b + 8) / 25) + 1) / 3) + 15, 30);
  const l = mod(32 + 2 * mod(b, 4) + 2 * Math.floor(c / 4) - h - mod(c, 4), 7);
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const monthDay = h + l - 7 * m + 114;
  return dayOf(year, Math.floor(monthDay / 31), mod(monthDay, 31) + 1);
}

const byYear = new Map<number, Map<DayNumber, HolidayDefinition>>();

/**
 * A year's holidays by day, in date order. Ascension may fall on 1 or 8 May: the day is then named Ascension, as
 * `date-holidays` named it (of two holidays on one day, it kept the Easter rule).
 */
function holidaysOfYear(year: number): Map<DayNumber, HolidayDefinition> {
  let holidays = byYear.get(year);
  if (!holidays) {
    const easter = easterSunday(year);
    const dated = Object.entries(BY_RULE).map(([rule, definition]) => {
      const movable = rule.startsWith('easter ');
      const day = movable ? easter + Number(rule.slice('easter '.length)) : dayOf(year, Number(rule.slice(0, 2)), Number(rule.slice(3)));
      return { day, movable, definition };
    });
    // On a shared day the Easter holiday comes last, so it is the one the map keeps.
    dated.sort((x, y) => x.day - y.day || Number(x.movable) - Number(y.movable));
    holidays = new Map(dated.map((h) => [h.day, h.definition]));
    byYear.set(year, holidays);
  }
  return holidays;
}

/** The public holidays of a year on a calendar (national by default), by day, with their names. */
export function frenchHolidaysOf(year: number, calendar: HolidayCalendar = 'FR'): Map<DayNumber, string> {
  const result = new Map<DayNumber, string>();
  for (const [day, definition] of holidaysOfYear(year)) if (definition.calendars.includes(calendar)) result.set(day, definition.name);
  return result;
}

/** Days already looked up (the calendar engine asks for every collection day): a day's holiday, or null. */
const byDay = new Map<DayNumber, HolidayDefinition | null>();

/** The public holiday on that day for a calendar (national by default), or null. */
export function holidayOn(day: DayNumber, calendar: HolidayCalendar = 'FR'): Holiday | null {
  let definition = byDay.get(day);
  if (definition === undefined) {
    definition = holidaysOfYear(dayNumberToUtcDate(day).getUTCFullYear()).get(day) ?? null;
    if (byDay.size >= 100_000) byDay.clear();
    byDay.set(day, definition);
  }
  return definition && definition.calendars.includes(calendar) ? definition : null;
}

/** The name of the public holiday on that day for a calendar (national by default), or null. */
export function frenchHolidayName(day: DayNumber, calendar: HolidayCalendar = 'FR'): string | null {
  return holidayOn(day, calendar)?.name ?? null;
}

/** A city's calendar from its stored value: anything but Alsace-Moselle's is the national one. */
export function holidayCalendarOf(value: string | null | undefined): HolidayCalendar {
  return value === 'FR-ALSACE-MOSELLE' ? 'FR-ALSACE-MOSELLE' : 'FR';
}
