import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { assertNoFault, eachRow, removeRow, underPlace, type AdminStore } from '../admin/store.ts';
import { collectionExceptionFaults } from '../domain/rules/cities.ts';
import { errors } from '../kernel/errors.ts';
import { toExceptionRecord } from '../domain/city-model/mapper.ts';
import * as repo from './repository.ts';
import type { ExceptionRow } from './repository.ts';
import type { PlaceOwner } from '../domain/cities.ts';
import type { AdminException, CreateExceptionInput, ExceptionPatch } from './schemas.ts';

/**
 * The admin API's collection exceptions (docs/api.md, the admin API; collections that move and service notices: a kind, CANCEL, MOVE or ADD, and the day a MOVE
 * goes to): created under their place, then read, changed and
 * deleted at `/admin/exceptions/:id`. A place outside the agent's groups answers 404, as if missing. A write checks
 * the rules the import bundle runs too (src/domain/rules); adminService (src/admin/store.ts) wraps it in one
 * transaction with its audit entry and the data_version bump, so that the public calendars change within a second.
 */

const toAdminException = (row: ExceptionRow): AdminException => ({ ...toExceptionRecord(row), placeId: row.place_id });

type ExceptionFields = Omit<AdminException, 'id' | 'placeId'>;

/** The written record as the bundle would hold it must pass the bundle's rules: 400 naming the first faulty field. */
async function assertValid(db: Kysely<DB>, placeId: string, record: ExceptionFields) {
  assertNoFault(collectionExceptionFaults({ ...record, wasteTypeId: record.wasteTypeId.toLowerCase() }, await repo.placeCity(db, placeId)));
}

const columns = (e: ExceptionFields) => ({
  date_from: new Date(e.dateFrom),
  date_to: e.dateTo === null ? null : new Date(e.dateTo),
  waste_type_id: e.wasteTypeId.toLowerCase(),
  name: e.name,
  description: e.description,
  kind: e.kind,
  moved_to: e.movedTo === null ? null : new Date(e.movedTo),
});

export const exceptionStore: AdminStore<ExceptionRow, AdminException, PlaceOwner, CreateExceptionInput, ExceptionPatch> = {
  entity: 'exception',
  notFound: errors.collectionExceptionNotFound,
  ...underPlace(repo.findException, repo.listPlaceExceptions, eachRow(toAdminException)),
  async insert(trx, { subject: place }, input) {
    const record = { dateTo: null, name: null, description: null, kind: 'CANCEL' as const, movedTo: null, ...input };
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
