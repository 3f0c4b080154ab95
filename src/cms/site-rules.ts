import type { RecordFault } from '../domain/rules/faults.ts';
import { mdxContentFaults } from '../domain/rules/mdx.ts';
import { bundleMessages } from '../kernel/validation-messages.ts';
import { isAllowedLink, linkProtocol } from '../kernel/links.ts';

/**
 * The rules of a site's records once their shape is right (see src/domain/rules/cities.ts), for the admin API and
 * the import bundle alike: a page's MDX, a menu item's link and, for the admin API where an item names its parent
 * (the bundle nests them), its place in its menu.
 */

/** A page's content compiles as MDX ('' when absent). */
export function pageFaults(page: { content?: string | null }): Promise<RecordFault[]> {
  return mdxContentFaults(page.content ?? '');
}

/** What a menu item may link to: the pages of its menu's site. */
export interface SitePages {
  pageIds: ReadonlySet<string>;
}

/**
 * PAGE links to a page of the site, EXTERNAL to an absolute http, https, mailto or tel URL (kernel/links.ts: never
 * `javascript:` or `data:`, which would run in the citizens' app); a link type leaves the other field null.
 */
export function menuItemFaults(
  item: { linkType: 'PAGE' | 'EXTERNAL' | 'NONE'; pageId?: string | null; externalUrl?: string | null },
  site: SitePages,
): RecordFault[] {
  const faults: RecordFault[] = [];
  const fault = (path: 'pageId' | 'externalUrl', message: string) => faults.push({ path, message });
  if (item.linkType === 'PAGE') {
    if (item.pageId == null) fault('pageId', bundleMessages.requiredForLinkType('PAGE'));
    else if (!site.pageIds.has(item.pageId)) fault('pageId', bundleMessages.notAPageOfTheSite(item.pageId));
  } else if (item.pageId != null) {
    fault('pageId', bundleMessages.nullUnlessLinkType('PAGE'));
  }
  if (item.linkType === 'EXTERNAL') {
    if (item.externalUrl == null) fault('externalUrl', bundleMessages.requiredForLinkType('EXTERNAL'));
    else if (linkProtocol(item.externalUrl) === null) fault('externalUrl', bundleMessages.notAnAbsoluteUrl);
    else if (!isAllowedLink(item.externalUrl)) fault('externalUrl', bundleMessages.linkProtocolNotAllowed(linkProtocol(item.externalUrl)!));
  } else if (item.externalUrl != null) {
    fault('externalUrl', bundleMessages.nullUnlessLinkType('EXTERNAL'));
  }
  return faults;
}

/** The items of one menu, each with its parent: where an item may hang. */
export interface MenuItems {
  parentOf: ReadonlyMap<string, string | null>;
}

/**
 * An item's parent is an item of the same menu, and never the item itself or one of its descendants (a cycle would
 * hide the whole branch from citizens). The bundle nests items, so it cannot break this; the admin API names parents.
 */
export function menuItemParentFaults(item: { id: string; parentId: string | null }, menu: MenuItems): RecordFault[] {
  if (item.parentId === null) return [];
  if (!menu.parentOf.has(item.parentId)) return [{ path: 'parentId', message: bundleMessages.notAnItemOfTheMenu(item.parentId) }];
  const seen = new Set<string>();
  for (let at: string | null = item.parentId; at !== null && !seen.has(at); at = menu.parentOf.get(at) ?? null) {
    if (at === item.id) return [{ path: 'parentId', message: bundleMessages.menuItemCycle }];
    seen.add(at);
  }
  return [];
}
