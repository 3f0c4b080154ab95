import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { assertNoFault } from '../admin/store.ts';
import { computeCalendar } from '../domain/collection-calendar.ts';
import { findActiveCity, findCityGroupRef, type ActiveCity } from '../domain/cities.ts';
import { loadSchedule } from '../domain/schedules.ts';
import { parseCalendarDate, resolveTimeZone, wallClockParts } from '../kernel/dates.ts';
import { errors } from '../kernel/errors.ts';
import { databaseJson } from '../kernel/schemas.ts';
import { readLink } from '../domain/signed-links.ts';
import { trackingPage } from './messages.ts';
import type { FilingBatcher } from './filing-batch.ts';
import { compareFrench } from '../kernel/french.ts';
import { requestMessages } from '../kernel/validation-messages.ts';
import type { RecordFault } from '../domain/rules/faults.ts';
import { requirementsOf, toRequest, toRequestType } from './mapper.ts';
import * as repo from './repository.ts';
import { BULKY_PICKUP, bookingDay, fileBooking } from './bulky-pickups.ts';
import { attributeFaults, missedCollectionFault, requirementFaults, type RequestParts } from './request-rules.ts';
import type { CreateRequestInput, RequestField, RequestType, ResidentRequest } from './schemas.ts';

/**
 * Resident requests, the residents' side (docs/api.md, resident requests): the catalogue, a request filed with the
 * rules of its type, the device's list and detail. The staff's side is admin-requests.ts.
 */

/** The type codes whose rules go beyond their requirements. */
export const MISSED_COLLECTION = 'collecte-non-effectuee';

/** How long an uploaded photo waits for a request to take it. */
export const PHOTO_TTL_MS = 24 * 3_600_000;
/** Requests a device's list shows, at most (the newest). */
const DEVICE_LIST_MAX = 100;

/** A group's active request types, by name (French order). */
export async function requestTypesOfGroup(db: Kysely<DB>, groupId: string): Promise<RequestType[]> {
  if (!(await findCityGroupRef(db, groupId))) throw errors.cityGroupNotFound();
  const rows = await repo.typesOfGroup(db, groupId, { activeOnly: true });
  return rows.sort((a, b) => compareFrench(a.name, b.name) || compareFrench(a.code, b.code)).map(toRequestType);
}

/** Ids as stored. */
const lower = (id: string | null | undefined) => (id == null ? null : id.toLowerCase());

/** The request the device gets back: its own, with its public history. */
async function shownToDevice(db: Kysely<DB>, id: string): Promise<ResidentRequest> {
  const row = (await repo.findRequest(db, id))!;
  const [updates, photos] = await Promise.all([repo.updatesOf(db, [id], { notes: false }), repo.photosOf(db, [id])]);
  return toRequest(row, updates, photos.length);
}

/** A city (ACTIF) and the type of its group with a code, each undefined when there is none. */
export type RequestCatalogue = (
  cityId: string,
  code: string,
) => Promise<{ city: ActiveCity | null; type: repo.RequestTypeRow | undefined }>;

/** The catalogue read from the database on every call. */
export const readCatalogue =
  (db: Kysely<DB>): RequestCatalogue =>
  async (cityId, code) => {
    const [city, type] = await Promise.all([findActiveCity(db, cityId), repo.findTypeOfCity(db, cityId, code)]);
    return { city, type };
  };

/** Lookups kept at once, at most, before the cache starts anew (a client naming random cities cannot grow it). */
const CATALOGUE_CACHE_MAX = 10_000;

/**
 * The catalogue kept in memory for as long as the data version stays the same: every admin write of a type or a city
 * moves it (on every instance within a second), so a creation reads neither the city nor the type most of the time.
 */
export function cachedCatalogue(db: Kysely<DB>, dataVersion: () => number): RequestCatalogue {
  const read = readCatalogue(db);
  let version = -1;
  let cache = new Map<string, ReturnType<RequestCatalogue>>();
  return (cityId, code) => {
    if (dataVersion() !== version || cache.size >= CATALOGUE_CACHE_MAX) {
      version = dataVersion();
      cache = new Map();
    }
    const key = `${cityId}|${code}`;
    let found = cache.get(key);
    if (!found) {
      const kept = cache;
      found = read(cityId, code);
      // A failed read (the database away) is not kept.
      found.catch(() => kept.delete(key));
      cache.set(key, found);
    }
    return found;
  };
}

/** Thrown inside the creation's transaction when an open report of the same missed collection won the race. */
class JoinedExisting extends Error {}

/**
 * Files a request: its type's rules first (a 400 naming the field), then, for a missed collection already reported
 * and still open, the device follows that request instead (`created` false: the route answers 200).
 */
export async function createRequest(
  db: Kysely<DB>,
  input: CreateRequestInput,
  options: {
    now: Date;
    /** Where the links of its e-mails start. */
    origin: string | null;
    /** Counts the creation against its limits (throws 429 past them): called once the request has passed its rules. */
    admit?: () => Promise<void>;
    /** How the city and its type are found (cached by the routes); read from the database otherwise. */
    catalogue?: RequestCatalogue;
    /** Files the request with others that arrive together (the routes' group commit); alone otherwise. */
    filer?: FilingBatcher;
  },
): Promise<{ request: ResidentRequest; created: boolean }> {
  const { now, origin, admit = async () => {} } = options;
  const { city, type } = await (options.catalogue ?? readCatalogue(db))(input.cityId.toLowerCase(), input.typeCode);
  if (!city) throw errors.cityNotFound();
  if (!type || !type.active || city.cityGroupId === null) throw errors.requestTypeNotFound();
  const groupId = city.cityGroupId;
  const timeZone = resolveTimeZone(city.timeZone);

  const parts: RequestParts = {
    placeId: lower(input.placeId),
    wasteTypeId: lower(input.wasteTypeId),
    date: input.date ?? null,
    recyclingPointId: lower(input.recyclingPointId),
    latitude: input.latitude ?? null,
    longitude: input.longitude ?? null,
    // Texts as stored (a lone UTF-16 surrogate becomes U+FFFD): the answer is made from these, not read back.
    address: input.address?.trim().toWellFormed() || null,
    photoIds: [...new Set((input.photoIds ?? []).map((id) => id.toLowerCase()))],
  };
  assertNoFault(requirementFaults(requirementsOf(type), parts));
  const refs = await repo.cityReferences(db, city.id, parts);
  const faults: RecordFault[] = [];
  if (parts.placeId !== null && !refs.place) faults.push({ path: 'placeId', message: requestMessages.notAPlaceOfTheCity(parts.placeId) });
  if (parts.wasteTypeId !== null && !refs.wasteType) {
    faults.push({ path: 'wasteTypeId', message: requestMessages.notAWasteTypeOfTheCity(parts.wasteTypeId) });
  }
  if (parts.recyclingPointId !== null && !refs.recyclingPoint) {
    faults.push({ path: 'recyclingPointId', message: requestMessages.notAPointOfTheCity(parts.recyclingPointId) });
  }
  assertNoFault(faults);
  const answers = attributeFaults(type.name, type.fields as RequestField[], input.attributes ?? {});
  assertNoFault(answers.faults);
  const free = await repo.freePhotoIds(db, parts.photoIds, new Date(now.getTime() - PHOTO_TTL_MS));
  assertNoFault(parts.photoIds.flatMap((id, i) => (free.has(id) ? [] : [{ path: `photoIds[${i}]`, message: requestMessages.notAPhoto(id) }])));

  let duplicateKey: string | null = null;
  if (type.code === MISSED_COLLECTION && parts.placeId !== null && parts.wasteTypeId !== null && parts.date !== null) {
    const place = await loadSchedule(db, parts.placeId);
    const day = parseCalendarDate(parts.date)!;
    const calendar = computeCalendar(place!.schedule, { from: day, to: day });
    const ofType = (o: { wasteTypeId: string }) => o.wasteTypeId === parts.wasteTypeId;
    const fault = missedCollectionFault({
      date: parts.date,
      wasteTypeName: refs.wasteType!.name,
      collections: calendar.occurrences.filter(ofType),
      cancelled: calendar.cancelled.filter(ofType),
      now,
      timeZone,
    });
    if (fault) assertNoFault([fault]);
    duplicateKey = `${parts.placeId}|${parts.wasteTypeId}|${parts.date}`;
  }
  const email = input.email?.trim().toLowerCase() || null;
  const bookedDay =
    type.code === BULKY_PICKUP ? await bookingDay(db, city, type.name, { address: parts.address, email, attributes: answers.attributes }, now) : null;

  await admit();
  const join = async (id: string) => {
    await repo.addFollower(db, id, input.deviceId, now);
    return { request: await shownToDevice(db, id), created: false };
  };
  if (duplicateKey !== null) {
    const open = await repo.findOpenDuplicate(db, duplicateKey);
    if (open) return join(open);
  }
  const id = randomUUID();
  const year = wallClockParts(now, timeZone)[0];
  const values = {
    id,
    city_group_id: groupId,
    city_id: city.id,
    type_id: type.id,
    status: 'RECUE' as const,
    place_id: parts.placeId,
    waste_type_id: parts.wasteTypeId,
    date: parts.date,
    recycling_point_id: parts.recyclingPointId,
    latitude: parts.latitude,
    longitude: parts.longitude,
    address: parts.address,
    description: input.description.trim().toWellFormed(),
    email,
    attributes: databaseJson(answers.attributes),
    duplicate_key: duplicateKey,
    device_id: input.deviceId,
    origin,
    mail_stopped_at: null,
    created_at: now,
    updated_at: now,
    due_at: new Date(now.getTime() + type.target_hours * 3_600_000),
  };
  if (bookedDay !== null) {
    await fileBooking(db, values, { day: bookedDay, year, photoIds: parts.photoIds });
    return { request: await shownToDevice(db, id), created: true };
  }
  if (duplicateKey === null) {
    // The common case, in one statement; the answer is made from what was written, not read back.
    const filing = { ...values, year, updateId: randomUUID(), mailId: randomUUID(), photoIds: parts.photoIds };
    const filed = options.filer ? await options.filer.file(filing) : (await repo.fileRequests(db, [filing])).get(id)!;
    const row: repo.RequestRow = {
      ...values,
      attributes: JSON.parse(values.attributes) as Record<string, unknown>,
      reference: filed.reference,
      planned_for: null,
      assigned_to: null,
      closed_at: null,
      erased_at: null,
      type_code: type.code,
      type_name: type.name,
      target_hours: type.target_hours,
    };
    const created: repo.UpdateRow = { request_id: id, at: now, kind: 'STATUS', status: 'RECUE', message: null, author_id: null, author_name: null };
    return { request: toRequest(row, [created], filed.photos), created: true };
  }
  try {
    await db.transaction().execute(async (trx) => {
      const number = await repo.nextReferenceNumber(trx, groupId, year);
      // Rolled back, so that the reference number is not spent: the device joins the request that won.
      if ((await repo.insertRequest(trx, { ...values, reference: `${year}-${String(number).padStart(6, '0')}` })) === undefined) {
        throw new JoinedExisting();
      }
      await repo.addFollower(trx, id, input.deviceId, now);
      const taken = await repo.attachPhotos(trx, id, parts.photoIds);
      if (taken < parts.photoIds.length) throw errors.invalidField('photoIds', requestMessages.notAPhoto(parts.photoIds.join(', ')));
      await repo.insertUpdate(trx, { id: randomUUID(), request_id: id, at: now, kind: 'STATUS', status: 'RECUE', message: null, author: null });
      await repo.enqueueMail(trx, { id: randomUUID(), requestId: id, updateId: null, now });
    });
  } catch (err) {
    if (err instanceof JoinedExisting) {
      const open = await repo.findOpenDuplicate(db, duplicateKey);
      if (open) return join(open);
      // The winner closed between the two statements: file this report anew.
      return createRequest(db, input, { ...options, admit: async () => {} });
    }
    throw err;
  }
  return { request: await shownToDevice(db, id), created: true };
}

/** The requests a device filed or follows, newest first. */
export async function requestsOfDevice(db: Kysely<DB>, deviceId: string): Promise<ResidentRequest[]> {
  return showToResidents(db, await repo.requestsOfDevice(db, deviceId, DEVICE_LIST_MAX));
}

/** Requests as their devices see them, with their public histories: one query per kind of child, whatever the rows. */
export async function showToResidents(db: Kysely<DB>, rows: readonly repo.RequestRow[]): Promise<ResidentRequest[]> {
  const ids = rows.map((r) => r.id);
  const [updates, photos] = await Promise.all([repo.updatesOf(db, ids, { notes: false }), repo.photosOf(db, ids)]);
  const updatesOf = Map.groupBy(updates, (u) => u.request_id);
  const photoCount = new Map<string, number>();
  for (const p of photos) photoCount.set(p.request_id, (photoCount.get(p.request_id) ?? 0) + 1);
  return rows.map((row) => toRequest(row, updatesOf.get(row.id) ?? [], photoCount.get(row.id) ?? 0));
}

/** One request of the device's (filed or followed); 404 for any other, as if missing. */
export async function requestOfDevice(db: Kysely<DB>, id: string, deviceId: string): Promise<ResidentRequest> {
  if (!(await repo.isFollower(db, id, deviceId))) throw errors.requestNotFound();
  return shownToDevice(db, id);
}

// ---------------------------------------------------------------- the links of the e-mails

/** The request a link's token names for `purpose`; 404 for a bad token or a request gone. */
async function linkedRequest(db: Kysely<DB>, key: Buffer, token: string, purpose: string, now: Date) {
  const id = readLink(key, token, purpose, now);
  const row = id === null ? undefined : await repo.findRequest(db, id);
  if (!row) throw errors.requestNotFound();
  return row;
}

/** The request a tracking link names: as its device sees it (JSON), and the page a browser shows. */
export async function trackedRequest(db: Kysely<DB>, key: Buffer, token: string, now: Date): Promise<{ json: ResidentRequest; page: string }> {
  const row = await linkedRequest(db, key, token, 'request-track', now);
  const json = await shownToDevice(db, row.id);
  const city = await findActiveCity(db, row.city_id);
  const page = trackingPage({
    reference: row.reference,
    typeName: row.type_name,
    status: row.status,
    plannedFor: row.planned_for,
    createdAt: row.created_at,
    timeZone: resolveTimeZone(city?.timeZone),
    updates: json.updates,
  });
  return { json, page };
}

/** Whether e-mails about the request a stop link names are still sent. */
export async function mailStatus(db: Kysely<DB>, key: Buffer, token: string, now: Date): Promise<'ACTIVE' | 'STOPPED'> {
  const row = await linkedRequest(db, key, token, 'request-unsubscribe', now);
  return row.mail_stopped_at === null ? 'ACTIVE' : 'STOPPED';
}

/** Stops the e-mails about the request a stop link names (the unsent ones are dropped). */
export async function stopMails(db: Kysely<DB>, key: Buffer, token: string, now: Date): Promise<void> {
  const row = await linkedRequest(db, key, token, 'request-unsubscribe', now);
  await repo.stopMail(db, row.id, now);
}
