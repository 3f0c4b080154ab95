import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { iso } from '../kernel/french.ts';
import type { BlogPost } from './schemas.ts';

function selectPublishedPosts(db: Kysely<DB>) {
  return db
    .selectFrom('blog_post as p')
    .innerJoin('city_group as g', 'g.id', 'p.city_group_id')
    .select([
      'p.id',
      'p.title',
      'p.content',
      'p.published',
      'p.published_at',
      'p.created_at',
      'p.updated_at',
      'g.id as group_id',
      'g.name as group_name',
      'g.type as group_type',
    ])
    .where('p.published', '=', true);
}

type BlogPostRow = Awaited<ReturnType<ReturnType<typeof selectPublishedPosts>['executeTakeFirstOrThrow']>>;

function toBlogPost(row: BlogPostRow): BlogPost {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    published: row.published,
    publishedAt: iso(row.published_at),
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
    cityGroup: { id: row.group_id, name: row.group_name, type: row.group_type },
  };
}

/** Published posts, newest `publishedAt` first (a post published without a date comes last). */
export async function findPublishedBlogPosts(db: Kysely<DB>, filter: { cityGroupId?: string }): Promise<BlogPost[]> {
  const rows = await selectPublishedPosts(db)
    .$if(filter.cityGroupId !== undefined, (q) => q.where('p.city_group_id', '=', filter.cityGroupId!))
    .orderBy('p.published_at', (ob) => ob.desc().nullsLast())
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id')
    .execute();
  return rows.map(toBlogPost);
}

export async function findPublishedBlogPost(db: Kysely<DB>, id: string): Promise<BlogPost | null> {
  const row = await selectPublishedPosts(db).where('p.id', '=', id).executeTakeFirst();
  return row ? toBlogPost(row) : null;
}
