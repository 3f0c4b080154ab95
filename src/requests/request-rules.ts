import type { RecordFault } from '../domain/rules/faults.ts';
import type { Occurrence } from '../domain/collection-calendar.ts';
import { dayNumberFromParts, parseCalendarDate, wallClockInstant } from '../kernel/dates.ts';
import { frenchDate, frenchMoment } from '../kernel/french.ts';
import { requestMessages as m } from '../kernel/validation-messages.ts';
import { DESCRIPTION_MAX, STRING_FIELD_MAX, type RequestField } from './schemas.ts';

/**
 * A request's rules (docs/api.md, resident requests), pure: what its type requires or forbids, its answers to the
 * type's fields, the window of a missed collection, and a type's own consistency. Each answers RecordFault[]; the
 * first fault is the 400, naming the field (`attributes.motif`, `photoIds`).
 */

export type Requirement = 'NONE' | 'OPTIONAL' | 'REQUIRED';

/** What a type says of each part of a request. */
export interface TypeRequirements {
  name: string;
  place: Requirement;
  position: Requirement;
  wasteType: Requirement;
  photo: Requirement;
  date: Requirement;
  recyclingPoint: Requirement;
}

/** The parts of a request its type rules on, null where the request leaves them out. */
export interface RequestParts {
  placeId: string | null;
  wasteTypeId: string | null;
  date: string | null;
  recyclingPointId: string | null;
  latitude: number | null;
  longitude: number | null;
  address: string | null;
  photoIds: readonly string[];
}

/** Required parts missing, forbidden ones given, a latitude without its longitude. */
export function requirementFaults(type: TypeRequirements, parts: RequestParts): RecordFault[] {
  const faults: RecordFault[] = [];
  const check = (requirement: Requirement, given: boolean, path: string, missing = m.required(type.name)) => {
    if (requirement === 'REQUIRED' && !given) faults.push({ path, message: missing });
    if (requirement === 'NONE' && given) faults.push({ path, message: m.notForType(type.name) });
  };
  check(type.place, parts.placeId !== null, 'placeId');
  check(type.wasteType, parts.wasteTypeId !== null, 'wasteTypeId');
  // A day and a recycling point are not among the parts the contract lets a type forbid: one a type does not ask
  // for is kept when given (a broken bin's day), only a required one is checked.
  if (type.date === 'REQUIRED' && parts.date === null) faults.push({ path: 'date', message: m.required(type.name) });
  if (type.recyclingPoint === 'REQUIRED' && parts.recyclingPointId === null) {
    faults.push({ path: 'recyclingPointId', message: m.required(type.name) });
  }
  if ((parts.latitude === null) !== (parts.longitude === null)) {
    const missing = parts.latitude === null ? 'latitude' : 'longitude';
    faults.push({ path: missing, message: m.goesWith(missing === 'latitude' ? 'longitude' : 'latitude') });
  }
  // A position is a point (from « Me localiser ») or an address typed; NONE forbids the point, not the address.
  if (type.position === 'REQUIRED' && parts.latitude === null && parts.address === null) {
    faults.push({ path: 'latitude', message: m.positionRequired(type.name) });
  }
  if (type.position === 'NONE' && parts.latitude !== null) faults.push({ path: 'latitude', message: m.notForType(type.name) });
  check(type.photo, parts.photoIds.length > 0, 'photoIds', m.photoRequired(type.name));
  return faults;
}

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);

/** One answer checked against its field: the value to store, or the fault. */
function answerOf(field: RequestField, value: unknown): { value: unknown } | { fault: string } {
  const keys = field.values.map((v) => v.key);
  switch (field.datatype) {
    case 'string':
    case 'text': {
      const max = field.datatype === 'string' ? STRING_FIELD_MAX : DESCRIPTION_MAX;
      if (typeof value !== 'string' || [...value.trim()].length > max) return { fault: m.textAnswer(max) };
      return { value: value.trim() };
    }
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? { value } : { fault: m.numberAnswer };
    case 'date':
      return typeof value === 'string' && parseCalendarDate(value) !== null ? { value } : { fault: m.dateAnswer };
    case 'singlevaluelist':
      return typeof value === 'string' && keys.includes(value) ? { value } : { fault: m.oneOf(keys) };
    case 'multivaluelist': {
      const ok = Array.isArray(value) && value.every((v) => typeof v === 'string' && keys.includes(v)) && new Set(value).size === value.length;
      return ok ? { value } : { fault: m.someOf(keys) };
    }
  }
}

/**
 * The answers to a type's fields: a required one missing or an answer of the wrong kind is a fault at
 * `attributes.<code>`; what the type does not ask is dropped (unknown fields are ignored, as everywhere).
 */
export function attributeFaults(
  typeName: string,
  fields: readonly RequestField[],
  attributes: Record<string, unknown>,
): { faults: RecordFault[]; attributes: Record<string, unknown> } {
  const faults: RecordFault[] = [];
  const kept: Record<string, unknown> = {};
  for (const field of fields) {
    const path = `attributes.${field.code}`;
    const value = Object.hasOwn(attributes, field.code) ? attributes[field.code] : undefined;
    if (isBlank(value)) {
      if (field.required) faults.push({ path, message: m.required(typeName) });
      continue;
    }
    const answer = answerOf(field, value);
    if ('fault' in answer) faults.push({ path, message: answer.fault });
    else kept[field.code] = answer.value;
  }
  return { faults, attributes: kept };
}

/** How long after noon of the day a missed collection may be reported. */
export const MISSED_COLLECTION_WINDOW_HOURS = 48;

/**
 * A missed collection is reported for a day on which the place had that waste type collected (after exceptions,
 * moves and holiday rules: `collections` are the place's collections of that waste type around the day), from noon of
 * that day in the city's time zone until 48 hours after. Answers the fault at `date`, or null.
 */
export function missedCollectionFault(input: {
  date: string;
  wasteTypeName: string;
  collections: readonly Pick<Occurrence, 'date' | 'status'>[];
  cancelled: readonly Pick<Occurrence, 'date'>[];
  now: Date;
  timeZone: string;
}): RecordFault | null {
  const { date, wasteTypeName, now, timeZone } = input;
  if (!input.collections.some((o) => o.date === date)) {
    const wasCancelled = input.cancelled.some((o) => o.date === date);
    return { path: 'date', message: wasCancelled ? m.collectionCancelled(wasteTypeName, frenchDate(date)) : m.noCollection(wasteTypeName, frenchDate(date)) };
  }
  const [y, mo, d] = date.split('-').map(Number);
  const noon = wallClockInstant(dayNumberFromParts(y, mo, d), 12, 0, timeZone);
  if (now.getTime() < noon.getTime()) return { path: 'date', message: m.missedTooEarly(frenchDate(date)) };
  const deadline = new Date(noon.getTime() + MISSED_COLLECTION_WINDOW_HOURS * 3_600_000);
  if (now.getTime() > deadline.getTime()) return { path: 'date', message: m.missedTooLate(frenchMoment(deadline, timeZone)) };
  return null;
}

/** A type's own consistency: its fields' codes once each, a list's choices given (keys once each), no choices elsewhere. */
export function requestTypeFaults(fields: readonly RequestField[]): RecordFault[] {
  const faults: RecordFault[] = [];
  const codes = new Set<string>();
  fields.forEach((field, i) => {
    if (codes.has(field.code)) faults.push({ path: `fields[${i}].code`, message: m.fieldCodeTwice(field.code) });
    codes.add(field.code);
    const isList = field.datatype === 'singlevaluelist' || field.datatype === 'multivaluelist';
    if (isList && field.values.length === 0) faults.push({ path: `fields[${i}].values`, message: m.listNeedsValues });
    if (!isList && field.values.length > 0) faults.push({ path: `fields[${i}].values`, message: m.valuesOnlyForLists });
    const keys = new Set<string>();
    field.values.forEach((value, j) => {
      if (keys.has(value.key)) faults.push({ path: `fields[${i}].values[${j}].key`, message: m.fieldCodeTwice(value.key) });
      keys.add(value.key);
    });
  });
  return faults;
}
