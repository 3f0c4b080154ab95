import type { Kysely } from 'kysely';
import type { DB, RequestStatus } from '../db/types.ts';
import { selectRequests, type RequestRow } from '../requests/repository.ts';

/** What Open311 reads beside the requests area's own reads: SQL only. */

export interface Jurisdiction {
  id: string;
  name: string;
  siren: string;
}

/** The group whose SIREN is `siren`; without one, the only group of the instance (`several` when there are more). */
export async function findJurisdiction(db: Kysely<DB>, siren: string | undefined): Promise<Jurisdiction | 'several' | undefined> {
  const rows = await db
    .selectFrom('city_group')
    .select(['id', 'name', 'siren'])
    .$if(siren !== undefined, (q) => q.where('siren', '=', siren!))
    .orderBy('id')
    .limit(2)
    .execute();
  if (siren === undefined && rows.length > 1) return 'several';
  return rows[0];
}

export interface GroupCity {
  id: string;
  name: string;
  time_zone: string;
}

/** The group's ACTIF cities, by id. */
export function activeCitiesOfGroup(db: Kysely<DB>, groupId: string): Promise<GroupCity[]> {
  return db
    .selectFrom('city')
    .select(['id', 'name', 'time_zone'])
    .where('city_group_id', '=', groupId)
    .where('status', '=', 'ACTIF')
    .orderBy('id')
    .execute();
}

/** The waste types of the group's ACTIF cities. */
export function wasteTypesOfGroup(db: Kysely<DB>, groupId: string): Promise<{ id: string; name: string; city_id: string }[]> {
  return db
    .selectFrom('waste_type as w')
    .innerJoin('city as c', 'c.id', 'w.city_id')
    .select(['w.id', 'w.name', 'w.city_id'])
    .where('c.city_group_id', '=', groupId)
    .where('c.status', '=', 'ACTIF')
    .execute();
}

export interface PointRow {
  id: string;
  name: string;
  city_id: string;
  city_name: string;
  latitude: number | null;
  longitude: number | null;
}

/** The recycling points of the group's ACTIF cities. */
export function recyclingPointsOfGroup(db: Kysely<DB>, groupId: string): Promise<PointRow[]> {
  return db
    .selectFrom('recycling_point as p')
    .innerJoin('city as c', 'c.id', 'p.city_id')
    .select(['p.id', 'p.name', 'p.city_id', 'c.name as city_name', 'p.latitude', 'p.longitude'])
    .where('c.city_group_id', '=', groupId)
    .where('c.status', '=', 'ACTIF')
    .execute();
}

export interface PartnerFilters {
  references?: readonly string[];
  typeCodes?: readonly string[];
  statuses?: readonly RequestStatus[];
  from?: Date;
  to?: Date;
}

/** A request as Open311 lists it: the requests area's row, with its city's time zone. */
export type PartnerRequestRow = RequestRow & { time_zone: string };

/**
 * The group's requests matching `filters`, newest first, at most `limit`: through `resident_request_queue_idx`
 * (city_group_id, created_at, id), read backwards.
 */
export async function partnerRequests(db: Kysely<DB>, groupId: string, filters: PartnerFilters, limit: number): Promise<PartnerRequestRow[]> {
  if (filters.references?.length === 0 || filters.typeCodes?.length === 0 || filters.statuses?.length === 0) return [];
  return selectRequests(db)
    .innerJoin('city as c', 'c.id', 'r.city_id')
    .select('c.time_zone')
    .where('r.city_group_id', '=', groupId)
    .$if(filters.references !== undefined, (q) => q.where('r.reference', 'in', filters.references!))
    .$if(filters.typeCodes !== undefined, (q) => q.where('t.code', 'in', filters.typeCodes!))
    .$if(filters.statuses !== undefined, (q) => q.where('r.status', 'in', filters.statuses!))
    .$if(filters.from !== undefined, (q) => q.where('r.created_at', '>=', filters.from!))
    .$if(filters.to !== undefined, (q) => q.where('r.created_at', '<=', filters.to!))
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(limit)
    .execute();
}
