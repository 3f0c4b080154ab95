import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  computeCalendar,
  type CollectionDayRule,
  type CollectionExceptionRule,
  type HolidayRule,
  type Occurrence,
  type PlaceSchedule,
} from '../../src/domain/collection-calendar.ts';
import { parseCalendarDate, startOfDayIn, FRENCH_WEEKDAYS } from '../../src/kernel/dates.ts';
import type { HolidayCalendar } from '../../src/kernel/holidays.ts';

// Collections that move: exceptions of kind MOVE and ADD, and a group's holiday rules, as a resident reads them.

const VERRE = '00000000-0000-4000-8000-000000000001';
const EMBALLAGES = '00000000-0000-4000-8000-000000000002';
const WASTE_TYPES = [
  { id: VERRE, name: 'Verre', color: '#16a34a' },
  { id: EMBALLAGES, name: 'Emballages', color: '#facc15' },
];

const at = (date: string) => startOfDayIn(parseCalendarDate(date)!, 'Europe/Paris');
const weekly = (name: CollectionDayRule['name'], wasteTypeId: string): CollectionDayRule => ({ name, wasteTypeId, biweekly: false, startDate: null });
const span = (from: string, to: string) => ({ from: parseCalendarDate(from)!, to: parseCalendarDate(to)! });

function schedule(options: {
  days: CollectionDayRule[];
  exceptions?: CollectionExceptionRule[];
  rules?: HolidayRule[];
  holidayCalendar?: HolidayCalendar;
}): PlaceSchedule {
  return {
    days: options.days,
    exceptions: options.exceptions ?? [],
    holidayRules: options.rules ?? [],
    holidayCalendar: options.holidayCalendar ?? 'FR',
    wasteTypes: WASTE_TYPES,
    timeZone: 'Europe/Paris',
  };
}

function exception(kind: 'CANCEL' | 'MOVE' | 'ADD', dateFrom: string, extra: Partial<CollectionExceptionRule> = {}): CollectionExceptionRule {
  return { kind, dateFrom: at(dateFrom), dateTo: null, movedTo: null, wasteTypeId: EMBALLAGES, name: null, description: null, ...extra };
}

const brief = (o: Occurrence) => ({ date: o.date, wasteTypeId: o.wasteTypeId, status: o.status, originalDate: o.originalDate, note: o.note });
const of = (list: Occurrence[], wasteTypeId: string) => list.filter((o) => o.wasteTypeId === wasteTypeId).map(brief);

describe('exceptions that move or add a collection', () => {
  it('moves the collection of dateFrom to movedTo, with the exception as its note, and leaves nothing on the old day', () => {
    const calendar = computeCalendar(
      schedule({
        days: [weekly('vendredi', EMBALLAGES)],
        exceptions: [exception('MOVE', '2026-12-25', { movedTo: at('2026-12-26'), name: 'Noël', description: 'Collecte reportée au samedi' })],
      }),
      span('2026-12-20', '2027-01-03'),
    );
    assert.deepEqual(of(calendar.occurrences, EMBALLAGES), [
      { date: '2026-12-26', wasteTypeId: EMBALLAGES, status: 'MOVED', originalDate: '2026-12-25', note: 'Noël – Collecte reportée au samedi' },
      { date: '2027-01-01', wasteTypeId: EMBALLAGES, status: 'PLANNED', originalDate: null, note: null },
    ]);
    assert.deepEqual(calendar.cancelled, []);
  });

  it('brings in a collection planned outside the range that moves into it, and drops one that moves out', () => {
    const moves = [
      exception('MOVE', '2026-12-25', { movedTo: at('2027-01-02') }),
      exception('MOVE', '2027-01-08', { movedTo: at('2026-12-30') }),
    ];
    const calendar = computeCalendar(schedule({ days: [weekly('vendredi', EMBALLAGES)], exceptions: moves }), span('2026-12-28', '2027-01-03'));
    assert.deepEqual(calendar.occurrences.map((o) => [o.date, o.status, o.originalDate]), [
      ['2026-12-30', 'MOVED', '2027-01-08'],
      ['2027-01-01', 'PLANNED', null],
      ['2027-01-02', 'MOVED', '2026-12-25'],
    ]);
    const narrow = computeCalendar(schedule({ days: [weekly('vendredi', EMBALLAGES)], exceptions: moves }), span('2026-12-24', '2026-12-26'));
    assert.deepEqual(narrow.occurrences, [], 'the 25th moved away, nothing else lands in the range');
  });

  it('adds a collection the weekly rules lack, status ADDED', () => {
    const calendar = computeCalendar(
      schedule({ days: [weekly('vendredi', EMBALLAGES)], exceptions: [exception('ADD', '2026-12-29', { name: 'Collecte supplémentaire' })] }),
      span('2026-12-28', '2027-01-01'),
    );
    assert.deepEqual(of(calendar.occurrences, EMBALLAGES), [
      { date: '2026-12-29', wasteTypeId: EMBALLAGES, status: 'ADDED', originalDate: null, note: 'Collecte supplémentaire' },
      { date: '2027-01-01', wasteTypeId: EMBALLAGES, status: 'PLANNED', originalDate: null, note: null },
    ]);
  });

  it('counts a collection moved or added onto a day that already has it once', () => {
    const calendar = computeCalendar(
      schedule({
        days: [weekly('vendredi', EMBALLAGES), weekly('samedi', EMBALLAGES)],
        exceptions: [exception('MOVE', '2026-12-25', { movedTo: at('2026-12-26') }), exception('ADD', '2027-01-02')],
      }),
      span('2026-12-21', '2027-01-03'),
    );
    assert.deepEqual(calendar.occurrences.map((o) => [o.date, o.status]), [
      ['2026-12-26', 'PLANNED'],
      ['2027-01-01', 'PLANNED'],
      ['2027-01-02', 'PLANNED'],
    ]);
  });

  it('touches only its own waste type, and a MOVE with nothing planned that day moves nothing', () => {
    const calendar = computeCalendar(
      schedule({
        days: [weekly('vendredi', EMBALLAGES), weekly('vendredi', VERRE)],
        exceptions: [exception('MOVE', '2026-12-25', { movedTo: at('2026-12-26') }), exception('MOVE', '2026-12-23', { movedTo: at('2026-12-24') })],
      }),
      span('2026-12-21', '2026-12-27'),
    );
    assert.deepEqual(calendar.occurrences.map((o) => [o.date, o.wasteTypeId, o.status]), [
      ['2026-12-25', VERRE, 'PLANNED'],
      ['2026-12-26', EMBALLAGES, 'MOVED'],
    ]);
  });
});

describe('holiday rules', () => {
  const fridays = [weekly('vendredi', EMBALLAGES)];

  it('keeps collections on holidays where no rule applies, naming the holiday', () => {
    const calendar = computeCalendar(schedule({ days: fridays }), span('2026-12-25', '2026-12-25'));
    assert.deepEqual(calendar.occurrences.map((o) => [o.date, o.status, o.holiday]), [['2026-12-25', 'PLANNED', 'Noël']]);
  });

  it('NEXT_DAY moves to the next day that is neither a Sunday nor a holiday, saying so in French', () => {
    const calendar = computeCalendar(schedule({ days: fridays, rules: [{ holiday: 'noel', wasteTypeId: null, action: 'NEXT_DAY' }] }), span('2026-12-21', '2026-12-31'));
    assert.deepEqual(of(calendar.occurrences, EMBALLAGES), [
      { date: '2026-12-26', wasteTypeId: EMBALLAGES, status: 'MOVED', originalDate: '2026-12-25', note: 'Reportée du vendredi 25 décembre (Noël)' },
    ]);
    // In Alsace-Moselle the 26th is a holiday too, and the 27th a Sunday: Monday the 28th.
    const alsace = computeCalendar(
      schedule({ days: fridays, rules: [{ holiday: 'noel', wasteTypeId: null, action: 'NEXT_DAY' }], holidayCalendar: 'FR-ALSACE-MOSELLE' }),
      span('2026-12-21', '2026-12-31'),
    );
    assert.deepEqual(alsace.occurrences.map((o) => [o.date, o.originalDate]), [['2026-12-28', '2026-12-25']]);
  });

  it('PREVIOUS_DAY moves to the previous working day', () => {
    const calendar = computeCalendar(
      schedule({ days: fridays, rules: [{ holiday: 'jour-de-l-an', wasteTypeId: EMBALLAGES, action: 'PREVIOUS_DAY' }] }),
      span('2026-12-28', '2027-01-03'),
    );
    assert.deepEqual(of(calendar.occurrences, EMBALLAGES), [
      { date: '2026-12-31', wasteTypeId: EMBALLAGES, status: 'MOVED', originalDate: '2027-01-01', note: 'Avancée du vendredi 1er janvier (Jour de l\'an)' },
    ]);
  });

  it('CANCEL removes the collection, listed as cancelled with the rule\'s wording', () => {
    const calendar = computeCalendar(schedule({ days: fridays, rules: [{ holiday: '*', wasteTypeId: null, action: 'CANCEL' }] }), span('2026-12-21', '2026-12-27'));
    assert.deepEqual(calendar.occurrences, []);
    assert.deepEqual(calendar.cancelled.map((c) => [c.date, c.status, c.note]), [['2026-12-25', 'CANCELLED', 'Pas de collecte le vendredi 25 décembre (Noël)']]);
  });

  it('SHIFT_WEEK moves that collection and every later one of the week up to Saturday a day later', () => {
    // Whit Monday 2026 is 25 May.
    const days = [weekly('lundi', EMBALLAGES), weekly('jeudi', EMBALLAGES), weekly('mercredi', VERRE)];
    const calendar = computeCalendar(
      schedule({ days, rules: [{ holiday: 'lundi-de-pentecote', wasteTypeId: EMBALLAGES, action: 'SHIFT_WEEK' }] }),
      span('2026-05-25', '2026-06-01'),
    );
    assert.deepEqual(calendar.occurrences.map((o) => [o.date, o.wasteTypeId, o.status, o.originalDate]), [
      ['2026-05-26', EMBALLAGES, 'MOVED', '2026-05-25'],
      ['2026-05-27', VERRE, 'PLANNED', null],
      ['2026-05-29', EMBALLAGES, 'MOVED', '2026-05-28'],
      ['2026-06-01', EMBALLAGES, 'PLANNED', null],
    ]);
    assert.equal(calendar.occurrences[2].note, 'Reportée du jeudi 28 mai (Lundi de Pentecôte)');
  });

  it('lets the most specific rule win: a holiday key over *, a waste type over every one', () => {
    const days = [weekly('vendredi', EMBALLAGES), weekly('vendredi', VERRE)];
    const rules: HolidayRule[] = [
      { holiday: '*', wasteTypeId: null, action: 'CANCEL' },
      { holiday: '*', wasteTypeId: VERRE, action: 'NEXT_DAY' },
      { holiday: 'noel', wasteTypeId: null, action: 'KEEP' },
    ];
    const christmas = computeCalendar(schedule({ days, rules }), span('2026-12-25', '2026-12-26'));
    assert.deepEqual(christmas.occurrences.map((o) => [o.date, o.wasteTypeId, o.status]), [
      ['2026-12-25', EMBALLAGES, 'PLANNED'],
      ['2026-12-25', VERRE, 'PLANNED'],
    ]);
    const newYear = computeCalendar(schedule({ days, rules }), span('2027-01-01', '2027-01-02'));
    assert.deepEqual(newYear.occurrences.map((o) => [o.date, o.wasteTypeId, o.status]), [['2027-01-02', VERRE, 'MOVED']]);
    assert.deepEqual(newYear.cancelled.map((o) => [o.date, o.wasteTypeId]), [['2027-01-01', EMBALLAGES]]);
  });

  it('lets an exception on the day win over the rules', () => {
    const calendar = computeCalendar(
      schedule({
        days: fridays,
        rules: [{ holiday: '*', wasteTypeId: null, action: 'NEXT_DAY' }],
        exceptions: [exception('MOVE', '2026-12-25', { movedTo: at('2026-12-24'), name: 'Avancée au jeudi' })],
      }),
      span('2026-12-21', '2026-12-31'),
    );
    assert.deepEqual(calendar.occurrences.map((o) => [o.date, o.status, o.note]), [['2026-12-24', 'MOVED', 'Avancée au jeudi']]);
  });

  it('knows Alsace-Moselle\'s two extra holidays only for its cities', () => {
    const days = [weekly('samedi', EMBALLAGES), weekly('vendredi', VERRE)];
    const national = computeCalendar(schedule({ days }), span('2026-04-03', '2026-04-03'));
    assert.deepEqual(national.occurrences.map((o) => o.holiday), [null]);
    const alsace = computeCalendar(schedule({ days, holidayCalendar: 'FR-ALSACE-MOSELLE' }), span('2026-04-03', '2026-12-26'));
    const named = alsace.occurrences.filter((o) => o.holiday !== null).map((o) => [o.date, o.holiday]);
    assert.deepEqual(named.filter(([date]) => date === '2026-04-03' || date === '2026-12-26'), [
      ['2026-04-03', 'Vendredi saint'],
      ['2026-12-26', 'Saint-Étienne'],
    ]);
    const rules: HolidayRule[] = [{ holiday: 'saint-etienne', wasteTypeId: null, action: 'CANCEL' }];
    assert.equal(computeCalendar(schedule({ days, rules }), span('2026-12-26', '2026-12-26')).occurrences.length, 1, 'no such holiday outside Alsace-Moselle');
    assert.equal(computeCalendar(schedule({ days, rules, holidayCalendar: 'FR-ALSACE-MOSELLE' }), span('2026-12-26', '2026-12-26')).occurrences.length, 0);
  });
});

describe('any mix of exceptions and rules', () => {
  const dayArb = fc.integer({ min: 0, max: 120 }).map((n) => new Date(Date.UTC(2026, 10, 1 + n)).toISOString().slice(0, 10));
  const exceptionArb = fc.record({
    kind: fc.constantFrom('CANCEL' as const, 'MOVE' as const, 'ADD' as const),
    from: dayArb,
    offset: fc.integer({ min: -14, max: 14 }),
    wasteTypeId: fc.constantFrom(VERRE, EMBALLAGES),
  });
  const ruleArb = fc.record({
    holiday: fc.constantFrom('*', 'noel', 'jour-de-l-an', 'armistice', 'toussaint'),
    wasteTypeId: fc.constantFrom(null, VERRE, EMBALLAGES),
    action: fc.constantFrom('KEEP' as const, 'CANCEL' as const, 'NEXT_DAY' as const, 'PREVIOUS_DAY' as const, 'SHIFT_WEEK' as const),
  });

  it('gives one collection per day and waste type, moved ones with their planned day, and agrees with a sub-range', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ day: fc.constantFrom(...FRENCH_WEEKDAYS.slice(0, 6)), wasteTypeId: fc.constantFrom(VERRE, EMBALLAGES) }), { minLength: 1, maxLength: 4 }),
        fc.array(exceptionArb, { maxLength: 6 }),
        fc.array(ruleArb, { maxLength: 4 }),
        fc.integer({ min: 0, max: 60 }),
        (days, exceptions, rules, cut) => {
          const place = schedule({
            days: days.map((d) => weekly(d.day, d.wasteTypeId)),
            exceptions: exceptions.map((e) => {
              const target = new Date(Date.parse(`${e.from}T00:00:00Z`) + e.offset * 86_400_000).toISOString().slice(0, 10);
              return exception(e.kind, e.from, { wasteTypeId: e.wasteTypeId, movedTo: e.kind === 'MOVE' ? at(target) : null });
            }),
            rules,
          });
          const whole = computeCalendar(place, span('2026-11-15', '2027-02-15'));
          const keys = whole.occurrences.map((o) => `${o.date}|${o.wasteTypeId}`);
          assert.equal(new Set(keys).size, keys.length);
          for (const o of whole.occurrences) {
            assert.equal(o.originalDate !== null, o.status === 'MOVED');
            if (o.status === 'MOVED') assert.notEqual(o.originalDate, o.date);
          }
          // A day's collections do not depend on the range asked: the same seen through a shorter window.
          const from = parseCalendarDate('2026-11-15')! + cut;
          const part = computeCalendar(place, { from, to: from + 20 });
          const inside = whole.occurrences.filter((o) => parseCalendarDate(o.date)! >= from && parseCalendarDate(o.date)! <= from + 20);
          assert.deepEqual(part.occurrences, inside);
        },
      ),
      { numRuns: 300 },
    );
  });
});
