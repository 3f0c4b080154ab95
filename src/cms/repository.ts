import type { Kysely, Selectable } from 'kysely';
import type { DB, MenuItemTable, MenuTable, PageTable } from '../db/types.ts';

/**
 * CMS storage: sites, published pages, menus and their items, as rows (mapper.ts shapes them). Lists come unordered
 * where their order is by a text: that order is the kernel's French rule, applied by the service (see service.ts).
 */

// ---------------------------------------------------------------- sites

function selectSites(db: Kysely<DB>) {
  return db
    .selectFrom('site as s')
    .leftJoin('city_group as g', 'g.id', 's.city_group_id')
    .selectAll('s')
    .select(['g.id as group_id', 'g.name as group_name', 'g.type as group_type']);
}

export type SiteRow = Awaited<ReturnType<ReturnType<typeof selectSites>['executeTakeFirstOrThrow']>>;

/** Every site (of one type, when given), in no particular order. */
export async function findSites(db: Kysely<DB>, type: SiteRow['type'] | undefined): Promise<SiteRow[]> {
  return selectSites(db).$if(type !== undefined, (q) => q.where('s.type', '=', type!)).execute();
}

export async function findSiteBySlug(db: Kysely<DB>, slug: string): Promise<SiteRow | null> {
  return (await selectSites(db).where('s.slug', '=', slug).executeTakeFirst()) ?? null;
}

export async function findSiteById(db: Kysely<DB>, id: string): Promise<SiteRow | null> {
  return (await selectSites(db).where('s.id', '=', id).executeTakeFirst()) ?? null;
}

/** The sites of a city group, in no particular order (the admin API). */
export async function findSitesOfGroup(db: Kysely<DB>, cityGroupId: string): Promise<SiteRow[]> {
  return selectSites(db).where('s.city_group_id', '=', cityGroupId).execute();
}

// ---------------------------------------------------------------- pages

const pageSummaryColumns = [
  'id',
  'site_id',
  'title',
  'slug',
  'seo_title',
  'seo_description',
  'published_at',
  'created_at',
  'updated_at',
] as const;
const pageColumns = [...pageSummaryColumns, 'content'] as const;

export type PageSummaryRow = Pick<Selectable<PageTable>, (typeof pageSummaryColumns)[number]>;
export type PageRow = Pick<Selectable<PageTable>, (typeof pageColumns)[number]>;

/** Published pages, judged against `now` (the request's time, not the import's). */
function selectPublishedPages(db: Kysely<DB>, now: Date) {
  return db.selectFrom('page').where('published_at', 'is not', null).where('published_at', '<=', now);
}

/** Every published page of a site, without content, in no particular order. */
export async function findPublishedPageSummaries(db: Kysely<DB>, siteId: string, now: Date): Promise<PageSummaryRow[]> {
  return selectPublishedPages(db, now).where('site_id', '=', siteId).select(pageSummaryColumns).execute();
}

/** The published pages among `ids`, with content, in no particular order. */
export async function findPublishedPagesById(db: Kysely<DB>, ids: string[], now: Date): Promise<PageRow[]> {
  if (ids.length === 0) return [];
  return selectPublishedPages(db, now).where('id', 'in', ids).select(pageColumns).execute();
}

export async function findPublishedPage(db: Kysely<DB>, id: string, now: Date): Promise<PageRow | null> {
  return (await selectPublishedPages(db, now).where('id', '=', id).select(pageColumns).executeTakeFirst()) ?? null;
}

/** When the next scheduled page becomes public: the earliest `publishedAt` after `now`. */
export async function nextPagePublication(db: Kysely<DB>, now: Date): Promise<Date | null> {
  const row = await db.selectFrom('page').select((eb) => eb.fn.min('published_at').as('next')).where('published_at', '>', now).executeTakeFirst();
  return row?.next ? new Date(row.next) : null;
}

// ---------------------------------------------------------------- menus

export type MenuRow = Pick<Selectable<MenuTable>, 'id' | 'name' | 'location'>;

export type MenuItemRow = Selectable<MenuItemTable> & {
  /** Whether the linked page exists and is published now; null when the item links to no page. */
  page_published: boolean | null;
};

function selectMenusOfSite(db: Kysely<DB>, siteId: string) {
  return db.selectFrom('menu').select(['id', 'name', 'location']).where('site_id', '=', siteId);
}

/** The menus of a site, in no particular order. */
export async function findMenusOfSite(db: Kysely<DB>, siteId: string): Promise<MenuRow[]> {
  return selectMenusOfSite(db, siteId).execute();
}

export async function findMenuByLocation(db: Kysely<DB>, siteId: string, location: string): Promise<MenuRow | null> {
  return (await selectMenusOfSite(db, siteId).where('location', '=', location).executeTakeFirst()) ?? null;
}

export async function findMenuById(db: Kysely<DB>, siteId: string, menuId: string): Promise<MenuRow | null> {
  return (await selectMenusOfSite(db, siteId).where('id', '=', menuId).executeTakeFirst()) ?? null;
}

/** The items of a set of menus in one query, each told whether its page is published at `now`. */
export async function findMenuItems(db: Kysely<DB>, menuIds: string[], now: Date): Promise<MenuItemRow[]> {
  if (menuIds.length === 0) return [];
  const rows = await db
    .selectFrom('menu_item as i')
    .leftJoin('page as p', 'p.id', 'i.page_id')
    .selectAll('i')
    .select('p.published_at')
    .where('i.menu_id', 'in', menuIds)
    .execute();
  return rows.map(({ published_at, ...item }) => ({
    ...item,
    page_published: item.page_id === null ? null : published_at !== null && published_at.getTime() <= now.getTime(),
  }));
}
