import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { assertNoFault, eachRow, removeRow, type AdminStore } from '../admin/store.ts';
import { menuItemFaults, menuItemParentFaults } from './site-rules.ts';
import { errors } from '../kernel/errors.ts';
import { compareFrench, compareIds, sortByText } from '../kernel/french.ts';
import { pageOf } from '../kernel/pagination.ts';
import { bundleMessages } from '../kernel/validation-messages.ts';
import * as repo from './admin-repository.ts';
import type { AdminMenuItemRow, AdminMenuRow, MenuOwner, SiteOwner } from './admin-repository.ts';
import { underMenu, underSite, uniqueField } from './admin-write.ts';
import type {
  AdminMenu,
  AdminMenuItem,
  CreateMenuInput,
  CreateMenuItemInput,
  MenuItemPatch,
  MenuPatch,
} from './admin-schemas.ts';
import { buildMenus } from './menu-tree.ts';

/**
 * The admin API's menus and menu items (docs/api.md, the admin API). A menu is created under its site and shown with every
 * item as a tree (those linking to unpublished pages too, which citizens do not see); its location is unique in its
 * site. An item is created under its menu, names its parent (an item of the same menu, never itself nor one of its
 * sub-items) and links to a page of the menu's site or an absolute http, https, mailto or tel URL (the bundle's rules,
 * kernel/links.ts: a `javascript:` or `data:` link is a 400 at `externalUrl`). Deleting a menu deletes
 * its items, and deleting an item its sub-items, as the bundle does when it leaves them out.
 */

// ---------------------------------------------------------------- menus

async function withItems(db: Kysely<DB>, rows: AdminMenuRow[]): Promise<AdminMenu[]> {
  const trees = buildMenus(rows, await repo.findItemsOfMenus(db, rows.map((m) => m.id)), () => true);
  return rows.map((row, i) => ({ id: row.id, siteId: row.site_id, name: row.name, location: row.location, items: trees[i].items }));
}

async function assertLocationFree(db: Kysely<DB>, siteId: string, location: string, menuId: string) {
  const holder = await repo.menuAtLocation(db, siteId, location);
  if (holder !== undefined && holder !== menuId) {
    assertNoFault([{ path: 'location', message: bundleMessages.menuLocationTakenInSite(location, holder) }]);
  }
}

export const menuStore: AdminStore<AdminMenuRow, AdminMenu, SiteOwner, CreateMenuInput, MenuPatch> = {
  entity: 'menu',
  notFound: errors.menuNotFound,
  ...underSite(repo.findMenu, async (db, siteId, request) => pageOf(sortByText(await repo.findSiteMenus(db, siteId), (menu) => menu.name), request), withItems),
  async insert(trx, { subject: site }, input) {
    const id = randomUUID();
    await assertLocationFree(trx, site!.siteId, input.location, id);
    return uniqueField('location', () => repo.insertMenu(trx, id, site!.siteId, { name: input.name, location: input.location }));
  },
  async update(trx, { subject }, patch) {
    if (patch.location !== undefined) await assertLocationFree(trx, subject.row.site_id, patch.location, subject.row.id);
    const { name, location } = { ...subject.record, ...patch };
    return uniqueField('location', () => repo.updateMenu(trx, subject.row.id, { name, location }));
  },
  remove: removeRow(repo.deleteMenu),
};

// ---------------------------------------------------------------- menu items

export function toAdminMenuItem(row: AdminMenuItemRow): AdminMenuItem {
  return {
    id: row.id,
    menuId: row.menu_id,
    parentId: row.parent_id,
    label: row.label,
    linkType: row.link_type,
    pageId: row.page_id,
    externalUrl: row.external_url,
    order: row.order,
  };
}

/** A menu's items in the order of its tree: each item (by `order`, label, id) followed by its sub-items. */
function inTreeOrder(items: AdminMenuItemRow[]): AdminMenuItemRow[] {
  const ids = new Set(items.map((item) => item.id));
  const childrenOf = Map.groupBy(items, (item) => (item.parent_id !== null && ids.has(item.parent_id) ? item.parent_id : null));
  const bySibling = (a: AdminMenuItemRow, b: AdminMenuItemRow) =>
    a.order - b.order || compareFrench(a.label, b.label) || compareIds(a, b);
  const ordered: AdminMenuItemRow[] = [];
  const placed = new Set<string>();
  const visit = (siblings: AdminMenuItemRow[] | undefined) => {
    for (const item of [...(siblings ?? [])].sort(bySibling)) {
      if (placed.has(item.id)) continue;
      placed.add(item.id);
      ordered.push(item);
      visit(childrenOf.get(item.id));
    }
  };
  visit(childrenOf.get(null));
  // Items of a parent loop (only a hand-edited database holds one) come last rather than not at all.
  return [...ordered, ...items.filter((item) => !placed.has(item.id)).sort(bySibling)];
}

type ItemFields = Omit<AdminMenuItem, 'id' | 'menuId'>;

/** The item as it would be stored passes the bundle's rules: its link (a page of the site) and its parent (no cycle). */
async function assertValid(db: Kysely<DB>, menu: { id: string; siteId: string }, id: string, item: ItemFields) {
  assertNoFault(menuItemFaults(item, { pageIds: await repo.sitePageIds(db, menu.siteId) }));
  const items = await repo.findItemsOfMenus(db, [menu.id]);
  assertNoFault(menuItemParentFaults({ id, parentId: item.parentId }, { parentOf: new Map(items.map((i) => [i.id, i.parent_id])) }));
}

const itemColumns = (item: ItemFields) => ({
  parent_id: item.parentId,
  label: item.label,
  link_type: item.linkType,
  page_id: item.pageId,
  external_url: item.externalUrl,
  order: item.order,
});

export const menuItemStore: AdminStore<AdminMenuItemRow, AdminMenuItem, MenuOwner, CreateMenuItemInput, MenuItemPatch> = {
  entity: 'menuItem',
  notFound: errors.menuItemNotFound,
  ...underMenu(repo.findMenuItem, async (db, menuId, request) => pageOf(inTreeOrder(await repo.findItemsOfMenus(db, [menuId])), request), eachRow(toAdminMenuItem)),
  async insert(trx, { subject: menu }, input) {
    const id = randomUUID();
    const lower = (value: string | null | undefined) => value?.toLowerCase() ?? null;
    const item = { ...input, pageId: lower(input.pageId), parentId: lower(input.parentId), externalUrl: input.externalUrl ?? null, order: input.order ?? 0 };
    await assertValid(trx, { id: menu!.menuId, siteId: menu!.siteId }, id, item);
    return repo.insertMenuItem(trx, id, menu!.menuId, itemColumns(item));
  },
  async update(trx, { subject }, patch) {
    const item = { ...subject.record, ...patch };
    const fields = { ...item, pageId: item.pageId?.toLowerCase() ?? null, parentId: item.parentId?.toLowerCase() ?? null, externalUrl: item.externalUrl ?? null };
    const menu = (await repo.findMenu(trx, subject.row.menu_id))!;
    await assertValid(trx, { id: menu.row.id, siteId: menu.row.site_id }, subject.row.id, fields);
    return repo.updateMenuItem(trx, subject.row.id, itemColumns(fields));
  },
  remove: removeRow(repo.deleteMenuItem),
};
