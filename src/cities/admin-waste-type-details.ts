import { randomUUID } from 'node:crypto';
import { eachRow, removeRow, underOwner, type AdminStore } from '../admin/store.ts';
import { errors } from '../kernel/errors.ts';
import * as repo from './place-repository.ts';
import type { DetailRow, WasteTypeOwner } from './place-repository.ts';
import type { AdminWasteTypeDetail, CreateWasteTypeDetailInput, WasteTypeDetailPatch } from './admin-schemas.ts';

/**
 * The admin API's waste-type details, the materials of a waste type (docs/api.md, the admin API): created under their waste
 * type (`/admin/waste-types/:wasteTypeId/details`), then read, changed and deleted at `/admin/waste-type-details/:id`.
 * A waste type of a city outside the agent's groups answers 404, as if missing. The bundle has no rule on a detail
 * beyond its shape, which the schema checks.
 */

const toAdminDetail = (row: DetailRow): AdminWasteTypeDetail => ({
  id: row.id,
  material: row.material,
  description: row.description,
  instructions: row.instructions,
  imageUrl: row.image_url,
  wasteTypeId: row.waste_type_id,
});

const columns = (d: Omit<AdminWasteTypeDetail, 'id' | 'wasteTypeId'>) => ({
  material: d.material.trim(),
  description: d.description,
  instructions: d.instructions,
  image_url: d.imageUrl,
});

export const wasteTypeDetailStore: AdminStore<DetailRow, AdminWasteTypeDetail, WasteTypeOwner, CreateWasteTypeDetailInput, WasteTypeDetailPatch> = {
  entity: 'wasteTypeDetail',
  notFound: errors.wasteTypeDetailNotFound,
  ...underOwner(repo.findWasteTypeOwner, errors.wasteTypeNotFound, 'wasteTypeId')(repo.findDetail, repo.listDetails, eachRow(toAdminDetail)),
  insert(trx, { subject: wasteType }, input) {
    const fields = { description: null, instructions: null, imageUrl: null, ...input };
    return repo.insertDetail(trx, randomUUID(), wasteType!.wasteTypeId, columns(fields));
  },
  update: (trx, { subject }, patch) => repo.updateDetail(trx, subject.row.id, columns({ ...subject.record, ...patch })),
  remove: removeRow(repo.deleteDetail),
};
