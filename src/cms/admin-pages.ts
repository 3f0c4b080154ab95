import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { assertNoFault, eachRow, type AdminStore } from '../admin/store.ts';
import { pageFaults } from './site-rules.ts';
import { errors } from '../kernel/errors.ts';
import { compareFrench, compareIds, iso, timestamps } from '../kernel/french.ts';
import { pageOf } from '../kernel/pagination.ts';
import { bundleMessages } from '../kernel/validation-messages.ts';
import * as repo from './admin-repository.ts';
import type { AdminPageRow, SiteOwner } from './admin-repository.ts';
import { underSite, uniqueField } from './admin-write.ts';
import type { AdminPage, CreatePageInput, PagePatch } from './admin-schemas.ts';

/**
 * The admin API's pages (docs/api.md, the admin API): created under their site, then read, changed and deleted at
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
    ...timestamps(row),
  };
}

/** The public order (newest publishedAt first, then title, then id), unpublished pages last. */
function byNewestThenTitle(a: AdminPageRow, b: AdminPageRow): number {
  const time = (row: AdminPageRow) => row.published_at?.getTime() ?? -Infinity;
  return time(b) - time(a) || compareFrench(a.title, b.title) || compareIds(a, b);
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
  ...underSite(repo.findPage, async (db, siteId, page) => pageOf((await repo.findSitePages(db, siteId)).sort(byNewestThenTitle), page), eachRow(toAdminPage)),
  async insert(trx, { subject: site, now }, input) {
    const id = randomUUID();
    const fields = { content: '', seoTitle: null, seoDescription: null, publishedAt: null, ...input };
    await assertValid(trx, { ...fields, id, siteId: site!.siteId });
    return uniqueField('slug', () => repo.insertPage(trx, id, site!.siteId, { ...columns(fields, now), created_at: now }));
  },
  async update(trx, { subject, now }, patch) {
    const fields = { ...subject.record, ...patch };
    if (patch.slug !== undefined || patch.content !== undefined) await assertValid(trx, fields);
    return uniqueField('slug', () => repo.updatePage(trx, subject.row.id, columns(fields, now)));
  },
  async remove(trx, { subject }) {
    const links = await repo.countPageLinks(trx, subject.row.id);
    if (links > 0) throw errors.pageInMenus(links);
    await repo.deletePage(trx, subject.row.id);
  },
};
