import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errors } from '../kernel/errors.ts';
import { ErrorSchema } from '../kernel/schemas.ts';
import { toBlogPost } from './mapper.ts';
import { findPublishedBlogPost, findPublishedBlogPosts, nextPostPublication } from './repository.ts';
import { BlogPostIdParams, BlogPostListQuery, BlogPostSchema } from './schemas.ts';

export default async function blogRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // A scheduled post appears at its time on every instance, without a write then.
  app.addPublicationSource(nextPostPublication);

  app.get(
    '/blog-posts',
    {
      schema: {
        tags: ['blog'],
        summary: 'Published blog posts, newest publishedAt first',
        description:
          'A post scheduled for later (`publishedAt` after now) appears at its time. An unknown `cityGroupId` answers `[]`; a malformed one answers 400.',
        querystring: BlogPostListQuery,
        response: { 200: Type.Array(BlogPostSchema), 400: ErrorSchema },
      },
    },
    async (request) => (await findPublishedBlogPosts(app.db, { cityGroupId: request.query.cityGroupId }, app.clock())).map(toBlogPost),
  );

  app.get(
    '/blog-posts/:id',
    {
      schema: {
        tags: ['blog'],
        summary: 'One published blog post',
        description: 'A post that does not exist, is a draft or is scheduled for later answers 404 (`Article introuvable`).',
        params: BlogPostIdParams,
        response: { 200: BlogPostSchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => {
      const post = await findPublishedBlogPost(app.db, request.params.id, app.clock());
      if (!post) throw errors.blogPostNotFound();
      return toBlogPost(post);
    },
  );
}
