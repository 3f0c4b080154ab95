import ical, { ICalAlarmType, ICalEventStatus, ICalEventTransparency } from 'ical-generator';
import { minutesOfDay } from '../kernel/schemas.ts';
import { parseCalendarDate, dayNumberToUtcDate } from '../kernel/dates.ts';
import { plannedDateOf, type Calendar, type Occurrence } from '../domain/collection-calendar.ts';
import { frenchDate } from '../kernel/french.ts';

/**
 * The iCalendar (RFC 5545) feed of a place: one all-day event per collection, and a cancelled event for each
 * collection an exception or a holiday rule removes, so that a subscribed phone calendar drops a collection that no
 * longer happens. A moved collection keeps its UID with its new day and a higher SEQUENCE.
 */

export interface IcsFeedInput {
  placeId: string;
  placeName: string;
  cityName: string;
  calendar: Calendar;
  /** SEQUENCE by `wasteTypeId|plannedDate` (publishSequences); an occurrence missing here is at 0. */
  sequences: ReadonlyMap<string, number>;
  /** When the published data last changed: the DTSTAMP of every event, so that the body only changes with the data. */
  dataChangedAt: Date;
  /** `HH:MM`: each collection gets an alarm at that time the evening before (`?alarm=`), else none. */
  alarm?: string | null;
  /** false: no event for cancelled collections (`?cancelled=false`). */
  cancelledEvents?: boolean;
  /** Only these waste types (`?wasteTypeId=`), else all. */
  wasteTypeIds?: ReadonlySet<string> | null;
}

const PRODUCT_ID = { company: 'Collecte', product: 'Calendrier des collectes', language: 'FR' };

/** Subscribed calendars are asked to refresh once a day (REFRESH-INTERVAL and X-PUBLISHED-TTL). */
const REFRESH_SECONDS = 86_400;

/**
 * The same occurrence has the same UID on every fetch, whatever day it moves to: it is keyed on the day it was
 * planned for (its own day when added); no two places or waste types share one.
 */
export function occurrenceUid(placeId: string, occurrence: Occurrence): string {
  return `${placeId}-${occurrence.wasteTypeId}-${plannedDateOf(occurrence).replaceAll('-', '')}@collecte`;
}

function startOf(occurrence: Occurrence): Date {
  const day = parseCalendarDate(occurrence.date);
  if (day === null) throw new Error(`Invalid occurrence date ${occurrence.date}`);
  return dayNumberToUtcDate(day);
}

/** `Collecte : Emballages`, and for a moved one `Collecte : Emballages (reportée du 25 décembre)`. */
function summaryOf(occurrence: Occurrence): string {
  const base = `Collecte : ${occurrence.wasteTypeName}`;
  if (occurrence.status !== 'MOVED' || !occurrence.originalDate) return base;
  const way = occurrence.originalDate < occurrence.date ? 'reportée' : 'avancée';
  return `${base} (${way} du ${frenchDate(occurrence.originalDate, { weekday: false })})`;
}

function descriptionOf(occurrence: Occurrence): string | null {
  const parts = [occurrence.note ? `${occurrence.note}.` : null, occurrence.holiday ? `Jour férié : ${occurrence.holiday}.` : null];
  return parts.filter((part) => part !== null).join(' ') || null;
}

export function buildIcsFeed(input: IcsFeedInput): string {
  const title = `Collectes – ${input.placeName} (${input.cityName})`;
  const feed = ical({
    prodId: PRODUCT_ID,
    name: title,
    description: `Jours de collecte des déchets : ${input.placeName}, ${input.cityName}`,
    ttl: REFRESH_SECONDS,
  });
  const kept = (o: Occurrence) => !input.wasteTypeIds || input.wasteTypeIds.has(o.wasteTypeId);
  const sequenceOf = (o: Occurrence) => input.sequences.get(`${o.wasteTypeId}|${plannedDateOf(o)}`) ?? 0;
  // An all-day event starts at midnight, local time: 19:00 the evening before is 5 hours before its start.
  const alarmSeconds = input.alarm ? (24 * 60 - minutesOfDay(input.alarm)) * 60 : null;
  for (const occurrence of input.calendar.occurrences.filter(kept)) {
    const event = feed.createEvent({
      id: occurrenceUid(input.placeId, occurrence),
      sequence: sequenceOf(occurrence),
      allDay: true,
      start: startOf(occurrence),
      stamp: input.dataChangedAt,
      summary: summaryOf(occurrence),
      description: descriptionOf(occurrence),
      transparency: ICalEventTransparency.TRANSPARENT,
      status: ICalEventStatus.CONFIRMED,
    });
    if (alarmSeconds !== null) {
      event.createAlarm({
        type: ICalAlarmType.display,
        triggerBefore: alarmSeconds,
        description: `Ce soir, sortez le bac\u00a0: ${occurrence.wasteTypeName} (collecte demain)`,
      });
    }
  }
  if (input.cancelledEvents !== false) {
    for (const cancelled of input.calendar.cancelled.filter(kept)) {
      feed.createEvent({
        id: occurrenceUid(input.placeId, cancelled),
        sequence: sequenceOf(cancelled),
        allDay: true,
        start: startOf(cancelled),
        stamp: input.dataChangedAt,
        summary: `Collecte annulée : ${cancelled.wasteTypeName}`,
        description: cancelled.note || 'Pas de collecte ce jour-là.',
        transparency: ICalEventTransparency.TRANSPARENT,
        status: ICalEventStatus.CANCELLED,
      });
    }
  }
  return withNameProperty(feed.toString(), title);
}

/**
 * RFC 7986's NAME beside X-WR-CALNAME (which the generator writes): the calendar's name for the clients that read the
 * standard property, escaped and folded at 75 octets like every other line.
 */
function withNameProperty(body: string, name: string): string {
  const escaped = name.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\n/g, '\\n');
  const line = foldLine(`NAME:${escaped}`);
  return body.replace(/\r\nX-WR-CALNAME:(?:[^\r]|\r\n )*\r\n/, (found) => `${found}${line}\r\n`);
}

/** A content line folded at 75 octets (RFC 5545, 3.1), never inside a UTF-8 character. */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    const limit = parts.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}
