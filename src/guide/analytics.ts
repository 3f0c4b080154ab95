import { formatDayNumber, parseCalendarDate, todayIn, type DayNumber } from '../kernel/dates.ts';
import { errors } from '../kernel/errors.ts';
import type { DayQueryCount } from './repository.ts';
import type { Analytics, AnalyticsQuery } from './schemas.ts';

/** Default span: the last 30 days, today included. */
const DEFAULT_DAYS = 30;
/** Longest span answered at once: a whole leap year. */
const MAX_DAYS = 366;

export interface AnalyticsRange {
  from: string;
  to: string;
}

function dayParam(name: 'from' | 'to', value: string): DayNumber {
  const day = parseCalendarDate(value);
  if (day === null) throw errors.dateParameter(name);
  return day;
}

/**
 * The inclusive days asked for: `to` defaults to today (Europe/Paris: a group's cities may differ, the analytics read
 * days as stored), `from` to 29 days before `to`.
 */
export function analyticsRange(query: AnalyticsQuery, now: Date): AnalyticsRange {
  const to = query.to === undefined ? todayIn(null, now) : dayParam('to', query.to);
  const from = query.from === undefined ? to - (DEFAULT_DAYS - 1) : dayParam('from', query.from);
  if (to < from) throw errors.dateOrder();
  if (to - from + 1 > MAX_DAYS) throw errors.calendarSpan(MAX_DAYS);
  return { from: formatDayNumber(from), to: formatDayNumber(to) };
}

/** Every day of the range, in order, with its counted queries (already ranked, most first). */
export function searchDays(
  range: AnalyticsRange,
  found: { top: DayQueryCount[]; notFound: DayQueryCount[] },
  chat: { topics: DayQueryCount[]; unanswered: DayQueryCount[] } = { topics: [], unanswered: [] },
): Analytics['days'] {
  const first = parseCalendarDate(range.from)!;
  const last = parseCalendarDate(range.to)!;
  const days: Analytics['days'] = [];
  const byDay = new Map<string, Analytics['days'][number]>();
  for (let day = first; day <= last; day++) {
    const entry = { day: formatDayNumber(day), topQueries: [], notFound: [], chatTopics: [], unanswered: [] };
    days.push(entry);
    byDay.set(entry.day, entry);
  }
  for (const row of found.top) byDay.get(row.day)?.topQueries.push({ query: row.query, count: row.count });
  for (const row of found.notFound) byDay.get(row.day)?.notFound.push({ query: row.query, count: row.count });
  for (const row of chat.topics) byDay.get(row.day)?.chatTopics.push({ topic: row.query, count: row.count });
  for (const row of chat.unanswered) byDay.get(row.day)?.unanswered.push({ question: row.query, count: row.count });
  return days;
}

/**
 * How each listed query reads (`queryLabels` of the answer): the label of its most counted day, for the queries whose
 * label differs from the folded query itself (« capsule de cafe » → « capsule de café »).
 */
export function queryLabels(found: { top: DayQueryCount[]; notFound: DayQueryCount[] }): Record<string, string> {
  const best = new Map<string, DayQueryCount>();
  for (const row of [...found.top, ...found.notFound]) {
    const known = best.get(row.query);
    if (!known || row.count > known.count) best.set(row.query, row);
  }
  const labels: Record<string, string> = {};
  for (const [query, row] of best) if (row.label !== query) labels[query] = row.label;
  return labels;
}
