import { randomUUID } from 'node:crypto';
import { assertNoFault, groupMovedTo, inGroup, underGroup, type AdminStore } from '../admin/store.ts';
import { errors } from '../kernel/errors.ts';
import { sortByText } from '../kernel/french.ts';
import { pageOf } from '../kernel/pagination.ts';
import { bundleMessages } from '../kernel/validation-messages.ts';
import * as repo from './admin-repository.ts';
import { uniqueField } from './admin-write.ts';
import type { AdminSite, CreateSiteInput, SitePatch } from './admin-schemas.ts';
import { toSite } from './mapper.ts';
import type { SiteRow } from './repository.ts';

/**
 * The admin API's CMS sites and apps (docs/api.md, the admin API): created under their city group, then read, changed and
 * deleted at `/admin/sites/:id`. A slug is unique across every site (the bundle's rule). A site that still has pages
 * or menus is not deleted (409): deleting them is a decision of its own, page by page, never a side effect.
 */

export const toAdminSite = (row: SiteRow): AdminSite => ({ ...toSite(row), theme: row.theme, cityGroupId: row.city_group_id });

async function assertSlugFree(db: Parameters<typeof repo.siteWithSlug>[0], slug: string, siteId: string) {
  const holder = await repo.siteWithSlug(db, slug);
  if (holder !== undefined && holder !== siteId) assertNoFault([{ path: 'slug', message: bundleMessages.slugTakenInDatabase(slug, holder) }]);
}

type SiteFields = Omit<AdminSite, 'id' | 'cityGroup' | 'createdAt' | 'updatedAt'>;

const columns = (s: SiteFields, now: Date) => ({
  name: s.name,
  slug: s.slug,
  type: s.type,
  domain: s.domain,
  settings: JSON.stringify(s.settings),
  theme: s.theme === null ? null : JSON.stringify(s.theme),
  city_group_id: s.cityGroupId,
  updated_at: now,
});

export const siteStore: AdminStore<SiteRow, AdminSite, { id: string }, CreateSiteInput, SitePatch> = {
  entity: 'site',
  notFound: errors.siteNotFound,
  ...underGroup,
  find: async (db, id, options) => inGroup(await repo.findSite(db, id, options)),
  list: async (db, group, page) => pageOf(sortByText(await repo.findGroupSites(db, group!.id), (site) => site.name), page),
  show: async (_db, rows) => rows.map(toAdminSite),
  async insert(trx, { subject: group, now }, input) {
    const id = randomUUID();
    await assertSlugFree(trx, input.slug, id);
    const fields = { domain: null, settings: {}, theme: null, ...input, cityGroupId: group!.id };
    await uniqueField('slug', () => repo.insertSite(trx, { id, ...columns(fields, now), created_at: now }));
    return (await repo.findSite(trx, id))!;
  },
  async update(trx, { subject, now, reachable }, patch) {
    if (patch.slug !== undefined) await assertSlugFree(trx, patch.slug, subject.row.id);
    if (patch.cityGroupId !== undefined) await groupMovedTo(trx, { reachable }, patch.cityGroupId.toLowerCase());
    const fields = { ...subject.record, ...patch, cityGroupId: (patch.cityGroupId ?? subject.record.cityGroupId)?.toLowerCase() ?? null };
    await uniqueField('slug', () => repo.updateSite(trx, subject.row.id, columns(fields, now)));
    return (await repo.findSite(trx, subject.row.id))!;
  },
  async remove(trx, { subject }) {
    const { pages, menus } = await repo.countSiteContents(trx, subject.row.id);
    if (pages + menus > 0) throw errors.siteNotEmpty(pages, menus);
    await repo.deleteSite(trx, subject.row.id);
  },
};
