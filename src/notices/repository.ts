import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB, ServiceNoticeTable } from '../db/types.ts';
import { pageWindow, type PageRequest } from '../kernel/pagination.ts';
import { recordsById } from '../db/records.ts';

/** Service notices' rows (mapper.ts shapes them). */

export type NoticeRow = Selectable<ServiceNoticeTable>;

/**
 * What covers a city, or one of its places: a notice of the city's group that names no place and either no city or
 * this one; or a notice naming places, one of them this place (with a place asked for) or one of the city's (without:
 * the resident has not said where they live, so a notice of any of the city's places may be theirs).
 */
function covering(db: Kysely<DB>, city: { id: string; cityGroupId: string }, placeId: string | null) {
  return db
    .selectFrom('service_notice as n')
    .selectAll('n')
    .where('n.city_group_id', '=', city.cityGroupId)
    .where((eb) =>
      eb.or([
        eb.and([
          eb(sql<number>`cardinality(n.place_ids)`, '=', 0),
          eb.or([eb(sql<number>`cardinality(n.city_ids)`, '=', 0), eb(sql`${city.id}::uuid`, '=', eb.fn.any('n.city_ids'))]),
        ]),
        placeId === null
          ? eb(
              'n.place_ids',
              '&&',
              sql<string[]>`ARRAY(SELECT p.id FROM collection_place p WHERE p.city_id = ${city.id})`,
            )
          : eb(sql`${placeId}::uuid`, '=', eb.fn.any('n.place_ids')),
      ]),
    );
}

/**
 * The notices covering a city (or a place of it) that have not ended at `now`: those in force and those to come,
 * newest start first. The caller tells them apart, and learns from those to come when its answer stops being right.
 */
export async function findCurrentAndComingNotices(
  db: Kysely<DB>,
  city: { id: string; cityGroupId: string },
  placeId: string | null,
  now: Date,
): Promise<NoticeRow[]> {
  return covering(db, city, placeId)
    .where((eb) => eb.or([eb('n.ends_at', 'is', null), eb('n.ends_at', '>', now)]))
    .orderBy('n.starts_at', 'desc')
    .orderBy('n.created_at', 'desc')
    .orderBy('n.id')
    .execute();
}

export async function isPlaceOfCity(db: Kysely<DB>, placeId: string, cityId: string): Promise<boolean> {
  const row = await db.selectFrom('collection_place').select('id').where('id', '=', placeId).where('city_id', '=', cityId).executeTakeFirst();
  return row !== undefined;
}

// ---------------------------------------------------------------- the admin API

const notices = recordsById('service_notice');

export const findNotice = notices.find;

/** One page of the notices of some groups (null: every group), newest start first, and their total. */
export async function listNotices(db: Kysely<DB>, groupIds: readonly string[] | null, page: PageRequest): Promise<{ rows: NoticeRow[]; total: number }> {
  if (groupIds !== null && groupIds.length === 0) return { rows: [], total: 0 };
  const [{ total }] = await db
    .selectFrom('service_notice')
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .$if(groupIds !== null, (qb) => qb.where('city_group_id', 'in', groupIds!))
    .execute();
  const window = pageWindow(page, Number(total));
  if (!window) return { rows: [], total: Number(total) };
  const rows = await db
    .selectFrom('service_notice')
    .selectAll()
    .$if(groupIds !== null, (qb) => qb.where('city_group_id', 'in', groupIds!))
    .orderBy('starts_at', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return { rows, total: Number(total) };
}

export interface NoticeValues {
  city_group_id: string;
  city_ids: string[];
  place_ids: string[];
  title: string;
  body: string;
  severity: 'INFO' | 'WARNING';
  starts_at: Date;
  ends_at: Date | null;
  notify: boolean;
  updated_at: Date;
}

export const insertNotice = (db: Kysely<DB>, id: string, values: NoticeValues & { created_at: Date }): Promise<NoticeRow> => notices.insert(db, { id, ...values });
export const updateNotice: (db: Kysely<DB>, id: string, values: NoticeValues) => Promise<NoticeRow> = notices.update;
export const deleteNotice = notices.remove;

/** The group's cities (any status) and their places among `placeIds`: what a notice's lists may name. */
export async function groupCitiesAndPlaces(
  db: Kysely<DB>,
  cityGroupId: string,
  placeIds: readonly string[],
): Promise<{ cityIds: Set<string>; placeCity: Map<string, string> }> {
  const [cities, places] = await Promise.all([
    db.selectFrom('city').select('id').where('city_group_id', '=', cityGroupId).execute(),
    placeIds.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('collection_place as p')
          .innerJoin('city as c', 'c.id', 'p.city_id')
          .select(['p.id', 'p.city_id'])
          .where('c.city_group_id', '=', cityGroupId)
          .where('p.id', 'in', [...placeIds])
          .execute(),
  ]);
  return { cityIds: new Set(cities.map((c) => c.id)), placeCity: new Map(places.map((p) => [p.id, p.city_id])) };
}

/**
 * The active reminder subscriptions a notice of this scope reaches, by channel: those of the group's ACTIF cities, on
 * the named places, else of the named cities, else all (the worker's own choice, src/reminders/notice-planner.ts).
 */
export async function countAudience(
  db: Kysely<DB>,
  cityGroupId: string,
  scope: { cityIds: readonly string[]; placeIds: readonly string[] },
): Promise<{ push: number; email: number }> {
  const rows = await db
    .selectFrom('reminder_subscription as s')
    .innerJoin('city as c', 'c.id', 's.city_id')
    .select(['s.channel', (eb) => eb.fn.countAll<string>().as('n')])
    .where('c.city_group_id', '=', cityGroupId)
    .where('c.status', '=', 'ACTIF')
    .where('s.status', '=', 'ACTIVE')
    .$if(scope.placeIds.length > 0, (qb) => qb.where('s.place_id', 'in', [...scope.placeIds]))
    .$if(scope.placeIds.length === 0 && scope.cityIds.length > 0, (qb) => qb.where('s.city_id', 'in', [...scope.cityIds]))
    .groupBy('s.channel')
    .execute();
  const count = (channel: string) => Number(rows.find((r) => r.channel === channel)?.n ?? 0);
  return { push: count('WEB_PUSH'), email: count('EMAIL') };
}
