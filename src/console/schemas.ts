import { Type, type Static } from 'typebox';
import { adminSchemas, NonBlank, Nullable, Timestamp, Uuid } from '../kernel/schemas.ts';
import { Envelope, PaginationQuery } from '../kernel/pagination.ts';
import { ConversationSchema, ConversationStatusSchema, MAX_MESSAGE_LENGTH, MESSAGE_PAGE_SIZE, MessageSchema } from '../chat/for-console.ts';

/** Longest agent id accepted in an assignment (ids are the `sub` of console tokens). */
export const MAX_AGENT_ID_LENGTH = 200;
export const MAX_TICKET_SUBJECT_LENGTH = 200;
export const MAX_TICKET_DESCRIPTION_LENGTH = 5000;
/** Longest range of /chat/usage, both ends included: one year, leap years included. */
export const MAX_USAGE_DAYS = 366;

/** The public conversation's fields but its deviceId, a bearer secret that agents never see. */
const { deviceId: _secretDeviceId, id: ConversationIdField, ...conversationFields } = ConversationSchema.properties;

export const ConsoleConversationSchema = Type.Object(
  {
    id: ConversationIdField,
    devicePseudonym: Type.String({
      pattern: '^Appareil [0-9A-F]{6}$',
      examples: ['Appareil 4F2A9C'],
      description:
        'Stands for the citizen’s device: the same for every conversation of that device, and nothing more. The deviceId itself ' +
        'is never shown to agents: it would let them read that device’s conversations in every city group through the public API. ' +
        'It is the first 24 bits of an HMAC-SHA-256 of the deviceId under a key the server holds (DEVICE_PSEUDONYM_KEY).',
    }),
    ...conversationFields,
    assignedTo: Nullable(Type.String({ description: 'Id (token `sub`) of the agent who holds the conversation' })),
  },
  {
    title: 'ConsoleConversation',
    description: 'A conversation as agents see it: the public shape with `devicePseudonym` instead of `deviceId`, plus `assignedTo`',
  },
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

/** Collections per waste type shown with a conversation's place: enough to answer « when is my next bin? » and the one after. */
export const PLACE_COLLECTIONS_PER_WASTE_TYPE = 3;

const CalendarDay = (description: string) => Type.String({ format: 'date', examples: ['2026-12-01'], description });

export const PlaceCollectionSchema = Type.Object(
  {
    date: CalendarDay('The day it takes place (or, `CANCELLED`, would have), `YYYY-MM-DD` in the city’s time zone'),
    status: Type.Enum(['PLANNED', 'MOVED', 'ADDED', 'CANCELLED']),
    originalDate: Nullable(CalendarDay('`MOVED`: the day it was planned for')),
    note: Nullable(Type.String({ description: 'Why it is not as planned: the exception’s name and description, or the holiday rule’s wording' })),
  },
  { title: 'ConsolePlaceCollection' },
);

export const ConversationPlaceSchema = Type.Object(
  {
    id: Uuid(),
    name: Type.String({ description: 'The place’s name, as the citizens’ app writes it after « Secteur »' }),
    nextCollections: Type.Array(
      Type.Object({
        wasteTypeId: Uuid(),
        wasteTypeName: Type.String(),
        color: Nullable(Type.String()),
        collections: Type.Array(PlaceCollectionSchema, {
          description:
            `The next ${PLACE_COLLECTIONS_PER_WASTE_TYPE} collections from today (in the city’s time zone, within a year), ` +
            'with the cancelled ones falling among them, by date',
        }),
      }),
      { description: 'One entry per waste type collected at the place within a year, by its first date' },
    ),
  },
  {
    title: 'ConsoleConversationPlace',
    description: 'The conversation’s collection place and its next collections, from the calendar engine the public calendar uses',
  },
);
export type ConversationPlace = Static<typeof ConversationPlaceSchema>;

export const ConversationDetailSchema = Type.Object(
  {
    ...ConsoleConversationSchema.properties,
    cityName: Type.String({ description: 'The conversation’s commune, by name' }),
    place: Nullable(ConversationPlaceSchema),
    messages: Type.Array(MessageSchema, {
      description: `The ${MESSAGE_PAGE_SIZE} most recent messages (or those before \`before\`), oldest first; the \`Link\` header gives older ones`,
    }),
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

// ---- canned replies (the admin API's /admin/city-groups/:cityGroupId/canned-replies) ------------------------------

export const MAX_CANNED_TITLE_LENGTH = 100;

export const cannedReplySchemas = adminSchemas(
  Type.Object(
    {
      id: Uuid(),
      cityGroupId: Uuid(),
      title: Type.String({ description: 'What the agent picks it by, in the inbox' }),
      content: Type.String({ description: 'The reply as sent to the citizen' }),
      createdAt: Timestamp(),
      updatedAt: Timestamp(),
    },
    { title: 'CannedReply', description: 'A short answer the agents of a city group reuse in the chat inbox' },
  ),
  {
    title: NonBlank(MAX_CANNED_TITLE_LENGTH, `1 to ${MAX_CANNED_TITLE_LENGTH} characters, stored trimmed`),
    content: NonBlank(MAX_MESSAGE_LENGTH, `1 to ${MAX_MESSAGE_LENGTH} characters (a chat message’s limit), stored trimmed`),
  },
  { id: 'Canned reply id' },
);
export type CannedReply = Static<typeof cannedReplySchemas.item>;
export type CreateCannedReplyInput = Static<typeof cannedReplySchemas.create>;
export type CannedReplyPatch = Static<typeof cannedReplySchemas.patch>;
