import { parseCalendarDate, startOfDayIn, wallClockParts } from '../kernel/dates.ts';
import type { RequestTypeRow } from '../requests/repository.ts';
import { isOpen, type RequestField, type ResidentRequest } from '../requests/schemas.ts';
import type { Service, ServiceAttribute, ServiceDefinition, ServiceRequest } from './schemas.ts';

/** The one place the requests area's shapes become GeoReport v2's (docs/api.md, Open311). */

/**
 * The types that concern a public place: only their description, position and address are published. Every other
 * request is about a household (its bin, its address): its listing says what and when, never where or who.
 */
export const PUBLIC_PLACE_TYPES: ReadonlySet<string> = new Set(['depot-sauvage', 'point-apport-plein']);

/** The attributes Open311 adds to a type's own fields, named in `attribute[…]`. */
export const WASTE_TYPE_ATTRIBUTE = 'waste_type';
export const DATE_ATTRIBUTE = 'date';
export const POINT_ATTRIBUTE = 'recycling_point';

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/** An instant in a time zone's local time with its offset, to the second: `2026-12-01T09:30:00+01:00`. */
export function localDatetime(instant: Date | string, timeZone: string): string {
  const at = new Date(instant);
  const [y, mo, d, h, mi, s] = wallClockParts(at, timeZone);
  const offsetMin = Math.round((Date.UTC(y, mo - 1, d, h, mi, s) - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
  const sign = offsetMin < 0 ? '-' : '+';
  return `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}${sign}${pad(Math.floor(Math.abs(offsetMin) / 60))}:${pad(Math.abs(offsetMin) % 60)}`;
}

/** The French name of a type's category, its Open311 `group`. */
const CATEGORY_NAMES: Record<string, string> = {
  COLLECTE: 'Collecte',
  BAC: 'Bacs',
  POINT_APPORT: 'Points d’apport',
  PROPRETE: 'Propreté',
  ENCOMBRANTS: 'Encombrants',
  AUTRE: 'Autre',
};

/** Whether a type asks more than a description and a place: fields, a waste type or a day. */
const hasMetadata = (type: RequestTypeRow) =>
  (type.fields as RequestField[]).length > 0 || type.waste_type !== 'NONE' || type.date !== 'NONE' || type.recycling_point !== 'NONE';

export const toService = (type: RequestTypeRow): Service => ({
  service_code: type.code,
  service_name: type.name,
  description: type.description ?? '',
  metadata: hasMetadata(type),
  type: 'realtime',
  keywords: type.code.split('-').join(', '),
  group: CATEGORY_NAMES[type.category] ?? type.category,
});

/** The lists a service definition offers beside the type's own fields: the group's waste types and recycling points. */
export interface DefinitionChoices {
  wasteTypeNames: readonly string[];
  points: readonly { id: string; name: string }[];
}

const DATATYPE: Record<RequestField['datatype'], ServiceAttribute['datatype']> = {
  string: 'string',
  text: 'text',
  number: 'number',
  date: 'datetime',
  singlevaluelist: 'singlevaluelist',
  multivaluelist: 'multivaluelist',
};

/**
 * A type's definition: `waste_type` (keys are the waste types' names: the same list serves every city of the group,
 * each request's waste type is then found by name in its own city), `date` and `recycling_point` where the type asks
 * for them, then its own fields, numbered in that order.
 */
export function toServiceDefinition(type: RequestTypeRow, choices: DefinitionChoices): ServiceDefinition {
  const attributes: Omit<ServiceAttribute, 'order'>[] = [];
  if (type.waste_type !== 'NONE') {
    attributes.push({
      variable: true,
      code: WASTE_TYPE_ATTRIBUTE,
      datatype: 'singlevaluelist',
      required: type.waste_type === 'REQUIRED',
      datatype_description: null,
      description: 'Type de déchet',
      values: choices.wasteTypeNames.map((name) => ({ key: name, name })),
    });
  }
  if (type.date !== 'NONE') {
    attributes.push({
      variable: true,
      code: DATE_ATTRIBUTE,
      datatype: 'datetime',
      required: type.date === 'REQUIRED',
      datatype_description: 'Le jour concerné, AAAA-MM-JJ (heure locale de la commune)',
      description: 'Jour de collecte',
      values: [],
    });
  }
  if (type.recycling_point !== 'NONE') {
    attributes.push({
      variable: true,
      code: POINT_ATTRIBUTE,
      datatype: 'singlevaluelist',
      required: false,
      datatype_description: 'Sans réponse, le point d’apport le plus proche de lat/long (à 150 m au plus)',
      description: 'Point d’apport',
      values: choices.points.map((p) => ({ key: p.id, name: p.name })),
    });
  }
  for (const field of type.fields as RequestField[]) {
    attributes.push({
      variable: true,
      code: field.code,
      datatype: DATATYPE[field.datatype],
      required: field.required,
      datatype_description: field.datatype === 'date' ? 'AAAA-MM-JJ' : null,
      description: field.label,
      values: field.values.map((v) => ({ key: v.key, name: v.name })),
    });
  }
  return { service_code: type.code, attributes: attributes.map((a, i) => ({ ...a, order: i + 1 })) };
}

/** A request as partners read it: nothing personal; where, and what was said, only for a public place. */
export function toServiceRequest(request: ResidentRequest, context: { timeZone: string; agency: string }): ServiceRequest {
  const published = PUBLIC_PLACE_TYPES.has(request.typeCode);
  const notes = request.updates.filter((u) => u.message !== null);
  const planned = request.plannedFor === null ? null : parseCalendarDate(request.plannedFor);
  return {
    service_request_id: request.reference,
    status: isOpen(request.status) ? 'open' : 'closed',
    status_notes: notes.at(-1)?.message ?? null,
    service_name: request.typeName,
    service_code: request.typeCode,
    description: published ? request.description : null,
    agency_responsible: context.agency,
    service_notice: null,
    requested_datetime: localDatetime(request.createdAt, context.timeZone),
    updated_datetime: localDatetime(request.updatedAt, context.timeZone),
    expected_datetime: planned === null ? null : localDatetime(startOfDayIn(planned, context.timeZone), context.timeZone),
    address: published ? request.address : null,
    address_id: null,
    zipcode: null,
    lat: published ? request.latitude : null,
    long: published ? request.longitude : null,
    media_url: null,
  };
}
