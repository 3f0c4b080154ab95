import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { readSnapshot } from '../db/snapshot.ts';

/**
 * The cities area's own reads. The published city itself (a city with everything nested) is the kernel's
 * (src/kernel/city-model/), since the calendar and the chat read it too.
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
      trx.selectFrom('city_group').select(['id', 'name', 'type', 'code', 'siren']).execute(),
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
