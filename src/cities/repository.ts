import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { availableChallengesByCity } from '../kernel/challenges.ts';
import { readSnapshot } from '../db/snapshot.ts';
import { frenchCollator, iso, sortByText } from '../kernel/french.ts';
import type { CityApi, CityGroupApi, WasteCollectionPlaceApi, WasteTypeApi } from './schemas.ts';

const WEEKDAY_ORDER: Record<string, number> = {
  lundi: 0, mardi: 1, mercredi: 2, jeudi: 3, vendredi: 4, samedi: 5, dimanche: 6,
};

/** Which cities to load: one by id, or every ACTIF city. Only ACTIF cities are ever public. */
export type CityScope = { id: string } | { all: true };

/**
 * Cities loaded per round of per-table queries when reading many of them: bounds the memory of one round
 * and the number of query parameters (an id list per table), whatever the number of cities.
 */
export const CITY_BATCH_SIZE = 200;

/**
 * Every ACTIF city in scope with all its nested data, on one snapshot: one query per table for one city;
 * for every city, the sorted list of ids then one query per table for each batch of CITY_BATCH_SIZE.
 * GET /public/cities streams the same batches above CITIES_STREAM_THRESHOLD cities (src/cities/stream.ts).
 */
export function findCities(db: Kysely<DB>, scope: CityScope, now: Date): Promise<CityApi[]> {
  return readSnapshot(db, async (trx) => {
    if ('id' in scope) return loadCities(trx, [scope.id], now);
    const ids = await listActiveCityIds(trx);
    const cities: CityApi[] = [];
    for (let i = 0; i < ids.length; i += CITY_BATCH_SIZE) {
      cities.push(...(await loadCities(trx, ids.slice(i, i + CITY_BATCH_SIZE), now)));
    }
    return cities;
  });
}

/** The number of ACTIF cities (the public list's length). */
export async function countActiveCities(db: Kysely<DB>): Promise<number> {
  const row = await db.selectFrom('city').select((eb) => eb.fn.countAll<string>().as('n')).where('status', '=', 'ACTIF').executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The ids of every ACTIF city in the public list's order: French collation of the name, then id. */
export async function listActiveCityIds(db: Kysely<DB>): Promise<string[]> {
  const rows = await db.selectFrom('city').select(['id', 'name']).where('status', '=', 'ACTIF').execute();
  return sortByText(rows, (c) => c.name).map((c) => c.id);
}

/**
 * The ACTIF cities among `ids` with all their nested data, in the order of `ids`, in a fixed number of
 * queries (one per table) whatever the number of cities. Callers bound `ids` (CITY_BATCH_SIZE).
 */
export async function loadCities(db: Kysely<DB>, ids: readonly string[], now: Date): Promise<CityApi[]> {
  if (ids.length === 0) return [];
  const cityRows = await db
    .selectFrom('city')
    .leftJoin('city_group', 'city_group.id', 'city.city_group_id')
    .selectAll('city')
    .select(['city_group.name as group_name', 'city_group.type as group_type'])
    .where('city.id', 'in', [...ids])
    .where('city.status', '=', 'ACTIF')
    .execute();
  if (cityRows.length === 0) return [];
  const position = new Map(ids.map((id, i) => [id, i]));
  cityRows.sort((a, b) => position.get(a.id)! - position.get(b.id)!);
  const found = cityRows.map((c) => c.id);

  const [wasteTypes, details, places, days, exceptions, locations, points, questions, challenges] = await Promise.all([
    db.selectFrom('waste_type').selectAll().where('city_id', 'in', found).execute(),
    db
      .selectFrom('waste_type_detail')
      .innerJoin('waste_type', 'waste_type.id', 'waste_type_detail.waste_type_id')
      .selectAll('waste_type_detail')
      .where('waste_type.city_id', 'in', found)
      .execute(),
    db.selectFrom('collection_place').selectAll().where('city_id', 'in', found).execute(),
    db
      .selectFrom('collection_day')
      .innerJoin('collection_place', 'collection_place.id', 'collection_day.place_id')
      .selectAll('collection_day')
      .where('collection_place.city_id', 'in', found)
      .execute(),
    db
      .selectFrom('collection_exception')
      .innerJoin('collection_place', 'collection_place.id', 'collection_exception.place_id')
      .selectAll('collection_exception')
      .where('collection_place.city_id', 'in', found)
      .execute(),
    db
      .selectFrom('attached_location')
      .innerJoin('collection_place', 'collection_place.id', 'attached_location.place_id')
      .selectAll('attached_location')
      .where('collection_place.city_id', 'in', found)
      .execute(),
    db.selectFrom('recycling_point').selectAll().where('city_id', 'in', found).execute(),
    db.selectFrom('quiz_question').selectAll().where('city_id', 'in', found).execute(),
    availableChallengesByCity(db, found, now),
  ]);

  const detailsByType = Map.groupBy(details, (d) => d.waste_type_id);
  const typesByCity = Map.groupBy(wasteTypes, (w) => w.city_id);
  const daysByPlace = Map.groupBy(days, (d) => d.place_id);
  const exceptionsByPlace = Map.groupBy(exceptions, (e) => e.place_id);
  const locationsByPlace = Map.groupBy(locations, (l) => l.place_id);
  const placesByCity = Map.groupBy(places, (p) => p.city_id);
  const pointsByCity = Map.groupBy(points, (p) => p.city_id);
  const questionsByCity = Map.groupBy(questions, (q) => q.city_id);
  const typeNames = new Map(wasteTypes.map((w) => [w.id, w.name]));

  const toWasteType = (w: (typeof wasteTypes)[number]): WasteTypeApi => ({
    id: w.id,
    name: w.name,
    description: w.description,
    instructions: w.instructions,
    color: w.color,
    colorLight: w.color_light,
    icon: w.icon,
    imageUrl: w.image_url,
    details: sortByText(detailsByType.get(w.id) ?? [], (d) => d.material).map((d) => ({
      id: d.id,
      material: d.material,
      description: d.description,
      instructions: d.instructions,
      imageUrl: d.image_url,
    })),
  });

  const toPlace = (p: (typeof places)[number]): WasteCollectionPlaceApi => ({
    id: p.id,
    name: p.name,
    collectionDays: (daysByPlace.get(p.id) ?? [])
      .sort(
        (a, b) =>
          WEEKDAY_ORDER[a.name] - WEEKDAY_ORDER[b.name] ||
          frenchCollator.compare(typeNames.get(a.waste_type_id) ?? '', typeNames.get(b.waste_type_id) ?? '') ||
          (a.id < b.id ? -1 : 1),
      )
      .map((d) => ({
        id: d.id,
        name: d.name,
        wasteTypeId: d.waste_type_id,
        description: d.description,
        biweekly: d.biweekly,
        startDate: iso(d.start_date),
      })),
    exceptions: (exceptionsByPlace.get(p.id) ?? [])
      .sort((a, b) => a.date_from.getTime() - b.date_from.getTime() || (a.id < b.id ? -1 : 1))
      .map((e) => ({
        id: e.id,
        dateFrom: iso(e.date_from)!,
        dateTo: iso(e.date_to),
        wasteTypeId: e.waste_type_id,
        name: e.name,
        description: e.description,
      })),
    attachedLocations: sortByText(locationsByPlace.get(p.id) ?? [], (l) => l.name).map((l) => ({
      id: l.id,
      name: l.name,
      reference: l.reference,
      latitude: l.latitude,
      longitude: l.longitude,
    })),
  });

  return cityRows.map((c) => ({
    id: c.id,
    name: c.name,
    country: c.country,
    population: c.population,
    status: c.status,
    outOfTheBins: c.out_of_the_bins,
    presentationOfBins: c.presentation_of_bins,
    returnOfBins: c.return_of_bins,
    respectOfCalendar: c.respect_of_calendar,
    holidays: c.holidays,
    cityGroup: c.city_group_id ? { id: c.city_group_id, name: c.group_name!, type: c.group_type! } : null,
    wasteTypes: sortByText(typesByCity.get(c.id) ?? [], (w) => w.name).map(toWasteType),
    wasteCollectionPlaces: sortByText(placesByCity.get(c.id) ?? [], (p) => p.name).map(toPlace),
    challenges: challenges.get(c.id) ?? [],
    recyclingPoints: sortByText(pointsByCity.get(c.id) ?? [], (p) => p.name).map((p) => ({
      id: p.id,
      name: p.name,
      address: p.address,
      latitude: p.latitude,
      longitude: p.longitude,
      openingHours: p.opening_hours,
    })),
    quizQuestions: (questionsByCity.get(c.id) ?? [])
      .sort((a, b) => a.order - b.order || frenchCollator.compare(a.material, b.material) || (a.id < b.id ? -1 : 1))
      .map((q) => ({
        id: q.id,
        material: q.material,
        question: q.question,
        correctWasteTypeId: q.correct_waste_type_id,
        order: q.order,
      })),
  }));
}

/** Every city group with its ACTIF cities, in two queries. */
export async function findCityGroups(db: Kysely<DB>): Promise<CityGroupApi[]> {
  const [groups, cities] = await readSnapshot(db, (trx) => Promise.all([
    trx.selectFrom('city_group').select(['id', 'name', 'type', 'code', 'siren']).execute(),
    trx
      .selectFrom('city')
      .select(['id', 'name', 'country', 'population', 'city_group_id'])
      .where('status', '=', 'ACTIF')
      .where('city_group_id', 'is not', null)
      .execute(),
  ]));
  const citiesByGroup = Map.groupBy(cities, (c) => c.city_group_id);
  return sortByText(groups, (g) => g.name).map((g) => {
    const members = sortByText(citiesByGroup.get(g.id) ?? [], (c) => c.name).map((c) => ({
      id: c.id,
      name: c.name,
      country: c.country,
      population: c.population,
    }));
    return { id: g.id, name: g.name, type: g.type, code: g.code, siren: g.siren, cities: members, _count: { cities: members.length } };
  });
}
