import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TSchema } from 'typebox';
import { ErrorSchema } from '../kernel/schemas.ts';
import { MESSAGE_PAGE_SIZE, MessagePageQuery, MessageSchema, USAGE_TIME_ZONE } from '../chat/for-console.ts';
import { setNextPageLink } from '../http/link-header.ts';
import { agentOf, requireConsoleAgent } from './auth.ts';
import {
  AssignBody,
  ConsoleConversationSchema,
  ConversationDetailSchema,
  ConversationIdParams,
  InboxQuery,
  InboxSchema,
  ReplyBody,
  StatusBody,
  TicketBody,
  TicketSchema,
  UsageListSchema,
  UsageQuery,
} from './schemas.ts';
import { devicePseudonyms } from './pseudonym.ts';
import * as consoleService from './service.ts';
import { ChangeFeed, LOOKBACK } from '../kernel/change-feed.ts';
import { eventStreamResponse, LastEventIdHeaders, LiveStreams } from '../http/live-streams.ts';
import { conversationChanges } from './repository.ts';

/** Most live inbox streams one instance holds open (an agent's console opens one). */
const MAX_EVENT_STREAMS = 1000;

/** Every console route: the token's scheme in the OpenAPI document, and the answers of the guard. */
const guarded = { tags: ['console'], security: [{ consoleToken: [] }] };
const authErrors = { 401: ErrorSchema, 403: ErrorSchema };
const conversationErrors = { ...authErrors, 400: ErrorSchema, 404: ErrorSchema };

/** The schema of an action on one conversation: the conversation's id in the path, a body, its success answer and every error. */
function conversationAction<Body extends TSchema, Ok extends { 200: TSchema } | { 201: TSchema }>(doc: {
  operationId?: string;
  summary: string;
  description: string;
  body: Body;
  ok: Ok;
}) {
  const { ok, ...described } = doc;
  return { schema: { ...guarded, ...described, params: ConversationIdParams, response: { ...ok, ...conversationErrors } } };
}

const transitionTable = Object.entries(consoleService.STATUS_TRANSITIONS)
  .map(([from, to]) => `\`${from}\` → ${to.map((s) => `\`${s}\``).join(', ')}`)
  .join('; ');

/**
 * The agents' console (docs/console.md), registered under /chat. Its guard is an onRequest hook of this
 * plugin's own context: it covers exactly the routes below, whatever their URL.
 */
export default async function consoleRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  requireConsoleAgent(app);
  const ctx = { db: app.db, pseudonymOf: devicePseudonyms(app.config) };
  const onError = (err: unknown) => app.log.warn({ err }, 'live inbox: poll failed, trying again');
  const liveInbox = new LiveStreams(
    new ChangeFeed(conversationChanges(app.db), { onError }),
    (rows) => rows.map((row) => consoleService.toInboxChange(ctx, row)),
    { max: MAX_EVENT_STREAMS, onError },
  );
  // Streams never end by themselves: the server's close ends them (each agent's console reconnects elsewhere).
  app.addHook('preClose', async () => liveInbox.close());

  app.get(
    '/inbox',
    {
      schema: {
        ...guarded,
        summary: 'Conversations of the agent’s city groups, most recent activity first',
        description:
          'The listing envelope, ordered by `lastMessageAt` (newest first; conversations without a message last), then `createdAt`. ' +
          'Filters: `status`, `assignedTo` (an agent id). Only conversations of the token’s `cityGroupIds`.',
        querystring: InboxQuery,
        response: { 200: InboxSchema, 400: ErrorSchema, ...authErrors },
      },
    },
    async (request) => {
      const { page, pageSize, status, assignedTo } = request.query;
      return consoleService.inbox(ctx, agentOf(request), { status, assignedTo }, { page, pageSize });
    },
  );

  app.get(
    '/conversations/:id',
    {
      schema: {
        ...guarded,
        summary: 'One conversation with its most recent messages, its tickets, and its place’s next collections',
        description:
          `Messages and tickets oldest first; \`messages\` holds the ${MESSAGE_PAGE_SIZE} most recent messages. When older messages exist, ` +
          'the `Link` header (RFC 8288) gives them: `<…?before={id}>; rel="next"`, `id` being the oldest message shown; `before` must ' +
          'be a message of this conversation (else 400). The citizen’s device is shown by `devicePseudonym`, never by its id. ' +
          '`cityName` names the commune; `place` (null when the citizen gave none) names the collection place and gives, per ' +
          'waste type, its next collections from the same calendar engine as `GET /public/cities/{cityId}/places/{placeId}/collections` ' +
          '(moves, additions and cancellations with their note): any agent of the conversation reads them, `CITIES` or not. ' +
          'A conversation outside the token’s city groups answers 404, like an unknown one.',
        params: ConversationIdParams,
        querystring: MessagePageQuery,
        response: { 200: ConversationDetailSchema, ...conversationErrors },
      },
    },
    async (request, reply) => {
      const { detail, olderBefore } = await consoleService.conversationDetail(
        ctx,
        agentOf(request),
        request.params.id,
        request.query.before,
        app.clock(),
      );
      if (olderBefore) setNextPageLink(request, reply, { before: olderBefore });
      return detail;
    },
  );

  app.post(
    '/conversations/:id/assign',
    conversationAction({
      summary: 'Give the conversation to an agent (or release it with null)',
      description:
        'Sets `assignedTo` and nothing else: the status does not change (a `WAITING_AGENT` conversation stays so until an agent ' +
        'replies or changes its status). Any status, CLOSED included.',
      body: AssignBody,
      ok: { 200: ConsoleConversationSchema },
    }),
    async (request) => consoleService.assign(ctx, agentOf(request), request.params.id, request.body.agentId, app.clock()),
  );

  app.post(
    '/conversations/:id/reply',
    conversationAction({
      operationId: 'replyToConsoleConversation',
      summary: 'Answer the citizen as an agent',
      description:
        '`content`: 1 to 2000 characters after trimming (stored trimmed). 201 with the message (role `agent`); the conversation becomes ' +
        '`WITH_AGENT` (the assistant stays silent), its `lastMessageAt` moves, and it is assigned to the replying agent when nobody held it. ' +
        'The citizen reads the reply through `GET /public/chat/conversations/{id}/messages`. A CLOSED conversation: 400.',
      body: ReplyBody,
      ok: { 201: MessageSchema },
    }),
    async (request, reply) =>
      reply.code(201).send(await consoleService.reply(ctx, agentOf(request), request.params.id, request.body.content, app.clock())),
  );

  app.patch(
    '/conversations/:id/status',
    conversationAction({
      summary: 'Change the conversation’s status',
      description:
        `Allowed changes: ${transitionTable}. Any other (the same status included): 400. ` +
        '`OPEN` gives the conversation back to the assistant; `assignedTo` is left as it is.',
      body: StatusBody,
      ok: { 200: ConsoleConversationSchema },
    }),
    async (request) => consoleService.changeStatus(ctx, agentOf(request), request.params.id, request.body.status, app.clock()),
  );

  app.post(
    '/conversations/:id/ticket',
    conversationAction({
      operationId: 'createConsoleConversationTicket',
      summary: 'Open a follow-up ticket on the conversation',
      description:
        '`subject`: 1 to 200 characters, `description`: 1 to 5000, both after trimming (stored trimmed). The ticket starts `OPEN` and ' +
        'is listed in the conversation’s `tickets`. Any conversation status, CLOSED included.',
      body: TicketBody,
      ok: { 201: TicketSchema },
    }),
    async (request, reply) =>
      reply.code(201).send(await consoleService.createTicket(ctx, agentOf(request), request.params.id, request.body, app.clock())),
  );

  app.get(
    '/usage',
    {
      schema: {
        ...guarded,
        summary: 'Language-model usage per day and city group',
        description:
          `Days are calendar days in ${USAGE_TIME_ZONE}. \`from\` and \`to\` (YYYY-MM-DD) are both included; \`to\` before \`from\`, ` +
          'or a range longer than 366 days: 400. Only the token’s city groups; days without usage have no row. By day, then cityGroupId.',
        querystring: UsageQuery,
        response: { 200: UsageListSchema, 400: ErrorSchema, ...authErrors },
      },
    },
    async (request) => consoleService.usage(ctx, agentOf(request), request.query.from, request.query.to),
  );

  app.get(
    '/events',
    {
      // A stream answers GET alone: a HEAD would hold its connection open for nothing.
      exposeHeadRoute: false,
      schema: {
        ...guarded,
        operationId: 'streamConsoleEvents',
        summary: 'The inbox, live: a server-sent events stream of the conversations that change',
        description:
          'A `text/event-stream` (read it with `fetch` and the `Authorization` header). Events: `ready` `{since}` first; ' +
          'then `conversation`, the conversation as `GET /chat/inbox` lists it, each time one of the token’s groups’ ' +
          'conversations changes (a message, an assignment, a status), with `id` its change number; `reset` when a ' +
          'reconnection missed too much (reload the list); `expired` when the token expires, which ends the stream (refresh ' +
          'and reconnect). With `Last-Event-ID`, the changes after that number come first (a conversation may come twice: ' +
          'keep the latest). Comments (`: ping`) every 25 s keep proxies from closing the connection. Every instance reads ' +
          'the changes from the database twice a second while an agent listens, whichever instance took the write.',
        headers: LastEventIdHeaders,
        response: {
          200: eventStreamResponse,
          400: ErrorSchema,
          503: ErrorSchema,
          ...authErrors,
        },
      },
    },
    async (request, reply) => {
      const agent = agentOf(request);
      const groups = new Set(agent.cityGroupIds);
      const lastEventId = request.headers['last-event-id'];
      await liveInbox.serve(reply, {
        accepts: (change) => groups.has(change.conversation.cityGroupId),
        eventOf: (change) => ({ event: 'conversation', data: change.conversation, id: change.seq }),
        catchUp:
          lastEventId === undefined ? undefined : () => consoleService.changesSince(ctx, agent, Number(lastEventId), LOOKBACK),
        // The token's end is the stream's: the console refreshes its token and reconnects with Last-Event-ID.
        endsInMs: agent.expiresAt - app.clock().getTime(),
      });
    },
  );

}
