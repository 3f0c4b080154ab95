import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../kernel/schemas.ts';
import { setNextPageLink } from '../http/link-header.ts';
import { createAssistantPool } from './assistant-pool.ts';
import { modelCallBudgets } from './llm-budget.ts';
import { cachedKnowledge } from './knowledge-cache.ts';
import { loadCityKnowledge } from './repository.ts';
import {
  AvailabilityQuery,
  AvailabilitySchema,
  ConversationIdParams,
  ConversationListQuery,
  ConversationListSchema,
  ConversationSchema,
  CreateConversationBody,
  DeviceIdParams,
  LocationBody,
  MAX_CONVERSATION_MESSAGES,
  MESSAGE_PAGE_SIZE,
  MessageListSchema,
  MessagePageQuery,
  MessageSchema,
  SendMessageBody,
} from './schemas.ts';
import * as chat from './service.ts';
import { isDeviceId } from '../kernel/schemas.ts';


/** Chat answers are personal and change with every message: never stored by a cache. */
const noStore = { cache: false };

/** The anonymous citizen chat (docs/assistant.md). Registered under /public. */
export default async function chatRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD') reply.header('cache-control', 'no-store');
  });

  // Workers start with the first message; closing the app (SIGTERM) stops them.
  const assistants = createAssistantPool(app.config, app.log);
  app.addHook('onClose', () => assistants.close());
  const modelBudgets = modelCallBudgets(app);
  const knowledgeOf = cachedKnowledge((cityId, now) => loadCityKnowledge(app.db, cityId, now), () => app.dataVersion.current);
  const sendContext = (request: FastifyRequest, now: Date): chat.SendContext => ({
    db: app.db,
    config: app.config,
    log: request.log,
    now,
    assistants,
    knowledgeOf,
    modelBudgets: (cityGroupId: string) => modelBudgets(request.ip, cityGroupId, now),
  });

  // The chat limit counts every creation and every message, valid or not (it runs before validation),
  // per device: the body's deviceId, or the conversation's; the client IP when none applies.
  const limitByBodyDevice = async (request: FastifyRequest, reply: FastifyReply) => {
    const deviceId = (request.body as { deviceId?: unknown } | undefined)?.deviceId;
    await app.chatRateLimit(request, reply, isDeviceId(deviceId) ? deviceId : null);
  };
  const limitByConversationDevice = async (request: FastifyRequest, reply: FastifyReply) => {
    const deviceId = await chat.deviceOfConversation(app.db, (request.params as { id?: string }).id);
    await app.chatRateLimit(request, reply, deviceId);
  };

  conversationRoutes(app, limitByBodyDevice);
  placeAndListRoutes(app);
  messageRoutes(app, limitByConversationDevice, sendContext);
}

type ChatApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;
type Limit = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** Availability, and opening a conversation. */
function conversationRoutes(app: ChatApp, limitByBodyDevice: Limit) {
  app.get(
    '/chat/availability',
    {
      config: noStore,
      schema: {
        tags: ['chat'],
        summary: 'Whether the assistant is available for a city or a city group',
        description:
          'Give `cityId` or `cityGroupId`. With both, `cityId` decides (the city’s own group) and `cityGroupId` is only checked to be a UUID. ' +
          'Always 200 for well-formed input: `reason` is `enabled`, `module_disabled`, `city_not_found` (also for a NON_ACTIF city), ' +
          '`city_group_not_found` or `no_city_group`; `cityGroupId` is the group that decided, or null. Neither parameter, or a malformed one: 400.',
        querystring: AvailabilityQuery,
        response: { 200: AvailabilitySchema, 400: ErrorSchema },
      },
    },
    async (request) => chat.availability(app.db, request.query),
  );

  app.post(
    '/chat/conversations',
    {
      preValidation: limitByBodyDevice,
      schema: {
        tags: ['chat'],
        summary: 'Open a conversation',
        description:
          'Unknown or NON_ACTIF city: 404. `cityGroupId`, when given, must be the city’s group (else 400). A city without a group, or whose group has ' +
          'not enabled the assistant: 403. When the city has exactly one collection place, the conversation starts with that place. ' +
          'Counts against the chat limit of 20 per minute per deviceId, and against the client IP’s chat budget (429 past either).',
        body: CreateConversationBody,
        response: { 201: ConversationSchema, 400: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await chat.createConversation(app.db, request.body, app.clock())),
  );

}

/** A conversation's place, and a device's conversations. */
function placeAndListRoutes(app: ChatApp) {
  app.patch(
    '/chat/conversations/:id/location',
    {
      schema: {
        tags: ['chat'],
        summary: 'Set the conversation’s place (and city)',
        description:
          'The city must be ACTIF and in the conversation’s group, and the place one of its collection places (else 400); the conversation then ' +
          'belongs to that city. Unknown conversation: 404.',
        params: ConversationIdParams,
        body: LocationBody,
        response: { 200: ConversationSchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => chat.setLocation(app.db, request.params.id, request.body, app.clock()),
  );

  app.get(
    '/chat/conversations/:deviceId',
    {
      config: noStore,
      schema: {
        tags: ['chat'],
        summary: 'Conversations of a device, newest first',
        description: 'The listing envelope. A deviceId that is not 8 to 128 letters, digits, `-` or `_`: 400. Unknown device: an empty page.',
        params: DeviceIdParams,
        querystring: ConversationListQuery,
        response: { 200: ConversationListSchema, 400: ErrorSchema },
      },
    },
    async (request) => chat.listConversations(app.db, request.params.deviceId, request.query),
  );

}

/** A conversation's messages, and sending one (the assistant answers). */
function messageRoutes(
  app: ChatApp,
  limitByConversationDevice: Limit,
  sendContext: (request: FastifyRequest, now: Date) => chat.SendContext,
) {
  app.get(
    '/chat/conversations/:id/messages',
    {
      config: noStore,
      schema: {
        tags: ['chat'],
        summary: 'Messages of a conversation, oldest first, one page at a time',
        description:
          `The ${MESSAGE_PAGE_SIZE} most recent messages, oldest first. When older messages exist, the \`Link\` header (RFC 8288) ` +
          'gives the previous page: `<…/messages?before={id}>; rel="next"`, `id` being the oldest message of this page. ' +
          '`before` must be a message of this conversation (else 400).',
        params: ConversationIdParams,
        querystring: MessagePageQuery,
        response: { 200: MessageListSchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      const page = await chat.listMessages(app.db, request.params.id, request.query.before);
      if (page.olderBefore) setNextPageLink(request, reply, { before: page.olderBefore });
      return page.messages;
    },
  );

  app.post(
    '/chat/conversations/:id/messages',
    {
      preValidation: limitByConversationDevice,
      schema: {
        tags: ['chat'],
        summary: 'Send a message; the assistant answers',
        description:
          '`content`: 1 to 2000 characters after trimming (stored trimmed). `placeId`, when given, must be a place of the conversation’s city and becomes ' +
          'the conversation’s place. 201 with the assistant’s answer (its `placeId` is the place it answered for). While an agent holds the ' +
          'conversation (`WAITING_AGENT`, `WITH_AGENT`) the assistant stays silent: 202 with the stored user message. CLOSED: 400. ' +
          'Unknown conversation: 404. ' +
          `A conversation holds ${MAX_CONVERSATION_MESSAGES} messages at most: past it, 400 (open a new conversation). ` +
          'Counts against the chat limit of the conversation’s deviceId, and against the client IP’s chat budget. ' +
          'When every assistant worker is busy and the queue is full (or a worker failed), 503 with `Retry-After`: ' +
          'nothing was stored, send the message again. The language model, when configured, has budgets per client IP and ' +
          'per city group and day; past them the built-in assistant answers.',
        params: ConversationIdParams,
        body: SendMessageBody,
        response: { 201: MessageSchema, 202: MessageSchema, 400: ErrorSchema, 404: ErrorSchema, 429: ErrorSchema, 503: ErrorSchema },
      },
    },
    async (request, reply) => {
      const { status, message } = await chat.sendMessage(sendContext(request, app.clock()), request.params.id, request.body);
      return reply.code(status).send(message);
    },
  );
}
