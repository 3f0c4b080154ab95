import { sql, type Kysely } from 'kysely';
import type { DB, MenuLinkType } from '../db/types.ts';
import { iso } from '../kernel/french.ts';
import type { Page, PageSummary, Site, SiteType } from './schemas.ts';

/** ICU root collation: present on PGlite and PostgreSQL alike, and it orders French names as French readers expect. */
const byName = (column: string) => sql`${sql.ref(column)} collate "und-x-icu"`;

// ---------------------------------------------------------------- sites

function selectSites(db: Kysely<DB>) {
  return db
    .selectFrom('site as s')
    .leftJoin('city_group as g', 'g.id', 's.city_group_id')
    .select([
      's.id',
      's.name',
      's.slug',
      's.type',
      's.domain',
      's.settings',
      's.theme',
      's.created_at',
      's.updated_at',
      'g.id as group_id',
      'g.name as group_name',
      'g.type as group_type',
    ]);
}

export type SiteRow = Awaited<ReturnType<ReturnType<typeof selectSites>['executeTakeFirstOrThrow']>>;

export function toSite(row: SiteRow): Site {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    type: row.type,
    domain: row.domain,
    settings: row.settings ?? {},
    cityGroup: row.group_id ? { id: row.group_id, name: row.group_name!, type: row.group_type! } : null,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

export async function countSites(db: Kysely<DB>, type: SiteType | undefined): Promise<number> {
  const { n } = await db
    .selectFrom('site')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .$if(type !== undefined, (q) => q.where('type', '=', type!))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Sites by name (French collation), then id so that pages never overlap. */
export async function findSites(
  db: Kysely<DB>,
  type: SiteType | undefined,
  window: { limit: number; offset: number },
): Promise<SiteRow[]> {
  return selectSites(db)
    .$if(type !== undefined, (q) => q.where('s.type', '=', type!))
    .orderBy(byName('s.name'))
    .orderBy('s.id')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
}

export async function findSiteBySlug(db: Kysely<DB>, slug: string): Promise<SiteRow | null> {
  return (await selectSites(db).where('s.slug', '=', slug).executeTakeFirst()) ?? null;
}

// ---------------------------------------------------------------- pages

const pageColumns = [
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

interface PageSummaryRow {
  id: string;
  site_id: string;
  title: string;
  slug: string;
  seo_title: string | null;
  seo_description: string | null;
  published_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

function toPageSummary(row: PageSummaryRow): PageSummary {
  return {
    id: row.id,
    siteId: row.site_id,
    title: row.title,
    slug: row.slug,
    seoTitle: row.seo_title,
    seoDescription: row.seo_description,
    publishedAt: iso(row.published_at)!,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

function toPage(row: PageSummaryRow & { content: string }): Page {
  return { ...toPageSummary(row), content: row.content };
}

/** Published pages of a site, judged against `now` (the request's time, not the import's). */
function selectPublishedPages(db: Kysely<DB>, now: Date) {
  return db.selectFrom('page').where('published_at', 'is not', null).where('published_at', '<=', now);
}

export async function countPublishedPages(db: Kysely<DB>, siteId: string, now: Date): Promise<number> {
  const { n } = await selectPublishedPages(db, now)
    .where('site_id', '=', siteId)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Newest publishedAt first; ties by title then id so that pages never overlap. */
export async function findPublishedPages(
  db: Kysely<DB>,
  siteId: string,
  now: Date,
  window: { limit: number; offset: number },
): Promise<Page[]> {
  const rows = await selectPublishedPages(db, now)
    .where('site_id', '=', siteId)
    .select([...pageColumns, 'content'])
    .orderBy('published_at', 'desc')
    .orderBy(byName('title'))
    .orderBy('id')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return rows.map(toPage);
}

/** Every published page of a site, without content (the app configuration). */
export async function findPublishedPageSummaries(db: Kysely<DB>, siteId: string, now: Date): Promise<PageSummary[]> {
  const rows = await selectPublishedPages(db, now)
    .where('site_id', '=', siteId)
    .select(pageColumns)
    .orderBy('published_at', 'desc')
    .orderBy(byName('title'))
    .orderBy('id')
    .execute();
  return rows.map(toPageSummary);
}

export async function findPublishedPage(db: Kysely<DB>, id: string, now: Date): Promise<Page | null> {
  const row = await selectPublishedPages(db, now)
    .where('id', '=', id)
    .select([...pageColumns, 'content'])
    .executeTakeFirst();
  return row ? toPage(row) : null;
}

// ---------------------------------------------------------------- menus

export interface MenuRow {
  id: string;
  name: string;
  location: string;
}

export interface MenuItemRow {
  id: string;
  menu_id: string;
  parent_id: string | null;
  label: string;
  link_type: MenuLinkType;
  page_id: string | null;
  external_url: string | null;
  order: number;
  /** Whether the linked page exists and is published now; null when the item links to no page. */
  page_published: boolean | null;
}

export async function findMenusOfSite(db: Kysely<DB>, siteId: string): Promise<MenuRow[]> {
  return db
    .selectFrom('menu')
    .select(['id', 'name', 'location'])
    .where('site_id', '=', siteId)
    .orderBy(byName('name'))
    .orderBy('id')
    .execute();
}

export async function findMenuByLocation(db: Kysely<DB>, siteId: string, location: string): Promise<MenuRow | null> {
  const row = await db
    .selectFrom('menu')
    .select(['id', 'name', 'location'])
    .where('site_id', '=', siteId)
    .where('location', '=', location)
    .executeTakeFirst();
  return row ?? null;
}

export async function findMenuById(db: Kysely<DB>, siteId: string, menuId: string): Promise<MenuRow | null> {
  const row = await db
    .selectFrom('menu')
    .select(['id', 'name', 'location'])
    .where('site_id', '=', siteId)
    .where('id', '=', menuId)
    .executeTakeFirst();
  return row ?? null;
}

/** The items of a set of menus in one query, each told whether its page is published at `now`. */
export async function findMenuItems(db: Kysely<DB>, menuIds: string[], now: Date): Promise<MenuItemRow[]> {
  if (menuIds.length === 0) return [];
  const rows = await db
    .selectFrom('menu_item as i')
    .leftJoin('page as p', 'p.id', 'i.page_id')
    .select([
      'i.id',
      'i.menu_id',
      'i.parent_id',
      'i.label',
      'i.link_type',
      'i.page_id',
      'i.external_url',
      'i.order',
      'p.published_at',
    ])
    .where('i.menu_id', 'in', menuIds)
    .execute();
  return rows.map(({ published_at, ...item }) => ({
    ...item,
    page_published: item.page_id === null ? null : published_at !== null && published_at.getTime() <= now.getTime(),
  }));
}
