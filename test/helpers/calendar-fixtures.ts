import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB, WeekdayName } from '../../src/db/types.ts';

/** Direct inserts for the calendar tests: a city, its waste types, one or more places with days and exceptions. */

export interface CalendarCityOptions {
  name?: string;
  status?: 'ACTIF' | 'NON_ACTIF';
  timeZone?: string;
  /** The city group it belongs to (insertCityGroup), else none. */
  cityGroupId?: string | null;
  holidayCalendar?: 'FR' | 'FR-ALSACE-MOSELLE';
}

/** A city group, for holiday rules. */
export async function insertCityGroup(db: Kysely<DB>, name = 'Communauté Collecte'): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('city_group')
    .values({ id, name, type: 'Communauté de communes', code: id.slice(0, 6), siren: '200000000', chat_enabled: false })
    .execute();
  return id;
}

export interface HolidayRuleFixture {
  holiday: string;
  wasteTypeId: string | null;
  action: 'KEEP' | 'CANCEL' | 'NEXT_DAY' | 'PREVIOUS_DAY' | 'SHIFT_WEEK';
}

/** Replaces a group's holiday rules. */
export async function setHolidayRules(db: Kysely<DB>, cityGroupId: string, rules: HolidayRuleFixture[]): Promise<void> {
  await db.deleteFrom('holiday_rule').where('city_group_id', '=', cityGroupId).execute();
  if (rules.length === 0) return;
  await db
    .insertInto('holiday_rule')
    .values(rules.map((r, position) => ({ city_group_id: cityGroupId, position, holiday: r.holiday, waste_type_id: r.wasteTypeId, action: r.action })))
    .execute();
}

export async function insertCalendarCity(db: Kysely<DB>, options: CalendarCityOptions = {}): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('city')
    .values({
      id,
      name: options.name ?? 'Villecollecte',
      country: 'France',
      population: 12_000,
      status: options.status ?? 'ACTIF',
      time_zone: options.timeZone ?? 'Europe/Paris',
      out_of_the_bins: null,
      presentation_of_bins: null,
      return_of_bins: null,
      respect_of_calendar: null,
      holidays: null,
      city_group_id: options.cityGroupId ?? null,
      holiday_calendar: options.holidayCalendar ?? 'FR',
    })
    .execute();
  return id;
}

export async function insertWasteType(db: Kysely<DB>, cityId: string, name: string, color: string | null = null): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('waste_type')
    .values({ id, city_id: cityId, name, description: null, instructions: null, color, color_light: null, icon: null, image_url: null })
    .execute();
  return id;
}

export async function insertPlace(db: Kysely<DB>, cityId: string, name = 'Centre-ville'): Promise<string> {
  const id = randomUUID();
  await db.insertInto('collection_place').values({ id, city_id: cityId, name }).execute();
  return id;
}

export interface DayFixture {
  name: WeekdayName;
  wasteTypeId: string;
  biweekly?: boolean | null;
  startDate?: string | null;
}

export async function insertCollectionDays(db: Kysely<DB>, placeId: string, days: DayFixture[]): Promise<void> {
  if (days.length === 0) return;
  await db
    .insertInto('collection_day')
    .values(
      days.map((d) => ({
        id: randomUUID(),
        place_id: placeId,
        name: d.name,
        waste_type_id: d.wasteTypeId,
        description: null,
        biweekly: d.biweekly ?? null,
        start_date: d.startDate ?? null,
      })),
    )
    .execute();
}

export interface ExceptionFixture {
  wasteTypeId: string;
  dateFrom: string;
  dateTo?: string | null;
  name?: string | null;
  description?: string | null;
  kind?: 'CANCEL' | 'MOVE' | 'ADD';
  movedTo?: string | null;
}

export async function insertExceptions(db: Kysely<DB>, placeId: string, exceptions: ExceptionFixture[]): Promise<void> {
  if (exceptions.length === 0) return;
  await db
    .insertInto('collection_exception')
    .values(
      exceptions.map((e) => ({
        id: randomUUID(),
        place_id: placeId,
        date_from: e.dateFrom,
        date_to: e.dateTo ?? null,
        waste_type_id: e.wasteTypeId,
        name: e.name ?? null,
        description: e.description ?? null,
        kind: e.kind ?? 'CANCEL',
        moved_to: e.movedTo ?? null,
      })),
    )
    .execute();
}

export interface CalendarScenario {
  cityId: string;
  placeId: string;
  otherPlaceId: string;
  otherCityPlaceId: string;
  wasteTypes: { ordures: string; recyclables: string; verre: string };
}

/**
 * A Paris-time city with one place collected every Friday (household waste), every second Wednesday from
 * 2026-01-07 (recyclables) and every Friday from 2026-06-01 (glass); Christmas 2026 glass is cancelled by an
 * exception. Plus a second place of the same city and a place of another city.
 */
export async function insertCalendarScenario(db: Kysely<DB>): Promise<CalendarScenario> {
  const cityId = await insertCalendarCity(db);
  const ordures = await insertWasteType(db, cityId, 'Ordures ménagères', '#6b7280');
  const recyclables = await insertWasteType(db, cityId, 'Emballages', '#facc15');
  const verre = await insertWasteType(db, cityId, 'Verre', '#16a34a');
  const placeId = await insertPlace(db, cityId, 'Centre-ville');
  await insertCollectionDays(db, placeId, [
    { name: 'vendredi', wasteTypeId: ordures },
    { name: 'mercredi', wasteTypeId: recyclables, biweekly: true, startDate: '2026-01-06T23:00:00.000Z' },
    { name: 'vendredi', wasteTypeId: verre, startDate: '2026-05-31T22:00:00.000Z' },
  ]);
  await insertExceptions(db, placeId, [
    {
      wasteTypeId: verre,
      dateFrom: '2026-12-24T23:00:00.000Z',
      name: 'Noël',
      description: 'Collecte du verre reportée au samedi 26 décembre.',
    },
  ]);
  const otherPlaceId = await insertPlace(db, cityId, 'Hameau');
  await insertCollectionDays(db, otherPlaceId, [{ name: 'lundi', wasteTypeId: ordures }]);
  const otherCityId = await insertCalendarCity(db, { name: 'Autreville' });
  const otherCityPlaceId = await insertPlace(db, otherCityId, 'Bourg');
  return { cityId, placeId, otherPlaceId, otherCityPlaceId, wasteTypes: { ordures, recyclables, verre } };
}
