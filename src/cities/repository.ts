import type { Kysely, Selectable } from 'kysely';
import type { DB, WasteTypeDetailTable, WasteTypeTable } from '../db/types.ts';
import { childRecords } from '../db/child-records.ts';
import { countReferences } from '../db/records.ts';
import { sortByText } from '../kernel/french.ts';
import { CONTACT_COLUMNS } from '../domain/group-contact.ts';
import { findCityOwner, type CityOwner } from '../domain/cities.ts';
import { readSnapshot } from '../db/snapshot.ts';

/**
 * The cities area's own reads. The published city itself (a city with everything nested) is the domain's
 * (src/domain/city-model/), since the calendar and the chat read it too.
 */

/** The number of ACTIF cities (the public list's length). */
export async function countActiveCities(db: Kysely<DB>): Promise<number> {
  const row = await db.selectFrom('city').select((eb) => eb.fn.countAll<string>().as('n')).where('status', '=', 'ACTIF').executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Every city group, and the ACTIF cities that belong to a group, on one snapshot (two queries). */
export function readCityGroupRows(db: Kysely<DB>) {
  return readSnapshot(db, async (trx) => {
    const [groups, cities] = await Promise.all([
      trx.selectFrom('city_group').select(['id', 'name', 'type', 'code', 'siren', ...CONTACT_COLUMNS]).execute(),
      trx
        .selectFrom('city')
        .select(['id', 'name', 'country', 'population', 'city_group_id'])
        .where('status', '=', 'ACTIF')
        .where('city_group_id', 'is not', null)
        .execute(),
    ]);
    return { groups, cities };
  });
}

export type CityGroupRows = Awaited<ReturnType<typeof readCityGroupRows>>;

// The admin API's waste types (docs/api.md, the admin API): one city's waste types, read and written one at a time.

export type WasteTypeRow = Selectable<WasteTypeTable>;
export type WasteTypeDetailRow = Selectable<WasteTypeDetailTable>;

export async function detailsOf(db: Kysely<DB>, wasteTypeIds: readonly string[]): Promise<WasteTypeDetailRow[]> {
  if (wasteTypeIds.length === 0) return [];
  return db.selectFrom('waste_type_detail').selectAll().where('waste_type_id', 'in', wasteTypeIds).execute();
}

/** A waste type and its city's owner, in one query; the waste type alone locked until the end of the transaction with `forUpdate`. */
export async function findWasteType(
  db: Kysely<DB>,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<{ row: WasteTypeRow; owner: CityOwner } | undefined> {
  const found = await db
    .selectFrom('waste_type as w')
    .innerJoin('city', 'city.id', 'w.city_id')
    .selectAll('w')
    .select('city.city_group_id as owner_city_group_id')
    .where('w.id', '=', id)
    .$if(options.forUpdate === true, (qb) => qb.forUpdate('w'))
    .executeTakeFirst();
  if (!found) return undefined;
  const { owner_city_group_id: cityGroupId, ...row } = found;
  return { row, owner: { cityId: row.city_id, cityGroupId } };
}

/**
 * A city's waste types, listed in the public order (the kernel's French rule on the name, then id: the database's
 * collation is not the contract's rule, see src/cms/service.ts). A waste type is deleted with its details (their
 * foreign key cascades).
 */
export const { list: listCityWasteTypes, insert: insertWasteType, update: updateWasteType, remove: deleteWasteType } =
  childRecords('waste_type', 'city_id', findCityOwner, (rows) => sortByText(rows, (w) => w.name));

/** How many records name the waste type: collection days and exceptions, quiz questions, recycling points' materials. */
export async function countWasteTypeUses(db: Kysely<DB>, id: string): Promise<number> {
  const uses = await countReferences(db, id, {
    days: 'collection_day.waste_type_id', exceptions: 'collection_exception.waste_type_id',
    questions: 'quiz_question.correct_waste_type_id', materials: 'recycling_point_material.waste_type_id',
  });
  return Object.values(uses).reduce((sum, n) => sum + n, 0);
}

