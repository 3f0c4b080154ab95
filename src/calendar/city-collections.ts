import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import type { CsvValue } from '../http/csv.ts';
import { frenchCollator } from '../kernel/french.ts';
import { computeCalendar, type CalendarRange, type PlaceSchedule } from '../domain/collection-calendar.ts';
import { findActiveCity } from '../domain/cities.ts';

export interface CitySchedules {
  city: { id: string; name: string; timeZone: string };
  /** Every collection place of the city, by name, with what the engine needs. */
  places: { id: string; name: string; schedule: PlaceSchedule }[];
}

/** An ACTIF city's places and their rules, in five queries whatever the data; null when unknown or NON_ACTIF. */
export async function loadCitySchedules(db: Kysely<DB>, cityId: string): Promise<CitySchedules | null> {
  const city = await findActiveCity(db, cityId);
  if (!city) return null;
  const [places, days, exceptions, wasteTypes] = await Promise.all([
    db.selectFrom('collection_place').select(['id', 'name']).where('city_id', '=', cityId).execute(),
    db
      .selectFrom('collection_day as d')
      .innerJoin('collection_place as p', 'p.id', 'd.place_id')
      .select(['d.place_id', 'd.name', 'd.waste_type_id', 'd.biweekly', 'd.start_date'])
      .where('p.city_id', '=', cityId)
      .orderBy('d.id')
      .execute(),
    db
      .selectFrom('collection_exception as e')
      .innerJoin('collection_place as p', 'p.id', 'e.place_id')
      .select(['e.place_id', 'e.date_from', 'e.date_to', 'e.waste_type_id', 'e.name', 'e.description'])
      .where('p.city_id', '=', cityId)
      .orderBy('e.date_from')
      .orderBy('e.id')
      .execute(),
    db.selectFrom('waste_type').select(['id', 'name', 'color']).where('city_id', '=', cityId).execute(),
  ]);
  const types = wasteTypes.map((w) => ({ id: w.id, name: w.name, color: w.color }));
  return {
    city: city,
    places: places
      .sort((a, b) => frenchCollator.compare(a.name, b.name) || (a.id < b.id ? -1 : 1))
      .map((place) => ({
        id: place.id,
        name: place.name,
        schedule: {
          timeZone: city.timeZone,
          days: days
            .filter((d) => d.place_id === place.id)
            .map((d) => ({ name: d.name, wasteTypeId: d.waste_type_id, biweekly: d.biweekly, startDate: d.start_date })),
          exceptions: exceptions
            .filter((e) => e.place_id === place.id)
            .map((e) => ({ dateFrom: e.date_from, dateTo: e.date_to, wasteTypeId: e.waste_type_id, name: e.name, description: e.description })),
          wasteTypes: types,
        },
      })),
  };
}

/** Every column is text: the CSV writer neutralises a place or waste type name that would start a formula. */
export const COLLECTIONS_CSV_COLUMNS = ['secteur_id', 'secteur_nom', 'flux', 'date', 'statut', 'motif'] as const;

/**
 * One row per planned (PREVUE) or cancelled (ANNULEE) collection of every place of the city over the range, by
 * date, then place name, then waste type name; a cancelled one gives its exception's name, else its description.
 */
export function collectionRows(data: CitySchedules, range: CalendarRange): CsvValue[][] {
  const rows: { date: string; place: string; flux: string; row: CsvValue[] }[] = [];
  for (const place of data.places) {
    const { occurrences, cancelled } = computeCalendar(place.schedule, range);
    for (const o of occurrences) {
      rows.push({ date: o.date, place: place.name, flux: o.wasteTypeName, row: [place.id, place.name, o.wasteTypeName, o.date, 'PREVUE', ''] });
    }
    for (const c of cancelled) {
      const motif = c.exceptionName || c.exceptionDescription || '';
      rows.push({ date: c.date, place: place.name, flux: c.wasteTypeName, row: [place.id, place.name, c.wasteTypeName, c.date, 'ANNULEE', motif] });
    }
  }
  // Stable: places come in name order, and one place never has two rows for one day and waste type.
  rows.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0) || frenchCollator.compare(a.place, b.place) || frenchCollator.compare(a.flux, b.flux));
  return rows.map((r) => r.row);
}
