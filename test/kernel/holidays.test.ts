import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Holidays from 'date-holidays';
import { formatDayNumber, parseCalendarDate } from '../../src/kernel/dates.ts';
import { HOLIDAY_CALENDARS, HOLIDAY_KEYS, frenchHolidaysOf, holidayOn, type HolidayCalendar } from '../../src/kernel/holidays.ts';

// The kernel computes its holidays itself; the maintained `date-holidays` library is the oracle they are held to.

/** The kernel's key for each of the library's rules. */
const KEY_BY_RULE: Record<string, string> = {
  '01-01': 'jour-de-l-an',
  'easter -2': 'vendredi-saint',
  'easter 1': 'lundi-de-paques',
  '05-01': 'fete-du-travail',
  '05-08': 'victoire-1945',
  'easter 39': 'ascension',
  'easter 50': 'lundi-de-pentecote',
  '07-14': 'fete-nationale',
  '08-15': 'assomption',
  '11-01': 'toussaint',
  '11-11': 'armistice',
  '12-25': 'noel',
  '12-26': 'saint-etienne',
};

const ORACLES: Record<HolidayCalendar, Holidays> = {
  FR: new Holidays('FR', { types: ['public'] }),
  // Moselle's department gives the library Alsace-Moselle's calendar (the same two extra days as Bas-Rhin, Haut-Rhin).
  'FR-ALSACE-MOSELLE': new Holidays('FR', '57', { types: ['public'] }),
};

/** The library's public holidays of a year, `YYYY-MM-DD key`, in its order; of two on one day, the later one. */
function libraryHolidays(year: number, calendar: HolidayCalendar): string[] {
  const byDate = new Map<string, string>();
  for (const holiday of ORACLES[calendar].getHolidays(year)) {
    if (holiday.type !== 'public') continue;
    const key = KEY_BY_RULE[holiday.rule];
    assert.ok(key, `${year}: the library has a public holiday of an unknown rule, ${holiday.rule}`);
    byDate.set(holiday.date.slice(0, 10), key);
  }
  return [...byDate].map(([date, key]) => `${date} ${key}`);
}

/** The kernel's holidays of a year on a calendar, `YYYY-MM-DD key`, by date. */
function kernelHolidays(year: number, calendar: HolidayCalendar): string[] {
  return [...frenchHolidaysOf(year, calendar).keys()].map((day) => `${formatDayNumber(day)} ${holidayOn(day, calendar)!.key}`);
}

const dayOf = (date: string) => parseCalendarDate(date)!;

describe('French public holidays, computed', () => {
  it('names every rule the library knows, with the same keys', () => {
    assert.deepEqual([...HOLIDAY_KEYS].sort(), Object.values(KEY_BY_RULE).sort());
  });

  for (const calendar of HOLIDAY_CALENDARS) {
    it(`are date-holidays' ${calendar} holidays, every year from 1900 to 2200`, () => {
      const differences: string[] = [];
      for (let year = 1900; year <= 2200; year++) {
        const kernel = kernelHolidays(year, calendar);
        const library = libraryHolidays(year, calendar);
        if (kernel.join() !== library.join()) differences.push(`${year}: kernel ${kernel.join(', ')}; library ${library.join(', ')}`);
      }
      assert.deepEqual(differences, []);
    });
  }

  it('are the known dates around Easter', () => {
    // Easter Sunday itself is no holiday: it is read through Easter Monday and Good Friday.
    for (const [easter, monday, goodFriday] of [
      ['2025-04-20', '2025-04-21', '2025-04-18'],
      ['2026-04-05', '2026-04-06', '2026-04-03'],
      ['2038-04-25', '2038-04-26', '2038-04-23'],
    ]) {
      assert.equal(holidayOn(dayOf(easter), 'FR-ALSACE-MOSELLE'), null, easter);
      assert.equal(holidayOn(dayOf(monday))?.key, 'lundi-de-paques', monday);
      assert.equal(holidayOn(dayOf(goodFriday), 'FR-ALSACE-MOSELLE')?.key, 'vendredi-saint', goodFriday);
      assert.equal(holidayOn(dayOf(goodFriday), 'FR'), null, goodFriday);
    }
    const pentecostMonday = holidayOn(dayOf('2026-05-25'));
    assert.deepEqual([pentecostMonday?.key, pentecostMonday?.name], ['lundi-de-pentecote', 'Lundi de Pentecôte']);
    assert.equal(holidayOn(dayOf('2026-05-14'))?.key, 'ascension');
  });

  it('names a day that is both Ascension and 1 or 8 May Ascension, as the library does', () => {
    assert.equal(holidayOn(dayOf('2008-05-01'))?.key, 'ascension');
    assert.equal(holidayOn(dayOf('1975-05-08'))?.key, 'ascension');
    assert.equal(frenchHolidaysOf(2008).size, 10);
  });

  it('dates years 0 to 99 in those years, not in the 1900s', () => {
    assert.equal(holidayOn(dayOf('0050-12-25'))?.key, 'noel');
    assert.deepEqual([...frenchHolidaysOf(50).keys()].map(formatDayNumber).slice(0, 1), ['0050-01-01']);
  });
});
