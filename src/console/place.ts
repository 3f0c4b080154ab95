import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { computeCalendar, withCancelled, type Occurrence, type PlaceSchedule } from '../domain/collection-calendar.ts';
import { loadSchedule } from '../domain/schedules.ts';
import { todayIn } from '../kernel/dates.ts';
import { PLACE_COLLECTIONS_PER_WASTE_TYPE, type ConversationPlace } from './schemas.ts';

/**
 * The conversation's place as agents read it beside the messages: its name and its next collections, whatever the
 * agent's other permissions (reading the conversation is enough: the citizen told the place to the chat). The dates
 * come from the calendar engine, as the citizens' calendar and the assistant's answers take them.
 */

/** How far ahead the next collections are looked for, as the public « next collection » does. */
const HORIZON_DAYS = 366;

/**
 * Per waste type, its next PLACE_COLLECTIONS_PER_WASTE_TYPE collections from today and the cancelled ones among them,
 * the waste types by their soonest date (then name, as the engine sorts).
 */
export function nextCollectionsByWasteType(schedule: PlaceSchedule, now: Date): ConversationPlace['nextCollections'] {
  const today = todayIn(schedule.timeZone, now);
  const all = withCancelled(computeCalendar(schedule, { from: today, to: today + HORIZON_DAYS }));
  const byType = new Map<string, { occurrences: Occurrence[]; held: number }>();
  for (const occurrence of all) {
    const entry = byType.get(occurrence.wasteTypeId) ?? { occurrences: [], held: 0 };
    if (entry.held >= PLACE_COLLECTIONS_PER_WASTE_TYPE) continue;
    entry.occurrences.push(occurrence);
    if (occurrence.status !== 'CANCELLED') entry.held += 1;
    byType.set(occurrence.wasteTypeId, entry);
  }
  // A waste type whose only dates are cancellations is not collected there: left out, as the public next collection does.
  return [...byType.values()]
    .filter((entry) => entry.held > 0)
    .map(({ occurrences: [first, ...rest] }) => ({
      wasteTypeId: first!.wasteTypeId,
      wasteTypeName: first!.wasteTypeName,
      color: first!.color,
      collections: [first!, ...rest].map((o) => ({ date: o.date, status: o.status, originalDate: o.originalDate, note: o.note })),
    }));
}

/** The place of a conversation of `cityId`, or null when it has none, or one that is gone or of another city. */
export async function conversationPlace(db: Kysely<DB>, cityId: string, placeId: string | null, now: Date): Promise<ConversationPlace | null> {
  if (placeId === null) return null;
  const place = await loadSchedule(db, placeId);
  if (!place || place.cityId !== cityId) return null;
  return { id: place.id, name: place.name, nextCollections: nextCollectionsByWasteType(place.schedule, now) };
}
