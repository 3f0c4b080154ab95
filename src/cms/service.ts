import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { errors } from '../kernel/errors.ts';
import { compareFrench, compareIds, sortByText } from '../kernel/french.ts';
import { pageMeta, pageOf, type PageMeta, type PageRequest } from '../kernel/pagination.ts';
import { toPage, toPageSummary, toSite } from './mapper.ts';
import { buildMenus, isItemVisible } from './menu-tree.ts';
import * as repo from './repository.ts';
import type { App, Menu, Page, Site, SiteType } from './schemas.ts';

/**
 * The CMS rules between the routes and the storage.
 *
 * Orders by a text (sites and menus by name, pages of the same date by title) follow the one French rule of
 * docs/api.md, conventions, the kernel's `compareFrench`, applied here and not in SQL. The ICU collation both databases
 * offer (`collate "und-x-icu"`) orders digits one by one, "Page 10" before "Page 2", where the rule orders numbers
 * naturally, and its ICU version is the database's, not Node's: an SQL order would be a second rule that only
 * approximates the first (test/cms/ordering.test.ts holds the inputs where they part). These lists are small (the
 * sites of one deployment, the pages and menus of one site), so they are read whole (pages without their content),
 * sorted by the rule, then paged.
 */

export interface Listing<T> {
  data: T[];
  meta: PageMeta;
}

/** The page `paging` asks for of a list already in its order, and the listing's meta. */
function listingPage<T>(ordered: T[], paging: PageRequest): { items: T[]; meta: PageMeta } {
  const { rows, total } = pageOf(ordered, paging);
  return { items: rows, meta: pageMeta(paging, total) };
}

/** Newest publishedAt first; pages of the same date by title, then id, so that pages never overlap. */
function byNewestThenTitle(a: repo.PageSummaryRow, b: repo.PageSummaryRow): number {
  return b.published_at!.getTime() - a.published_at!.getTime() || compareFrench(a.title, b.title) || compareIds(a, b);
}

async function publishedPagesInOrder(db: Kysely<DB>, siteId: string, now: Date): Promise<repo.PageSummaryRow[]> {
  return (await repo.findPublishedPageSummaries(db, siteId, now)).sort(byNewestThenTitle);
}

/** Sites by name, then id. */
export async function listSites(db: Kysely<DB>, paging: PageRequest, type: SiteType | undefined): Promise<Listing<Site>> {
  const { items, meta } = listingPage(sortByText(await repo.findSites(db, type), (site) => site.name), paging);
  return { data: items.map(toSite), meta };
}

async function siteOr404(db: Kysely<DB>, slug: string): Promise<repo.SiteRow> {
  const site = await repo.findSiteBySlug(db, slug);
  if (!site) throw errors.siteNotFound();
  return site;
}

/** A site by slug; with `type`, a site of another type is as absent as an unknown one. */
export async function getSite(db: Kysely<DB>, slug: string, type: SiteType | undefined): Promise<Site> {
  const site = await repo.findSiteBySlug(db, slug);
  if (!site || (type !== undefined && site.type !== type)) throw errors.siteNotFound();
  return toSite(site);
}

async function appOr404(db: Kysely<DB>, slug: string): Promise<repo.SiteRow> {
  const site = await repo.findSiteBySlug(db, slug);
  if (!site || site.type !== 'APP') throw errors.appNotFound();
  return site;
}

async function menusWithItems(db: Kysely<DB>, menus: repo.MenuRow[], now: Date): Promise<Menu[]> {
  const items = await repo.findMenuItems(db, menus.map((m) => m.id), now);
  return buildMenus(menus, items, isItemVisible);
}

/** The menus of a site by name (then id), as trees. */
async function menusOfSite(db: Kysely<DB>, siteId: string, now: Date): Promise<Menu[]> {
  const menus = sortByText(await repo.findMenusOfSite(db, siteId), (menu) => menu.name);
  return menusWithItems(db, menus, now);
}

/** One menu as a tree; no menu (unknown, or of another site) answers 404. */
async function menuTree(db: Kysely<DB>, menu: repo.MenuRow | null, now: Date): Promise<Menu> {
  if (!menu) throw errors.menuNotFound();
  const [tree] = await menusWithItems(db, [menu], now);
  return tree;
}

/** Everything a mobile app needs at start-up: its theme, its published pages, its menus and where the API is. */
export async function getAppConfig(db: Kysely<DB>, slug: string, now: Date, apiUrl: string): Promise<App> {
  const app = await appOr404(db, slug);
  const [pages, menus] = await Promise.all([publishedPagesInOrder(db, app.id, now), menusOfSite(db, app.id, now)]);
  return { id: app.id, name: app.name, slug: app.slug, theme: app.theme, pages: pages.map(toPageSummary), apiUrl, menus };
}

export async function getAppMenu(db: Kysely<DB>, slug: string, menuId: string, now: Date): Promise<Menu> {
  const app = await appOr404(db, slug);
  return menuTree(db, await repo.findMenuById(db, app.id, menuId), now);
}

/** Published pages with their content, newest first: the order is taken on the summaries, the content read for one page. */
export async function listSitePages(db: Kysely<DB>, slug: string, paging: PageRequest, now: Date): Promise<Listing<Page>> {
  const site = await siteOr404(db, slug);
  const { items, meta } = listingPage(await publishedPagesInOrder(db, site.id, now), paging);
  const rows = new Map((await repo.findPublishedPagesById(db, items.map((p) => p.id), now)).map((row) => [row.id, row]));
  // A page deleted between the two reads is left out rather than shown without its content.
  const data = items.map((item) => rows.get(item.id)).filter((row) => row !== undefined);
  return { data: data.map(toPage), meta };
}

export async function getPublishedPage(db: Kysely<DB>, id: string, now: Date): Promise<Page> {
  const page = await repo.findPublishedPage(db, id, now);
  if (!page) throw errors.pageNotFound();
  return toPage(page);
}

export async function listSiteMenus(db: Kysely<DB>, slug: string, now: Date): Promise<Menu[]> {
  const site = await siteOr404(db, slug);
  return menusOfSite(db, site.id, now);
}

export async function getSiteMenu(db: Kysely<DB>, slug: string, location: string, now: Date): Promise<Menu> {
  const site = await siteOr404(db, slug);
  return menuTree(db, await repo.findMenuByLocation(db, site.id, location), now);
}
