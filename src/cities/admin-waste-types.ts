import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { underCity, type AdminStore } from '../admin/store.ts';
import { toWasteType } from '../domain/city-model/mapper.ts';
import { errors } from '../kernel/errors.ts';
import * as repo from './repository.ts';
import type { WasteTypeRow } from './repository.ts';
import type { CityOwner } from '../domain/cities.ts';
import type { AdminWasteType, CreateWasteTypeInput, WasteTypePatch } from './schemas.ts';

/**
 * The admin API's waste types (docs/api.md, the admin API): created under their city, then read, changed and deleted at
 * `/admin/waste-types/:id`. A city outside the agent's groups answers 404, as if missing. adminService
 * (src/admin/store.ts) records each write's audit entry and the data_version bump in its own transaction. A
 * waste type still named by a collection day, an exception, a quiz question or a recycling point is not deleted
 * (409): the foreign keys would cascade, silently removing a place's collections.
 */

async function withDetails(db: Kysely<DB>, rows: WasteTypeRow[]): Promise<AdminWasteType[]> {
  const details = Map.groupBy(await repo.detailsOf(db, rows.map((row) => row.id)), (d) => d.waste_type_id);
  return rows.map((row) => ({ ...toWasteType(row, details.get(row.id) ?? []), cityId: row.city_id }));
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

export const wasteTypeStore: AdminStore<WasteTypeRow, AdminWasteType, CityOwner, CreateWasteTypeInput, WasteTypePatch> = {
  entity: 'wasteType',
  notFound: errors.wasteTypeNotFound,
  ...underCity(repo.findWasteType, repo.listCityWasteTypes, withDetails),
  insert(trx, { subject: city }, input) {
    const fields = { description: null, instructions: null, color: null, colorLight: null, icon: null, imageUrl: null, ...input };
    return repo.insertWasteType(trx, randomUUID(), city!.cityId, columns(fields));
  },
  update: (trx, { subject }, patch) => repo.updateWasteType(trx, subject.row.id, columns({ ...subject.record, ...patch })),
  async remove(trx, { subject }) {
    const uses = await repo.countWasteTypeUses(trx, subject.row.id);
    if (uses > 0) throw errors.wasteTypeInUse(uses);
    await repo.deleteWasteType(trx, subject.row.id);
  },
};
