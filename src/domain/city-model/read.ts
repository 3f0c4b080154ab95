import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { readSnapshot } from '../../db/snapshot.ts';
import { toCities } from './mapper.ts';
import { CITY_BATCH_SIZE, listActiveCityIds, readCityRows } from './repository.ts';
import type { CityApi } from './schemas.ts';

/** Which cities to read: one by id, or every ACTIF city. Only ACTIF cities are ever public. */
export type CityScope = { id: string } | { all: true };

/**
 * The ACTIF cities among `ids` with all their nested data, in the order of `ids`, in a fixed number of
 * queries (one per table) whatever the number of cities. Callers bound `ids` (CITY_BATCH_SIZE).
 */
export async function loadCities(db: Kysely<DB>, ids: readonly string[], now: Date): Promise<CityApi[]> {
  const rows = await readCityRows(db, ids, now);
  return rows ? toCities(rows) : [];
}

/**
 * Every ACTIF city in scope with all its nested data, on one snapshot: one query per table for one city;
 * for every city, the sorted list of ids then one query per table for each batch of CITY_BATCH_SIZE.
 * GET /public/cities streams the same batches above CITIES_STREAM_THRESHOLD cities (src/cities/stream.ts).
 */
export function findCities(db: Kysely<DB>, scope: CityScope, now: Date): Promise<CityApi[]> {
  return readSnapshot(db, async (trx) => {
    if ('id' in scope) return loadCities(trx, [scope.id], now);
    const ids = await listActiveCityIds(trx);
    const cities: CityApi[] = [];
    for (let i = 0; i < ids.length; i += CITY_BATCH_SIZE) {
      cities.push(...(await loadCities(trx, ids.slice(i, i + CITY_BATCH_SIZE), now)));
    }
    return cities;
  });
}
