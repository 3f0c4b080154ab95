import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  computeCalendar,
  nextCollections,
  type CollectionDayRule,
  type CollectionExceptionRule,
  type Occurrence,
  type PlaceSchedule,
} from '../../src/domain/collection-calendar.ts';
import { parseCalendarDate, FRENCH_WEEKDAYS } from '../../src/kernel/dates.ts';
import { frenchHolidayName, frenchHolidaysOf } from '../../src/kernel/holidays.ts';

// Pure engine tests: no database is involved, so they run once rather than per database kind.

const WASTE_TYPES = [
  { id: '00000000-0000-4000-8000-000000000001', name: 'Verre', color: '#16a34a' },
  { id: '00000000-0000-4000-8000-000000000002', name: 'Emballages', color: null },
  { id: '00000000-0000-4000-8000-000000000003', name: 'Ordures ménagères', color: '#6b7280' },
];
const [VERRE, EMBALLAGES, ORDURES] = WASTE_TYPES.map((w) => w.id);
const ZONES = ['Europe/Paris', 'America/Cayenne', 'Pacific/Noumea', 'Indian/Reunion', 'America/Los_Angeles'];
const DAY_MS = 86_400_000;

/** Independent oracle: the calendar day of an instant in a zone, through another formatter than the engine's. */
function localDate(instant: Date, timeZone: string): string {
  return instant.toLocaleDateString('sv-SE', { timeZone });
}
/** Calendar-date text to a UTC-midnight timestamp, for plain day differences. */
function utcMs(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}
function weekdayOf(date: string): string {
  // getUTCDay: 0 = Sunday.
  return ['dimanche', 'lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi'][new Date(utcMs(date)).getUTCDay()];
}
function addDays(date: string, days: number): string {
  return new Date(utcMs(date) + days * DAY_MS).toISOString().slice(0, 10);
}
function range(from: string, to: string) {
  return { from: parseCalendarDate(from)!, to: parseCalendarDate(to)! };
}
function schedule(days: CollectionDayRule[], exceptions: CollectionExceptionRule[] = [], timeZone = 'Europe/Paris'): PlaceSchedule {
  return { days, exceptions, wasteTypes: WASTE_TYPES, timeZone };
}
function dates(occurrences: Occurrence[], wasteTypeId?: string): string[] {
  return occurrences.filter((o) => !wasteTypeId || o.wasteTypeId === wasteTypeId).map((o) => o.date);
}
function isExcepted(date: string, wasteTypeId: string, exceptions: CollectionExceptionRule[], timeZone: string): boolean {
  return exceptions.some((e) => {
    if (e.wasteTypeId !== wasteTypeId) return false;
    const from = localDate(e.dateFrom, timeZone);
    const to = localDate(e.dateTo ?? e.dateFrom, timeZone);
    return from <= date && date <= to;
  });
}

// ---- arbitraries ----

const instantArb = fc.date({ min: new Date('2024-06-01T00:00:00Z'), max: new Date('2027-12-31T00:00:00Z'), noInvalidDate: true });
const wasteTypeIdArb = fc.constantFrom(...WASTE_TYPES.map((w) => w.id));
const dayRuleArb: fc.Arbitrary<CollectionDayRule> = fc.record({
  name: fc.constantFrom(...FRENCH_WEEKDAYS),
  wasteTypeId: wasteTypeIdArb,
  biweekly: fc.constantFrom(true, false, null),
  startDate: fc.option(instantArb, { nil: null }),
});
const exceptionArb: fc.Arbitrary<CollectionExceptionRule> = fc
  .record({
    dateFrom: instantArb,
    length: fc.option(fc.integer({ min: 0, max: 40 * DAY_MS }), { nil: null }),
    wasteTypeId: wasteTypeIdArb,
    name: fc.option(fc.constantFrom('Jour férié', 'Travaux'), { nil: null }),
  })
  .map(({ dateFrom, length, wasteTypeId, name }) => ({
    dateFrom,
    dateTo: length === null ? null : new Date(dateFrom.getTime() + length),
    wasteTypeId,
    name,
    description: null,
  }));
const rangeArb = fc
  .record({ start: fc.integer({ min: 0, max: 3 * 365 }), length: fc.integer({ min: 0, max: 400 }) })
  .map(({ start, length }) => {
    const from = addDays('2025-01-01', start);
    return { from, to: addDays(from, length) };
  });
const scheduleArb = fc.record({
  days: fc.array(dayRuleArb, { maxLength: 6 }),
  exceptions: fc.array(exceptionArb, { maxLength: 5 }),
  timeZone: fc.constantFrom(...ZONES),
});

describe('calendar engine: properties', () => {
  it('puts every occurrence on the weekday of one of its rules, on or after its start day in the city zone', () => {
    fc.assert(
      fc.property(scheduleArb, rangeArb, (s, r) => {
        const { occurrences } = computeCalendar(schedule(s.days, s.exceptions, s.timeZone), range(r.from, r.to));
        for (const o of occurrences) {
          assert.ok(r.from <= o.date && o.date <= r.to, `${o.date} outside ${r.from}..${r.to}`);
          const rule = s.days.find(
            (d) =>
              d.wasteTypeId === o.wasteTypeId &&
              d.name === weekdayOf(o.date) &&
              (d.startDate === null || localDate(d.startDate, s.timeZone) <= o.date),
          );
          assert.ok(rule, `no rule puts ${o.wasteTypeName} on ${o.date} (${weekdayOf(o.date)})`);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('matches a day-by-day oracle: every due day is there, none inside an exception of its waste type', () => {
    fc.assert(
      fc.property(scheduleArb, rangeArb, (s, r) => {
        const calendar = computeCalendar(schedule(s.days, s.exceptions, s.timeZone), range(r.from, r.to));
        const expected = new Set<string>();
        const expectedCancelled = new Set<string>();
        for (let date = r.from; date <= r.to; date = addDays(date, 1)) {
          for (const d of s.days) {
            if (d.name !== weekdayOf(date)) continue;
            const start = d.startDate ? localDate(d.startDate, s.timeZone) : null;
            if (start !== null && date < start) continue;
            if (d.biweekly) {
              if (start === null) continue;
              // Weeks between the Mondays of the two days.
              const monday = (x: string) => utcMs(x) - ((new Date(utcMs(x)).getUTCDay() + 6) % 7) * DAY_MS;
              if (Math.round((monday(date) - monday(start)) / (7 * DAY_MS)) % 2 !== 0) continue;
            }
            const key = `${date}|${d.wasteTypeId}`;
            if (isExcepted(date, d.wasteTypeId, s.exceptions, s.timeZone)) expectedCancelled.add(key);
            else expected.add(key);
          }
        }
        assert.deepEqual(new Set(calendar.occurrences.map((o) => `${o.date}|${o.wasteTypeId}`)), expected);
        assert.deepEqual(new Set(calendar.cancelled.map((o) => `${o.date}|${o.wasteTypeId}`)), expectedCancelled);
        for (const o of calendar.occurrences) assert.ok(!isExcepted(o.date, o.wasteTypeId, s.exceptions, s.timeZone));
      }),
      { numRuns: 200 },
    );
  });

  it('spaces the collections of a biweekly rule exactly 14 days apart', () => {
    const biweeklyArb = fc.record({
      name: fc.constantFrom(...FRENCH_WEEKDAYS),
      startDate: instantArb,
      timeZone: fc.constantFrom(...ZONES),
    });
    fc.assert(
      fc.property(biweeklyArb, fc.array(exceptionArb, { maxLength: 3 }), rangeArb, (b, exceptions, r) => {
        const rule: CollectionDayRule = { name: b.name, wasteTypeId: VERRE, biweekly: true, startDate: b.startDate };
        const calendar = computeCalendar(schedule([rule], exceptions, b.timeZone), range(r.from, r.to));
        // Cancelled days keep their place in the rhythm: together they are exactly 14 days apart.
        const all = [...dates(calendar.occurrences), ...dates(calendar.cancelled)].sort();
        for (let i = 1; i < all.length; i++) assert.equal((utcMs(all[i]) - utcMs(all[i - 1])) / DAY_MS, 14);
        // And the first one lies in the start day's week or an even number of weeks after it.
        if (all.length > 0) {
          assert.equal(weekdayOf(all[0]), b.name);
          const monday = (x: string) => utcMs(x) - ((new Date(utcMs(x)).getUTCDay() + 6) % 7) * DAY_MS;
          const weeks = Math.round((monday(all[0]) - monday(localDate(b.startDate, b.timeZone))) / (7 * DAY_MS));
          assert.equal(weeks % 2, 0, `first collection ${all[0]} is an odd number of weeks after the start`);
        }
        const kept = dates(calendar.occurrences);
        for (let i = 1; i < kept.length; i++) assert.equal(((utcMs(kept[i]) - utcMs(kept[i - 1])) / DAY_MS) % 14, 0);
      }),
      { numRuns: 300 },
    );
  });

  it('returns occurrences sorted by date then waste type name, without duplicates', () => {
    const collator = new Intl.Collator('fr');
    fc.assert(
      fc.property(scheduleArb, rangeArb, (s, r) => {
        const { occurrences } = computeCalendar(schedule(s.days, s.exceptions, s.timeZone), range(r.from, r.to));
        for (let i = 1; i < occurrences.length; i++) {
          const [a, b] = [occurrences[i - 1], occurrences[i]];
          assert.ok(a.date < b.date || (a.date === b.date && collator.compare(a.wasteTypeName, b.wasteTypeName) < 0), `${a.date} ${a.wasteTypeName} before ${b.date} ${b.wasteTypeName}`);
        }
        assert.equal(new Set(occurrences.map((o) => `${o.date}|${o.wasteTypeId}`)).size, occurrences.length);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same union when a range is split in two', () => {
    fc.assert(
      fc.property(scheduleArb, rangeArb, fc.nat(), (s, r, cut) => {
        const sched = schedule(s.days, s.exceptions, s.timeZone);
        const length = (utcMs(r.to) - utcMs(r.from)) / DAY_MS;
        const split = addDays(r.from, cut % (length + 1));
        const whole = computeCalendar(sched, range(r.from, r.to));
        const left = computeCalendar(sched, range(r.from, split));
        const right = computeCalendar(sched, range(addDays(split, 1), r.to));
        assert.deepEqual([...left.occurrences, ...right.occurrences], whole.occurrences);
        assert.deepEqual([...left.cancelled, ...right.cancelled], whole.cancelled);
      }),
      { numRuns: 300 },
    );
  });
});

describe('calendar engine: fixed dates', () => {
  it('keeps the dates across the last Sunday of March (Europe/Paris, 2026-03-29)', () => {
    const s = schedule(
      [
        // Midnight of Sunday 29 March in Paris, still winter time (UTC+1).
        { name: 'dimanche', wasteTypeId: ORDURES, biweekly: null, startDate: new Date('2026-03-28T23:00:00Z') },
        { name: 'lundi', wasteTypeId: VERRE, biweekly: true, startDate: new Date('2026-03-22T23:00:00Z') },
        { name: 'lundi', wasteTypeId: EMBALLAGES, biweekly: false, startDate: null },
      ],
      // Midnight of Monday 30 March in Paris, now summer time (UTC+2): in UTC it is still the 29th.
      [{ dateFrom: new Date('2026-03-29T22:00:00Z'), dateTo: null, wasteTypeId: EMBALLAGES, name: 'Travaux', description: null }],
    );
    const { occurrences, cancelled } = computeCalendar(s, range('2026-03-20', '2026-04-21'));
    assert.deepEqual(dates(occurrences, ORDURES), ['2026-03-29', '2026-04-05', '2026-04-12', '2026-04-19']);
    assert.deepEqual(dates(occurrences, VERRE), ['2026-03-23', '2026-04-06', '2026-04-20']);
    assert.deepEqual(dates(occurrences, EMBALLAGES), ['2026-03-23', '2026-04-06', '2026-04-13', '2026-04-20']);
    assert.deepEqual(dates(cancelled), ['2026-03-30']);
    assert.equal(cancelled[0].exceptionName, 'Travaux');
    assert.equal(occurrences.find((o) => o.date === '2026-04-06')?.holiday, 'Lundi de Pâques');
  });

  it('keeps the dates across the last Sunday of October (Europe/Paris, 2026-10-25)', () => {
    const s = schedule(
      [
        // Midnight of Sunday 25 October in Paris, summer time (UTC+2).
        { name: 'dimanche', wasteTypeId: ORDURES, biweekly: true, startDate: new Date('2026-10-24T22:00:00Z') },
        { name: 'lundi', wasteTypeId: VERRE, biweekly: null, startDate: null },
      ],
      // Monday 26 October, 00:00 in Paris, winter time again (UTC+1), through Monday 2 November.
      [{ dateFrom: new Date('2026-10-25T23:00:00Z'), dateTo: new Date('2026-11-01T23:00:00Z'), wasteTypeId: VERRE, name: null, description: 'Reporté' }],
    );
    const { occurrences, cancelled } = computeCalendar(s, range('2026-10-18', '2026-11-16'));
    assert.deepEqual(dates(occurrences, ORDURES), ['2026-10-25', '2026-11-08']);
    assert.deepEqual(dates(occurrences, VERRE), ['2026-10-19', '2026-11-09', '2026-11-16']);
    assert.deepEqual(dates(cancelled), ['2026-10-26', '2026-11-02']);
    assert.equal(cancelled[1].exceptionDescription, 'Reporté');
  });

  it('keeps the rhythm across 31 December and flags the New Year holiday', () => {
    const s = schedule(
      [
        // Thursday 17 December 2026, every second week.
        { name: 'jeudi', wasteTypeId: VERRE, biweekly: true, startDate: new Date('2026-12-16T23:00:00Z') },
        { name: 'vendredi', wasteTypeId: ORDURES, biweekly: null, startDate: null },
      ],
      // No household waste from Monday 28 December through Sunday 3 January.
      [{ dateFrom: new Date('2026-12-27T23:00:00Z'), dateTo: new Date('2027-01-03T10:00:00Z'), wasteTypeId: ORDURES, name: 'Fêtes', description: null }],
    );
    const { occurrences, cancelled } = computeCalendar(s, range('2026-12-10', '2027-01-20'));
    assert.deepEqual(dates(occurrences, VERRE), ['2026-12-17', '2026-12-31', '2027-01-14']);
    assert.deepEqual(dates(occurrences, ORDURES), ['2026-12-11', '2026-12-18', '2026-12-25', '2027-01-08', '2027-01-15']);
    assert.deepEqual(cancelled.map((o) => [o.date, o.holiday]), [['2027-01-01', 'Jour de l\'an']]);
    assert.equal(occurrences.find((o) => o.date === '2026-12-25')?.holiday, 'Noël');
  });

  it('reads start dates and exceptions in the city\'s own time zone', () => {
    // 13:00 UTC on 1 March 2026 is Monday 2 March, 00:00 in Nouméa (UTC+11) but still Sunday 1 March in Paris.
    const days: CollectionDayRule[] = [{ name: 'lundi', wasteTypeId: VERRE, biweekly: true, startDate: new Date('2026-03-01T13:00:00Z') }];
    assert.deepEqual(dates(computeCalendar(schedule(days, [], 'Pacific/Noumea'), range('2026-02-20', '2026-04-01')).occurrences), [
      '2026-03-02',
      '2026-03-16',
      '2026-03-30',
    ]);
    assert.deepEqual(dates(computeCalendar(schedule(days, [], 'Europe/Paris'), range('2026-02-20', '2026-04-01')).occurrences), [
      '2026-03-09',
      '2026-03-23',
    ]);
    // 02:00 UTC on 1 May is still Thursday 30 April, 23:00, in Cayenne (UTC-3).
    const thursday: CollectionDayRule[] = [{ name: 'jeudi', wasteTypeId: ORDURES, biweekly: null, startDate: null }];
    const exception: CollectionExceptionRule[] = [
      { dateFrom: new Date('2026-05-01T02:00:00Z'), dateTo: null, wasteTypeId: ORDURES, name: null, description: null },
    ];
    const cayenne = computeCalendar(schedule(thursday, exception, 'America/Cayenne'), range('2026-04-27', '2026-05-10'));
    assert.deepEqual(dates(cayenne.occurrences), ['2026-05-07']);
    assert.deepEqual(dates(cayenne.cancelled), ['2026-04-30']);
    const paris = computeCalendar(schedule(thursday, exception, 'Europe/Paris'), range('2026-04-27', '2026-05-10'));
    assert.deepEqual(dates(paris.occurrences), ['2026-04-30', '2026-05-07']);
  });

  it('never schedules a biweekly day without a start date, and falls back to Paris for an unknown zone', () => {
    const days: CollectionDayRule[] = [
      { name: 'mardi', wasteTypeId: VERRE, biweekly: true, startDate: null },
      { name: 'mardi', wasteTypeId: ORDURES, biweekly: null, startDate: new Date('2026-03-01T23:30:00Z') },
    ];
    const { occurrences } = computeCalendar(schedule(days, [], 'Not/AZone'), range('2026-02-20', '2026-03-10'));
    // 23:30 UTC on 1 March is 00:30 on Monday 2 March in Paris.
    assert.deepEqual(occurrences.map((o) => [o.date, o.wasteTypeId]), [['2026-03-03', ORDURES], ['2026-03-10', ORDURES]]);
  });

  it('lists each collection once when two rules give the same day and waste type', () => {
    const days: CollectionDayRule[] = [
      { name: 'mercredi', wasteTypeId: VERRE, biweekly: null, startDate: null },
      { name: 'mercredi', wasteTypeId: VERRE, biweekly: true, startDate: new Date('2026-01-06T23:00:00Z') },
    ];
    assert.deepEqual(dates(computeCalendar(schedule(days), range('2026-01-05', '2026-01-20')).occurrences), [
      '2026-01-07',
      '2026-01-14',
    ]);
  });

  it('gives the first collection of each waste type on or after today in the city\'s zone', () => {
    const s = schedule(
      [
        { name: 'vendredi', wasteTypeId: ORDURES, biweekly: null, startDate: null },
        { name: 'vendredi', wasteTypeId: VERRE, biweekly: null, startDate: null },
        { name: 'mercredi', wasteTypeId: EMBALLAGES, biweekly: true, startDate: new Date('2026-01-06T23:00:00Z') },
      ],
      [{ dateFrom: new Date('2026-12-24T23:00:00Z'), dateTo: null, wasteTypeId: VERRE, name: 'Noël', description: null }],
    );
    // 23:30 UTC on 24 December is 00:30 on Friday 25 December in Paris.
    const next = nextCollections(s, new Date('2026-12-24T23:30:00Z'));
    assert.deepEqual(next.map((o) => [o.date, o.wasteTypeName, o.holiday]), [
      ['2026-12-25', 'Ordures ménagères', 'Noël'],
      ['2027-01-01', 'Verre', 'Jour de l\'an'],
      ['2027-01-06', 'Emballages', null],
    ]);
    // An hour earlier it is still Thursday 24 December there.
    assert.equal(nextCollections(s, new Date('2026-12-24T22:30:00Z')).length, 3);
    assert.deepEqual(nextCollections(schedule([]), new Date()), []);
  });
});

describe('French legal holidays', () => {
  it('names the eleven legal holidays of every year, and only those', () => {
    for (let year = 2024; year <= 2032; year++) {
      const names = [...frenchHolidaysOf(year).values()].sort();
      assert.deepEqual(names, [
        'Armistice 1918',
        'Ascension',
        'Assomption',
        'Fête du Travail',
        'Fête nationale',
        'Jour de l\'an',
        'Lundi de Pentecôte',
        'Lundi de Pâques',
        'Noël',
        'Toussaint',
        'Victoire 1945',
      ]);
    }
    const named = (date: string) => frenchHolidayName(parseCalendarDate(date)!);
    assert.equal(named('2026-12-25'), 'Noël');
    assert.equal(named('2026-01-01'), 'Jour de l\'an');
    assert.equal(named('2026-04-06'), 'Lundi de Pâques');
    assert.equal(named('2027-05-06'), 'Ascension');
    assert.equal(named('2026-05-25'), 'Lundi de Pentecôte');
    assert.equal(named('2026-07-14'), 'Fête nationale');
    assert.equal(named('2026-05-24'), null); // Pentecost Sunday is not a legal holiday.
    assert.equal(named('2026-12-26'), null); // St Stephen's Day: Alsace-Moselle only.
  });
});
