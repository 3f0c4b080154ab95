import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openingStateAt } from '../../src/domain/opening-hours.ts';
import { dayNumberFromParts, formatDayNumber, startOfDayIn } from '../../src/kernel/dates.ts';
import { HOLIDAY_CALENDARS, holidayOn } from '../../src/kernel/holidays.ts';

// Open-now's public holidays (`PH`) are the city's: the `opening_hours` library's French data, read without a state for
// the national calendar and with Moselle's for Alsace-Moselle's, holds the same days as the kernel's calendars (the
// calendar engine's), day by day.

const ZONE = 'Europe/Paris';
/** Noon of a day on the city's wall clock. */
const noonOf = (day: number) => new Date(startOfDayIn(day, ZONE).getTime() + 12 * 3_600_000);

describe('open-now on the city’s public holidays', () => {
  for (const calendar of HOLIDAY_CALENDARS) {
    it(`reads \`PH\` as the kernel's ${calendar} calendar, every day from 2026 to 2032`, () => {
      const differences: string[] = [];
      for (let day = dayNumberFromParts(2026, 1, 1); day <= dayNumberFromParts(2032, 12, 31); day++) {
        const library = openingStateAt('PH', noonOf(day), ZONE, calendar).openNow;
        const kernel = holidayOn(day, calendar) !== null;
        if (library !== kernel) differences.push(`${formatDayNumber(day)}: library ${library}, kernel ${kernel}`);
      }
      assert.deepEqual(differences, []);
    });
  }

  it('closes `PH off` on Good Friday and 26 December in Alsace-Moselle only', () => {
    const spec = 'Mo-Sa 09:00-18:00; PH off';
    for (const day of ['2027-03-26', '2026-12-26']) {
      const [y, m, d] = day.split('-').map(Number);
      const noon = noonOf(dayNumberFromParts(y, m, d));
      assert.equal(openingStateAt(spec, noon, ZONE, 'FR-ALSACE-MOSELLE').openNow, false, day);
      assert.equal(openingStateAt(spec, noon, ZONE, 'FR').openNow, true, day);
    }
  });
});
