import type { FastifyInstance } from 'fastify';
import { adminRoute, registerAdminResource } from '../admin/resource.ts';
import { adminService } from '../admin/store.ts';
import { requireAdminAgent } from '../auth/guard.ts';
import { noticeStore } from './admin-notices.ts';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { adminAgentOf } from '../admin/agent.ts';
import { ErrorSchema } from '../kernel/schemas.ts';
import { noticeAudience } from './service.ts';
import { NoticeAudienceQuery, NoticeAudienceSchema, NoticeListQuery, noticeSchemas } from './schemas.ts';

const SCOPE =
  '`cityIds` and `placeIds` [] mean the whole group; `cityIds` must be cities of the group, `placeIds` places of those cities ' +
  '(of the group’s when `cityIds` is []): 400 `validation` naming the element (`placeIds[1]`). `endsAt` null: in force until deleted; ' +
  'otherwise after `startsAt` (400 at `endsAt`). A group outside the agent’s answers 404 at `cityGroupId`, as an unknown one.';
const NOTIFY =
  'With `notify`, the reminder subscribers of the places it concerns get it once (push or e-mail, as each subscribed), within a ' +
  'minute of `startsAt`, or of the write when `startsAt` is past; `notifiedAt` then says when. A notice is sent once: an edit after ' +
  'that sends nothing more, a notice deleted or ended before it went out is never sent.';
const PUBLISHED = 'Recorded in the audit log (`notice`); `GET /public/cities/{cityId}/notices` answers the change within a second.';

/** `/admin/notices` (docs/api.md, collections that move and service notices), for agents holding CITIES. */
export default async function noticeAdminRoutes(app: FastifyInstance) {
  requireAdminAgent(app, 'CITIES');
  registerAdminResource(app, {
    path: '/notices',
    listQuery: NoticeListQuery,
    schemas: noticeSchemas,
    docs: {
      list: {
        summary: 'Service notices of the agent’s city groups, newest startsAt first',
        description:
          'The listing envelope, past, current and future notices alike. `cityGroupId` keeps one group’s (optional: without it, every ' +
          'group the agent holds, every group for a super admin); a group outside the agent’s answers 404 at `cityGroupId`.',
      },
      create: { summary: 'Create a service notice of a city group', description: `${SCOPE} ${NOTIFY} ${PUBLISHED}` },
      get: { summary: 'One service notice, with its ETag', description: 'A notice of a group outside the agent’s answers 404, like an unknown one.' },
      update: {
        summary: 'Change a service notice (partial)',
        description:
          `With \`If-Match\`, 412 when the notice changed since it was read (its sending sets \`notifiedAt\`, so it changes it). ` +
          `\`cityGroupId\` moves it to another of the agent’s groups. The lists are checked when the write names \`cityGroupId\`, ` +
          `\`cityIds\` or \`placeIds\`. ${SCOPE} ${NOTIFY} ${PUBLISHED}`,
      },
      remove: {
        summary: 'Delete a service notice',
        description: `With \`If-Match\`, 412 when the notice changed since it was read. Not yet sent, it never will be. ${PUBLISHED}`,
      },
    },
    service: adminService(noticeStore),
  });
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/notices/audience',
    {
      schema: {
        ...adminRoute,
        summary: 'Who a notice of this scope would reach: the active reminder subscriptions of its places',
        description:
          'What the console shows before a notice is sent with `notify`: the active reminder subscriptions of the places a notice ' +
          'of this scope covers (of the group’s ACTIF cities), by channel, as the worker would choose them if it sent it now. ' +
          '`cityIds` and `placeIds` (repeatable) are checked as a notice’s: 400 `validation` naming the element (`placeIds[1]`); a ' +
          'group outside the agent’s answers 404 at `cityGroupId`, as an unknown one.',
        querystring: NoticeAudienceQuery,
        response: { 200: NoticeAudienceSchema, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => noticeAudience(app.db, adminAgentOf(request), request.query),
  );
}
