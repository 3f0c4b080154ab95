import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { assertNoFault, removeRow, underPlace, type AdminStore } from '../admin/store.ts';
import { collectionExceptionFaults } from '../domain/rules/cities.ts';
import { errors } from '../kernel/errors.ts';
import { iso } from '../kernel/french.ts';
import * as repo from './repository.ts';
import type { ExceptionRow } from './repository.ts';
import type { PlaceOwner } from '../domain/cities.ts';
import type { AdminException, CreateExceptionInput, ExceptionPatch } from './schemas.ts';

/**
 * The admin API's collection exceptions (CONTRACT section 13): created under their place, then read, changed and
 * deleted at `/admin/exceptions/:id`. A place outside the agent's groups answers 404, as if missing. A write checks
 * the rules the import bundle runs too (src/domain/rules); adminService (src/admin/store.ts) wraps it in one
 * transaction with its audit entry and the data_version bump, so that the public calendars change within a second.
 */

function toAdminException(row: ExceptionRow): AdminException {
  return {
    id: row.id,
    dateFrom: iso(row.date_from)!,
    dateTo: iso(row.date_to),
    wasteTypeId: row.waste_type_id,
    name: row.name,
    description: row.description,
    placeId: row.place_id,
  };
}

/** The written record as the bundle would hold it must pass the bundle's rules: 400 naming the first faulty field. */
async function assertValid(db: Kysely<DB>, placeId: string, record: Pick<AdminException, 'wasteTypeId' | 'dateFrom' | 'dateTo'>) {
  assertNoFault(collectionExceptionFaults(record, { wasteTypeIds: await repo.placeWasteTypeIds(db, placeId) }));
}

const columns = (e: Omit<AdminException, 'id' | 'placeId'>) => ({
  date_from: new Date(e.dateFrom),
  date_to: e.dateTo === null ? null : new Date(e.dateTo),
  waste_type_id: e.wasteTypeId.toLowerCase(),
  name: e.name,
  description: e.description,
});

export const exceptionStore: AdminStore<ExceptionRow, AdminException, PlaceOwner, CreateExceptionInput, ExceptionPatch> = {
  entity: 'exception',
  notFound: errors.collectionExceptionNotFound,
  ...underPlace(repo.findException, repo.listPlaceExceptions),
  show: async (_db, rows) => rows.map(toAdminException),
  async insert(trx, { subject: place }, input) {
    const record = { ...input, dateTo: input.dateTo ?? null, name: input.name ?? null, description: input.description ?? null };
    await assertValid(trx, place!.placeId, record);
    return repo.insertException(trx, randomUUID(), place!.placeId, columns(record));
  },
  async update(trx, { subject }, patch) {
    const record = { ...subject.record, ...patch };
    await assertValid(trx, subject.row.place_id, record);
    return repo.updateException(trx, subject.row.id, columns(record));
  },
  remove: removeRow(repo.deleteException),
};
