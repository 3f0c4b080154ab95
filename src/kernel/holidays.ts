import Holidays from 'date-holidays';
import { dayNumberFromParts, dayNumberToUtcDate, type DayNumber } from './dates.ts';

/**
 * French legal public holidays (Code du travail, article L3133-1), from the maintained `date-holidays`
 * library (its data ships with the package; nothing is downloaded at run time), for the two calendars a city may
 * follow: `FR`, the eleven national holidays, and `FR-ALSACE-MOSELLE` (Bas-Rhin, Haut-Rhin, Moselle: article
 * L3134-13), which adds Good Friday and 26 December. The library's French names differ from the usual short ones, so
 * each holiday is named here by its rule, with the stable key holiday rules use.
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

/** Every holiday a rule may name, by the library's rule, in the order of the year. */
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

// Moselle's department gives the library Alsace-Moselle's calendar (the same two extra days as Bas-Rhin, Haut-Rhin).
const library = new Holidays('FR', '57', { types: ['public'] });
const byYear = new Map<number, Map<DayNumber, HolidayDefinition>>();

function holidaysOfYear(year: number): Map<DayNumber, HolidayDefinition> {
  let holidays = byYear.get(year);
  if (!holidays) {
    holidays = new Map();
    for (const holiday of library.getHolidays(year)) {
      const definition = BY_RULE[holiday.rule];
      if (holiday.type !== 'public' || !definition) continue;
      // `date` is the holiday's own calendar date ("2026-12-25 00:00:00"), independent of any time zone.
      const [y, m, d] = holiday.date.slice(0, 10).split('-').map(Number);
      holidays.set(dayNumberFromParts(y, m, d), definition);
    }
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
