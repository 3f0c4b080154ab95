import {
  dayInTimeZone,
  formatDayNumber,
  FRENCH_WEEKDAYS,
  isoWeekdayIndex,
  mondayOf,
  resolveTimeZone,
  todayIn,
  type DayNumber,
  type FrenchWeekday,
} from '../kernel/dates.ts';
import { holidayOn, type Holiday, type HolidayCalendar } from '../kernel/holidays.ts';
import { compareFrench, frenchDate } from '../kernel/french.ts';

/**
 * The collection calendar engine: turns a place's collection days and exceptions into dated collections
 * with the exceptions that cancel, move or add one and the city group's holiday rules. Every channel (the calendar
 * screen, the feed, the open-data CSV, reminders, alerts, the assistant, the console's preview) takes its dates from
 * here, so a move is computed once. Pure functions, no I/O: the routes, the planner and the assistant feed it rows.
 */

export interface CollectionDayRule {
  /** French weekday, lowercase. */
  name: FrenchWeekday;
  wasteTypeId: string;
  biweekly: boolean | null;
  /** First day the rule applies (the calendar day it falls on in the city's time zone); required when biweekly. */
  startDate: Date | null;
}

/** What an exception does: removes collections, moves one to another day, or adds one the weekly rules lack. */
export const EXCEPTION_KINDS = ['CANCEL', 'MOVE', 'ADD'] as const;
export type ExceptionKind = (typeof EXCEPTION_KINDS)[number];

/** How far a MOVE may take a collection, in days before or after its planned day (docs/api.md, collections that move and service notices). */
export const MAX_MOVE_DAYS = 14;

export interface CollectionExceptionRule {
  /** CANCEL when absent (an exception of the seed's shape). */
  kind?: ExceptionKind;
  dateFrom: Date;
  /** CANCEL: last day without collection; null = dateFrom's day only. Null for MOVE and ADD. */
  dateTo: Date | null;
  /** MOVE: the day the collection of dateFrom takes place instead; null otherwise. */
  movedTo?: Date | null;
  wasteTypeId: string;
  name: string | null;
  description: string | null;
}

/** What a holiday rule does to a collection falling on a public holiday. */
export const HOLIDAY_ACTIONS = ['KEEP', 'CANCEL', 'NEXT_DAY', 'PREVIOUS_DAY', 'SHIFT_WEEK'] as const;
export type HolidayAction = (typeof HOLIDAY_ACTIONS)[number];

/** A city group's rule: `holiday` is a holiday key or `*` (every one), `wasteTypeId` null for every waste type. */
export interface HolidayRule {
  holiday: string;
  wasteTypeId: string | null;
  action: HolidayAction;
}

export interface WasteTypeInfo {
  id: string;
  name: string;
  color: string | null;
}

export interface PlaceSchedule {
  days: CollectionDayRule[];
  exceptions: CollectionExceptionRule[];
  wasteTypes: WasteTypeInfo[];
  /** The city group's holiday rules; none = every collection kept on holidays. */
  holidayRules?: readonly HolidayRule[];
  /** The city's public holidays: the national ones unless it follows Alsace-Moselle's. */
  holidayCalendar?: HolidayCalendar;
  /** IANA zone of the city; an unknown or missing one falls back to Europe/Paris. */
  timeZone?: string | null;
}

export type OccurrenceStatus = 'PLANNED' | 'MOVED' | 'ADDED' | 'CANCELLED';

export interface Occurrence {
  /** YYYY-MM-DD in the city's time zone: the day the collection takes place (or, cancelled, would have). */
  date: string;
  wasteTypeId: string;
  wasteTypeName: string;
  color: string | null;
  /** Name of the public holiday falling that day (on the city's calendar), or null. */
  holiday: string | null;
  status: OccurrenceStatus;
  /** MOVED: the day it was planned for; else null. */
  originalDate: string | null;
  /** Why it is not as planned: the exception's name and description, or the holiday rule's wording; else null. */
  note: string | null;
  /** The exception that moved, added or cancelled it, when one did: its name and description (else both null). */
  exceptionName: string | null;
  exceptionDescription: string | null;
}

/** A regular collection that an exception or a holiday rule removes. */
export interface CancelledOccurrence extends Occurrence {
  status: 'CANCELLED';
}

export interface CalendarRange {
  /** Inclusive day numbers. */
  from: DayNumber;
  to: DayNumber;
}

export interface Calendar {
  occurrences: Occurrence[];
  cancelled: CancelledOccurrence[];
}

/** The day an occurrence was planned for: what keeps it the same occurrence when it moves (the feed's UID). */
export const plannedDateOf = (occurrence: Occurrence): string => occurrence.originalDate ?? occurrence.date;

function compareOccurrences(a: Occurrence, b: Occurrence): number {
  if (a.date !== b.date) return a.date < b.date ? -1 : 1;
  return compareFrench(a.wasteTypeName, b.wasteTypeName) || (a.wasteTypeId < b.wasteTypeId ? -1 : a.wasteTypeId > b.wasteTypeId ? 1 : 0);
}

/** Every day in the range on which the rule's collection is due, before exceptions. */
function ruleDays(rule: CollectionDayRule, range: CalendarRange, timeZone: string): DayNumber[] {
  const weekday = FRENCH_WEEKDAYS.indexOf(rule.name);
  if (weekday < 0) return [];
  const start = rule.startDate ? dayInTimeZone(rule.startDate, timeZone) : null;
  // A biweekly day without a start date has no week to count from: it never occurs.
  if (rule.biweekly && start === null) return [];
  const first = start === null ? range.from : Math.max(range.from, start);
  let day = first + ((weekday - isoWeekdayIndex(first) + 7) % 7);
  let step = 7;
  if (rule.biweekly && start !== null) {
    step = 14;
    const weeksSinceStart = (mondayOf(day) - mondayOf(start)) / 7;
    if (weeksSinceStart % 2 !== 0) day += 7;
  }
  const days: DayNumber[] = [];
  for (; day <= range.to; day += step) days.push(day);
  return days;
}

/**
 * How far a collection can travel: a MOVE goes at most MAX_MOVE_DAYS; NEXT_DAY and PREVIOUS_DAY skip Sundays and holidays
 * (three days at most); SHIFT_WEEK moves a day per holiday of the week. Collections planned this far outside the range
 * are looked at, in case they land inside it.
 */
const TRAVEL_DAYS = 16;

interface ExceptionSpan {
  from: DayNumber;
  to: DayNumber;
  movedTo: DayNumber | null;
  kind: ExceptionKind;
  rule: CollectionExceptionRule;
}

/** Where a planned collection ends up, and why. */
interface Fate {
  day: DayNumber | null;
  status: OccurrenceStatus;
  note: string | null;
  exception: CollectionExceptionRule | null;
  holiday: Holiday | null;
}

/** What a group's rules do to a waste type's collection on a holiday, by the holiday's key. */
export type HolidayActionOf = (holidayKey: string, wasteTypeId: string) => HolidayAction;

/**
 * The action a group's rules give the collection of a waste type on a holiday: the most specific rule wins (a holiday
 * key over `*`, then a waste type over every one); KEEP where none applies. The engine reads the rules through it, and
 * so does the console's preview of a group's holidays (src/calendar/holiday-preview.ts), which names each action.
 */
export function holidayActionOf(rules: readonly HolidayRule[]): HolidayActionOf {
  const byTarget = new Map<string, HolidayAction>();
  for (const rule of rules) byTarget.set(`${rule.holiday}|${rule.wasteTypeId ?? ''}`, rule.action);
  if (byTarget.size === 0) return () => 'KEEP';
  return (holidayKey, wasteTypeId) =>
    byTarget.get(`${holidayKey}|${wasteTypeId}`) ??
    byTarget.get(`${holidayKey}|`) ??
    byTarget.get(`*|${wasteTypeId}`) ??
    byTarget.get('*|') ??
    'KEEP';
}

const PLANNED: Fate = { day: null, status: 'PLANNED', note: null, exception: null, holiday: null };

/** An exception's name and description, as one note. */
function exceptionNote(rule: CollectionExceptionRule): string | null {
  return [rule.name, rule.description].filter((text) => text).join(' – ') || null;
}

const dayText = (day: DayNumber) => frenchDate(formatDayNumber(day));

/** What the calendar engine reads of a place's holidays and exceptions, prepared once per computation. */
class Adjustments {
  readonly #calendar: HolidayCalendar;
  readonly #exceptions = new Map<string, ExceptionSpan[]>();
  readonly #hasRules: boolean;
  readonly #action: HolidayActionOf;

  constructor(schedule: PlaceSchedule, timeZone: string) {
    this.#calendar = schedule.holidayCalendar ?? 'FR';
    for (const rule of schedule.exceptions) {
      const kind = rule.kind ?? 'CANCEL';
      const from = dayInTimeZone(rule.dateFrom, timeZone);
      const to = kind === 'CANCEL' && rule.dateTo ? dayInTimeZone(rule.dateTo, timeZone) : from;
      const movedTo = kind === 'MOVE' && rule.movedTo ? dayInTimeZone(rule.movedTo, timeZone) : null;
      if (kind === 'MOVE' && (movedTo === null || movedTo === from)) continue;
      const list = this.#exceptions.get(rule.wasteTypeId) ?? [];
      list.push({ from, to, movedTo, kind, rule });
      this.#exceptions.set(rule.wasteTypeId, list);
    }
    // The earliest exception speaks for a day several of them cover.
    for (const list of this.#exceptions.values()) list.sort((a, b) => a.from - b.from || a.to - b.to);
    this.#hasRules = (schedule.holidayRules ?? []).length > 0;
    this.#action = holidayActionOf(schedule.holidayRules ?? []);
  }

  holidayOn(day: DayNumber): Holiday | null {
    return holidayOn(day, this.#calendar);
  }

  action(holiday: Holiday, wasteTypeId: string): HolidayAction {
    return this.#action(holiday.key, wasteTypeId);
  }

  /** The CANCEL or MOVE exception that speaks for a planned collection on that day, if any. */
  exceptionOn(day: DayNumber, wasteTypeId: string): ExceptionSpan | null {
    return this.#exceptions.get(wasteTypeId)?.find((span) => span.kind !== 'ADD' && span.from <= day && day <= span.to) ?? null;
  }

  additions(wasteTypeId: string): ExceptionSpan[] {
    return this.#exceptions.get(wasteTypeId)?.filter((span) => span.kind === 'ADD') ?? [];
  }

  /** A day a collection can be moved to by NEXT_DAY or PREVIOUS_DAY: neither a Sunday nor a public holiday. */
  #workingDay(day: DayNumber, step: 1 | -1): DayNumber {
    let next = day + step;
    while (isoWeekdayIndex(next) === 6 || this.holidayOn(next) !== null) next += step;
    return next;
  }

  /**
   * What happens to the collection of a waste type planned on a day, whose week's earlier holidays with SHIFT_WEEK
   * push it `shift` days later. An exception on the day wins over the rules; the day's own holiday rule over the
   * week's shift.
   */
  fate(day: DayNumber, wasteTypeId: string, shift: { days: number; holiday: Holiday | null }): Fate {
    const exception = this.exceptionOn(day, wasteTypeId);
    if (exception) {
      const note = exceptionNote(exception.rule);
      if (exception.kind === 'MOVE') return { day: exception.movedTo, status: 'MOVED', note, exception: exception.rule, holiday: null };
      return { day, status: 'CANCELLED', note, exception: exception.rule, holiday: null };
    }
    const holiday = this.#hasRules ? this.holidayOn(day) : null;
    const action = holiday ? this.action(holiday, wasteTypeId) : 'KEEP';
    if (holiday && action === 'CANCEL') {
      return { day, status: 'CANCELLED', note: `Pas de collecte le ${dayText(day)} (${holiday.name})`, exception: null, holiday };
    }
    if (holiday && (action === 'NEXT_DAY' || action === 'PREVIOUS_DAY')) {
      const next = action === 'NEXT_DAY';
      const note = `${next ? 'Reportée' : 'Avancée'} du ${dayText(day)} (${holiday.name})`;
      return { day: this.#workingDay(day, next ? 1 : -1), status: 'MOVED', note, exception: null, holiday };
    }
    if (shift.days > 0 && shift.holiday) {
      return { day: day + shift.days, status: 'MOVED', note: `Reportée du ${dayText(day)} (${shift.holiday.name})`, exception: null, holiday: shift.holiday };
    }
    return PLANNED;
  }

  /**
   * The SHIFT_WEEK holidays among a waste type's planned days: each one on which its collection is not held by an
   * exception pushes that collection and every later one of the waste type, up to that week's Saturday, a day later.
   */
  shifts(days: readonly DayNumber[], wasteTypeId: string): Map<DayNumber, { days: number; holiday: Holiday | null }> {
    const shifts = new Map<DayNumber, { days: number; holiday: Holiday | null }>();
    if (!this.#hasRules) return shifts;
    for (const day of days) {
      const holiday = this.holidayOn(day);
      if (!holiday || this.action(holiday, wasteTypeId) !== 'SHIFT_WEEK' || this.exceptionOn(day, wasteTypeId)) continue;
      const saturday = mondayOf(day) + 5;
      for (const later of days) {
        if (later < day || later > saturday) continue;
        const current = shifts.get(later);
        shifts.set(later, { days: (current?.days ?? 0) + 1, holiday: current?.holiday ?? holiday });
      }
    }
    return shifts;
  }
}

const NO_SHIFT = { days: 0, holiday: null };

/** The collections of a place over an inclusive range of days, and those its exceptions or holiday rules remove. */
export function computeCalendar(schedule: PlaceSchedule, range: CalendarRange): Calendar {
  const timeZone = resolveTimeZone(schedule.timeZone);
  const adjustments = new Adjustments(schedule, timeZone);
  const wide = { from: range.from - TRAVEL_DAYS, to: range.to + TRAVEL_DAYS };
  const inRange = (day: DayNumber) => range.from <= day && day <= range.to;
  // One collection per day and waste type: a planned one first, then one moved there, then one added.
  const landed = new Map<string, Occurrence>();
  const cancelled: CancelledOccurrence[] = [];
  const moved: Occurrence[] = [];
  const added: Occurrence[] = [];
  const make = (
    wasteType: WasteTypeInfo,
    day: DayNumber,
    status: OccurrenceStatus,
    originalDate: string | null,
    note: string | null,
    exception: CollectionExceptionRule | null,
  ): Occurrence => ({
    date: formatDayNumber(day),
    wasteTypeId: wasteType.id,
    wasteTypeName: wasteType.name,
    color: wasteType.color,
    holiday: adjustments.holidayOn(day)?.name ?? null,
    status,
    originalDate,
    note,
    exceptionName: exception?.name ?? null,
    exceptionDescription: exception?.description ?? null,
  });

  for (const wasteType of schedule.wasteTypes) {
    const days = new Set<DayNumber>();
    for (const rule of schedule.days) if (rule.wasteTypeId === wasteType.id) for (const day of ruleDays(rule, wide, timeZone)) days.add(day);
    const planned = [...days].sort((a, b) => a - b);
    const shifts = adjustments.shifts(planned, wasteType.id);
    for (const day of planned) {
      const fate = adjustments.fate(day, wasteType.id, shifts.get(day) ?? NO_SHIFT);
      if (fate.status === 'PLANNED') {
        if (inRange(day)) landed.set(`${formatDayNumber(day)}|${wasteType.id}`, make(wasteType, day, 'PLANNED', null, null, null));
      } else if (fate.status === 'CANCELLED') {
        if (inRange(day)) {
          cancelled.push({ ...make(wasteType, day, 'CANCELLED', null, fate.note, fate.exception), status: 'CANCELLED' });
        }
      } else if (fate.day !== null && inRange(fate.day)) {
        moved.push(make(wasteType, fate.day, 'MOVED', formatDayNumber(day), fate.note, fate.exception));
      }
    }
    for (const addition of adjustments.additions(wasteType.id)) {
      if (inRange(addition.from)) added.push(make(wasteType, addition.from, 'ADDED', null, exceptionNote(addition.rule), addition.rule));
    }
  }
  for (const occurrence of [...moved, ...added]) {
    const key = `${occurrence.date}|${occurrence.wasteTypeId}`;
    if (!landed.has(key)) landed.set(key, occurrence);
  }
  const occurrences = [...landed.values()].sort(compareOccurrences);
  cancelled.sort(compareOccurrences);
  return { occurrences, cancelled };
}

/** The collections and the cancelled ones in one list, by date then waste type name (a cancelled one after a collection of the same day and waste type). */
export function withCancelled(calendar: Calendar): Occurrence[] {
  return [...calendar.occurrences, ...calendar.cancelled].sort(
    (a, b) => compareOccurrences(a, b) || (a.status === 'CANCELLED' ? 1 : 0) - (b.status === 'CANCELLED' ? 1 : 0),
  );
}


/** How far ahead the next collection of a waste type is looked for. */
const NEXT_COLLECTION_HORIZON_DAYS = 366;

/**
 * The next collection (on or after today in the city's time zone) of each waste type collected at the place,
 * sorted by date then waste type name. A waste type with no collection within a year is left out.
 */
export function nextCollections(schedule: PlaceSchedule, now: Date): Occurrence[] {
  const today = todayIn(schedule.timeZone, now);
  const { occurrences } = computeCalendar(schedule, { from: today, to: today + NEXT_COLLECTION_HORIZON_DAYS });
  const firsts = new Map<string, Occurrence>();
  for (const occurrence of occurrences) {
    if (!firsts.has(occurrence.wasteTypeId)) firsts.set(occurrence.wasteTypeId, occurrence);
  }
  return [...firsts.values()];
}
