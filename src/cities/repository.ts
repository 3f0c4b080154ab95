import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { DB, WasteTypeDetailTable, WasteTypeTable } from '../db/types.ts';
import { pageWindow, type PageRequest } from '../kernel/pagination.ts';
import { sortByText } from '../kernel/french.ts';
import { CONTACT_COLUMNS } from '../domain/group-contact.ts';
import type { CityOwner } from '../domain/cities.ts';
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

// The admin API's waste types (CONTRACT section 13): one city's waste types, read and written one at a time.

export type WasteTypeRow = Selectable<WasteTypeTable>;
export type WasteTypeDetailRow = Selectable<WasteTypeDetailTable>;
type WasteTypeValues = Omit<Insertable<WasteTypeTable>, 'id' | 'city_id'>;

export async function detailsOf(db: Kysely<DB>, wasteTypeIds: readonly string[]): Promise<WasteTypeDetailRow[]> {
  if (wasteTypeIds.length === 0) return [];
  return db.selectFrom('waste_type_detail').selectAll().where('waste_type_id', 'in', wasteTypeIds).execute();
}

/**
 * One page of a city's waste types in the public order (the kernel's French rule on the name, then id), and their
 * total. A city has a handful of waste types: they are read whole, sorted, then paged (the database's collation is
 * not the contract's rule, see src/cms/service.ts).
 */
export async function listCityWasteTypes(db: Kysely<DB>, cityId: string, page: PageRequest): Promise<{ rows: WasteTypeRow[]; total: number }> {
  const all = sortByText(await db.selectFrom('waste_type').selectAll().where('city_id', '=', cityId).execute(), (w) => w.name);
  const window = pageWindow(page, all.length);
  return { rows: window ? all.slice(window.offset, window.offset + window.limit) : [], total: all.length };
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

export async function insertWasteType(db: Kysely<DB>, id: string, cityId: string, values: WasteTypeValues): Promise<WasteTypeRow> {
  return db.insertInto('waste_type').values({ id, city_id: cityId, ...values }).returningAll().executeTakeFirstOrThrow();
}

export async function updateWasteType(db: Kysely<DB>, id: string, values: WasteTypeValues): Promise<WasteTypeRow> {
  return db.updateTable('waste_type').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** How many records name the waste type: collection days and exceptions, quiz questions, recycling points' materials. */
export async function countWasteTypeUses(db: Kysely<DB>, id: string): Promise<number> {
  const { rows } = await sql<{ uses: string }>`
    SELECT (SELECT count(*) FROM collection_day WHERE waste_type_id = ${id})
         + (SELECT count(*) FROM collection_exception WHERE waste_type_id = ${id})
         + (SELECT count(*) FROM quiz_question WHERE correct_waste_type_id = ${id})
         + (SELECT count(*) FROM recycling_point_material WHERE waste_type_id = ${id}) AS uses
  `.execute(db);
  return Number(rows[0].uses);
}

/** Deletes a waste type and its details (their foreign key cascades). */
export async function deleteWasteType(db: Kysely<DB>, id: string): Promise<void> {
  await db.deleteFrom('waste_type').where('id', '=', id).execute();
}
