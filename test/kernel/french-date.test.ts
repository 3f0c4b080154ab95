import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { frenchDate } from '../../src/kernel/french.ts';

describe('frenchDate', () => {
  it('writes the first of the month « 1er », with the weekday and, when asked, the year', () => {
    assert.equal(frenchDate('2026-12-01'), 'mardi 1er décembre');
    assert.equal(frenchDate('2026-12-25', { year: true }), 'vendredi 25 décembre 2026');
    assert.equal(frenchDate('2027-01-01', { weekday: false }), '1er janvier');
    assert.equal(frenchDate('2027-08-15', { weekday: false, year: true }), '15 août 2027');
    assert.equal(frenchDate('2028-02-29'), 'mardi 29 février');
  });

  it('agrees with the French locale of Intl on every day but the first of a month', () => {
    const intl = new Intl.DateTimeFormat('fr-FR', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
    fc.assert(
      fc.property(fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true }), (date) => {
        const day = date.toISOString().slice(0, 10);
        const expected = intl.format(new Date(`${day}T00:00:00Z`)).replace(/^(\S+) 1 /, '$1 1er ');
        assert.equal(frenchDate(day, { year: true }), expected);
      }),
      { numRuns: 2000 },
    );
  });
});
