import Holidays from 'date-holidays';
import { dayNumberFromParts, dayNumberToUtcDate, type DayNumber } from './dates.ts';

/**
 * French legal public holidays (Code du travail, article L3133-1), from the maintained `date-holidays`
 * library (its data ships with the package; nothing is downloaded at run time). The library's French
 * names differ from the usual short ones, so each holiday is named here by its rule.
 */
const NAMES_BY_RULE: Record<string, string> = {
  '01-01': 'Jour de l\'an',
  'easter 1': 'Lundi de Pâques',
  '05-01': 'Fête du Travail',
  '05-08': 'Victoire 1945',
  'easter 39': 'Ascension',
  'easter 50': 'Lundi de Pentecôte',
  '07-14': 'Fête nationale',
  '08-15': 'Assomption',
  '11-01': 'Toussaint',
  '11-11': 'Armistice 1918',
  '12-25': 'Noël',
};

// National holidays only: regional ones (Alsace-Moselle, overseas departments) are not passed a region.
const library = new Holidays('FR', { types: ['public'] });
const byYear = new Map<number, Map<DayNumber, string>>();

/** The legal holidays of a year, by day. */
export function frenchHolidaysOf(year: number): Map<DayNumber, string> {
  let holidays = byYear.get(year);
  if (!holidays) {
    holidays = new Map();
    for (const holiday of library.getHolidays(year)) {
      const name = NAMES_BY_RULE[holiday.rule];
      if (holiday.type !== 'public' || !name) continue;
      // `date` is the holiday's own calendar date ("2026-12-25 00:00:00"), independent of any time zone.
      const [y, m, d] = holiday.date.slice(0, 10).split('-').map(Number);
      holidays.set(dayNumberFromParts(y, m, d), name);
    }
    byYear.set(year, holidays);
  }
  return holidays;
}

/** The name of the French legal holiday on that day, or null. */
export function frenchHolidayName(day: DayNumber): string | null {
  const year = dayNumberToUtcDate(day).getUTCFullYear();
  return frenchHolidaysOf(year).get(day) ?? null;
}
