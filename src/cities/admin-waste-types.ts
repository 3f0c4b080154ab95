import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { recordPublicChange, type AuditChange } from '../auth/audit.ts';
import { reachableOwned, type AdminAgent } from '../auth/guard.ts';
import { assertIfMatch, etagOf } from '../auth/revision.ts';
import { toWasteType } from '../kernel/city-model/mapper.ts';
import { errors } from '../kernel/errors.ts';
import { pageMeta, type PageRequest } from '../kernel/pagination.ts';
import * as repo from './repository.ts';
import type { CityOwner, WasteTypeRow } from './repository.ts';
import type { AdminWasteType, CreateWasteTypeInput, WasteTypePatch } from './schemas.ts';

/**
 * The admin API's waste types (CONTRACT section 13): created under their city, then read, changed and deleted at
 * `/admin/waste-types/:id`. A city outside the agent's groups answers 404, as if missing. Each write records its
 * audit entry and the data_version bump in its own transaction. A waste type still named by a collection day, an
 * exception, a quiz question or a recycling point is not deleted (409): the foreign keys would cascade, silently
 * removing a place's collections.
 */

export interface VersionedWasteType {
  wasteType: AdminWasteType;
  etag: string;
  /** After a write, the data version it moved to. */
  dataVersion?: number;
}

async function withDetails(db: Kysely<DB>, rows: WasteTypeRow[]): Promise<AdminWasteType[]> {
  const details = Map.groupBy(await repo.detailsOf(db, rows.map((row) => row.id)), (d) => d.waste_type_id);
  return rows.map((row) => ({ ...toWasteType(row, details.get(row.id) ?? []), cityId: row.city_id }));
}

async function versioned(db: Kysely<DB>, row: WasteTypeRow): Promise<VersionedWasteType> {
  const [wasteType] = await withDetails(db, [row]);
  return { wasteType, etag: etagOf(wasteType) };
}

/** The city if the agent may see it (404 otherwise). */
async function reachableCity(db: Kysely<DB>, agent: AdminAgent, cityId: string): Promise<CityOwner> {
  const owner = await repo.findCityOwner(db, cityId);
  return reachableOwned(agent, owner && { owner }, errors.cityNotFound).owner;
}

/** The waste type as the API shows it, if the agent may see it (404 otherwise), locked with `forUpdate`. */
async function reachableWasteType(db: Kysely<DB>, agent: AdminAgent, id: string, forUpdate = false) {
  const found = reachableOwned(agent, await repo.findWasteType(db, id, { forUpdate }), errors.wasteTypeNotFound);
  return { ...found, ...(await versioned(db, found.row)) };
}

type WasteTypeFields = Omit<AdminWasteType, 'id' | 'cityId' | 'details'>;

const columns = (w: WasteTypeFields) => ({
  name: w.name.trim(),
  description: w.description,
  instructions: w.instructions,
  color: w.color,
  color_light: w.colorLight,
  icon: w.icon,
  image_url: w.imageUrl,
});

function change(action: AuditChange['action'], owner: CityOwner, before: AdminWasteType | null, after: AdminWasteType | null): AuditChange {
  return { action, entity: 'wasteType', entityId: (before ?? after)!.id, cityGroupIds: [owner.cityGroupId], before, after };
}

export async function listWasteTypes(db: Kysely<DB>, agent: AdminAgent, cityId: string, page: PageRequest) {
  await reachableCity(db, agent, cityId);
  const { rows, total } = await repo.listCityWasteTypes(db, cityId, page);
  return { data: await withDetails(db, rows), meta: pageMeta(page, total) };
}

export async function getWasteType(db: Kysely<DB>, agent: AdminAgent, id: string): Promise<VersionedWasteType> {
  const { wasteType, etag } = await reachableWasteType(db, agent, id);
  return { wasteType, etag };
}

export async function createWasteType(
  db: Kysely<DB>,
  agent: AdminAgent,
  cityId: string,
  input: CreateWasteTypeInput,
  now: Date,
): Promise<VersionedWasteType> {
  return db.transaction().execute(async (trx) => {
    const owner = await reachableCity(trx, agent, cityId);
    const fields = { description: null, instructions: null, color: null, colorLight: null, icon: null, imageUrl: null, ...input };
    const created = await versioned(trx, await repo.insertWasteType(trx, randomUUID(), owner.cityId, columns(fields)));
    const dataVersion = await recordPublicChange(trx, agent, change('create', owner, null, created.wasteType), now);
    return { ...created, dataVersion };
  });
}

export async function updateWasteType(
  db: Kysely<DB>,
  agent: AdminAgent,
  id: string,
  patch: WasteTypePatch,
  ifMatch: string | undefined,
  now: Date,
): Promise<VersionedWasteType> {
  return db.transaction().execute(async (trx) => {
    const before = await reachableWasteType(trx, agent, id, true);
    assertIfMatch(ifMatch, before.etag);
    const updated = await versioned(trx, await repo.updateWasteType(trx, id, columns({ ...before.wasteType, ...patch })));
    const dataVersion = await recordPublicChange(trx, agent, change('update', before.owner, before.wasteType, updated.wasteType), now);
    return { ...updated, dataVersion };
  });
}

/** Deletes the waste type and its details; answers the new data version. */
export async function deleteWasteType(db: Kysely<DB>, agent: AdminAgent, id: string, ifMatch: string | undefined, now: Date): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const before = await reachableWasteType(trx, agent, id, true);
    assertIfMatch(ifMatch, before.etag);
    const uses = await repo.countWasteTypeUses(trx, id);
    if (uses > 0) throw errors.wasteTypeInUse(uses);
    await repo.deleteWasteType(trx, id);
    return recordPublicChange(trx, agent, change('delete', before.owner, before.wasteType, null), now);
  });
}
