// A recycling point's opening state computed on the device, for the copy of the points the service worker kept when
// the network is out of reach: the server's `openNow`/`nextChange` were right when the copy was saved, not now.
//
// The OpenStreetMap library the server uses (src/domain/opening-hours.ts) weighs over a megabyte: this reads the
// subset of `opening_hours` that recycling points use, and answers null for anything else (the screen then says the
// state is not checked rather than guess). Read: rules separated by `;` (a later rule replaces the earlier ones on
// the days it selects) or `, ` (an additional rule, adding its hours); each rule `24/7`, or month ranges (`Nov-Feb`),
// weekday ranges with `PH` (`Mo-Fr,PH`), time spans within a day (`09:00-12:00,14:00-17:30`), and `off`/`closed`.
// Not read: dates, weeks, years, `SH`, sunrise and sunset, spans past midnight, comments, `unknown`, `||`.
//
// The wall clock is France's (Europe/Paris), as everywhere in this app: the public API does not give a city's zone.
// `PH` is France's national calendar, the library's own; Good Friday and 26 December, public holidays in Alsace-Moselle
// only (which the public API does not say either), leave the state unchecked when a rule naming `PH` changes them.

const DAYS = ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY_MINUTES = 24 * 60;
/** How far ahead the next change is looked for: a year covers a season's rule (`Jun-Aug …`). */
const HORIZON_DAYS = 366;

interface Rule {
  /** Months it applies in (1 to 12), or null for every month. */
  months: Set<number> | null;
  /** Weekdays it selects (0 Monday to 6 Sunday); with neither weekdays nor `PH`, every day. */
  days: Set<number> | null;
  /** Whether it selects public holidays (`PH`). */
  holidays: boolean;
  /** Opening spans in minutes from midnight; empty when `off`. */
  spans: [number, number][];
  /** An additional rule (`, `) adds its hours instead of replacing the day's. */
  additional: boolean;
}

export interface DeviceOpeningState {
  openNow: boolean;
  /** The next change as an ISO instant, or null when the state never changes (`24/7`, always closed). */
  nextChange: string | null;
}

/** The range `A-B` or the single `A` of names, as indexes, wrapping around (`Nov-Feb`, `Sa-Mo`). */
function range(text: string, names: readonly string[]): number[] | null {
  const [from, to = from] = text.split('-');
  const a = names.indexOf(from);
  const b = names.indexOf(to);
  if (a < 0 || b < 0) return null;
  const out = [a];
  for (let i = a; i !== b; ) {
    i = (i + 1) % names.length;
    out.push(i);
  }
  return out;
}

function minutes(text: string): number {
  return Number(text.slice(0, 2)) * 60 + Number(text.slice(3, 5));
}

const MONTH = `(?:${MONTHS.join('|')})`;
const DAY = `(?:${DAYS.join('|')})`;
const MONTH_SELECTOR = new RegExp(`^(${MONTH}(?:-${MONTH})?(?:,${MONTH}(?:-${MONTH})?)*)(?:\\s+|$)`);
const DAY_SELECTOR = new RegExp(`^((?:${DAY}(?:-${DAY})?|PH)(?:,(?:${DAY}(?:-${DAY})?|PH))*)(?:\\s+|$)`);
const TIME = '(?:[01]\\d|2[0-3]):[0-5]\\d-(?:(?:[01]\\d|2[0-3]):[0-5]\\d|24:00)';
const TIMES = new RegExp(`^(${TIME}(?:,${TIME})*)\\s*`);
const STATE = /^(off|closed|open)\s*/;

/** One rule and the additional ones that follow it after `, `, pushed to `out`; false when not in the subset read. */
function parseRule(text: string, out: Rule[]): boolean {
  let rest = text.trim();
  let additional = false;
  for (;;) {
    if (rest === '24/7') {
      out.push({ months: null, days: null, holidays: false, spans: [[0, DAY_MINUTES]], additional });
      return true;
    }
    const rule: Rule = { months: null, days: null, holidays: false, spans: [], additional };
    let m = MONTH_SELECTOR.exec(rest);
    if (m) {
      rule.months = new Set(m[1].split(',').flatMap((part) => (range(part, MONTHS) ?? []).map((i) => i + 1)));
      rest = rest.slice(m[0].length);
    }
    m = DAY_SELECTOR.exec(rest);
    if (m) {
      for (const part of m[1].split(',')) {
        if (part === 'PH') rule.holidays = true;
        else for (const day of range(part, DAYS) ?? []) (rule.days ??= new Set()).add(day);
      }
      rest = rest.slice(m[0].length);
    }
    m = TIMES.exec(rest);
    if (m) {
      for (const span of m[1].split(',')) {
        const [from, to] = [minutes(span.slice(0, 5)), minutes(span.slice(6, 11))];
        if (to <= from) return false; // past midnight: not read here
        rule.spans.push([from, to]);
      }
      rest = rest.slice(m[0].length);
    }
    m = STATE.exec(rest);
    const off = m !== null && m[1] !== 'open';
    if (m) rest = rest.slice(m[0].length);
    if (off) {
      if (rule.spans.length > 0 || additional) return false;
    } else if (rule.spans.length === 0) {
      rule.spans.push([0, DAY_MINUTES]);
    }
    out.push(rule);
    if (rest === '') return true;
    const next = /^,\s*/.exec(rest);
    if (!next || rest.length === next[0].length) return false;
    rest = rest.slice(next[0].length);
    additional = true;
  }
}

function parse(spec: string): Rule[] | null {
  const rules: Rule[] = [];
  for (const part of spec.split(';')) {
    if (part.trim() === '') continue;
    if (!parseRule(part, rules)) return null;
  }
  return rules.length > 0 ? rules : null;
}

/** A civil day as the milliseconds of its UTC midnight (day arithmetic without time zones). */
type Day = number;
const DAY_MS = 86_400_000;

function easterSunday(year: number): Day {
  // Anonymous Gregorian algorithm (Meeus, Jones, Butcher).
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, day);
}

const holidayYears = new Map<number, { national: Set<Day>; alsaceMoselle: Set<Day> }>();
function holidaysOf(year: number) {
  let found = holidayYears.get(year);
  if (!found) {
    const easter = easterSunday(year);
    const fixed = (month: number, day: number) => Date.UTC(year, month - 1, day);
    found = {
      national: new Set([
        fixed(1, 1),
        easter + DAY_MS,
        fixed(5, 1),
        fixed(5, 8),
        easter + 39 * DAY_MS,
        easter + 50 * DAY_MS,
        fixed(7, 14),
        fixed(8, 15),
        fixed(11, 1),
        fixed(11, 11),
        fixed(12, 25),
      ]),
      alsaceMoselle: new Set([easter - 2 * DAY_MS, fixed(12, 26)]),
    };
    holidayYears.set(year, found);
  }
  return found;
}

/** The day's opening spans, merged and sorted, Alsace-Moselle's two extra holidays counted or not. */
function spansOf(rules: Rule[], day: Day, alsaceMoselle: boolean): [number, number][] {
  const holidays = holidaysOf(new Date(day).getUTCFullYear());
  return spansWith(rules, day, holidays.national.has(day) || (alsaceMoselle && holidays.alsaceMoselle.has(day)));
}

function spansWith(rules: Rule[], day: Day, holiday: boolean): [number, number][] {
  const date = new Date(day);
  const month = date.getUTCMonth() + 1;
  const weekday = (date.getUTCDay() + 6) % 7;
  let spans: [number, number][] = [];
  for (const rule of rules) {
    if (rule.months && !rule.months.has(month)) continue;
    const selected = (rule.days === null && !rule.holidays) || rule.days?.has(weekday) || (rule.holidays && holiday);
    if (!selected) continue;
    spans = rule.additional ? [...spans, ...rule.spans] : [...rule.spans];
  }
  spans.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push([...span]);
  }
  return merged;
}

const isOpen = (spans: [number, number][], minute: number) => spans.some(([from, to]) => from <= minute && minute < to);

const parisClock = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Paris',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** What France's wall clock shows at an instant, as the same fields read in UTC. */
function wallClock(instant: number): number {
  const p = Object.fromEntries(parisClock.formatToParts(new Date(instant)).map((part) => [part.type, Number(part.value)]));
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
}

/** The instant France's wall clock shows `wall` (fields in UTC); a skipped time lands just after the spring gap. */
function instantOf(wall: number): number {
  const first = wall - (wallClock(wall) - wall);
  const offset = wallClock(first) - first;
  return wall - offset;
}

/** The state at `now` and its next change, on one of the two calendars. */
function evaluate(rules: Rule[], now: Date, alsaceMoselle: boolean): DeviceOpeningState {
  const wall = wallClock(now.getTime());
  const today = wall - (wall % DAY_MS);
  const minute = Math.floor((wall - today) / 60_000);
  const openNow = isOpen(spansOf(rules, today, alsaceMoselle), minute);
  for (let i = 0; i <= HORIZON_DAYS; i++) {
    const day = today + i * DAY_MS;
    const spans = spansOf(rules, day, alsaceMoselle);
    const marks = [...new Set([0, ...spans.flat()])].filter((t) => t < DAY_MINUTES && (i > 0 || t > minute)).sort((a, b) => a - b);
    for (const t of marks) {
      if (isOpen(spans, t) !== openNow) return { openNow, nextChange: new Date(instantOf(day + t * 60_000)).toISOString() };
    }
  }
  return { openNow, nextChange: null };
}

/**
 * The state of a spec at `now` on France's wall clock, as GET /public/cities/:cityId/recycling-points computes it
 * (`openNow`, `nextChange`); null when the spec is outside the subset read here, or when the answer would differ on
 * Alsace-Moselle's calendar.
 */
export function openingStateOnDevice(spec: string, now: Date): DeviceOpeningState | null {
  const rules = parse(spec);
  if (!rules) return null;
  const state = evaluate(rules, now, false);
  if (!rules.some((rule) => rule.holidays)) return state;
  return JSON.stringify(state) === JSON.stringify(evaluate(rules, now, true)) ? state : null;
}
