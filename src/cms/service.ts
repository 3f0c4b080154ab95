import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { errors } from '../kernel/errors.ts';
import { buildMenus } from './menu-tree.ts';
import { pageMeta, pageWindow, type PageMeta, type PageRequest } from '../kernel/pagination.ts';
import * as repo from './repository.ts';
import type { App, Menu, Page, Site, SiteType } from './schemas.ts';

export interface Listing<T> {
  data: T[];
  meta: PageMeta;
}

export async function listSites(db: Kysely<DB>, paging: PageRequest, type: SiteType | undefined): Promise<Listing<Site>> {
  const total = await repo.countSites(db, type);
  const window = pageWindow(paging, total);
  const rows = window ? await repo.findSites(db, type, window) : [];
  return { data: rows.map(repo.toSite), meta: pageMeta(paging, total) };
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
  return repo.toSite(site);
}

async function appOr404(db: Kysely<DB>, slug: string): Promise<repo.SiteRow> {
  const site = await repo.findSiteBySlug(db, slug);
  if (!site || site.type !== 'APP') throw errors.appNotFound();
  return site;
}

async function menusWithItems(db: Kysely<DB>, menus: repo.MenuRow[], now: Date): Promise<Menu[]> {
  const items = await repo.findMenuItems(
    db,
    menus.map((m) => m.id),
    now,
  );
  return buildMenus(menus, items);
}

/** Everything a mobile app needs at start-up: its theme, its published pages, its menus and where the API is. */
export async function getAppConfig(db: Kysely<DB>, slug: string, now: Date, apiUrl: string): Promise<App> {
  const app = await appOr404(db, slug);
  const [pages, menuRows] = await Promise.all([
    repo.findPublishedPageSummaries(db, app.id, now),
    repo.findMenusOfSite(db, app.id),
  ]);
  return {
    id: app.id,
    name: app.name,
    slug: app.slug,
    theme: app.theme,
    pages,
    apiUrl,
    menus: await menusWithItems(db, menuRows, now),
  };
}

export async function getAppMenu(db: Kysely<DB>, slug: string, menuId: string, now: Date): Promise<Menu> {
  const app = await appOr404(db, slug);
  const menu = await repo.findMenuById(db, app.id, menuId);
  if (!menu) throw errors.menuNotFound();
  const [tree] = await menusWithItems(db, [menu], now);
  return tree;
}

export async function listSitePages(db: Kysely<DB>, slug: string, paging: PageRequest, now: Date): Promise<Listing<Page>> {
  const site = await siteOr404(db, slug);
  const total = await repo.countPublishedPages(db, site.id, now);
  const window = pageWindow(paging, total);
  const data = window ? await repo.findPublishedPages(db, site.id, now, window) : [];
  return { data, meta: pageMeta(paging, total) };
}

export async function getPublishedPage(db: Kysely<DB>, id: string, now: Date): Promise<Page> {
  const page = await repo.findPublishedPage(db, id, now);
  if (!page) throw errors.pageNotFound();
  return page;
}

export async function listSiteMenus(db: Kysely<DB>, slug: string, now: Date): Promise<Menu[]> {
  const site = await siteOr404(db, slug);
  return menusWithItems(db, await repo.findMenusOfSite(db, site.id), now);
}

export async function getSiteMenu(db: Kysely<DB>, slug: string, location: string, now: Date): Promise<Menu> {
  const site = await siteOr404(db, slug);
  const menu = await repo.findMenuByLocation(db, site.id, location);
  if (!menu) throw errors.menuNotFound();
  const [tree] = await menusWithItems(db, [menu], now);
  return tree;
}
