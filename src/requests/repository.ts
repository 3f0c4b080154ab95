import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { DB, RequestStatus, RequestTypeTable, ResidentRequestTable } from '../db/types.ts';
import type { ChangeSource } from '../kernel/change-feed.ts';
import { pageWindow, type PageRequest } from '../kernel/pagination.ts';
import { databaseJson } from '../kernel/schemas.ts';
import { countReferences, recordsById } from '../db/records.ts';

/** Resident requests' rows (mapper.ts shapes them): SQL only. */

export type RequestTypeRow = Selectable<RequestTypeTable>;

/** A request with what every shape of it names of its type. */
export type RequestRow = Omit<Selectable<ResidentRequestTable>, 'change_seq'> & { type_code: string; type_name: string; target_hours: number };

const OPEN: RequestStatus[] = ['RECUE', 'EN_COURS', 'PLANIFIEE'];

/** The request's columns, its days as `YYYY-MM-DD` (a `date` column reads as a Date on pg, a string on PGlite). */
export function selectRequests(db: Kysely<DB>) {
  return db
    .selectFrom('resident_request as r')
    .innerJoin('request_type as t', 't.id', 'r.type_id')
    .selectAll('r')
    .select([
      sql<string | null>`r.date::text`.as('date'),
      sql<string | null>`r.planned_for::text`.as('planned_for'),
      't.code as type_code',
      't.name as type_name',
      't.target_hours',
    ]);
}

// ---------------------------------------------------------------- request types

/** A group's types by name (French order is the caller's), the inactive ones only when asked. */
export async function typesOfGroup(db: Kysely<DB>, groupId: string, options: { activeOnly: boolean }): Promise<RequestTypeRow[]> {
  return db
    .selectFrom('request_type')
    .selectAll()
    .where('city_group_id', '=', groupId)
    .$if(options.activeOnly, (qb) => qb.where('active', '=', true))
    .execute();
}

/** The type of the city's group with this code, if any (a city of no group has none). */
export async function findTypeOfCity(db: Kysely<DB>, cityId: string, code: string): Promise<RequestTypeRow | undefined> {
  return db
    .selectFrom('request_type as t')
    .innerJoin('city as c', 'c.city_group_id', 't.city_group_id')
    .selectAll('t')
    .where('c.id', '=', cityId)
    .where('t.code', '=', code)
    .executeTakeFirst();
}

const types = recordsById('request_type');

export const findType = types.find;

export type RequestTypeValues = Omit<RequestTypeTable, 'id' | 'created_at' | 'updated_at' | 'active' | 'fields'> & {
  fields: string;
  active: boolean;
  updated_at: Date;
};

export const insertType: (db: Kysely<DB>, values: RequestTypeValues & { created_at: Date }) => Promise<RequestTypeRow> = types.insert;
export const updateType: (db: Kysely<DB>, id: string, values: RequestTypeValues) => Promise<RequestTypeRow> = types.update;

/** A type's new target moves its open requests' due time (`created_at` plus the new number of hours). */
export async function retargetOpenRequests(db: Kysely<DB>, typeId: string, targetHours: number): Promise<void> {
  await db
    .updateTable('resident_request')
    .set({ due_at: sql`created_at + ${targetHours}::int * interval '1 hour'` })
    .where('type_id', '=', typeId)
    .where('status', 'in', OPEN)
    .execute();
}

export const deleteType = types.remove;

export const countRequestsOfType = async (db: Kysely<DB>, typeId: string): Promise<number> =>
  (await countReferences(db, typeId, { requests: 'resident_request.type_id' })).requests;

/** Whether another type of the group has this code. */
export async function codeTaken(db: Kysely<DB>, groupId: string, code: string, exceptId: string | null): Promise<boolean> {
  const row = await db
    .selectFrom('request_type')
    .select('id')
    .where('city_group_id', '=', groupId)
    .where('code', '=', code)
    .$if(exceptId !== null, (qb) => qb.where('id', '<>', exceptId!))
    .executeTakeFirst();
  return row !== undefined;
}

// ---------------------------------------------------------------- what a new request names

/** Which of the ids are of the city: its places, waste types and recycling points (one round trip). */
export async function cityReferences(
  db: Kysely<DB>,
  cityId: string,
  ids: { placeId: string | null; wasteTypeId: string | null; recyclingPointId: string | null },
): Promise<{ place: boolean; wasteType: { name: string } | null; recyclingPoint: boolean }> {
  if (ids.placeId === null && ids.wasteTypeId === null && ids.recyclingPointId === null) return { place: false, wasteType: null, recyclingPoint: false };
  const none = '00000000-0000-0000-0000-000000000000';
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .exists(eb.selectFrom('collection_place').select('id').where('id', '=', ids.placeId ?? none).where('city_id', '=', cityId))
        .as('place'),
      eb
        .selectFrom('waste_type')
        .select('name')
        .where('id', '=', ids.wasteTypeId ?? none)
        .where('city_id', '=', cityId)
        .as('waste_type_name'),
      eb
        .exists(eb.selectFrom('recycling_point').select('id').where('id', '=', ids.recyclingPointId ?? none).where('city_id', '=', cityId))
        .as('point'),
    ])
    .executeTakeFirstOrThrow();
  return {
    place: Boolean(row.place),
    wasteType: row.waste_type_name === null ? null : { name: row.waste_type_name },
    recyclingPoint: Boolean(row.point),
  };
}

/** Of `ids`, the photos uploaded since `since` that no request has taken yet. */
export async function freePhotoIds(db: Kysely<DB>, ids: readonly string[], since: Date): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('request_photo')
    .select('id')
    .where('id', 'in', [...ids])
    .where('request_id', 'is', null)
    .where('created_at', '>=', since)
    .execute();
  return new Set(rows.map((r) => r.id));
}

// ---------------------------------------------------------------- writing a request

/** The next reference number of a group's year: the counter row is locked until the transaction ends. */
export async function nextReferenceNumber(trx: Kysely<DB>, groupId: string, year: number): Promise<number> {
  const { last } = await trx
    .insertInto('request_counter')
    .values({ city_group_id: groupId, year, last: 1 })
    .onConflict((oc) => oc.columns(['city_group_id', 'year']).doUpdateSet({ last: sql`request_counter.last + 1` }))
    .returning('last')
    .executeTakeFirstOrThrow();
  return last;
}

export type NewRequest = Omit<Insertable<ResidentRequestTable>, 'attributes' | 'closed_at' | 'erased_at' | 'assigned_to'> & { attributes: string };

/**
 * Inserts a request; undefined when an open request holds its `duplicate_key` (a missed collection already
 * reported): the partial unique index decides, so two reports at the same instant make one request.
 */
export async function insertRequest(trx: Kysely<DB>, values: NewRequest): Promise<string | undefined> {
  const row = await trx
    .insertInto('resident_request')
    .values(values)
    .onConflict((oc) => oc.column('duplicate_key').where('duplicate_key', 'is not', null).where('status', 'in', OPEN).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** The open request holding a missed collection's key, if any. */
export async function findOpenDuplicate(db: Kysely<DB>, key: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('resident_request')
    .select('id')
    .where('duplicate_key', '=', key)
    .where('status', 'in', OPEN)
    .executeTakeFirst();
  return row?.id;
}

export async function addFollower(db: Kysely<DB>, requestId: string, deviceId: string, at: Date): Promise<void> {
  await db
    .insertInto('request_follower')
    .values({ request_id: requestId, device_id: deviceId, created_at: at })
    .onConflict((oc) => oc.columns(['request_id', 'device_id']).doNothing())
    .execute();
}

/** Gives the photos to the request; answers how many it took (a photo taken meanwhile by another is not). */
export async function attachPhotos(trx: Kysely<DB>, requestId: string, photoIds: readonly string[]): Promise<number> {
  if (photoIds.length === 0) return 0;
  const result = await trx
    .updateTable('request_photo')
    .set({ request_id: requestId })
    .where('id', 'in', [...photoIds])
    .where('request_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function insertUpdate(
  db: Kysely<DB>,
  values: { id: string; request_id: string; at: Date; kind: 'STATUS' | 'REPLY' | 'NOTE'; status: RequestStatus | null; message: string | null; author: { id: string | null; name: string } | null },
): Promise<void> {
  const { author, ...rest } = values;
  await db
    .insertInto('request_update')
    .values({ ...rest, author_id: author?.id ?? null, author_name: author?.name ?? null })
    .execute();
}

export async function insertPhoto(
  db: Kysely<DB>,
  values: { id: string; content_type: string; width: number; height: number; bytes: Uint8Array; created_at: Date },
): Promise<void> {
  await db.insertInto('request_photo').values({ ...values, request_id: null }).execute();
}

/** Deletes the photos no request took since `before`; answers how many. */
export async function deleteUnattachedPhotos(db: Kysely<DB>, before: Date): Promise<number> {
  const result = await db.deleteFrom('request_photo').where('request_id', 'is', null).where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

// ---------------------------------------------------------------- reading requests

export async function findRequest(db: Kysely<DB>, id: string, options: { forUpdate?: boolean } = {}): Promise<RequestRow | undefined> {
  return selectRequests(db)
    .where('r.id', '=', id)
    .$if(options.forUpdate === true, (qb) => qb.forUpdate('r'))
    .executeTakeFirst();
}

/** The requests a device filed or follows, newest first (the latest `limit`). */
export async function requestsOfDevice(db: Kysely<DB>, deviceId: string, limit: number): Promise<RequestRow[]> {
  return selectRequests(db)
    .innerJoin('request_follower as f', 'f.request_id', 'r.id')
    .where('f.device_id', '=', deviceId)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(limit)
    .execute();
}

/** A request with its change number (migration 0021), read as a number. */
export type ChangedRequestRow = RequestRow & { seq: number };

/**
 * Requests changed after change number `after`, oldest change first: of every group, of the given groups, or those a
 * device follows.
 */
export async function requestsChangedAfter(
  db: Kysely<DB>,
  after: number,
  limit: number,
  of: { groupIds?: readonly string[] | null; deviceId?: string } = {},
): Promise<ChangedRequestRow[]> {
  const { groupIds = null, deviceId } = of;
  if (groupIds !== null && groupIds.length === 0) return [];
  return selectRequests(db)
    .select(sql<number>`r.change_seq::float8`.as('seq'))
    .where('r.change_seq', '>', sql<string>`${Math.max(0, Math.floor(after))}::bigint`)
    .$if(groupIds !== null, (q) => q.where('r.city_group_id', 'in', [...groupIds!]))
    .$if(deviceId !== undefined, (q) =>
      q.where((eb) => eb.exists(eb.selectFrom('request_follower as f').whereRef('f.request_id', '=', 'r.id').where('f.device_id', '=', deviceId!))),
    )
    .orderBy('r.change_seq')
    .limit(limit)
    .execute();
}

/** The requests' change numbers as the live streams' feed reads them (kernel/change-feed.ts). */
export const requestChanges = (db: Kysely<DB>): ChangeSource<ChangedRequestRow> => ({
  latest: async () => {
    const row = await db
      .selectFrom('resident_request')
      .select(sql<number>`coalesce(max(change_seq), 0)::float8`.as('seq'))
      .executeTakeFirstOrThrow();
    return row.seq;
  },
  changedAfter: (after, limit) => requestsChangedAfter(db, after, limit),
});

/** Which of the requests each of the devices follows: `[requestId, deviceId]` pairs. */
export async function followersAmong(db: Kysely<DB>, requestIds: readonly string[], deviceIds: readonly string[]) {
  if (requestIds.length === 0 || deviceIds.length === 0) return [];
  return db
    .selectFrom('request_follower')
    .select(['request_id', 'device_id'])
    .where('request_id', 'in', [...requestIds])
    .where('device_id', 'in', [...deviceIds])
    .execute();
}

export async function isFollower(db: Kysely<DB>, requestId: string, deviceId: string): Promise<boolean> {
  const row = await db
    .selectFrom('request_follower')
    .select('request_id')
    .where('request_id', '=', requestId)
    .where('device_id', '=', deviceId)
    .executeTakeFirst();
  return row !== undefined;
}

export interface UpdateRow {
  request_id: string;
  at: Date;
  kind: 'STATUS' | 'REPLY' | 'NOTE';
  status: RequestStatus | null;
  message: string | null;
  author_id: string | null;
  author_name: string | null;
}

/** The requests' histories, oldest first; the internal notes only when asked. */
export async function updatesOf(db: Kysely<DB>, requestIds: readonly string[], options: { notes: boolean }): Promise<UpdateRow[]> {
  if (requestIds.length === 0) return [];
  return db
    .selectFrom('request_update')
    .select(['request_id', 'at', 'kind', 'status', 'message', 'author_id', 'author_name'])
    .where('request_id', 'in', [...requestIds])
    .$if(!options.notes, (qb) => qb.where('kind', '<>', 'NOTE'))
    .orderBy('at')
    .orderBy('id')
    .execute();
}

/** The requests' photo ids, oldest first. */
export async function photosOf(db: Kysely<DB>, requestIds: readonly string[]): Promise<{ id: string; request_id: string }[]> {
  if (requestIds.length === 0) return [];
  const rows = await db
    .selectFrom('request_photo')
    .select(['id', 'request_id'])
    .where('request_id', 'in', [...requestIds])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows as { id: string; request_id: string }[];
}

export async function findPhoto(db: Kysely<DB>, requestId: string, photoId: string) {
  return db
    .selectFrom('request_photo')
    .select(['id', 'content_type', 'bytes'])
    .where('id', '=', photoId)
    .where('request_id', '=', requestId)
    .executeTakeFirst();
}

/** What the staff's shape names beside the request: city, place, waste type, point and agent names, followers. */
export async function requestContext(db: Kysely<DB>, rows: readonly RequestRow[]) {
  const ids = rows.map((r) => r.id);
  const cityIds = [...new Set(rows.map((r) => r.city_id))];
  const placeIds = [...new Set(rows.flatMap((r) => (r.place_id ? [r.place_id] : [])))];
  const agentIds = [...new Set(rows.flatMap((r) => (r.assigned_to ? [r.assigned_to] : [])))];
  const wasteTypeIds = [...new Set(rows.flatMap((r) => (r.waste_type_id ? [r.waste_type_id] : [])))];
  const pointIds = [...new Set(rows.flatMap((r) => (r.recycling_point_id ? [r.recycling_point_id] : [])))];
  const [cities, places, wasteTypes, points, agents, followers] = await Promise.all([
    cityIds.length ? db.selectFrom('city').select(['id', 'name']).where('id', 'in', cityIds).execute() : [],
    placeIds.length ? db.selectFrom('collection_place').select(['id', 'name']).where('id', 'in', placeIds).execute() : [],
    wasteTypeIds.length ? db.selectFrom('waste_type').select(['id', 'name']).where('id', 'in', wasteTypeIds).execute() : [],
    pointIds.length ? db.selectFrom('recycling_point').select(['id', 'name']).where('id', 'in', pointIds).execute() : [],
    agentIds.length ? db.selectFrom('account').select(['id', 'name']).where('id', 'in', agentIds).execute() : [],
    ids.length
      ? db
          .selectFrom('request_follower')
          .select(['request_id', (eb) => eb.fn.countAll<string>().as('n')])
          .where('request_id', 'in', ids)
          .groupBy('request_id')
          .execute()
      : [],
  ]);
  return {
    cityName: new Map(cities.map((c) => [c.id, c.name])),
    placeName: new Map(places.map((p) => [p.id, p.name])),
    wasteTypeName: new Map(wasteTypes.map((w) => [w.id, w.name])),
    pointName: new Map(points.map((p) => [p.id, p.name])),
    agentName: new Map(agents.map((a) => [a.id, a.name])),
    followers: new Map(followers.map((f) => [f.request_id, Number(f.n)])),
  };
}

export interface RequestFilters {
  groupIds: readonly string[] | null;
  status?: RequestStatus;
  typeCode?: string;
  cityId?: string;
  assignedTo?: string;
  /** true: open and past due at `now`; false: the others. */
  overdue?: boolean;
  now: Date;
}

/**
 * One page of the staff's queue, oldest first, and its total. Three statements, none joining more than it needs: the
 * count and the page's ids read `resident_request` alone, through `resident_request_queue_idx` (or
 * `resident_request_status_idx` with a status), the type named by a subquery; then the page's rows by their ids.
 */
export async function listRequests(db: Kysely<DB>, filters: RequestFilters, page: PageRequest): Promise<{ rows: RequestRow[]; total: number }> {
  if (filters.groupIds !== null && filters.groupIds.length === 0) return { rows: [], total: 0 };
  const matching = () =>
    db
      .selectFrom('resident_request as r')
      .$if(filters.groupIds !== null, (q) => q.where('r.city_group_id', 'in', filters.groupIds!))
      .$if(filters.status !== undefined, (q) => q.where('r.status', '=', filters.status!))
      .$if(filters.typeCode !== undefined, (q) =>
        q.where('r.type_id', 'in', (eb) => eb.selectFrom('request_type').select('id').where('code', '=', filters.typeCode!)),
      )
      .$if(filters.cityId !== undefined, (q) => q.where('r.city_id', '=', filters.cityId!))
      .$if(filters.assignedTo !== undefined, (q) => q.where('r.assigned_to', '=', filters.assignedTo!))
      .$if(filters.overdue !== undefined, (q) => {
        const late = sql<boolean>`r.status IN ('RECUE', 'EN_COURS', 'PLANIFIEE') AND r.due_at < ${filters.now}::timestamptz`;
        return q.where(filters.overdue ? late : sql<boolean>`NOT (${late})`);
      });
  const total = isByGroupAndStatus(filters)
    ? await countedTotal(db, filters)
    : Number((await matching().select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow()).total);
  const window = pageWindow(page, Number(total));
  if (!window) return { rows: [], total: Number(total) };
  const ids = await matching().select('r.id').orderBy('r.created_at').orderBy('r.id').limit(window.limit).offset(window.offset).execute();
  if (ids.length === 0) return { rows: [], total: Number(total) };
  const rows = await selectRequests(db).where('r.id', 'in', ids.map((r) => r.id)).execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return { rows: ids.flatMap(({ id }) => byId.get(id) ?? []), total: Number(total) };
}

/** Whether a queue's filters are its groups and status alone, whose total `request_count` holds. */
const isByGroupAndStatus = (filters: RequestFilters) =>
  filters.typeCode === undefined && filters.cityId === undefined && filters.assignedTo === undefined && filters.overdue === undefined;

/** The queue's total by group and status, read from `request_count` (kept by a trigger) rather than counted. */
async function countedTotal(db: Kysely<DB>, filters: RequestFilters): Promise<number> {
  const { total } = await db
    .selectFrom('request_count')
    .select(sql<string | null>`sum(n)`.as('total'))
    .$if(filters.groupIds !== null, (q) => q.where('city_group_id', 'in', filters.groupIds!))
    .$if(filters.status !== undefined, (q) => q.where('status', '=', filters.status!))
    .executeTakeFirstOrThrow();
  return Number(total ?? 0);
}

/**
 * What autovacuum does on PostgreSQL and nothing does on PGlite: fresh statistics for the planner, and the visibility
 * map that lets a count or a deep page of the queue read the index alone (on PGlite, 60,000 requests of a group: the
 * 1,000th page from 158 to 32 ms).
 */
export async function vacuumRequests(db: Kysely<DB>): Promise<void> {
  await sql`VACUUM (ANALYZE) resident_request, request_follower, request_update, request_mail`.execute(db);
}

export async function updateRequest(
  db: Kysely<DB>,
  id: string,
  values: { status: RequestStatus; assigned_to: string | null; planned_for: string | null; closed_at: Date | null; updated_at: Date },
): Promise<void> {
  await db.updateTable('resident_request').set(values).where('id', '=', id).execute();
}

export async function touchRequest(db: Kysely<DB>, id: string, at: Date): Promise<void> {
  await db.updateTable('resident_request').set({ updated_at: at }).where('id', '=', id).execute();
}

export async function deleteRequest(db: Kysely<DB>, id: string): Promise<void> {
  await db.deleteFrom('resident_request').where('id', '=', id).execute();
}

/** Whether the account may be given requests of the group: active, and holding REQUESTS there (or super admin). */
/** The active accounts that may handle a group's requests: holding REQUESTS in it, or super admins. */
function requestAgents(db: Kysely<DB>, groupId: string) {
  return db
    .selectFrom('account as a')
    .select(['a.id', 'a.name'])
    .where('a.active', '=', true)
    .where((eb) =>
      eb.or([
        eb('a.super_admin', '=', true),
        eb.and([
          eb(sql.lit('REQUESTS'), '=', eb.fn.any('a.permissions')),
          eb.exists(eb.selectFrom('account_city_group as g').select('g.account_id').whereRef('g.account_id', '=', 'a.id').where('g.city_group_id', '=', groupId)),
        ]),
      ]),
    );
}

/** Whom a group's requests may be assigned to, by name. */
export async function requestAgentsOf(db: Kysely<DB>, groupId: string): Promise<{ id: string; name: string }[]> {
  return requestAgents(db, groupId).orderBy('a.name').orderBy('a.id').execute();
}

export async function isRequestAgent(db: Kysely<DB>, accountId: string, groupId: string): Promise<{ name: string } | undefined> {
  return requestAgents(db, groupId).where('a.id', '=', accountId).executeTakeFirst();
}

// ---------------------------------------------------------------- e-mails and retention (the requests' worker)

/**
 * Owes the requester an e-mail (the receipt, or one for a public update), when the request has an address it has not
 * stopped and retention has not erased: one statement, in the write's transaction, so that the message exists if and
 * only if what it tells does. The unique keys make each message once.
 */
export async function enqueueMail(
  trx: Kysely<DB>,
  values: { id: string; requestId: string; updateId: string | null; now: Date },
): Promise<void> {
  await sql`
    INSERT INTO request_mail (id, request_id, update_id, kind, status, next_attempt_at, created_at)
    SELECT ${values.id}::uuid, r.id, ${values.updateId}::uuid, ${values.updateId === null ? 'RECEIPT' : 'UPDATE'}::text, 'PENDING', ${values.now}::timestamptz, ${values.now}::timestamptz
    FROM resident_request r
    WHERE r.id = ${values.requestId}::uuid AND r.email IS NOT NULL AND r.mail_stopped_at IS NULL AND r.erased_at IS NULL
    ON CONFLICT DO NOTHING
  `.execute(trx);
}

export interface ClaimedMail {
  id: string;
  request_id: string;
  update_id: string | null;
  kind: 'RECEIPT' | 'UPDATE' | 'PICKUP_EVE';
  attempts: number;
}

/**
 * Takes up to `limit` due e-mails for `leaseMs` (SKIP LOCKED: two workers never take the same one). One whose sender
 * died mid-send is due again when its lease ends: sent twice at worst, with the same Message-ID.
 */
export async function claimMails(db: Kysely<DB>, now: Date, limit: number, leaseMs: number): Promise<ClaimedMail[]> {
  const { rows } = await sql<ClaimedMail>`
    UPDATE request_mail m SET status = 'SENDING', attempts = m.attempts + 1, next_attempt_at = ${new Date(now.getTime() + leaseMs)}
    WHERE m.id IN (
      SELECT id FROM request_mail
      WHERE status IN ('PENDING', 'SENDING') AND next_attempt_at <= ${now}
      ORDER BY next_attempt_at
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING m.id, m.request_id, m.update_id, m.kind, m.attempts
  `.execute(db);
  return rows;
}

/** What a claimed e-mail says: its request (address, reference, type, status, links' origin, city's zone) and update. */
export async function mailSubjects(db: Kysely<DB>, mails: readonly ClaimedMail[]) {
  if (mails.length === 0) return { requests: new Map(), updates: new Map() };
  const requestIds = [...new Set(mails.map((m) => m.request_id))];
  const updateIds = mails.flatMap((m) => (m.update_id ? [m.update_id] : []));
  const [requests, updates] = await Promise.all([
    db
      .selectFrom('resident_request as r')
      .innerJoin('request_type as t', 't.id', 'r.type_id')
      .innerJoin('city as c', 'c.id', 'r.city_id')
      .select([
        'r.id', 'r.email', 'r.reference', 'r.status', 'r.origin', 'r.mail_stopped_at', 'r.erased_at', 'r.created_at', 'r.attributes',
        sql<string | null>`r.planned_for::text`.as('planned_for'), 't.name as type_name', 'c.time_zone',
      ])
      .where('r.id', 'in', requestIds)
      .execute(),
    updateIds.length
      ? db.selectFrom('request_update').select(['id', 'status', 'message']).where('id', 'in', updateIds).execute()
      : Promise.resolve([]),
  ]);
  return { requests: new Map(requests.map((r) => [r.id, r])), updates: new Map(updates.map((u) => [u.id, u])) };
}

/** Counts one e-mail to a mailbox on a day, unless `cap` are already counted: whether it was counted. */
export async function countMailboxDay(db: Kysely<DB>, mailbox: string, day: string, cap: number): Promise<boolean> {
  const row = await db
    .insertInto('mailbox_day')
    .values({ mailbox, day, sent: 1 })
    .onConflict((oc) => oc.columns(['mailbox', 'day']).doUpdateSet({ sent: sql`mailbox_day.sent + 1` }).where('mailbox_day.sent', '<', cap))
    .returning('sent')
    .executeTakeFirst();
  return row !== undefined;
}

/** Gives back a count taken for an e-mail that could not be sent. */
export async function uncountMailboxDay(db: Kysely<DB>, mailbox: string, day: string): Promise<void> {
  await db.updateTable('mailbox_day').set({ sent: sql`greatest(sent - 1, 0)` }).where('mailbox', '=', mailbox).where('day', '=', day).execute();
}

export async function markMail(
  db: Kysely<DB>,
  id: string,
  values: { status: 'PENDING' | 'SENT' | 'FAILED' | 'SKIPPED'; next_attempt_at?: Date; sent_at?: Date; last_error?: string | null; attempts?: number },
): Promise<void> {
  await db.updateTable('request_mail').set(values).where('id', '=', id).execute();
}

export async function stopMail(db: Kysely<DB>, requestId: string, now: Date): Promise<boolean> {
  const found = await db.selectFrom('resident_request').select(['id', 'mail_stopped_at']).where('id', '=', requestId).executeTakeFirst();
  if (!found) return false;
  if (found.mail_stopped_at === null) {
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('resident_request').set({ mail_stopped_at: now }).where('id', '=', requestId).execute();
      await trx.updateTable('request_mail').set({ status: 'SKIPPED', last_error: 'unsubscribed' }).where('request_id', '=', requestId).where('status', 'in', ['PENDING', 'SENDING']).execute();
    });
  }
  return true;
}

/**
 * Retention: the requests closed before `closedBefore` lose what identifies their requester (e-mail, description,
 * answers, position, address, photos, unsent e-mails); type, city, place, waste type, dates, status and reference
 * stay. Answers how many were erased.
 */
export async function eraseClosedBefore(db: Kysely<DB>, closedBefore: Date, now: Date): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const erased = await trx
      .updateTable('resident_request')
      .set({ email: null, description: null, attributes: '{}', latitude: null, longitude: null, address: null, erased_at: now })
      .where('closed_at', '<', closedBefore)
      .where('erased_at', 'is', null)
      .returning('id')
      .execute();
    const ids = erased.map((r) => r.id);
    if (ids.length > 0) {
      await trx.deleteFrom('request_photo').where('request_id', 'in', ids).execute();
      await trx.deleteFrom('request_mail').where('request_id', 'in', ids).where('status', 'in', ['PENDING', 'SENDING']).execute();
    }
    return ids.length;
  });
}

/** Forgets the daily counts of days before `day`. */
export async function deleteMailboxDaysBefore(db: Kysely<DB>, day: string): Promise<void> {
  await db.deleteFrom('mailbox_day').where('day', '<', day).execute();
}

/** A request to file in one statement: its row, its first update's and its receipt's ids, its photos, its year. */
export type Filing = Omit<NewRequest, 'reference'> & { updateId: string; mailId: string; photoIds: readonly string[]; year: number };

/**
 * Files requests in one statement (the common case: no missed collection to de-duplicate), one or many (group
 * commit): their numbers (each group's counter moved once by the batch's count, in key order), rows, authors as
 * followers, first updates, receipts and photos, atomically, without a transaction's round trips. Answers each
 * request's reference and how many photos it took (a photo another request took meanwhile is not taken: first come),
 * by id.
 */
export async function fileRequests(db: Kysely<DB>, filings: readonly Filing[]): Promise<Map<string, { reference: string; photos: number }>> {
  const input = filings.map((f, ord) => ({
    ord,
    id: f.id,
    city_group_id: f.city_group_id,
    city_id: f.city_id,
    type_id: f.type_id,
    year: f.year,
    place_id: f.place_id ?? null,
    waste_type_id: f.waste_type_id ?? null,
    date: f.date ?? null,
    recycling_point_id: f.recycling_point_id ?? null,
    latitude: f.latitude ?? null,
    longitude: f.longitude ?? null,
    address: f.address ?? null,
    description: f.description ?? null,
    email: f.email ?? null,
    attributes: JSON.parse(f.attributes) as unknown,
    device_id: f.device_id,
    origin: f.origin ?? null,
    at: new Date(f.created_at).toISOString(),
    due_at: new Date(f.due_at).toISOString(),
    update_id: f.updateId,
    mail_id: f.mailId,
  }));
  const photos = filings.flatMap((f) => f.photoIds.map((photo_id) => ({ request_id: f.id, photo_id })));
  const { rows } = await sql<{ id: string; reference: string; photos: number }>`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${databaseJson(input)}::jsonb) AS x(
        ord int, id uuid, city_group_id uuid, city_id uuid, type_id uuid, year int, place_id uuid, waste_type_id uuid,
        date date, recycling_point_id uuid, latitude float8, longitude float8, address text, description text, email text,
        attributes jsonb, device_id text, origin text, at timestamptz, due_at timestamptz, update_id uuid, mail_id uuid)
    ), counts AS (
      SELECT city_group_id, year, count(*)::int AS n FROM input GROUP BY city_group_id, year
    ), counter AS (
      INSERT INTO request_counter (city_group_id, year, last)
      SELECT city_group_id, year, n FROM counts ORDER BY city_group_id, year
      ON CONFLICT (city_group_id, year) DO UPDATE SET last = request_counter.last + excluded.last
      RETURNING city_group_id, year, last
    ), numbered AS (
      SELECT i.*, c.last - n.n + row_number() OVER (PARTITION BY i.city_group_id, i.year ORDER BY i.ord) AS number
      FROM input i JOIN counter c USING (city_group_id, year) JOIN counts n USING (city_group_id, year)
    ), request AS (
      INSERT INTO resident_request (id, city_group_id, city_id, type_id, reference, status, place_id, waste_type_id, date,
        recycling_point_id, latitude, longitude, address, description, email, attributes, device_id, origin, created_at, updated_at, due_at)
      SELECT id, city_group_id, city_id, type_id, year::text || '-' || lpad(number::text, 6, '0'), 'RECUE', place_id, waste_type_id,
        date, recycling_point_id, latitude, longitude, address, description, email, attributes, device_id, origin, at, at, due_at
      FROM numbered ORDER BY ord
      RETURNING id, reference
    ), follower AS (
      INSERT INTO request_follower (request_id, device_id, created_at) SELECT id, device_id, at FROM input
    ), history AS (
      INSERT INTO request_update (id, request_id, at, kind, status) SELECT update_id, id, at, 'STATUS', 'RECUE' FROM input
    ), receipt AS (
      INSERT INTO request_mail (id, request_id, kind, status, next_attempt_at, created_at)
      SELECT mail_id, id, 'RECEIPT', 'PENDING', at, at FROM input WHERE email IS NOT NULL
    ), taken AS (
      UPDATE request_photo p SET request_id = x.request_id
      FROM jsonb_to_recordset(${databaseJson(photos)}::jsonb) AS x(request_id uuid, photo_id uuid)
      WHERE p.id = x.photo_id AND p.request_id IS NULL
      RETURNING x.request_id
    )
    SELECT r.id, r.reference, (SELECT count(*) FROM taken t WHERE t.request_id = r.id)::int AS photos FROM request r
  `.execute(db);
  return new Map(rows.map((row) => [row.id, { reference: row.reference, photos: row.photos }]));
}
