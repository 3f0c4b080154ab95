import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { reachableOwned, type AdminAgent } from '../admin/agent.ts';
import { under, type RecordFault } from '../domain/rules/faults.ts';
import { collectionDayFaults, collectionExceptionFaults } from '../domain/rules/cities.ts';
import { computeCalendar, withCancelled, type Occurrence, type PlaceSchedule } from '../domain/collection-calendar.ts';
import type { FrenchWeekday } from '../kernel/dates.ts';
import { todayIn } from '../kernel/dates.ts';
import { errors } from '../kernel/errors.ts';
import { loadAdminPlaceSchedule } from './repository.ts';
import { requestedRange } from './routes.ts';
import type { PlaceCollectionsQuery, PreviewInput } from './schemas.ts';

/**
 * The preview of a place's collections (docs/api.md, the admin API): the calendar of section 3b computed by the same engine
 * as the public one (src/domain/collection-calendar.ts), from the stored days and exceptions or, while an agent edits
 * them, from those of the request, checked with the import bundle's rules; nothing is stored. A place of any city, ACTIF
 * or not (an agent prepares a city before opening it); outside the agent's groups, 404 as if missing.
 */
export async function previewCollections(
  db: Kysely<DB>,
  agent: AdminAgent,
  placeId: string,
  query: PlaceCollectionsQuery,
  proposal: PreviewInput | null,
  now: Date,
): Promise<Occurrence[]> {
  const { schedule } = reachableOwned(agent, await loadAdminPlaceSchedule(db, placeId), errors.collectionPlaceNotFound);
  const range = requestedRange(query, todayIn(schedule.timeZone, now));
  const calendar = computeCalendar(proposal ? proposed(schedule, proposal) : schedule, range);
  return query.include === 'cancelled' ? withCancelled(calendar) : calendar.occurrences;
}

/** The schedule with the proposed days and exceptions instead of the stored ones; 400 naming the first faulty field. */
function proposed(stored: PlaceSchedule, proposal: PreviewInput): PlaceSchedule {
  const city = { wasteTypeIds: new Set(stored.wasteTypes.map((w) => w.id)), timeZone: stored.timeZone };
  const days = proposal.collectionDays?.map((d) => ({ ...d, wasteTypeId: d.wasteTypeId.toLowerCase() }));
  const exceptions = proposal.exceptions?.map((e) => ({ ...e, wasteTypeId: e.wasteTypeId.toLowerCase() }));
  const faults: RecordFault[] = [
    ...(days ?? []).flatMap((day, i) => under(`collectionDays[${i}]`, collectionDayFaults(day, city))),
    ...(exceptions ?? []).flatMap((exception, i) => under(`exceptions[${i}]`, collectionExceptionFaults(exception, city))),
  ];
  if (faults.length > 0) throw errors.invalidField(faults[0].path, faults[0].message);
  return {
    ...stored,
    days:
      days?.map((d) => ({
        name: d.name as FrenchWeekday,
        wasteTypeId: d.wasteTypeId,
        biweekly: d.biweekly ?? null,
        startDate: d.startDate == null ? null : new Date(d.startDate),
      })) ?? stored.days,
    exceptions:
      exceptions?.map((e) => ({
        dateFrom: new Date(e.dateFrom),
        dateTo: e.dateTo == null ? null : new Date(e.dateTo),
        kind: e.kind ?? 'CANCEL',
        movedTo: e.movedTo == null ? null : new Date(e.movedTo),
        wasteTypeId: e.wasteTypeId,
        name: e.name ?? null,
        description: e.description ?? null,
      })) ?? stored.exceptions,
  };
}
