import { Type, type Static } from 'typebox';
import { Nullable, Timestamp, Uuid } from '../kernel/schemas.ts';
import { DeviceId } from '../kernel/schemas.ts';
import { Envelope, PaginationQuery } from '../kernel/pagination.ts';

/** Longest message a citizen may send, after trimming (docs/assistant.md). */
export const MAX_MESSAGE_LENGTH = 2000;
/**
 * Messages a conversation holds before it is full: past it a citizen's message answers 400 and asks for a new
 * conversation, so that no conversation grows without end (each message reads only the last ones anyway).
 */
export const MAX_CONVERSATION_MESSAGES = 200;
/** Messages per page of a conversation (public list and console detail), most recent page first. */
export const MESSAGE_PAGE_SIZE = 100;

export const AvailabilityQuery = Type.Object({
  cityId: Type.Optional(Uuid('A city: its group decides')),
  cityGroupId: Type.Optional(Uuid('A city group (ignored when cityId is given)')),
});

export const AvailabilityReason = Type.Enum(['enabled', 'module_disabled', 'city_not_found', 'city_group_not_found', 'no_city_group']);
export type AvailabilityReasonValue = Static<typeof AvailabilityReason>;

export const AvailabilitySchema = Type.Object(
  {
    enabled: Type.Boolean(),
    cityGroupId: Nullable(Uuid('The group that decided; null when none was found')),
    reason: AvailabilityReason,
  },
  { title: 'ChatAvailability' },
);
export type Availability = Static<typeof AvailabilitySchema>;

export const ConversationStatusSchema = Type.Enum(['OPEN', 'WAITING_AGENT', 'WITH_AGENT', 'CLOSED']);

export const ConversationSchema = Type.Object(
  {
    id: Uuid(),
    deviceId: Type.String(),
    cityId: Uuid(),
    cityGroupId: Uuid(),
    placeId: Nullable(Uuid('The collection place the assistant answers for')),
    status: ConversationStatusSchema,
    createdAt: Timestamp(),
    updatedAt: Timestamp(),
    lastMessageAt: Nullable(Timestamp()),
  },
  { title: 'Conversation' },
);
export type ConversationApi = Static<typeof ConversationSchema>;

export const MessageSchema = Type.Object(
  {
    id: Uuid(),
    conversationId: Uuid(),
    role: Type.Enum(['user', 'assistant', 'agent']),
    content: Type.String(),
    placeId: Nullable(Uuid('For a user message, the place it gave; for an answer, the place it is about')),
    createdAt: Timestamp(),
  },
  { title: 'ChatMessage' },
);
export type MessageApi = Static<typeof MessageSchema>;

export const CreateConversationBody = Type.Object({
  deviceId: DeviceId,
  cityId: Uuid(),
  cityGroupId: Type.Optional(Nullable(Uuid('When given, must be the city’s group'))),
});

export const LocationBody = Type.Object({ cityId: Uuid(), placeId: Uuid() });

export const SendMessageBody = Type.Object({
  // The 1-2000 rule applies after trimming (checked by the service); this bound only stops absurd bodies early.
  content: Type.String({ minLength: 1, maxLength: 10_000, description: `1 to ${MAX_MESSAGE_LENGTH} characters after trimming` }),
  placeId: Type.Optional(Nullable(Uuid('A place of the conversation’s city: it becomes the conversation’s place'))),
});

export const ConversationIdParams = Type.Object({ id: Uuid('Conversation id') });
export const DeviceIdParams = Type.Object({ deviceId: DeviceId });
export const ConversationListQuery = Type.Object(PaginationQuery);
export const ConversationListSchema = Envelope(ConversationSchema);
export const MessageListSchema = Type.Array(MessageSchema, { description: 'Oldest first' });
export const MessagePageQuery = Type.Object({
  before: Type.Optional(Uuid('A message of this conversation: the page holds the messages before it (see the `Link` header)')),
});
