/**
 * Calendar-date arithmetic. A collection happens on a day, not at an instant, so the engine works on
 * "day numbers" (days since 1970-01-01 in the proleptic Gregorian calendar) and never on local clock
 * times: a daylight-saving change or a year end cannot shift a date.
 */

/** A calendar day in milliseconds (UTC has no daylight saving). */
export const MS_PER_DAY = 86_400_000;

/** Days since 1970-01-01. */
export type DayNumber = number;

export const DEFAULT_TIME_ZONE = 'Europe/Paris';

export const FRENCH_WEEKDAYS = ['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche'] as const;
export type FrenchWeekday = (typeof FRENCH_WEEKDAYS)[number];

export function dayNumberFromParts(year: number, month: number, day: number): DayNumber {
  return Math.round(Date.UTC(year, month - 1, day) / MS_PER_DAY);
}

/** Strictly `YYYY-MM-DD` naming a date that exists; otherwise null. */
export function parseCalendarDate(text: string): DayNumber | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC maps years 0-99 to 1900-1999; setUTCFullYear keeps them as written.
  date.setUTCFullYear(year);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return Math.round(date.getTime() / MS_PER_DAY);
}

/** The UTC-midnight Date of a day (what all-day iCalendar events and date libraries expect). */
export function dayNumberToUtcDate(day: DayNumber): Date {
  return new Date(day * MS_PER_DAY);
}

export function formatDayNumber(day: DayNumber): string {
  return dayNumberToUtcDate(day).toISOString().slice(0, 10);
}

/** 0 = Monday … 6 = Sunday (1970-01-01 was a Thursday). */
export function isoWeekdayIndex(day: DayNumber): number {
  return (((day + 3) % 7) + 7) % 7;
}

/** The Monday of the week (Monday to Sunday) holding `day`. */
export function mondayOf(day: DayNumber): DayNumber {
  return day - isoWeekdayIndex(day);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      calendar: 'gregory',
      numberingSystem: 'latn',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/**
 * The city's time zone, or the default one when the stored name is not a zone this runtime knows:
 * a citizen still gets a calendar rather than an error.
 */
export function resolveTimeZone(timeZone: string | null | undefined): string {
  return timeZone && isValidTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE;
}

/** The wall clock of a time zone at an instant: [year, month (1-12), day, hour (0-23), minute, second]. */
export function wallClockParts(instant: Date | number, timeZone: string): [number, number, number, number, number, number] {
  const parts = formatterFor(timeZone).formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return [get('year'), get('month'), get('day'), get('hour'), get('minute'), get('second')];
}

/** The calendar day on which an instant falls in a time zone. */
export function dayInTimeZone(instant: Date, timeZone: string): DayNumber {
  const [year, month, day] = wallClockParts(instant, timeZone);
  return dayNumberFromParts(year, month, day);
}

/** Today in a city's time zone (its default when unset or unknown). */
export function todayIn(timeZone: string | null | undefined, now: Date): DayNumber {
  return dayInTimeZone(now, resolveTimeZone(timeZone));
}

/** The instant a calendar day begins (its local midnight) in a time zone, daylight saving included. */
export function startOfDayIn(day: DayNumber, timeZone: string): Date {
  return wallClockInstant(day, 0, 0, timeZone);
}

/** The instant a time zone's clocks show `hour:minute` on a calendar day (`12:00`: its noon), daylight saving included. */
export function wallClockInstant(day: DayNumber, hour: number, minute: number, timeZone: string): Date {
  const target = day * MS_PER_DAY + (hour * 60 + minute) * 60_000;
  let instant = target;
  // Two corrections reach the zone's offset at that time (the first guess may sit across a DST change).
  for (let i = 0; i < 2; i++) {
    const [year, month, date, h, m, second] = wallClockParts(instant, timeZone);
    instant += target - Date.UTC(year, month - 1, date, h, m, second);
  }
  return new Date(instant);
}
