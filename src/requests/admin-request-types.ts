import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { assertNoFault, inGroup, underGroup, type AdminStore } from '../admin/store.ts';
import { errors } from '../kernel/errors.ts';
import { databaseJson } from '../kernel/schemas.ts';
import { compareFrench } from '../kernel/french.ts';
import { pageOf } from '../kernel/pagination.ts';
import { requestMessages } from '../kernel/validation-messages.ts';
import { toAdminRequestType } from './mapper.ts';
import * as repo from './repository.ts';
import type { RequestTypeRow, RequestTypeValues } from './repository.ts';
import { requestTypeFaults } from './request-rules.ts';
import type { AdminRequestType, CreateRequestTypeInput, RequestTypePatchInput } from './schemas.ts';

/**
 * A city group's request types in the admin API (docs/api.md, resident requests): listed and created under the group
 * (`/admin/city-groups/:cityGroupId/request-types`), read, changed and deleted at `/admin/request-types/:id`. A type
 * some request uses is never deleted (409: set `active` false instead). Residents see the change within a second.
 */

type TypeRecord = Omit<AdminRequestType, 'id' | 'createdAt' | 'updatedAt'>;

async function checkedValues(trx: Kysely<DB>, record: TypeRecord, id: string | null, now: Date): Promise<RequestTypeValues> {
  assertNoFault(requestTypeFaults(record.fields));
  if (await repo.codeTaken(trx, record.cityGroupId, record.code, id)) throw errors.invalidField('code', requestMessages.codeTaken(record.code));
  return {
    city_group_id: record.cityGroupId,
    code: record.code,
    name: record.name.trim(),
    description: record.description?.trim() || null,
    category: record.category,
    place: record.place,
    position: record.position,
    waste_type: record.wasteType,
    photo: record.photo,
    date: record.date,
    recycling_point: record.recyclingPoint,
    fields: databaseJson(record.fields.map((f) => ({ ...f, label: f.label.trim(), values: f.values.map((v) => ({ key: v.key, name: v.name.trim() })) }))),
    target_hours: record.targetHours,
    active: record.active,
    updated_at: now,
  };
}

export const requestTypeStore: AdminStore<RequestTypeRow, AdminRequestType, { id: string }, CreateRequestTypeInput, RequestTypePatchInput> = {
  entity: 'requestType',
  notFound: () => errors.requestTypeNotFound(null),
  fixedParent: true,
  ...underGroup,
  find: async (db, id, options) => inGroup(await repo.findType(db, id, options)),
  async list(db, group, page) {
    const rows = await repo.typesOfGroup(db, group!.id, { activeOnly: false });
    return pageOf(rows.sort((a, b) => compareFrench(a.name, b.name) || compareFrench(a.code, b.code)), page);
  },
  show: async (_db, rows) => rows.map(toAdminRequestType),
  async insert(trx, { subject: group, now }, input) {
    const record: TypeRecord = {
      cityGroupId: group!.id,
      code: input.code,
      name: input.name,
      description: input.description ?? null,
      category: input.category,
      place: input.place ?? 'OPTIONAL',
      position: input.position ?? 'OPTIONAL',
      wasteType: input.wasteType ?? 'OPTIONAL',
      photo: input.photo ?? 'OPTIONAL',
      date: input.date ?? 'NONE',
      recyclingPoint: input.recyclingPoint ?? 'NONE',
      fields: input.fields ?? [],
      targetHours: input.targetHours,
      active: input.active ?? true,
    };
    return repo.insertType(trx, { ...(await checkedValues(trx, record, null, now)), created_at: now });
  },
  async update(trx, { subject, now }, patch) {
    const record: TypeRecord = { ...subject.record, ...patch };
    const updated = await repo.updateType(trx, subject.row.id, await checkedValues(trx, record, subject.row.id, now));
    if (record.targetHours !== subject.row.target_hours) await repo.retargetOpenRequests(trx, subject.row.id, record.targetHours);
    return updated;
  },
  async remove(trx, { subject }) {
    const uses = await repo.countRequestsOfType(trx, subject.row.id);
    if (uses > 0) throw errors.requestTypeInUse(uses);
    await repo.deleteType(trx, subject.row.id);
  },
};
