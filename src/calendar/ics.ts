import ical, { ICalAlarmType, ICalEventStatus, ICalEventTransparency } from 'ical-generator';
import { minutesOfDay } from '../kernel/schemas.ts';
import { parseCalendarDate, dayNumberToUtcDate } from '../kernel/dates.ts';
import type { Calendar, Occurrence } from '../domain/collection-calendar.ts';

/**
 * The iCalendar (RFC 5545) feed of a place: one all-day event per collection, and a cancelled event for each
 * collection an exception removes, so that a subscribed phone calendar drops a collection that no longer happens.
 */

export interface IcsFeedInput {
  placeId: string;
  placeName: string;
  cityName: string;
  calendar: Calendar;
  /** When the published data last changed: the DTSTAMP of every event, so that the body only changes with the data. */
  dataChangedAt: Date;
  /** `HH:MM`: each collection gets an alarm at that time the evening before (`?alarm=`), else none. */
  alarm?: string | null;
}

const PRODUCT_ID = { company: 'Collecte', product: 'Calendrier des collectes', language: 'FR' };

/** Subscribed calendars are asked to refresh once a day (REFRESH-INTERVAL and X-PUBLISHED-TTL). */
const REFRESH_SECONDS = 86_400;

/** The same collection has the same UID on every fetch, and no two places or waste types share one. */
export function occurrenceUid(placeId: string, occurrence: Occurrence): string {
  return `${placeId}-${occurrence.wasteTypeId}-${occurrence.date.replaceAll('-', '')}@collecte`;
}

function startOf(occurrence: Occurrence): Date {
  const day = parseCalendarDate(occurrence.date);
  if (day === null) throw new Error(`Invalid occurrence date ${occurrence.date}`);
  return dayNumberToUtcDate(day);
}

export function buildIcsFeed(input: IcsFeedInput): string {
  const feed = ical({
    prodId: PRODUCT_ID,
    name: `Collectes – ${input.placeName} (${input.cityName})`,
    description: `Jours de collecte des déchets : ${input.placeName}, ${input.cityName}`,
    ttl: REFRESH_SECONDS,
  });
  // An all-day event starts at midnight, local time: 19:00 the evening before is 5 hours before its start.
  const alarmSeconds = input.alarm ? (24 * 60 - minutesOfDay(input.alarm)) * 60 : null;
  for (const occurrence of input.calendar.occurrences) {
    const event = feed.createEvent({
      id: occurrenceUid(input.placeId, occurrence),
      allDay: true,
      start: startOf(occurrence),
      stamp: input.dataChangedAt,
      summary: `Collecte : ${occurrence.wasteTypeName}`,
      description: occurrence.holiday ? `Jour férié : ${occurrence.holiday}.` : null,
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
  for (const cancelled of input.calendar.cancelled) {
    const reason = [cancelled.exceptionName, cancelled.exceptionDescription].filter((text) => text).join(' – ');
    feed.createEvent({
      id: occurrenceUid(input.placeId, cancelled),
      allDay: true,
      start: startOf(cancelled),
      stamp: input.dataChangedAt,
      summary: `Collecte annulée : ${cancelled.wasteTypeName}`,
      description: reason || 'Pas de collecte ce jour-là.',
      transparency: ICalEventTransparency.TRANSPARENT,
      status: ICalEventStatus.CANCELLED,
    });
  }
  return feed.toString();
}
