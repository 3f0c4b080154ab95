import { iso } from '../kernel/french.ts';
import type { BlogPostRow } from './repository.ts';
import type { BlogPost } from './schemas.ts';

/** A blog post row, with its group, as the API shows it. */
export function toBlogPost(row: BlogPostRow): BlogPost {
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
