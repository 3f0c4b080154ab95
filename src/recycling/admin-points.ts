import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { assertNoFault, removeRow, underCity, type AdminStore } from '../admin/store.ts';
import { recyclingPointFaults } from '../domain/rules/cities.ts';
import { cityWasteTypeIds, type CityOwner } from '../domain/cities.ts';
import { errors } from '../kernel/errors.ts';
import { lowercaseIds } from '../kernel/schemas.ts';
import * as repo from './repository.ts';
import type { PointRow } from './repository.ts';
import type { AdminRecyclingPoint, CreateRecyclingPointInput, RecyclingPointPatch } from './schemas.ts';

/**
 * The admin API's recycling points (docs/api.md, the admin API; recycling points and open data): created under their city, then read, changed and
 * deleted at `/admin/recycling-points/:id`. A city outside the agent's groups answers 404, as if missing. A write
 * checks the import bundle's rule (an `openingHoursSpec` that parses, materials that are waste types of the city,
 * each once); adminService (src/admin/store.ts) wraps it in one transaction with its audit entry and the
 * data_version bump, so that the public points, their open-data exports and the city follow at once. A point keeps
 * its city, as in the bundle: its materials are waste types of that city.
 */

async function withMaterials(db: Kysely<DB>, rows: PointRow[]): Promise<AdminRecyclingPoint[]> {
  const materials = await repo.materialsOf(db, rows.map((row) => row.id));
  return rows.map((row) => ({
    id: row.id,
    ...repo.pointFields(row),
    materials: materials.get(row.id) ?? [],
    cityId: row.city_id,
  }));
}

type PointFields = Omit<AdminRecyclingPoint, 'id' | 'cityId'>;

/** The written record as the bundle would hold it must pass the bundle's rule: 400 naming the first faulty field. */
async function assertValid(db: Kysely<DB>, cityId: string, point: PointFields): Promise<void> {
  assertNoFault(recyclingPointFaults(point, { wasteTypeIds: await cityWasteTypeIds(db, cityId) }));
}

const columns = (p: PointFields) => ({
  name: p.name.trim(),
  address: p.address,
  latitude: p.latitude,
  longitude: p.longitude,
  opening_hours: p.openingHours,
  opening_hours_spec: p.openingHoursSpec,
  kind: p.kind,
});

async function write(trx: Kysely<DB>, cityId: string, fields: PointFields, store: (values: ReturnType<typeof columns>) => Promise<PointRow>) {
  await assertValid(trx, cityId, fields);
  const row = await store(columns(fields));
  await repo.setPointMaterials(trx, row, fields.materials);
  return row;
}

export const recyclingPointStore: AdminStore<PointRow, AdminRecyclingPoint, CityOwner, CreateRecyclingPointInput, RecyclingPointPatch> = {
  entity: 'recyclingPoint',
  notFound: errors.recyclingPointNotFound,
  ...underCity(repo.findPoint, repo.listCityPoints, withMaterials),
  insert(trx, { subject: city }, input) {
    const fields: PointFields = {
      address: null, latitude: null, longitude: null, openingHours: null, openingHoursSpec: null, kind: null, materials: [],
      // Ids are stored lowercase; the rule compares them as stored.
      ...lowercaseIds(input, 'materials'),
    };
    return write(trx, city!.cityId, fields, (values) => repo.insertPoint(trx, randomUUID(), city!.cityId, values));
  },
  update(trx, { subject }, patch) {
    const fields = { ...subject.record, ...lowercaseIds(patch, 'materials') };
    return write(trx, subject.row.city_id, fields, (values) => repo.updatePoint(trx, subject.row.id, values));
  },
  remove: removeRow(repo.deletePoint),
};
