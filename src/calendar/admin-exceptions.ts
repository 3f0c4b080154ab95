import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { recordPublicChange, type AuditChange } from '../auth/audit.ts';
import { reachableOwned, type AdminAgent } from '../auth/guard.ts';
import { assertIfMatch, etagOf } from '../auth/revision.ts';
import { collectionExceptionFaults } from '../bundle/rules/cities.ts';
import { errors } from '../kernel/errors.ts';
import { iso } from '../kernel/french.ts';
import { pageMeta, type PageRequest } from '../kernel/pagination.ts';
import * as repo from './repository.ts';
import type { ExceptionRow, PlaceOwner } from './repository.ts';
import type { AdminException, CreateExceptionInput, ExceptionPatch } from './schemas.ts';

/**
 * The admin API's collection exceptions (CONTRACT section 13): created under their place, then read, changed and
 * deleted at `/admin/exceptions/:id`. A place outside the agent's groups answers 404, as if missing. A write checks
 * the import bundle's rules (src/bundle/rules), and records its audit entry and the data_version bump in its own
 * transaction, so that the public calendars change within a second.
 */

export interface VersionedException {
  exception: AdminException;
  etag: string;
}

/** What a write answers: the record, and the data version it moved to (the instance sees it at once). */
export interface ExceptionWrite extends VersionedException {
  dataVersion: number;
}

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

function versioned(row: ExceptionRow): VersionedException {
  const exception = toAdminException(row);
  return { exception, etag: etagOf(exception) };
}

/** The place if the agent may see it (404 otherwise). */
async function reachablePlace(db: Kysely<DB>, agent: AdminAgent, placeId: string): Promise<PlaceOwner> {
  const owner = await repo.findPlaceOwner(db, placeId);
  return reachableOwned(agent, owner && { owner }, errors.collectionPlaceNotFound).owner;
}

/** The exception if the agent may see it (404 otherwise), locked with `forUpdate`. */
async function reachableException(db: Kysely<DB>, agent: AdminAgent, id: string, forUpdate = false) {
  return reachableOwned(agent, await repo.findException(db, id, { forUpdate }), errors.collectionExceptionNotFound);
}

/** The written record as the bundle would hold it must pass the bundle's rules: 400 naming the first faulty field. */
async function assertValid(db: Kysely<DB>, owner: PlaceOwner, record: Pick<AdminException, 'wasteTypeId' | 'dateFrom' | 'dateTo'>) {
  const [fault] = collectionExceptionFaults(record, { wasteTypeIds: await repo.cityWasteTypeIds(db, owner.cityId) });
  if (fault) throw errors.invalidField(fault.path, fault.message);
}

const columns = (e: Omit<AdminException, 'id' | 'placeId'>) => ({
  date_from: new Date(e.dateFrom),
  date_to: e.dateTo === null ? null : new Date(e.dateTo),
  waste_type_id: e.wasteTypeId.toLowerCase(),
  name: e.name,
  description: e.description,
});

function change(action: AuditChange['action'], owner: PlaceOwner, before: ExceptionRow | null, after: ExceptionRow | null): AuditChange {
  return {
    action,
    entity: 'exception',
    entityId: (before ?? after)!.id,
    cityGroupIds: [owner.cityGroupId],
    before: before && toAdminException(before),
    after: after && toAdminException(after),
  };
}

export async function listExceptions(db: Kysely<DB>, agent: AdminAgent, placeId: string, page: PageRequest) {
  await reachablePlace(db, agent, placeId);
  const { rows, total } = await repo.listPlaceExceptions(db, placeId, page);
  return { data: rows.map(toAdminException), meta: pageMeta(page, total) };
}

export async function getException(db: Kysely<DB>, agent: AdminAgent, id: string): Promise<VersionedException> {
  return versioned((await reachableException(db, agent, id)).row);
}

export async function createException(
  db: Kysely<DB>,
  agent: AdminAgent,
  placeId: string,
  input: CreateExceptionInput,
  now: Date,
): Promise<ExceptionWrite> {
  return db.transaction().execute(async (trx) => {
    const owner = await reachablePlace(trx, agent, placeId);
    const record = { ...input, dateTo: input.dateTo ?? null, name: input.name ?? null, description: input.description ?? null };
    await assertValid(trx, owner, record);
    const row = await repo.insertException(trx, randomUUID(), owner.placeId, columns(record));
    const dataVersion = await recordPublicChange(trx, agent, change('create', owner, null, row), now);
    return { ...versioned(row), dataVersion };
  });
}

export async function updateException(
  db: Kysely<DB>,
  agent: AdminAgent,
  id: string,
  patch: ExceptionPatch,
  ifMatch: string | undefined,
  now: Date,
): Promise<ExceptionWrite> {
  return db.transaction().execute(async (trx) => {
    const { row: before, owner } = await reachableException(trx, agent, id, true);
    assertIfMatch(ifMatch, versioned(before).etag);
    const record = { ...toAdminException(before), ...patch };
    await assertValid(trx, owner, record);
    const after = await repo.updateException(trx, id, columns(record));
    const dataVersion = await recordPublicChange(trx, agent, change('update', owner, before, after), now);
    return { ...versioned(after), dataVersion };
  });
}

export async function deleteException(db: Kysely<DB>, agent: AdminAgent, id: string, ifMatch: string | undefined, now: Date): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { row: before, owner } = await reachableException(trx, agent, id, true);
    assertIfMatch(ifMatch, versioned(before).etag);
    await repo.deleteException(trx, id);
    return recordPublicChange(trx, agent, change('delete', owner, before, null), now);
  });
}
