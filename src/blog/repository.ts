import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { pageWindow, type PageRequest } from '../kernel/pagination.ts';

/** Blog posts with the name and type of their city group. Rows only: mapper.ts shapes them. */
function selectPosts(db: Kysely<DB>) {
  return db
    .selectFrom('blog_post as p')
    .innerJoin('city_group as g', 'g.id', 'p.city_group_id')
    .selectAll('p')
    .select(['g.id as group_id', 'g.name as group_name', 'g.type as group_type']);
}

/**
 * Posts citizens may read at `now`: published, and not scheduled for later (a post published without a date is
 * public at once). The scheduled ones appear at their time without any write (src/http/data-version.ts).
 */
function selectPublishedPosts(db: Kysely<DB>, now: Date) {
  return selectPosts(db)
    .where('p.published', '=', true)
    .where((eb) => eb.or([eb('p.published_at', 'is', null), eb('p.published_at', '<=', now)]));
}

export type BlogPostRow = Awaited<ReturnType<ReturnType<typeof selectPosts>['executeTakeFirstOrThrow']>>;

/** Published posts, newest `publishedAt` first (a post published without a date comes last). */
export async function findPublishedBlogPosts(db: Kysely<DB>, filter: { cityGroupId?: string }, now: Date): Promise<BlogPostRow[]> {
  return selectPublishedPosts(db, now)
    .$if(filter.cityGroupId !== undefined, (q) => q.where('p.city_group_id', '=', filter.cityGroupId!))
    .orderBy('p.published_at', (ob) => ob.desc().nullsLast())
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id')
    .execute();
}

export async function findPublishedBlogPost(db: Kysely<DB>, id: string, now: Date): Promise<BlogPostRow | null> {
  return (await selectPublishedPosts(db, now).where('p.id', '=', id).executeTakeFirst()) ?? null;
}

/** When the next scheduled post becomes public: the earliest `publishedAt` after `now` of a published post. */
export async function nextPostPublication(db: Kysely<DB>, now: Date): Promise<Date | null> {
  const row = await db
    .selectFrom('blog_post')
    .select((eb) => eb.fn.min('published_at').as('next'))
    .where('published', '=', true)
    .where('published_at', '>', now)
    .executeTakeFirst();
  return row?.next ? new Date(row.next) : null;
}

// ---------------------------------------------------------------- the admin API

/** One post, drafts included; its row locked until the end of the transaction with `forUpdate`. */
export async function findBlogPost(db: Kysely<DB>, id: string, options: { forUpdate?: boolean } = {}): Promise<BlogPostRow | undefined> {
  // FOR UPDATE OF p: the group's row is read, not locked.
  return selectPosts(db)
    .where('p.id', '=', id)
    .$if(options.forUpdate === true, (qb) => qb.forUpdate('p'))
    .executeTakeFirst();
}

/** One page of a group's posts, drafts included, in the public order, and their total. */
export async function listGroupBlogPosts(db: Kysely<DB>, cityGroupId: string, page: PageRequest): Promise<{ rows: BlogPostRow[]; total: number }> {
  const [{ total }] = await db
    .selectFrom('blog_post')
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .where('city_group_id', '=', cityGroupId)
    .execute();
  const window = pageWindow(page, Number(total));
  if (!window) return { rows: [], total: Number(total) };
  const rows = await selectPosts(db)
    .where('p.city_group_id', '=', cityGroupId)
    .orderBy('p.published_at', (ob) => ob.desc().nullsLast())
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return { rows, total: Number(total) };
}

export interface BlogPostValues {
  title: string;
  content: string;
  published: boolean;
  published_at: Date | null;
  city_group_id: string;
  updated_at: Date;
}

export async function insertBlogPost(db: Kysely<DB>, id: string, values: BlogPostValues & { created_at: Date }): Promise<void> {
  await db.insertInto('blog_post').values({ id, ...values }).execute();
}

export async function updateBlogPost(db: Kysely<DB>, id: string, values: BlogPostValues): Promise<void> {
  await db.updateTable('blog_post').set(values).where('id', '=', id).execute();
}

export async function deleteBlogPost(db: Kysely<DB>, id: string): Promise<void> {
  await db.deleteFrom('blog_post').where('id', '=', id).execute();
}
