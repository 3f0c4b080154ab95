import { iso, timestamps } from '../kernel/french.ts';
import type { MenuItemRow, MenuRow, PageRow, PageSummaryRow, SiteRow } from './repository.ts';
import type { Menu, MenuItem, Page, PageSummary, Site } from './schemas.ts';

/** CMS rows to the API shapes of the contract: sites, pages, menus and their items. */

export function toSite(row: SiteRow): Site {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    type: row.type,
    domain: row.domain,
    settings: row.settings ?? {},
    cityGroup: row.group_id ? { id: row.group_id, name: row.group_name!, type: row.group_type! } : null,
    ...timestamps(row),
  };
}

/** A published page (its publishedAt is set) without its content. */
export function toPageSummary(row: PageSummaryRow): PageSummary {
  return {
    id: row.id,
    siteId: row.site_id,
    title: row.title,
    slug: row.slug,
    seoTitle: row.seo_title,
    seoDescription: row.seo_description,
    publishedAt: iso(row.published_at)!,
    ...timestamps(row),
  };
}

export function toPage(row: PageRow): Page {
  return { ...toPageSummary(row), content: row.content };
}

export function toMenuItem(row: Omit<MenuItemRow, 'page_published'>, children: MenuItem[]): MenuItem {
  return { id: row.id, label: row.label, linkType: row.link_type, pageId: row.page_id, externalUrl: row.external_url, children };
}

export function toMenu(row: MenuRow, items: MenuItem[]): Menu {
  return { id: row.id, name: row.name, location: row.location, items };
}
