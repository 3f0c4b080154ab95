import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DB, MenuItemTable, MenuTable, PageTable, SiteTable } from '../db/types.ts';
import { childRecords } from '../db/child-records.ts';
import { countReferences, recordsById } from '../db/records.ts';
import { findSiteById, findSitesOfGroup, type SiteRow } from './repository.ts';

/**
 * The admin API's CMS storage: sites, pages (drafts too), menus and their items, as rows, each found with the site
 * (and so the city group) it belongs to. Lists come unordered: the order is the kernel's French rule, applied by the
 * admin stores as by the public service.
 */

/** The site a page, menu or item belongs to, with its group (null: a site of no group, for super admins only). */
export interface SiteOwner {
  siteId: string;
  cityGroupId: string | null;
}

type Db = Kysely<DB>;

export async function findSiteOwner(db: Db, siteId: string): Promise<SiteOwner | undefined> {
  return db.selectFrom('site').select(['id as siteId', 'city_group_id as cityGroupId']).where('id', '=', siteId).executeTakeFirst();
}

// ---------------------------------------------------------------- sites

export async function findSite(db: Db, id: string, options: { forUpdate?: boolean } = {}): Promise<SiteRow | undefined> {
  if (options.forUpdate) await db.selectFrom('site').select('id').where('id', '=', id).forUpdate().execute();
  return (await findSiteById(db, id)) ?? undefined;
}

export const findGroupSites = findSitesOfGroup;

/** The site holding `slug`, if any. */
export async function siteWithSlug(db: Db, slug: string): Promise<string | undefined> {
  return (await db.selectFrom('site').select('id').where('slug', '=', slug).executeTakeFirst())?.id;
}

export async function insertSite(db: Db, values: Insertable<SiteTable>): Promise<void> {
  await db.insertInto('site').values(values).execute();
}

export async function updateSite(db: Db, id: string, values: Updateable<SiteTable>): Promise<void> {
  await db.updateTable('site').set(values).where('id', '=', id).execute();
}

/** What a site still holds: its pages and menus. */
export const countSiteContents = (db: Db, siteId: string): Promise<{ pages: number; menus: number }> =>
  countReferences(db, siteId, { pages: 'page.site_id', menus: 'menu.site_id' });

export const deleteSite: (db: Db, id: string) => Promise<void> = recordsById('site').remove;

// ---------------------------------------------------------------- pages

export type AdminPageRow = Selectable<PageTable>;

export const { find: findPage, under: findSitePages, insert: insertPage, update: updatePage, remove: deletePage } =
  childRecords('page', 'site_id', findSiteOwner);

/** The page of the site holding `slug`, if any. */
export async function pageWithSlug(db: Db, siteId: string, slug: string): Promise<string | undefined> {
  return (await db.selectFrom('page').select('id').where('site_id', '=', siteId).where('slug', '=', slug).executeTakeFirst())?.id;
}

export async function sitePageIds(db: Db, siteId: string): Promise<Set<string>> {
  return new Set((await db.selectFrom('page').select('id').where('site_id', '=', siteId).execute()).map((row) => row.id));
}

/** How many menu items link to the page. */
export async function countPageLinks(db: Db, pageId: string): Promise<number> {
  const [{ links }] = await db.selectFrom('menu_item').select((eb) => eb.fn.countAll<string>().as('links')).where('page_id', '=', pageId).execute();
  return Number(links);
}

// ---------------------------------------------------------------- menus and their items

export type AdminMenuRow = Selectable<MenuTable>;
export type AdminMenuItemRow = Selectable<MenuItemTable>;

/** A menu is deleted with its items (foreign key). */
export const { find: findMenu, under: findSiteMenus, insert: insertMenu, update: updateMenu, remove: deleteMenu } =
  childRecords('menu', 'site_id', findSiteOwner);

/** The menu of the site at `location`, if any. */
export async function menuAtLocation(db: Db, siteId: string, location: string): Promise<string | undefined> {
  return (await db.selectFrom('menu').select('id').where('site_id', '=', siteId).where('location', '=', location).executeTakeFirst())?.id;
}

/** A menu as the parent of its items: with its site and the site's group. */
export interface MenuOwner extends SiteOwner {
  menuId: string;
}

export async function findMenuOwner(db: Db, menuId: string): Promise<MenuOwner | undefined> {
  const menu = await findMenu(db, menuId);
  return menu && { menuId: menu.row.id, ...menu.owner };
}

/** An item is deleted with its sub-items (foreign key). */
export const { find: findMenuItem, insert: insertMenuItem, update: updateMenuItem, remove: deleteMenuItem } =
  childRecords('menu_item', 'menu_id', findMenuOwner);

/** Every item of the menus, in no particular order. */
export async function findItemsOfMenus(db: Db, menuIds: readonly string[]): Promise<AdminMenuItemRow[]> {
  if (menuIds.length === 0) return [];
  return db.selectFrom('menu_item').selectAll().where('menu_id', 'in', menuIds).execute();
}
