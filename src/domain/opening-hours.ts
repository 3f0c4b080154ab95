import { createRequire } from 'node:module';
import type OpeningHours from 'opening_hours';
import { wallClockParts } from '../kernel/dates.ts';
import { bundleMessages } from '../kernel/bundle-messages.ts';
import type { HolidayCalendar } from '../kernel/holidays.ts';

/**
 * OpenStreetMap `opening_hours` specs (`Mo-Fr 09:00-12:00,14:00-18:00; Sa 09:00-18:00; PH off`), read by the OSM
 * project's own library (`opening_hours`, LGPL-3.0, used unmodified). Its French public holidays (`PH`) ship inside
 * the package: nothing is downloaded at run time.
 *
 * The library reads and builds dates in the process's local time. A spec speaks of the city's wall clock, so an
 * instant is turned into a Date whose local fields show the city's wall clock, evaluated, and the answer turned
 * back into an instant of the city's zone. This is exact when the process runs in UTC (containers) or in the
 * city's own zone; with another local zone, only wall-clock times inside that zone's own daylight-saving gap would
 * shift by its hour.
 */

/**
 * Where the holidays (`PH`) are taken from, per calendar a city may follow (kernel/holidays.ts), as the library's
 * nominatim-like `address`. Its French data lists the 11 national holidays, and marks Good Friday and 26 December
 * (« Lendemain de Noël ») `only_states` Bas-Rhin, Haut-Rhin and Moselle (Good Friday also in some overseas
 * territories): without a state, `PH` is the national calendar; with Moselle's, the national one plus those two
 * days, which is Alsace-Moselle's calendar (the three departments have the same two days; Moselle's entry carries
 * no `PH` list of its own that would replace the national one). test/domain/opening-hours.test.ts holds both against
 * the kernel's calendars, day by day. The position only matters to `sunrise`/`sunset`: the middle of France, and of
 * Alsace-Moselle.
 */
const WHERE: Record<HolidayCalendar, { lat: number; lon: number; address: { country_code: string; state: string } }> = {
  FR: { lat: 46.6033, lon: 1.8892, address: { country_code: 'fr', state: '' } },
  'FR-ALSACE-MOSELLE': { lat: 48.7, lon: 7.0, address: { country_code: 'fr', state: 'Moselle' } },
};

/**
 * The library, loaded at its first use rather than at start: 1.2 MB of source and about 4 MiB of heap that an
 * instance would hold for nothing until a recycling point's hours are asked or checked. Its callers are synchronous
 * (a route's answer, the assistant's, a bundle's or an admin write's check), so it is required rather than imported:
 * the first use waits for the load, once, and no caller has to remember to load it first. `require` takes the
 * package's CommonJS build, the same code as its ES module build inside a UMD wrapper.
 */
let library: typeof OpeningHours | undefined;
const openingHoursClass = () => (library ??= createRequire(import.meta.url)('opening_hours') as typeof OpeningHours);

/** Parsed specs kept for evaluation, per calendar; a city has a handful of distinct specs, a country a few thousand. */
const PARSED_MAX = 2000;
const parsed = new Map<string, OpeningHours>();

/** French messages from the library, so that a bundle fault reads like the others. */
const OPTIONS = { mode: 0, tag_key: 'opening_hours', map_value: false, warnings_severity: 4, locale: 'fr' } as const;

function parse(spec: string, calendar: HolidayCalendar): OpeningHours {
  const key = `${calendar}\n${spec}`;
  let hours = parsed.get(key);
  if (!hours) {
    hours = new (openingHoursClass())(spec, WHERE[calendar], OPTIONS);
    if (parsed.size >= PARSED_MAX) parsed.clear();
    parsed.set(key, hours);
  }
  return hours;
}

/**
 * What is wrong with a spec, in French, or null when the library reads it as it is. A spec the library reads only
 * with warnings (`Lu-Ve 9h-18h`: French day names, `h`) is refused too, with the form it would read to copy
 * (`Mo-Fr 09:00-18:00`): the open data publishes the spec as written, and other OSM tools do not read it.
 */
export function openingHoursSpecProblem(spec: string): string | null {
  if (spec.trim() === '') return bundleMessages.openingHoursEmpty;
  try {
    // The library looks its holidays up as it reads a spec; `PH` is known on both calendars (and `SH` on neither),
    // so a spec that reads on the national one reads on Alsace-Moselle's.
    const hours = parse(spec, 'FR');
    if (hours.getWarnings().length > 0) return bundleMessages.openingHoursApproximate(hours.prettifyValue());
    return null;
  } catch (err) {
    const reason = (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').trim();
    return bundleMessages.openingHoursInvalid(reason);
  }
}

export interface OpeningState {
  /** Open at that instant; a state the spec leaves unknown (`"sur rendez-vous"`) is not open. */
  openNow: boolean;
  /** The next instant the state changes, or null when it never does (`24/7`, `off`) within the library's horizon. */
  nextChange: Date | null;
}

/**
 * The state of a spec at an instant, read on the wall clock of `timeZone`, its `PH` the public holidays of the city's
 * `calendar`. The spec must have been checked.
 */
export function openingStateAt(spec: string, at: Date, timeZone: string, calendar: HolidayCalendar): OpeningState {
  const hours = parse(spec, calendar);
  const local = wallClockOf(at, timeZone);
  const next = hours.getNextChange(local);
  return { openNow: hours.getState(local), nextChange: next ? instantOfWallClock(next, timeZone) : null };
}

/** The zone's wall clock at an instant, month from 0 as Date takes it. */
function partsIn(instant: number, timeZone: string): number[] {
  const [year, month, day, hour, minute, second] = wallClockParts(instant, timeZone);
  return [year, month - 1, day, hour, minute, second];
}

/** A Date whose local fields are the wall clock of `timeZone` at `instant`. */
function wallClockOf(instant: Date, timeZone: string): Date {
  const [y, mo, d, h, mi, s] = partsIn(instant.getTime(), timeZone);
  return new Date(y, mo, d, h, mi, s, instant.getUTCMilliseconds());
}

/** How far ahead of UTC the zone's wall clock is at an instant, in milliseconds. */
function offsetAt(instant: number, timeZone: string): number {
  const [y, mo, d, h, mi, s] = partsIn(instant, timeZone);
  return Date.UTC(y, mo, d, h, mi, s) - (instant - (((instant % 1000) + 1000) % 1000));
}

const HALF_DAY_MS = 12 * 3_600_000;

/**
 * The instant at which the zone's wall clock shows the local fields of `local`. A time shown twice (the hour the
 * clocks go back) is its first instant; a time never shown (the hour they skip) is read with the offset before
 * the change, which lands just after the gap (02:30 on the spring day in Paris is 03:30 summer time).
 */
function instantOfWallClock(local: Date, timeZone: string): Date {
  const wall = Date.UTC(
    local.getFullYear(),
    local.getMonth(),
    local.getDate(),
    local.getHours(),
    local.getMinutes(),
    local.getSeconds(),
    local.getMilliseconds(),
  );
  const before = wall - offsetAt(wall - HALF_DAY_MS, timeZone);
  const after = wall - offsetAt(wall + HALF_DAY_MS, timeZone);
  const shows = (t: number) => t + offsetAt(t, timeZone) === wall;
  const candidates = [before, after].filter(shows).sort((a, b) => a - b);
  return new Date(candidates[0] ?? before);
}
