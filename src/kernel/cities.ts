import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';

/** What every per-city route needs first: the city, when it exists and is ACTIF (public routes answer 404 otherwise). */
export interface ActiveCity {
  id: string;
  name: string;
  /** As stored (Europe/Paris unless the city says otherwise); `resolveTimeZone` (kernel/dates.ts) checks it. */
  timeZone: string;
}

export async function findActiveCity(db: Kysely<DB>, cityId: string): Promise<ActiveCity | null> {
  const city = await db
    .selectFrom('city')
    .select(['id', 'name', 'time_zone'])
    .where('id', '=', cityId)
    .where('status', '=', 'ACTIF')
    .executeTakeFirst();
  return city ? { id: city.id, name: city.name, timeZone: city.time_zone } : null;
}
