import type { Kysely, Selectable } from 'kysely';
import type { DB, RecyclingPointKind, RecyclingPointTable } from '../db/types.ts';
import { childRecords } from '../db/child-records.ts';
import { sortByText } from '../kernel/french.ts';
import { holidayCalendarOf, type HolidayCalendar } from '../kernel/holidays.ts';
import { findActiveCity, findCityOwner } from '../domain/cities.ts';

export interface StoredPoint {
  id: string;
  cityId: string;
  name: string;
  address: string | null;
  latitude: number | null;
  longitude: number | null;
  openingHours: string | null;
  openingHoursSpec: string | null;
  kind: RecyclingPointKind | null;
  /**
   * The waste types it takes, by name (French collation), each with the materials its details name (« Piles et
   * batteries » under « Apport en déchèterie »): what the open data reads OSM materials from.
   */
  materials: { id: string; name: string; details: string[] }[];
}

type PointColumns = Pick<PointRow, 'name' | 'address' | 'latitude' | 'longitude' | 'opening_hours' | 'opening_hours_spec' | 'kind'>;

/** A point's own fields under the names the API and the import bundle give them. */
export function pointFields(p: PointColumns) {
  return {
    name: p.name,
    address: p.address,
    latitude: p.latitude,
    longitude: p.longitude,
    openingHours: p.opening_hours,
    openingHoursSpec: p.opening_hours_spec,
    kind: p.kind,
  };
}

export interface CityRef {
  id: string;
  name: string;
  timeZone: string;
  /** The city's public holidays, which a spec's `PH` means: the national ones, or Alsace-Moselle's. */
  holidayCalendar: HolidayCalendar;
}

/** The recycling points of some cities with their materials and their details: three queries, whatever the number of points. */
async function pointsOf(db: Kysely<DB>, cityIds: string[]): Promise<StoredPoint[]> {
  if (cityIds.length === 0) return [];
  const [points, materials, details] = await Promise.all([
    db
      .selectFrom('recycling_point')
      .select(['id', 'city_id', 'name', 'address', 'latitude', 'longitude', 'opening_hours', 'opening_hours_spec', 'kind'])
      .where('city_id', 'in', cityIds)
      .execute(),
    db
      .selectFrom('recycling_point_material as m')
      .innerJoin('waste_type as w', 'w.id', 'm.waste_type_id')
      .select(['m.recycling_point_id', 'w.id', 'w.name'])
      .where('m.city_id', 'in', cityIds)
      .execute(),
    db
      .selectFrom('waste_type_detail as d')
      .innerJoin('waste_type as w', 'w.id', 'd.waste_type_id')
      .select(['d.waste_type_id', 'd.material'])
      .where('w.city_id', 'in', cityIds)
      .execute(),
  ]);
  const detailsOf = Map.groupBy(details, (d) => d.waste_type_id);
  const byPoint = new Map<string, StoredPoint['materials']>();
  for (const m of materials) {
    const list = byPoint.get(m.recycling_point_id) ?? [];
    list.push({ id: m.id, name: m.name, details: (detailsOf.get(m.id) ?? []).map((d) => d.material) });
    byPoint.set(m.recycling_point_id, list);
  }
  return sortByText(
    points.map((p) => ({
      id: p.id,
      cityId: p.city_id,
      ...pointFields(p),
      materials: sortByText(byPoint.get(p.id) ?? [], (w) => w.name),
    })),
    (p) => p.name,
  );
}

/** An ACTIF city and its points by name, or null when the city is unknown or NON_ACTIF. */
export async function findCityPoints(db: Kysely<DB>, cityId: string): Promise<{ city: CityRef; points: StoredPoint[] } | null> {
  const city = await findActiveCity(db, cityId);
  if (!city) return null;
  const [calendar, points] = await Promise.all([
    db.selectFrom('city').select('holiday_calendar').where('id', '=', city.id).executeTakeFirst(),
    pointsOf(db, [city.id]),
  ]);
  return { city: { ...city, holidayCalendar: holidayCalendarOf(calendar?.holiday_calendar) }, points };
}

export interface GroupPoints {
  group: { id: string; name: string; siren: string; siret: string | null };
  /** The group's ACTIF cities by name, each with its points by name. */
  cities: { city: CityRef; points: StoredPoint[] }[];
}

/** A city group with the points of its ACTIF cities, or null when the group is unknown. */
export async function findGroupPoints(db: Kysely<DB>, groupId: string): Promise<GroupPoints | null> {
  const [group, cities] = await Promise.all([
    db.selectFrom('city_group').select(['id', 'name', 'siren', 'siret']).where('id', '=', groupId).executeTakeFirst(),
    db
      .selectFrom('city')
      .select(['id', 'name', 'time_zone', 'holiday_calendar'])
      .where('city_group_id', '=', groupId)
      .where('status', '=', 'ACTIF')
      .execute(),
  ]);
  if (!group) return null;
  const points = await pointsOf(
    db,
    cities.map((c) => c.id),
  );
  return {
    group,
    cities: sortByText(cities, (c) => c.name).map((c) => ({
      city: { id: c.id, name: c.name, timeZone: c.time_zone, holidayCalendar: holidayCalendarOf(c.holiday_calendar) },
      points: points.filter((p) => p.cityId === c.id),
    })),
  };
}

// The admin API's recycling points (docs/api.md, the admin API): one city's points, read and written one at a time.

export type PointRow = Selectable<RecyclingPointTable>;

/** The waste types each point takes, by waste type name (French rule): one query for all the points. */
export async function materialsOf(db: Kysely<DB>, pointIds: readonly string[]): Promise<Map<string, string[]>> {
  if (pointIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('recycling_point_material as m')
    .innerJoin('waste_type as w', 'w.id', 'm.waste_type_id')
    .select(['m.recycling_point_id', 'w.id', 'w.name'])
    .where('m.recycling_point_id', 'in', [...pointIds])
    .execute();
  const byPoint = Map.groupBy(sortByText(rows, (m) => m.name), (m) => m.recycling_point_id);
  return new Map([...byPoint].map(([pointId, materials]) => [pointId, materials.map((m) => m.id)]));
}

/** A city's points, listed in the public order (French rule on the name, then id); a point is deleted with its materials (foreign key). */
export const { find: findPoint, list: listCityPoints, insert: insertPoint, update: updatePoint, remove: deletePoint } =
  childRecords('recycling_point', 'city_id', findCityOwner, (rows) => sortByText(rows, (p) => p.name));

/** The point takes exactly `wasteTypeIds` (waste types of its city: the foreign keys carry the city). */
export async function setPointMaterials(db: Kysely<DB>, point: PointRow, wasteTypeIds: readonly string[]): Promise<void> {
  await db.deleteFrom('recycling_point_material').where('recycling_point_id', '=', point.id).execute();
  if (wasteTypeIds.length === 0) return;
  await db
    .insertInto('recycling_point_material')
    .values(wasteTypeIds.map((wasteTypeId) => ({ recycling_point_id: point.id, waste_type_id: wasteTypeId, city_id: point.city_id })))
    .execute();
}

