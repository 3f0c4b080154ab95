import { iso, timestamps } from '../kernel/french.ts';
import type { BlogPostRow } from './repository.ts';
import type { AdminBlogPost, BlogPost } from './schemas.ts';

/** A blog post row, with its group, as the API shows it. */
export function toBlogPost(row: BlogPostRow): BlogPost {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    published: row.published,
    publishedAt: iso(row.published_at),
    ...timestamps(row),
    cityGroup: { id: row.group_id, name: row.group_name, type: row.group_type },
  };
}

/** A post as the admin API shows it: drafts too, with its group's id. */
export function toAdminBlogPost(row: BlogPostRow): AdminBlogPost {
  return { ...toBlogPost(row), cityGroupId: row.city_group_id };
}
