import type { Menu, MenuItem } from './schemas.ts';
import type { MenuItemRow, MenuRow } from './repository.ts';
import { compareFrench, compareIds } from '../kernel/french.ts';
import { isAllowedLink } from '../kernel/links.ts';
import { toMenu, toMenuItem } from './mapper.ts';

/**
 * An item is shown unless it leads to a page citizens may not see: a page item whose page is gone,
 * or any item whose page is not published yet. Its children go with it, since they sit under a
 * heading that points nowhere. An external link that is not http, https, mailto or tel (stored before writes
 * refused them: `javascript:`…) is never served either.
 */
export function isItemVisible(item: MenuItemRow): boolean {
  if (item.page_id !== null) return item.page_published === true;
  if (item.external_url !== null && !isAllowedLink(item.external_url)) return false;
  return item.link_type !== 'PAGE';
}

/** What a tree is built from: an item's own columns (the public API adds whether its page is published). */
type TreeRow = Omit<MenuItemRow, 'page_published'>;

function bySiblingOrder(a: TreeRow, b: TreeRow): number {
  return a.order - b.order || compareFrench(a.label, b.label) || compareIds(a, b);
}

/**
 * Builds the item trees of several menus from their flat rows (one query for all of them).
 * Only items reachable from a visible root through visible items are kept, so a hidden item hides
 * its whole branch, and a parent loop or a parent in another menu cannot make an item appear twice.
 * Citizens see the items `isItemVisible` keeps; the admin API sees every item.
 */
export function buildMenus<R extends TreeRow>(menus: MenuRow[], rows: R[], visible: (row: R) => boolean): Menu[] {
  const childrenOf = new Map<string, R[]>();
  const rootsOf = new Map<string, R[]>();
  const ids = new Set(rows.map((r) => r.id));
  for (const row of rows) {
    if (row.parent_id !== null && ids.has(row.parent_id)) {
      const list = childrenOf.get(row.parent_id) ?? [];
      list.push(row);
      childrenOf.set(row.parent_id, list);
    } else if (row.parent_id === null) {
      const list = rootsOf.get(row.menu_id) ?? [];
      list.push(row);
      rootsOf.set(row.menu_id, list);
    }
  }

  const placed = new Set<string>();
  const toTree = (siblings: R[], menuId: string): MenuItem[] =>
    siblings
      .filter((row) => row.menu_id === menuId && visible(row) && !placed.has(row.id))
      .sort(bySiblingOrder)
      .map((row) => {
        placed.add(row.id);
        return toMenuItem(row, toTree(childrenOf.get(row.id) ?? [], menuId));
      });

  return menus.map((menu) => toMenu(menu, toTree(rootsOf.get(menu.id) ?? [], menu.id)));
}
