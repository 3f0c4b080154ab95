import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { holidayCalendarOf } from '../kernel/holidays.ts';
import { frenchCollator } from '../kernel/french.ts';
import type { PlaceSchedule } from './collection-calendar.ts';
import { holidayRulesOf } from './holiday-rules.ts';

/**
 * What the calendar engine needs for a set of places, read the same way for every channel (the calendar screen and
 * feed, the open-data CSV, reminders and alerts, the console's preview): each place's days and exceptions, its city's
 * waste types, time zone and holiday calendar, and its city group's holiday rules. Five queries whatever the number
 * of places, in two round trips.
 */

export interface ScheduledPlace {
  id: string;
  name: string;
  cityId: string;
  cityGroupId: string | null;
  schedule: PlaceSchedule;
}

/** Which places: these ids, every place of a city, or every place of a city group's cities. */
export type ScheduleScope = { placeIds: readonly string[] } | { cityId: string } | { cityGroupId: string };

/** A place and what its city says of its calendar: the first of the loader's two round trips. */
export interface PlaceRef {
  id: string;
  name: string;
  city_id: string;
  city_group_id: string | null;
  time_zone: string;
  holiday_calendar: string;
}

/** The places of the scope with their schedules, by place name (French order), then id. */
export async function loadSchedules(db: Kysely<DB>, scope: ScheduleScope): Promise<ScheduledPlace[]> {
  if ('placeIds' in scope && scope.placeIds.length === 0) return [];
  const places = await db
    .selectFrom('collection_place as p')
    .innerJoin('city', 'city.id', 'p.city_id')
    .select(['p.id', 'p.name', 'p.city_id', 'city.city_group_id', 'city.time_zone', 'city.holiday_calendar'])
    .$if('placeIds' in scope, (qb) => qb.where('p.id', 'in', (scope as { placeIds: string[] }).placeIds))
    .$if('cityId' in scope, (qb) => qb.where('p.city_id', '=', (scope as { cityId: string }).cityId))
    .$if('cityGroupId' in scope, (qb) => qb.where('city.city_group_id', '=', (scope as { cityGroupId: string }).cityGroupId))
    .execute();
  return schedulesOf(db, places);
}

/** The schedules of places already read (with their city's calendar settings), in four queries at once. */
export async function schedulesOf(db: Kysely<DB>, places: readonly PlaceRef[]): Promise<ScheduledPlace[]> {
  if (places.length === 0) return [];
  const placeIds = places.map((p) => p.id);
  const cityIds = [...new Set(places.map((p) => p.city_id))];
  const groupIds = [...new Set(places.flatMap((p) => (p.city_group_id ? [p.city_group_id] : [])))];
  const [days, exceptions, wasteTypes, rules] = await Promise.all([
    db
      .selectFrom('collection_day')
      .select(['place_id', 'name', 'waste_type_id', 'biweekly', 'start_date'])
      .where('place_id', 'in', placeIds)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('collection_exception')
      .select(['place_id', 'kind', 'date_from', 'date_to', 'moved_to', 'waste_type_id', 'name', 'description'])
      .where('place_id', 'in', placeIds)
      .orderBy('date_from')
      .orderBy('id')
      .execute(),
    db.selectFrom('waste_type').select(['id', 'city_id', 'name', 'color']).where('city_id', 'in', cityIds).execute(),
    holidayRulesOf(db, groupIds),
  ]);
  const typesOf = Map.groupBy(
    wasteTypes.map((w) => ({ cityId: w.city_id, type: { id: w.id, name: w.name, color: w.color } })),
    (w) => w.cityId,
  );
  const byPlace = new Map<string, ScheduledPlace>();
  for (const place of places) {
    const holidayRules = (place.city_group_id && rules.get(place.city_group_id)) || [];
    byPlace.set(place.id, {
      id: place.id,
      name: place.name,
      cityId: place.city_id,
      cityGroupId: place.city_group_id,
      schedule: {
        timeZone: place.time_zone,
        holidayCalendar: holidayCalendarOf(place.holiday_calendar),
        holidayRules,
        days: [],
        exceptions: [],
        wasteTypes: (typesOf.get(place.city_id) ?? []).map((w) => w.type),
      },
    });
  }
  for (const d of days) {
    byPlace.get(d.place_id)?.schedule.days.push({ name: d.name, wasteTypeId: d.waste_type_id, biweekly: d.biweekly, startDate: d.start_date });
  }
  for (const e of exceptions) {
    byPlace.get(e.place_id)?.schedule.exceptions.push({
      kind: e.kind,
      dateFrom: e.date_from,
      dateTo: e.date_to,
      movedTo: e.moved_to,
      wasteTypeId: e.waste_type_id,
      name: e.name,
      description: e.description,
    });
  }
  return [...byPlace.values()].sort((a, b) => frenchCollator.compare(a.name, b.name) || (a.id < b.id ? -1 : 1));
}

/** One place's schedule, or undefined for an unknown place. */
export async function loadSchedule(db: Kysely<DB>, placeId: string): Promise<ScheduledPlace | undefined> {
  const [place] = await loadSchedules(db, { placeIds: [placeId] });
  return place;
}
