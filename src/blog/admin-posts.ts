import { randomUUID } from 'node:crypto';
import { assertNoFault, groupMovedTo, inGroup, removeRow, underGroup, type AdminStore } from '../admin/store.ts';
import { blogPostFaults } from './post-rules.ts';
import { errors } from '../kernel/errors.ts';
import { toAdminBlogPost } from './mapper.ts';
import * as repo from './repository.ts';
import type { BlogPostRow } from './repository.ts';
import type { AdminBlogPost, BlogPostPatch, CreateBlogPostInput } from './schemas.ts';

/**
 * The admin API's blog posts (docs/api.md, the admin API): created under their city group, then read, changed and deleted
 * at `/admin/blog-posts/:id`. A post is saved as a draft (`published` false) and published by a PATCH of
 * `{published, publishedAt}`: now (no date, or a past one) or at a later date (scheduled: it appears at its time
 * on every instance, see src/http/data-version.ts). Its content must compile as MDX, the import bundle's rule.
 */

async function assertContent(content: string) {
  assertNoFault(await blogPostFaults({ content }));
}

/**
 * When the post is public: its date, or now for a post published without one. Only a write that publishes (or
 * dates) the post sets it, so that editing the text of a post published undated does not date it.
 */
function publicationDate(published: boolean, publishedAt: string | null, touched: boolean, now: Date): Date | null {
  if (publishedAt !== null) return new Date(publishedAt);
  return published && touched ? now : null;
}

export const blogPostStore: AdminStore<BlogPostRow, AdminBlogPost, { id: string }, CreateBlogPostInput, BlogPostPatch> = {
  entity: 'blogPost',
  notFound: errors.blogPostNotFound,
  ...underGroup,
  find: async (db, id, options) => inGroup(await repo.findBlogPost(db, id, options)),
  list: (db, group, page) => repo.listGroupBlogPosts(db, group!.id, page),
  show: async (_db, rows) => rows.map(toAdminBlogPost),
  async insert(trx, { subject: group, now }, input) {
    await assertContent(input.content);
    const id = randomUUID();
    const published = input.published ?? false;
    await repo.insertBlogPost(trx, id, {
      title: input.title,
      content: input.content,
      published,
      published_at: publicationDate(published, input.publishedAt ?? null, true, now),
      city_group_id: group!.id,
      created_at: now,
      updated_at: now,
    });
    return (await repo.findBlogPost(trx, id))!;
  },
  async update(trx, { subject, now, reachable }, patch) {
    if (patch.content !== undefined) await assertContent(patch.content);
    if (patch.cityGroupId !== undefined) await groupMovedTo(trx, { reachable }, patch.cityGroupId.toLowerCase());
    const record = { ...subject.record, ...patch };
    const touched = patch.published !== undefined || patch.publishedAt !== undefined;
    await repo.updateBlogPost(trx, subject.row.id, {
      title: record.title,
      content: record.content,
      published: record.published,
      published_at: publicationDate(record.published, record.publishedAt, touched, now),
      city_group_id: record.cityGroupId.toLowerCase(),
      updated_at: now,
    });
    return (await repo.findBlogPost(trx, subject.row.id))!;
  },
  remove: removeRow(repo.deleteBlogPost),
};
