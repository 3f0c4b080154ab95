import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { ownedBy, type AdminStore, type Found } from '../auth/admin-store.ts';
import { pageFaults } from '../bundle/rules/sites.ts';
import { errors } from '../kernel/errors.ts';
import { compareFrench, iso } from '../kernel/french.ts';
import { pageWindow } from '../kernel/pagination.ts';
import { bundleMessages } from '../kernel/validation-messages.ts';
import * as repo from './admin-repository.ts';
import type { AdminPageRow, SiteOwner } from './admin-repository.ts';
import { assertNoFault, uniqueField } from './admin-write.ts';
import type { AdminPage, CreatePageInput, PagePatch } from './admin-schemas.ts';

/**
 * The admin API's pages (CONTRACT section 13): created under their site, then read, changed and deleted at
 * `/admin/pages/:id`. A page is a draft while `publishedAt` is null and public from that time (a later one schedules
 * it: it appears at its time on every instance, see src/http/data-version.ts). Its content must compile as MDX and
 * its slug be unique in its site (the bundle's rules). A page still linked by a menu item is not deleted (409): the
 * item would be left pointing nowhere, a PAGE link without a page, which the bundle's rules refuse.
 */

export function toAdminPage(row: AdminPageRow): AdminPage {
  return {
    id: row.id,
    siteId: row.site_id,
    title: row.title,
    slug: row.slug,
    content: row.content,
    seoTitle: row.seo_title,
    seoDescription: row.seo_description,
    publishedAt: iso(row.published_at),
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

/** The public order (newest publishedAt first, then title, then id), unpublished pages last. */
function byNewestThenTitle(a: AdminPageRow, b: AdminPageRow): number {
  const time = (row: AdminPageRow) => row.published_at?.getTime() ?? -Infinity;
  return time(b) - time(a) || compareFrench(a.title, b.title) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

async function assertValid(db: Kysely<DB>, page: { id: string; siteId: string; slug: string; content: string }) {
  const holder = await repo.pageWithSlug(db, page.siteId, page.slug);
  if (holder !== undefined && holder !== page.id) assertNoFault([{ path: 'slug', message: bundleMessages.pageSlugTaken(page.slug, holder) }]);
  assertNoFault(await pageFaults(page));
}

type PageFields = Omit<AdminPage, 'id' | 'siteId' | 'createdAt' | 'updatedAt'>;

const columns = (p: PageFields, now: Date) => ({
  title: p.title,
  slug: p.slug,
  content: p.content,
  seo_title: p.seoTitle,
  seo_description: p.seoDescription,
  published_at: p.publishedAt === null ? null : new Date(p.publishedAt),
  updated_at: now,
});

export const pageStore: AdminStore<AdminPageRow, AdminPage, SiteOwner, CreatePageInput, PagePatch> = {
  entity: 'page',
  notFound: errors.pageNotFound,
  parentNotFound: errors.siteNotFound,
  findParent: async (db, siteId): Promise<Found<SiteOwner> | undefined> => {
    const site = await repo.findSiteOwner(db, siteId);
    return site && { row: site, groupIds: [site.cityGroupId] };
  },
  find: async (db, id, options) => ownedBy(await repo.findPage(db, id, options)),
  async list(db, site, page) {
    const all = (await repo.findSitePages(db, site!.siteId)).sort(byNewestThenTitle);
    const window = pageWindow(page, all.length);
    return { rows: window ? all.slice(window.offset, window.offset + window.limit) : [], total: all.length };
  },
  show: async (_db, rows) => rows.map(toAdminPage),
  async insert(trx, { subject: site, now }, input) {
    const id = randomUUID();
    const fields = { content: '', seoTitle: null, seoDescription: null, publishedAt: null, ...input };
    await assertValid(trx, { ...fields, id, siteId: site!.siteId });
    await uniqueField('slug', () => repo.insertPage(trx, { id, site_id: site!.siteId, ...columns(fields, now), created_at: now }));
    return (await repo.findPage(trx, id))!.row;
  },
  async update(trx, { subject, now }, patch) {
    const fields = { ...subject.record, ...patch };
    if (patch.slug !== undefined || patch.content !== undefined) await assertValid(trx, fields);
    await uniqueField('slug', () => repo.updatePage(trx, subject.row.id, columns(fields, now)));
    return (await repo.findPage(trx, subject.row.id))!.row;
  },
  async remove(trx, { subject }) {
    const links = await repo.countPageLinks(trx, subject.row.id);
    if (links > 0) throw errors.pageInMenus(links);
    await repo.deletePage(trx, subject.row.id);
  },
};
