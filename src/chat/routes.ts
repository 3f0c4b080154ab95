import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../http/schema-helpers.ts';
import { findConversation } from './repository.ts';
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
  MessageListSchema,
  MessageSchema,
  SendMessageBody,
} from './schemas.ts';
import * as chat from './service.ts';

const DEVICE_ID = /^[A-Za-z0-9_-]{8,128}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Chat answers are personal and change with every message: never stored by a cache. */
const noStore = { cache: false };

/** The anonymous citizen chat (CONTRACT section 7). Registered under /public. */
export default async function chatRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD') reply.header('cache-control', 'no-store');
  });

  // The chat limit counts every creation and every message, valid or not (it runs before validation),
  // per device: the body's deviceId, or the conversation's; the client IP when none applies.
  const limitByBodyDevice = async (request: FastifyRequest, reply: FastifyReply) => {
    const deviceId = (request.body as { deviceId?: unknown } | undefined)?.deviceId;
    await app.chatRateLimit(request, reply, typeof deviceId === 'string' && DEVICE_ID.test(deviceId) ? deviceId : null);
  };
  const limitByConversationDevice = async (request: FastifyRequest, reply: FastifyReply) => {
    const id = (request.params as { id?: string }).id;
    const conversation = id && UUID.test(id) ? await findConversation(app.db, id) : null;
    await app.chatRateLimit(request, reply, conversation?.device_id ?? null);
  };

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
          'Counts against the chat limit of 20 per minute per deviceId.',
        body: CreateConversationBody,
        response: { 201: ConversationSchema, 400: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await chat.createConversation(app.db, request.body, app.clock())),
  );

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

  app.get(
    '/chat/conversations/:id/messages',
    {
      config: noStore,
      schema: {
        tags: ['chat'],
        summary: 'Messages of a conversation, oldest first',
        params: ConversationIdParams,
        response: { 200: MessageListSchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => chat.listMessages(app.db, request.params.id),
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
          'Unknown conversation: 404. Counts against the chat limit of the conversation’s deviceId.',
        params: ConversationIdParams,
        body: SendMessageBody,
        response: { 201: MessageSchema, 202: MessageSchema, 400: ErrorSchema, 404: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (request, reply) => {
      const { status, message } = await chat.sendMessage(
        { db: app.db, config: app.config, log: request.log, now: app.clock() },
        request.params.id,
        request.body,
      );
      return reply.code(status).send(message);
    },
  );
}
