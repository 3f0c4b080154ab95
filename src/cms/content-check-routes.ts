import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireAdminAgent } from '../auth/guard.ts';
import { mdxFault } from '../domain/rules/mdx.ts';
import { Nullable } from '../kernel/schemas.ts';
import { adminRoute, guardErrors } from '../admin/resource.ts';

const ContentCheckBody = Type.Object(
  { content: Type.String({ maxLength: 90_000, description: 'The MDX of a blog post or a page, as it would be saved' }) },
  { additionalProperties: false },
);

const ContentCheckSchema = Type.Object({
  valid: Type.Boolean({ description: 'Whether saving this content would be accepted' }),
  line: Nullable(Type.Integer({ description: 'The line of the first fault (1-based), when the compiler names it' })),
  column: Nullable(Type.Integer({ description: 'Its column (1-based)' })),
  message: Nullable(Type.String({ description: 'The French sentence a save would answer in its 400, without the field name' })),
});

/**
 * `POST /admin/content/check`: the console's MDX editor asks, as the agent types, whether a post's or a page's
 * content would be accepted, and where it is wrong (the same check as a save, compiled in a worker thread; nothing
 * stored).
 */
export default async function contentCheckRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  requireAdminAgent(app, ['BLOG_POSTS', 'CMS']);
  app.post(
    '/content/check',
    {
      schema: {
        ...adminRoute,
        summary: 'Check MDX content as a save of a post or page would (nothing stored)',
        description:
          'For agents holding BLOG_POSTS or CMS. 200 `{valid, line, column, message}`: `valid` false with the line and column of ' +
          'the first fault when a save would answer 400 for this `content`, also when it nests too deeply (line and column of ' +
          'the first level too many) or takes too long to compile (line and column null).',
        body: ContentCheckBody,
        response: { 200: ContentCheckSchema, ...guardErrors },
      },
    },
    async (request) => {
      const fault = await mdxFault(request.body.content);
      return fault ? { valid: false, line: fault.line, column: fault.column, message: `${fault.message}.` } : { valid: true, line: null, column: null, message: null };
    },
  );
}
