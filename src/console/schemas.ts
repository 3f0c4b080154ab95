import { Type, type Static } from 'typebox';
import { Nullable, Timestamp, Uuid } from '../http/schema-helpers.ts';
import { Envelope, PaginationQuery } from '../cms/pagination.ts';
import { ConversationSchema, ConversationStatusSchema, MAX_MESSAGE_LENGTH, MessageSchema } from '../chat/schemas.ts';

/** Longest agent id accepted in an assignment (ids are the `sub` of console tokens). */
export const MAX_AGENT_ID_LENGTH = 200;
export const MAX_TICKET_SUBJECT_LENGTH = 200;
export const MAX_TICKET_DESCRIPTION_LENGTH = 5000;
/** Longest range of /chat/usage, both ends included: one year, leap years included. */
export const MAX_USAGE_DAYS = 366;

export const ConsoleConversationSchema = Type.Object(
  {
    ...ConversationSchema.properties,
    assignedTo: Nullable(Type.String({ description: 'Id (token `sub`) of the agent who holds the conversation' })),
  },
  { title: 'ConsoleConversation', description: 'A conversation as agents see it: the public shape plus `assignedTo`' },
);
export type ConsoleConversation = Static<typeof ConsoleConversationSchema>;

export const TicketSchema = Type.Object(
  {
    id: Uuid(),
    conversationId: Uuid(),
    subject: Type.String(),
    description: Type.String(),
    status: Type.Enum(['OPEN', 'CLOSED']),
    createdAt: Timestamp(),
  },
  { title: 'Ticket' },
);
export type Ticket = Static<typeof TicketSchema>;

export const ConversationDetailSchema = Type.Object(
  {
    ...ConsoleConversationSchema.properties,
    messages: Type.Array(MessageSchema, { description: 'Oldest first' }),
    tickets: Type.Array(TicketSchema, { description: 'Oldest first' }),
  },
  { title: 'ConsoleConversationDetail' },
);
export type ConversationDetail = Static<typeof ConversationDetailSchema>;

export const InboxQuery = Type.Object({
  ...PaginationQuery,
  status: Type.Optional(ConversationStatusSchema),
  assignedTo: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_AGENT_ID_LENGTH, description: 'An agent id' })),
});
export const InboxSchema = Envelope(ConsoleConversationSchema);

export const ConversationIdParams = Type.Object({ id: Uuid('Conversation id') });

export const AssignBody = Type.Object({
  agentId: Nullable(
    Type.String({ minLength: 1, maxLength: MAX_AGENT_ID_LENGTH, description: 'The agent who takes the conversation; null releases it' }),
  ),
});

export const ReplyBody = Type.Object({
  // The 1-2000 rule applies after trimming (checked by the service); this bound only stops absurd bodies early.
  content: Type.String({ minLength: 1, maxLength: 10_000, description: `1 to ${MAX_MESSAGE_LENGTH} characters after trimming` }),
});

export const StatusBody = Type.Object({ status: ConversationStatusSchema });

export const TicketBody = Type.Object({
  subject: Type.String({ minLength: 1, maxLength: 10_000, description: `1 to ${MAX_TICKET_SUBJECT_LENGTH} characters after trimming` }),
  description: Type.String({
    minLength: 1,
    maxLength: 50_000,
    description: `1 to ${MAX_TICKET_DESCRIPTION_LENGTH} characters after trimming`,
  }),
});

export const UsageQuery = Type.Object({
  from: Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'First day (Europe/Paris), YYYY-MM-DD' }),
  to: Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'Last day, included (Europe/Paris), YYYY-MM-DD' }),
});

export const UsageRowSchema = Type.Object(
  {
    day: Type.String({ format: 'date', examples: ['2026-11-21'], description: 'A calendar day in Europe/Paris' }),
    cityGroupId: Uuid(),
    requests: Type.Integer({ minimum: 1, description: 'Calls made to the language model' }),
    promptTokens: Type.Integer({ minimum: 0 }),
    completionTokens: Type.Integer({ minimum: 0 }),
  },
  { title: 'LlmUsageDay' },
);
export type UsageRow = Static<typeof UsageRowSchema>;
export const UsageListSchema = Type.Array(UsageRowSchema, { description: 'By day, then cityGroupId; days without usage are left out' });
