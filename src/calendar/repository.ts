import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import type { PlaceSchedule } from '../kernel/collection-calendar.ts';

export interface PlaceCalendarData {
  city: { id: string; name: string; timeZone: string };
  place: { id: string; name: string };
  schedule: PlaceSchedule;
  /** When public data last changed (data_version), for the iCalendar DTSTAMP. */
  dataChangedAt: Date;
}

export type PlaceCalendarLookup =
  | { found: 'city-missing' }
  | { found: 'place-missing' }
  | { found: 'place'; data: PlaceCalendarData };

/**
 * Loads what the calendar engine needs for one place of an ACTIF city, in six small queries whatever the data,
 * two round trips: the city and the data version, then the place (checked to be the city's), its days,
 * its exceptions and the city's waste types.
 */
export async function loadPlaceCalendar(db: Kysely<DB>, cityId: string, placeId: string): Promise<PlaceCalendarLookup> {
  const [city, version] = await Promise.all([
    db
      .selectFrom('city')
      .select(['id', 'name', 'time_zone'])
      .where('id', '=', cityId)
      .where('status', '=', 'ACTIF')
      .executeTakeFirst(),
    db.selectFrom('data_version').select('changed_at').where('id', '=', 1).executeTakeFirst(),
  ]);
  if (!city) return { found: 'city-missing' };

  const [place, days, exceptions, wasteTypes] = await Promise.all([
    db
      .selectFrom('collection_place')
      .select(['id', 'name'])
      .where('id', '=', placeId)
      .where('city_id', '=', cityId)
      .executeTakeFirst(),
    db
      .selectFrom('collection_day')
      .select(['name', 'waste_type_id', 'biweekly', 'start_date'])
      .where('place_id', '=', placeId)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('collection_exception')
      .select(['date_from', 'date_to', 'waste_type_id', 'name', 'description'])
      .where('place_id', '=', placeId)
      .orderBy('date_from')
      .orderBy('id')
      .execute(),
    db.selectFrom('waste_type').select(['id', 'name', 'color']).where('city_id', '=', cityId).execute(),
  ]);
  if (!place) return { found: 'place-missing' };

  return {
    found: 'place',
    data: {
      city: { id: city.id, name: city.name, timeZone: city.time_zone },
      place: { id: place.id, name: place.name },
      schedule: {
        timeZone: city.time_zone,
        days: days.map((d) => ({ name: d.name, wasteTypeId: d.waste_type_id, biweekly: d.biweekly, startDate: d.start_date })),
        exceptions: exceptions.map((e) => ({
          dateFrom: e.date_from,
          dateTo: e.date_to,
          wasteTypeId: e.waste_type_id,
          name: e.name,
          description: e.description,
        })),
        wasteTypes: wasteTypes.map((w) => ({ id: w.id, name: w.name, color: w.color })),
      },
      // The row is created by the first migration; the epoch only stands in if someone deleted it.
      dataChangedAt: version?.changed_at ?? new Date(0),
    },
  };
}
