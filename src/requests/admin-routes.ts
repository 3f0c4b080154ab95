import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { adminAgentOf, groupScope } from '../admin/agent.ts';
import { adminRoute, answerVersioned, guardErrors, parents, registerAdminResource } from '../admin/resource.ts';
import { adminService } from '../admin/store.ts';
import { requireAdminAgent } from '../auth/guard.ts';
import { ErrorSchema } from '../kernel/schemas.ts';
import { eventStreamResponse, LastEventIdHeaders } from '../http/live-streams.ts';
import { staffCatchUp, staffStreams } from './live.ts';
import { bulkyAdminRoutes } from './bulky-routes.ts';
import { replyToRequest, requestAgents, requestPhoto, requestStore } from './admin-requests.ts';
import { requestTypeStore } from './admin-request-types.ts';
import { AdminRequestSchema, GroupParams, PhotoParams, ReplyBody, RequestListQuery, RequestParams, requestSchemas, requestTypeSchemas } from './schemas.ts';

const GROUPS = 'A request (or type) of a group outside the agent’s answers 404, as an unknown one.';
const AUDITED = 'Recorded in the audit log without what identifies the resident (no e-mail, description, position or photo).';

/** `/admin/requests`, `/admin/city-groups/:cityGroupId/request-types` and `/admin/request-types/:id` (docs/api.md, resident requests), for agents holding REQUESTS. */
export default async function requestAdminRoutes(fastify: FastifyInstance) {
  requireAdminAgent(fastify, 'REQUESTS');
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  registerAdminResource(app, {
    path: '/request-types',
    parent: parents.cityGroup,
    schemas: requestTypeSchemas,
    deleteConflict: true,
    docs: {
      list: { summary: 'A city group’s request types, inactive ones too, by name', description: `The listing envelope. ${GROUPS}` },
      create: {
        summary: 'Add a request type to a city group’s catalogue',
        description:
          '`code` is unique in the group (400 at `code`); a list field needs its `values` (keys once each), other fields none (400 ' +
          `naming \`fields[1].values\`). Residents see it within a second. ${GROUPS}`,
      },
      get: { summary: 'One request type, with its ETag', description: GROUPS },
      update: { summary: 'Change a request type (partial)', description: `With \`If-Match\`, 412 when it changed since it was read. ${GROUPS}` },
      remove: {
        summary: 'Delete a request type no request uses',
        description: `With \`If-Match\`. A type some request uses answers 409 \`requestTypeInUse\`: set \`active\` false instead. ${GROUPS}`,
      },
    },
    service: adminService(requestTypeStore),
  });

  bulkyAdminRoutes(app);

  const live = staffStreams(app.db, app.clock, (err) => app.log.warn({ err }, 'requests live: poll failed, trying again'));
  // Streams never end by themselves: the server's close ends them (each console reconnects elsewhere).
  app.addHook('preClose', async () => live.close());

  app.get(
    '/requests/events',
    {
      // A stream answers GET alone: a HEAD would hold its connection open for nothing.
      exposeHeadRoute: false,
      schema: {
        ...adminRoute,
        summary: 'The requests queue, live: a server-sent events stream of the requests that change',
        description:
          'A `text/event-stream` (read it with `fetch` and the `Authorization` header). Events: `ready` `{since}` first; then ' +
          '`request`, the request as `GET /admin/requests` lists it, each time a request of the agent’s groups is filed or ' +
          'changes (a status, an assignment, a planned day, a reply or a note), with `id` its change number; `reset` when a ' +
          'reconnection missed too much (reload the list); `expired` when the token expires, which ends the stream (refresh ' +
          'and reconnect). With `Last-Event-ID`, the changes after that number come first (a request may come twice: keep the ' +
          'latest). An erased request is not announced. Comments (`: ping`) every 25 s keep proxies from closing the ' +
          'connection. Every instance reads the changes from the database twice a second while an agent listens, whichever ' +
          'instance took the write; 503 with `Retry-After` when the instance holds too many streams.',
        headers: LastEventIdHeaders,
        response: { 200: eventStreamResponse, 503: ErrorSchema, ...guardErrors },
      },
    },
    async (request, reply) => {
      const agent = adminAgentOf(request);
      const scope = groupScope(agent);
      const lastEventId = request.headers['last-event-id'];
      await live.serve(reply, {
        accepts: (change) => scope === null || scope.includes(change.request.cityGroupId),
        eventOf: (change) => ({ event: 'request', data: change.request, id: change.seq }),
        catchUp: lastEventId === undefined ? undefined : () => staffCatchUp(app.db, app.clock, Number(lastEventId), scope),
        // The token's end is the stream's: the console refreshes its token and reconnects with Last-Event-ID.
        endsInMs: agent.tokenExpiresAt === undefined ? undefined : agent.tokenExpiresAt - app.clock().getTime(),
      });
    },
  );

  registerAdminResource(app, {
    path: '/requests',
    listQuery: RequestListQuery,
    schemas: requestSchemas,
    docs: {
      list: {
        summary: 'The requests queue of the agent’s groups, oldest first',
        description:
          'The listing envelope, filtered by `cityGroupId` (404 for a group outside the agent’s), `status`, `typeCode`, `cityId`, ' +
          '`assignedTo` and `overdue` (open longer than the type’s `targetHours`).',
      },
      get: { summary: 'One request with its e-mail, photos, notes and history', description: `With its ETag. ${GROUPS}` },
      update: {
        summary: 'Change a request’s status, assignee or planned day',
        description:
          'With `If-Match` (412 when it changed since it was read). `PLANIFIEE` needs `plannedFor` (400 at `plannedFor`); `REJETEE` ' +
          'needs `reason` (400 at `reason`), which the requester reads in the update. A status change (or a new planned day) is an ' +
          'update the requester sees; `assignedTo` names an active agent of the group holding REQUESTS (400 otherwise). ' +
          `${AUDITED} ${GROUPS}`,
      },
      remove: {
        summary: 'Erase a request and its photos (a resident who asks to be forgotten)',
        description: `With \`If-Match\`. Its history, followers and photos go with it. ${AUDITED} ${GROUPS}`,
      },
    },
    service: adminService(requestStore(app.clock)),
  });

  app.post(
    '/requests/:id/replies',
    {
      schema: {
        ...adminRoute,
        summary: 'Reply to a request: publicly (the requester sees it) or as an internal note',
        description: `Answers the request as it now is, with its new ETag. ${AUDITED} ${GROUPS}`,
        params: RequestParams,
        body: ReplyBody,
        response: { 201: AdminRequestSchema, ...guardErrors, 404: ErrorSchema },
      },
    },
    async (request, reply) =>
      answerVersioned(app, reply.code(201), await replyToRequest(app.db, adminAgentOf(request), request.params.id.toLowerCase(), request.body, app.clock())),
  );

  app.get(
    '/city-groups/:id/request-agents',
    {
      schema: {
        ...adminRoute,
        summary: 'Whom a group’s requests may be assigned to',
        description:
          'A bare array, by name: the active accounts holding REQUESTS in the group, and the super admins (what `assignedTo` ' +
          `accepts). Answers agents holding REQUESTS, without USERS. ${GROUPS}`,
        params: GroupParams,
        response: {
          200: Type.Array(Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String() }, { title: 'RequestAgent' })),
          ...guardErrors,
          404: ErrorSchema,
        },
      },
    },
    async (request) => requestAgents(app.db, adminAgentOf(request), request.params.id.toLowerCase()),
  );

  app.get(
    '/requests/:id/photos/:photoId',
    {
      schema: {
        ...adminRoute,
        summary: 'A photo of a request (JPEG bytes), for agents only',
        description: `Never cached by a shared cache. ${GROUPS}`,
        params: PhotoParams,
        response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'The JPEG' }), ...guardErrors, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      const photo = await requestPhoto(app.db, adminAgentOf(request), request.params.id.toLowerCase(), request.params.photoId.toLowerCase());
      reply.header('content-type', photo.content_type).header('cache-control', 'private, no-store');
      return reply.send(Buffer.from(photo.bytes));
    },
  );
}
