import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';

/** Published posts with the name and type of their city group. Rows only: mapper.ts shapes them. */
function selectPublishedPosts(db: Kysely<DB>) {
  return db
    .selectFrom('blog_post as p')
    .innerJoin('city_group as g', 'g.id', 'p.city_group_id')
    .selectAll('p')
    .select(['g.id as group_id', 'g.name as group_name', 'g.type as group_type'])
    .where('p.published', '=', true);
}

export type BlogPostRow = Awaited<ReturnType<ReturnType<typeof selectPublishedPosts>['executeTakeFirstOrThrow']>>;

/** Published posts, newest `publishedAt` first (a post published without a date comes last). */
export async function findPublishedBlogPosts(db: Kysely<DB>, filter: { cityGroupId?: string }): Promise<BlogPostRow[]> {
  return selectPublishedPosts(db)
    .$if(filter.cityGroupId !== undefined, (q) => q.where('p.city_group_id', '=', filter.cityGroupId!))
    .orderBy('p.published_at', (ob) => ob.desc().nullsLast())
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id')
    .execute();
}

export async function findPublishedBlogPost(db: Kysely<DB>, id: string): Promise<BlogPostRow | null> {
  return (await selectPublishedPosts(db).where('p.id', '=', id).executeTakeFirst()) ?? null;
}
