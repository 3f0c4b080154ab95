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
import { frenchHolidayName } from '../kernel/holidays.ts';
import { compareFrench } from '../kernel/french.ts';

/**
 * The collection calendar engine: turns a place's collection days and exceptions into dated collections
 * (CONTRACT sections 3 and 3b). Pure functions, no I/O: the routes and the chat assistant feed it rows.
 */

export interface CollectionDayRule {
  /** French weekday, lowercase. */
  name: FrenchWeekday;
  wasteTypeId: string;
  biweekly: boolean | null;
  /** First day the rule applies (the calendar day it falls on in the city's time zone); required when biweekly. */
  startDate: Date | null;
}

export interface CollectionExceptionRule {
  dateFrom: Date;
  /** Last day without collection; null = dateFrom's day only. */
  dateTo: Date | null;
  wasteTypeId: string;
  name: string | null;
  description: string | null;
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
  /** IANA zone of the city; an unknown or missing one falls back to Europe/Paris. */
  timeZone?: string | null;
}

export interface Occurrence {
  /** YYYY-MM-DD in the city's time zone. */
  date: string;
  wasteTypeId: string;
  wasteTypeName: string;
  color: string | null;
  /** Name of the French legal holiday falling that day, or null. */
  holiday: string | null;
}

/** A regular collection that an exception removes, with what the exception tells citizens. */
export interface CancelledOccurrence extends Occurrence {
  exceptionName: string | null;
  exceptionDescription: string | null;
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


function compareOccurrences(a: Occurrence, b: Occurrence): number {
  if (a.date !== b.date) return a.date < b.date ? -1 : 1;
  return compareFrench(a.wasteTypeName, b.wasteTypeName) || (a.wasteTypeId < b.wasteTypeId ? -1 : a.wasteTypeId > b.wasteTypeId ? 1 : 0);
}

/** Every day in the range on which the rule's collection is due, before exceptions. */
function ruleDays(rule: CollectionDayRule, range: CalendarRange, timeZone: string): DayNumber[] {
  const weekday = FRENCH_WEEKDAYS.indexOf(rule.name);
  if (weekday < 0) return [];
  const start = rule.startDate ? dayInTimeZone(rule.startDate, timeZone) : null;
  // A biweekly day without a start date has no week to count from: it never occurs (CONTRACT section 3).
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

interface ExceptionSpan {
  from: DayNumber;
  to: DayNumber;
  rule: CollectionExceptionRule;
}

/** The collections of a place over an inclusive range of days, and those its exceptions remove. */
export function computeCalendar(schedule: PlaceSchedule, range: CalendarRange): Calendar {
  const timeZone = resolveTimeZone(schedule.timeZone);
  const wasteTypes = new Map(schedule.wasteTypes.map((w) => [w.id, w]));
  const spans = new Map<string, ExceptionSpan[]>();
  for (const rule of schedule.exceptions) {
    const from = dayInTimeZone(rule.dateFrom, timeZone);
    const to = rule.dateTo ? dayInTimeZone(rule.dateTo, timeZone) : from;
    const list = spans.get(rule.wasteTypeId) ?? [];
    list.push({ from, to, rule });
    spans.set(rule.wasteTypeId, list);
  }
  // The earliest exception speaks for a day several of them cover.
  for (const list of spans.values()) list.sort((a, b) => a.from - b.from || a.to - b.to);

  const seen = new Set<string>();
  const occurrences: Occurrence[] = [];
  const cancelled: CancelledOccurrence[] = [];
  for (const rule of schedule.days) {
    const wasteType = wasteTypes.get(rule.wasteTypeId);
    if (!wasteType) continue;
    for (const day of ruleDays(rule, range, timeZone)) {
      const key = `${day}|${wasteType.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const occurrence: Occurrence = {
        date: formatDayNumber(day),
        wasteTypeId: wasteType.id,
        wasteTypeName: wasteType.name,
        color: wasteType.color,
        holiday: frenchHolidayName(day),
      };
      const exception = spans.get(wasteType.id)?.find((span) => span.from <= day && day <= span.to);
      if (exception) {
        cancelled.push({
          ...occurrence,
          exceptionName: exception.rule.name,
          exceptionDescription: exception.rule.description,
        });
      } else {
        occurrences.push(occurrence);
      }
    }
  }
  occurrences.sort(compareOccurrences);
  cancelled.sort(compareOccurrences);
  return { occurrences, cancelled };
}

/** Today, as a day number, in the city's time zone. */

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
