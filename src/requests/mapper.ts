import { iso, timestamps } from '../kernel/french.ts';
import type { RequestRow, RequestTypeRow, UpdateRow } from './repository.ts';
import { isOpen, type AdminRequest, type AdminRequestType, type RequestField, type RequestType, type RequestUpdate, type ResidentRequest } from './schemas.ts';

/** The one place request rows become API shapes: the residents' and the staff's. */

export const toRequestType = (row: RequestTypeRow): RequestType => ({
  code: row.code,
  name: row.name,
  description: row.description,
  category: row.category,
  place: row.place,
  position: row.position,
  wasteType: row.waste_type,
  photo: row.photo,
  fields: row.fields as RequestField[],
  targetHours: row.target_hours,
});

export const toAdminRequestType = (row: RequestTypeRow): AdminRequestType => ({
  id: row.id,
  cityGroupId: row.city_group_id,
  ...toRequestType(row),
  date: row.date,
  recyclingPoint: row.recycling_point,
  active: row.active,
  ...timestamps(row),
});

/** What a type says of each part of a request (request-rules.ts reads it). */
export const requirementsOf = (row: RequestTypeRow) => ({
  name: row.name,
  place: row.place,
  position: row.position,
  wasteType: row.waste_type,
  photo: row.photo,
  date: row.date,
  recyclingPoint: row.recycling_point,
});

const toUpdate = (u: UpdateRow): RequestUpdate => ({ at: iso(u.at)!, status: u.status, message: u.message });


export function toRequest(row: RequestRow, updates: readonly UpdateRow[], photoCount: number): ResidentRequest {
  return {
    id: row.id,
    reference: row.reference,
    typeCode: row.type_code,
    typeName: row.type_name,
    status: row.status,
    cityId: row.city_id,
    placeId: row.place_id,
    wasteTypeId: row.waste_type_id,
    date: row.date,
    recyclingPointId: row.recycling_point_id,
    latitude: row.latitude,
    longitude: row.longitude,
    address: row.address,
    description: row.description,
    attributes: row.attributes,
    photoCount,
    plannedFor: row.planned_for,
    ...timestamps(row),
    updates: updates.filter((u) => u.kind !== 'NOTE').map(toUpdate),
  };
}

export interface StaffContext {
  cityName: ReadonlyMap<string, string>;
  placeName: ReadonlyMap<string, string>;
  wasteTypeName: ReadonlyMap<string, string>;
  pointName: ReadonlyMap<string, string>;
  agentName: ReadonlyMap<string, string>;
  followers: ReadonlyMap<string, number>;
}

export function toAdminRequest(
  row: RequestRow,
  context: StaffContext,
  updates: readonly UpdateRow[],
  photoIds: readonly string[],
  now: Date,
): AdminRequest {
  const due = row.due_at;
  return {
    ...toRequest(row, updates, photoIds.length),
    cityGroupId: row.city_group_id,
    cityName: context.cityName.get(row.city_id) ?? '',
    placeName: row.place_id === null ? null : (context.placeName.get(row.place_id) ?? null),
    wasteTypeName: row.waste_type_id === null ? null : (context.wasteTypeName.get(row.waste_type_id) ?? null),
    recyclingPointName: row.recycling_point_id === null ? null : (context.pointName.get(row.recycling_point_id) ?? null),
    email: row.email,
    photos: photoIds.map((id) => ({ id, url: `/admin/requests/${row.id}/photos/${id}` })),
    assignedTo: row.assigned_to,
    assignedToName: row.assigned_to === null ? null : (context.agentName.get(row.assigned_to) ?? null),
    overdue: isOpen(row.status) && due.getTime() < now.getTime(),
    dueAt: due.toISOString(),
    closedAt: iso(row.closed_at),
    followers: context.followers.get(row.id) ?? 1,
    notes: updates
      .filter((u) => u.kind === 'NOTE')
      .map((u) => ({ at: iso(u.at)!, message: u.message ?? '', author: u.author_id === null ? null : { id: u.author_id, name: u.author_name ?? '' } })),
  };
}
