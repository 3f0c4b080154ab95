import type { FastifyInstance } from 'fastify';
import { parents, registerAdminResource } from '../admin/resource.ts';
import { adminService } from '../admin/store.ts';
import { requireAdminAgent } from '../auth/guard.ts';
import { blogPostStore } from './admin-posts.ts';
import { blogPostSchemas } from './schemas.ts';

const PUBLICATION =
  'A post is a draft until `published` is true; it is public from `publishedAt` (set to now when it is published without a date): ' +
  'a later date schedules it, and it appears in the public answers of every instance within a second of that time, with no other write. ' +
  '`content` must compile as MDX (400 naming `content`, with the line and column). Recorded in the audit log (`blogPost`).';

/** `/admin/city-groups/:cityGroupId/blog-posts` and `/admin/blog-posts/:id` (docs/api.md, the admin API), for agents holding BLOG_POSTS. */
export default async function blogAdminRoutes(app: FastifyInstance) {
  requireAdminAgent(app, 'BLOG_POSTS');
  registerAdminResource(app, {
    path: '/blog-posts',
    parent: parents.cityGroup,
    schemas: blogPostSchemas,
    docs: {
      list: {
        summary: 'A city group’s blog posts, drafts and scheduled ones included, newest publishedAt first',
        description: 'The listing envelope, in the public order. A group outside the agent’s groups answers 404, like an unknown one.',
      },
      create: {
        summary: 'Write a blog post of a city group (a draft unless `published` is true)',
        description: `${PUBLICATION} A group outside the agent’s groups answers 404.`,
      },
      get: {
        summary: 'One blog post (a draft too), with its ETag',
        description: 'A post of a group outside the agent’s groups answers 404, like an unknown one.',
      },
      update: {
        summary: 'Change, publish, schedule or unpublish a blog post (partial)',
        description:
          `With \`If-Match\`, 412 when the post changed since it was read. \`{"published": true}\` publishes now, ` +
          '`{"published": true, "publishedAt": <later>}` schedules, `{"published": false}` takes it back to a draft (hidden at once). ' +
          `\`cityGroupId\` moves it to another of the agent’s groups (404 for any other). ${PUBLICATION}`,
      },
      remove: {
        summary: 'Delete a blog post',
        description: 'With `If-Match`, 412 when the post changed since it was read. Recorded in the audit log; public answers follow within a second.',
      },
    },
    service: adminService(blogPostStore),
  });
}
