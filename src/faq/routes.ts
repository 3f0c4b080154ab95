import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { parents, registerAdminResource } from '../admin/resource.ts';
import { adminService } from '../admin/store.ts';
import { requireAdminAgent } from '../auth/guard.ts';
import { ErrorSchema } from '../kernel/schemas.ts';
import { cityFaq, faqStore } from './faq.ts';
import { CityFaqParams, FaqEntrySchema, faqSchemas } from './schemas.ts';

/** `GET /public/cities/:cityId/faq` (docs/api.md, frequently asked questions). Registered under /public. */
export async function faqRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/cities/:cityId/faq',
    {
      schema: {
        tags: ['faq'],
        summary: 'The questions residents of a city ask, with their answers, in the city group’s order',
        description:
          'A bare array of the city group’s questions: `position` ascending, then the oldest first. A city of no group has none (`[]`). ' +
          'Unknown or NON_ACTIF city: 404 `cityNotFound`. Kept by caches until the group’s agents change a question.',
        params: CityFaqParams,
        response: { 200: Type.Array(FaqEntrySchema), 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    (request) => cityFaq(app.db, request.params.cityId.toLowerCase()),
  );
}

const AUDITED = 'Recorded in the audit log (`faqEntry`); `GET /public/cities/{cityId}/faq` answers the change within a second.';
const OUTSIDE = 'A group outside the agent’s groups answers 404, like an unknown one.';

/** `/admin/city-groups/:cityGroupId/faq` and `/admin/faq/:id` (docs/api.md, frequently asked questions), for agents holding CMS. */
export async function faqAdminRoutes(app: FastifyInstance) {
  requireAdminAgent(app, 'CMS');
  registerAdminResource(app, {
    path: '/faq',
    parent: parents.cityGroup,
    schemas: faqSchemas,
    docs: {
      list: { summary: 'A city group’s frequently asked questions, in the public order', description: `The listing envelope. ${OUTSIDE}` },
      create: {
        summary: 'Add a question and its answer to a city group’s frequently asked questions',
        description: `\`question\` and \`answer\` are stored trimmed; \`position\` (default 0) places it in the list. ${OUTSIDE} ${AUDITED}`,
      },
      get: { summary: 'One frequently asked question, with its ETag', description: OUTSIDE },
      update: {
        summary: 'Change a frequently asked question (partial): its text, its answer or its place in the list',
        description: `With \`If-Match\`, 412 when it changed since it was read. It stays with its group. ${AUDITED}`,
      },
      remove: { summary: 'Delete a frequently asked question', description: `With \`If-Match\`. ${AUDITED}` },
    },
    service: adminService(faqStore),
  });
}
