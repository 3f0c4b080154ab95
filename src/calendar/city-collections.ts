import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import type { CsvValue } from '../http/csv.ts';
import { frenchCollator } from '../kernel/french.ts';
import { computeCalendar, type CalendarRange, type Occurrence, type OccurrenceStatus } from '../domain/collection-calendar.ts';
import type { ScheduledPlace } from '../domain/schedules.ts';
import { findActiveCity } from '../domain/cities.ts';
import { loadSchedules } from '../domain/schedules.ts';

export interface CitySchedules {
  city: { id: string; name: string; timeZone: string };
  /** Every collection place of the city, by name, with what the engine needs. */
  places: ScheduledPlace[];
}

/** An ACTIF city's places and their schedules, by place name; null when unknown or NON_ACTIF. */
export async function loadCitySchedules(db: Kysely<DB>, cityId: string): Promise<CitySchedules | null> {
  const city = await findActiveCity(db, cityId);
  if (!city) return null;
  return { city, places: await loadSchedules(db, { cityId }) };
}

/** Every column is text: the CSV writer neutralises a place or waste type name that would start a formula. */
export const COLLECTIONS_CSV_COLUMNS = ['secteur_id', 'secteur_nom', 'flux', 'date', 'date_initiale', 'statut', 'motif'] as const;

const motifOf = (o: Occurrence): string => (o.exceptionName || o.exceptionDescription || (o.status === 'PLANNED' ? null : o.note)) ?? '';

/** The CSV's word for each status of the calendar. */
const CSV_STATUS: Record<OccurrenceStatus, string> = { PLANNED: 'PREVUE', MOVED: 'REPORTEE', ADDED: 'AJOUTEE', CANCELLED: 'ANNULEE' };

/**
 * One row per collection of every place of the city over the range, by date, then place name, then waste type name:
 * planned (PREVUE), moved (REPORTEE, on its new day, `date_initiale` the day it was planned for), added (AJOUTEE) or
 * cancelled (ANNULEE, on its own day). `motif` says why: the exception's name, else its description, or the holiday
 * rule's wording.
 */
export function collectionRows(data: CitySchedules, range: CalendarRange): CsvValue[][] {
  const rows: { date: string; place: string; flux: string; row: CsvValue[] }[] = [];
  for (const place of data.places) {
    const { occurrences, cancelled } = computeCalendar(place.schedule, range);
    for (const o of [...occurrences, ...cancelled]) {
      rows.push({
        date: o.date,
        place: place.name,
        flux: o.wasteTypeName,
        row: [place.id, place.name, o.wasteTypeName, o.date, o.originalDate ?? '', CSV_STATUS[o.status], motifOf(o)],
      });
    }
  }
  // Stable: places come in name order, and one place never has two rows for one day and waste type but a collection
  // cancelled on a day another lands on (the cancelled one last).
  rows.sort(
    (a, b) =>
      (a.date < b.date ? -1 : a.date > b.date ? 1 : 0) ||
      frenchCollator.compare(a.place, b.place) ||
      frenchCollator.compare(a.flux, b.flux) ||
      (a.row[5] === 'ANNULEE' ? 1 : 0) - (b.row[5] === 'ANNULEE' ? 1 : 0),
  );
  return rows.map((r) => r.row);
}
