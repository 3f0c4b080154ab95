import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseCalendarDate, startOfDayIn } from '../../src/kernel/dates.ts';

describe('startOfDayIn', () => {
  it('is the local midnight of the day, daylight saving included', () => {
    const at = (day: string, zone: string) => startOfDayIn(parseCalendarDate(day)!, zone).toISOString();
    assert.equal(at('2026-11-27', 'Europe/Paris'), '2026-11-26T23:00:00.000Z');
    assert.equal(at('2026-07-14', 'Europe/Paris'), '2026-07-13T22:00:00.000Z');
    // The nights the clocks change: midnight itself is on the old offset.
    assert.equal(at('2026-03-29', 'Europe/Paris'), '2026-03-28T23:00:00.000Z');
    assert.equal(at('2026-03-30', 'Europe/Paris'), '2026-03-29T22:00:00.000Z');
    assert.equal(at('2026-10-25', 'Europe/Paris'), '2026-10-24T22:00:00.000Z');
    assert.equal(at('2026-10-26', 'Europe/Paris'), '2026-10-25T23:00:00.000Z');
    assert.equal(at('2026-11-27', 'Indian/Reunion'), '2026-11-26T20:00:00.000Z');
    assert.equal(at('2026-11-27', 'America/Cayenne'), '2026-11-27T03:00:00.000Z');
  });
});
