import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB, WeekdayName } from '../db/types.ts';
import { assertNoFault, eachRow, removeRow, underCity, underPlace, type AdminStore } from '../admin/store.ts';
import { collectionDayFaults } from '../domain/rules/cities.ts';
import { areaColumns, areaFaults } from './place-rules.ts';
import { toAttachedLocation, toCollectionDays, toCollectionPlace } from '../domain/city-model/mapper.ts';
import { errors } from '../kernel/errors.ts';
import * as repo from './place-repository.ts';
import { placesStreetRules } from './street-repository.ts';
import { toAdminStreetRule } from './admin-streets.ts';
import { cityWasteTypeIds, findPlaceOwner, type CityOwner, type PlaceOwner } from '../domain/cities.ts';
import { pageOf, type PageRequest } from '../kernel/pagination.ts';
import type { DayRow, LocationRow, PlaceRow } from './place-repository.ts';
import type {
  AdminAttachedLocation,
  AdminCollectionDay,
  AdminPlace,
  AttachedLocationPatch,
  CollectionDayPatch,
  CreateAttachedLocationInput,
  CreateCollectionDayInput,
  CreatePlaceInput,
  PlacePatch,
} from './admin-schemas.ts';

/**
 * The admin API's collection places (`/admin/cities/:cityId/places`, `/admin/places/:id`), their collection days
 * (`/admin/places/:placeId/collection-days`, `/admin/collection-days/:id`) and attached locations
 * (`/admin/places/:placeId/attached-locations`, `/admin/attached-locations/:id`), docs/api.md, the admin API. A city or place
 * outside the agent's groups answers 404, as if missing. A day is checked with the import bundle's rule (a waste type
 * of the place's city, a start date for a biweekly day). A place is deleted with its days, exceptions and locations,
 * which are its parts as the bundle nests them. Its `area` is checked with the bundle's rule (a closed GeoJSON polygon
 * in range); its street rules are written at their own paths (admin-streets.ts).
 */

/** The area as the bundle would hold it must pass the bundle's rule: 400 naming the first faulty field. */
function placeColumns(name: string, area: AdminPlace['area']) {
  assertNoFault(areaFaults(area));
  return { name: name.trim(), ...areaColumns(area) };
}

/** Places with their days, exceptions, locations and streets: one query per kind of child. */
async function showPlaces(db: Kysely<DB>, rows: PlaceRow[]): Promise<AdminPlace[]> {
  const children = await repo.placeChildren(db, rows.map((row) => row.id));
  const days = Map.groupBy(children.days, (d) => d.place_id);
  const exceptions = Map.groupBy(children.exceptions, (e) => e.place_id);
  const locations = Map.groupBy(children.locations, (l) => l.place_id);
  const streets = Map.groupBy(await placesStreetRules(db, rows.map((row) => row.id)), (r) => r.place_id);
  return rows.map((row) => ({
    ...toCollectionPlace(row, days.get(row.id) ?? [], exceptions.get(row.id) ?? [], locations.get(row.id) ?? [], children.typeNames),
    cityId: row.city_id,
    streets: (streets.get(row.id) ?? []).map(toAdminStreetRule),
    area: row.area,
  }));
}

export const placeStore: AdminStore<PlaceRow, AdminPlace, CityOwner, CreatePlaceInput, PlacePatch> = {
  entity: 'collectionPlace',
  notFound: errors.collectionPlaceNotFound,
  ...underCity(repo.findPlace, repo.listPlaces, showPlaces),
  insert: (trx, { subject: city }, input) => repo.insertPlace(trx, randomUUID(), city!.cityId, placeColumns(input.name, input.area ?? null)),
  update: (trx, { subject }, patch) =>
    repo.updatePlace(trx, subject.row.id, placeColumns(patch.name ?? subject.record.name, patch.area === undefined ? subject.record.area : patch.area)),
  remove: removeRow(repo.deletePlace),
};

// Collection days

type DayFields = Omit<AdminCollectionDay, 'id' | 'placeId'>;

/** The day as the bundle would hold it must pass the bundle's rule: 400 naming the first faulty field. */
async function dayColumns(db: Kysely<DB>, cityId: string, day: DayFields) {
  const wasteTypeId = day.wasteTypeId.toLowerCase();
  assertNoFault(collectionDayFaults({ ...day, wasteTypeId }, { wasteTypeIds: await cityWasteTypeIds(db, cityId) }));
  return {
    // A weekday: the schema or the database's own column said so.
    name: day.name as WeekdayName,
    waste_type_id: wasteTypeId,
    description: day.description,
    biweekly: day.biweekly,
    start_date: day.startDate === null ? null : new Date(day.startDate),
  };
}

/** A place has a handful of days: read whole, put in the public order (Monday to Sunday, waste type name, id), paged. */
async function listDays(db: Kysely<DB>, placeId: string, page: PageRequest, place: PlaceOwner) {
  const [days, names] = await Promise.all([repo.placeDays(db, placeId), repo.wasteTypeNames(db, place.cityId)]);
  const order = new Map(toCollectionDays(days, names).map((d, i) => [d.id, i]));
  return pageOf(days.sort((a, b) => order.get(a.id)! - order.get(b.id)!), page);
}

export const collectionDayStore: AdminStore<DayRow, AdminCollectionDay, PlaceOwner, CreateCollectionDayInput, CollectionDayPatch> = {
  entity: 'collectionDay',
  notFound: errors.collectionDayNotFound,
  ...underPlace(repo.findDay, listDays, eachRow((row) => ({ ...toCollectionDays([row], new Map())[0], placeId: row.place_id }))),
  async insert(trx, { subject: place }, input) {
    const day = { description: null, biweekly: null, startDate: null, ...input };
    return repo.insertDay(trx, randomUUID(), place!.placeId, await dayColumns(trx, place!.cityId, day));
  },
  async update(trx, { subject }, patch) {
    const owner = await findPlaceOwner(trx, subject.row.place_id);
    return repo.updateDay(trx, subject.row.id, await dayColumns(trx, owner!.cityId, { ...subject.record, ...patch }));
  },
  remove: removeRow(repo.deleteDay),
};

// Attached locations

type LocationFields = Omit<AdminAttachedLocation, 'id' | 'placeId'>;

const locationColumns = (l: LocationFields) => ({ name: l.name.trim(), reference: l.reference, latitude: l.latitude, longitude: l.longitude });

export const attachedLocationStore: AdminStore<
  LocationRow,
  AdminAttachedLocation,
  PlaceOwner,
  CreateAttachedLocationInput,
  AttachedLocationPatch
> = {
  entity: 'attachedLocation',
  notFound: errors.attachedLocationNotFound,
  ...underPlace(repo.findLocation, repo.listLocations, eachRow((row) => ({ ...toAttachedLocation(row), placeId: row.place_id }))),
  insert: (trx, { subject: place }, input) => repo.insertLocation(trx, randomUUID(), place!.placeId, locationColumns(input)),
  update: (trx, { subject }, patch) => repo.updateLocation(trx, subject.row.id, locationColumns({ ...subject.record, ...patch })),
  remove: removeRow(repo.deleteLocation),
};
