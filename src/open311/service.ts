import type { Kysely } from 'kysely';
import type { DB, RequestStatus } from '../db/types.ts';
import { compareFrench } from '../kernel/french.ts';
import { DomainError, errors } from '../kernel/errors.ts';
import { parseCalendarDate, resolveTimeZone } from '../kernel/dates.ts';
import { isUuid } from '../kernel/schemas.ts';
import { requestMessages } from '../kernel/validation-messages.ts';
import { fold } from '../kernel/address.ts';
import { typesOfGroup, type RequestTypeRow } from '../requests/repository.ts';
import { OPEN_STATUSES, REQUEST_STATUSES, type CreateRequestInput, type RequestField } from '../requests/schemas.ts';
import { createRequest, showToResidents } from '../requests/service.ts';
import { renamedField } from './errors.ts';
import { locate, nearestPoint, positionOf } from './location.ts';
import { DATE_ATTRIBUTE, POINT_ATTRIBUTE, toService, toServiceDefinition, toServiceRequest, WASTE_TYPE_ATTRIBUTE } from './mapper.ts';
import * as repo from './repository.ts';
import type { CreateRequestFormInput, RequestCreated, RequestListFilters, Service, ServiceDefinition, ServiceRequest } from './schemas.ts';

/** Open311 GeoReport v2 over the requests area (docs/api.md, Open311): no rule of its own, only translation. */

/** Requests a listing answers at most, newest first. */
export const LIST_MAX = 1000;
/** The span a listing covers when it names no start. */
export const DEFAULT_SPAN_DAYS = 90;

/** The group a request names by `jurisdiction_id` (its SIREN); optional while the instance holds one group. */
export async function jurisdictionOf(db: Kysely<DB>, siren: string | undefined): Promise<repo.Jurisdiction> {
  const found = await repo.findJurisdiction(db, siren);
  if (found === 'several') throw errors.jurisdictionRequired();
  if (!found) throw errors.jurisdictionNotFound();
  return found;
}

/** The group's active types by name (French order): its services. */
async function activeTypes(db: Kysely<DB>, groupId: string): Promise<RequestTypeRow[]> {
  const rows = await typesOfGroup(db, groupId, { activeOnly: true });
  return rows.sort((a, b) => compareFrench(a.name, b.name) || compareFrench(a.code, b.code));
}

async function activeType(db: Kysely<DB>, groupId: string, code: string): Promise<RequestTypeRow> {
  const type = (await typesOfGroup(db, groupId, { activeOnly: true })).find((t) => t.code === code);
  if (!type) throw errors.requestTypeNotFound('service_code');
  return type;
}

export async function servicesOf(db: Kysely<DB>, group: repo.Jurisdiction): Promise<Service[]> {
  return (await activeTypes(db, group.id)).map(toService);
}

export async function serviceDefinition(db: Kysely<DB>, group: repo.Jurisdiction, code: string): Promise<ServiceDefinition> {
  const type = await activeType(db, group.id, code);
  const [wasteTypes, points] = await Promise.all([repo.wasteTypesOfGroup(db, group.id), repo.recyclingPointsOfGroup(db, group.id)]);
  const names = [...new Set(wasteTypes.map((w) => w.name))].sort(compareFrench);
  const pointChoices = points
    .map((p) => ({ id: p.id, name: `${p.name} (${p.city_name})` }))
    .sort((a, b) => compareFrench(a.name, b.name) || compareFrench(a.id, b.id));
  return toServiceDefinition(type, { wasteTypeNames: names, points: pointChoices });
}

/** A form value as the type's field reads it: a number for `number`, a list for `multivaluelist`. */
function answerOf(field: RequestField | undefined, value: string | string[]): unknown {
  if (!field) return value;
  if (field.datatype === 'number' && typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (field.datatype === 'multivaluelist' && typeof value === 'string') return value === '' ? [] : value.split(',');
  return value;
}

/**
 * A day given as `YYYY-MM-DD`, or as an ISO 8601 datetime whose date (as written: the city's local time) is taken;
 * null when not given; 400 at `attribute[date]` for anything else.
 */
function dayOf(value: string | string[] | undefined): string | null {
  if (value === undefined || value === '') return null;
  const day = typeof value === 'string' ? value.trim().slice(0, 10) : '';
  if (!/^\d{4}-\d{2}-\d{2}(T.*)?$/.test(String(value).trim()) || parseCalendarDate(day) === null) {
    throw errors.invalidField(`attribute[${DATE_ATTRIBUTE}]`, requestMessages.dateAnswer);
  }
  return day;
}

export interface FilingContext {
  now: Date;
  origin: string | null;
  /** The partner's key id: its device (`open311-<keyId>`) files and follows the requests. */
  keyId: string;
  admit: () => Promise<void>;
}

/**
 * Files a request through the requests service, with the same rules as residents': the place found from the position
 * or address, the waste type by name in that city, the day and the type's fields from `attribute[…]`. Faults come
 * back under their Open311 names. A missed collection already reported and open is joined (`created` false).
 */
export async function fileRequest(
  db: Kysely<DB>,
  group: repo.Jurisdiction,
  form: CreateRequestFormInput,
  context: FilingContext,
): Promise<{ created: boolean; answer: RequestCreated }> {
  const type = await activeType(db, group.id, form.service_code);
  const at = positionOf(form.lat, form.long);
  const address = form.address_string?.trim() || null;
  const positionGiven = at !== null;
  const attributes = form.attribute ?? {};
  try {
    const { city, placeId } = await locate(db, group.id, at, address);
    let wasteTypeId: string | null = null;
    const wasteName = attributes[WASTE_TYPE_ATTRIBUTE];
    if (typeof wasteName === 'string' && wasteName.trim() !== '') {
      const wanted = fold(wasteName);
      const match = (await repo.wasteTypesOfGroup(db, group.id)).find((w) => w.city_id === city.id && (fold(w.name) === wanted || w.id === wasteName.toLowerCase()));
      if (!match) throw errors.invalidField(`attribute[${WASTE_TYPE_ATTRIBUTE}]`, `ne désigne aucun type de déchet de ${city.name} («\u00a0${wasteName}\u00a0»)`);
      wasteTypeId = match.id;
    }
    let recyclingPointId: string | null = null;
    if (type.recycling_point !== 'NONE') {
      const named = attributes[POINT_ATTRIBUTE];
      if (named !== undefined && named !== '' && (typeof named !== 'string' || !isUuid(named.trim()))) {
        throw errors.invalidField(`attribute[${POINT_ATTRIBUTE}]`, requestMessages.notAPointOfTheCity(String(named)));
      }
      recyclingPointId = named ? (named as string).trim().toLowerCase() : nearestPoint(await repo.recyclingPointsOfGroup(db, group.id), city.id, at);
    }
    const fields = new Map((type.fields as RequestField[]).map((f) => [f.code, f]));
    const answers = Object.fromEntries(Object.entries(attributes).map(([code, value]) => [code, answerOf(fields.get(code), value)]));
    const description = form.media_url ? `${form.description.trim()}\n\nPhoto\u00a0: ${form.media_url}` : form.description;
    const input: CreateRequestInput = {
      deviceId: `open311-${context.keyId}`,
      cityId: city.id,
      typeCode: type.code,
      placeId: type.place === 'NONE' ? null : placeId,
      wasteTypeId,
      date: dayOf(attributes[DATE_ATTRIBUTE]),
      recyclingPointId,
      // The position found the place; it is the request's own only where its type takes one.
      latitude: type.position === 'NONE' ? null : (at?.lat ?? null),
      longitude: type.position === 'NONE' ? null : (at?.lon ?? null),
      address,
      description,
      email: form.email ?? null,
      attributes: answers,
      photoIds: [],
    };
    const { request, created } = await createRequest(db, input, { now: context.now, origin: form.email ? context.origin : null, admit: context.admit });
    const notice = created ? null : `Déjà signalé\u00a0: ce signalement rejoint la demande ${request.reference}, toujours en cours.`;
    return { created, answer: [{ service_request_id: request.reference, service_notice: notice, account_id: null }] };
  } catch (err) {
    if (err instanceof DomainError) throw renamedField(err, { positionGiven });
    throw err;
  }
}

const OPEN_SET = new Set<RequestStatus>(OPEN_STATUSES);
const split = (list: string | undefined) => (list === undefined ? undefined : [...new Set(list.split(',').map((s) => s.trim()).filter(Boolean))]);

/**
 * The group's requests as partners read them, newest first, at most LIST_MAX. Named by `service_request_id`, the other
 * filters are ignored (as the standard says); otherwise filed within [start_date, end_date], by default the last
 * DEFAULT_SPAN_DAYS days.
 */
export async function listRequests(db: Kysely<DB>, group: repo.Jurisdiction, query: RequestListFilters, now: Date): Promise<ServiceRequest[]> {
  const references = split(query.service_request_id);
  let filters: repo.PartnerFilters;
  if (references !== undefined) filters = { references };
  else {
    const to = query.end_date === undefined ? now : new Date(query.end_date);
    const from = query.start_date === undefined ? new Date(to.getTime() - DEFAULT_SPAN_DAYS * 86_400_000) : new Date(query.start_date);
    const wanted = split(query.status);
    const statuses = wanted === undefined ? undefined : REQUEST_STATUSES.filter((s) => wanted.includes(OPEN_SET.has(s) ? 'open' : 'closed'));
    filters = { typeCodes: split(query.service_code), statuses, from, to };
  }
  const rows = await repo.partnerRequests(db, group.id, filters, LIST_MAX);
  const shown = await showToResidents(db, rows);
  return shown.map((request, i) => toServiceRequest(request, { timeZone: resolveTimeZone(rows[i].time_zone), agency: group.name }));
}

/** One request by its reference: 404 `requestNotFound` for another group's or an unknown one. */
export async function oneRequest(db: Kysely<DB>, group: repo.Jurisdiction, reference: string, now: Date): Promise<ServiceRequest[]> {
  const found = await listRequests(db, group, { service_request_id: reference }, now);
  if (found.length === 0) throw errors.requestNotFound();
  return found.slice(0, 1);
}
