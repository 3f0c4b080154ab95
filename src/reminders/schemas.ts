import { Type, type Static } from 'typebox';
import { DeviceId, ErrorSchema, Nullable, TIME_OF_DAY_PATTERN, Timestamp, Uuid } from '../kernel/schemas.ts';

export { ErrorSchema };

/** The time of a reminder when the subscriber names none. */
export const DEFAULT_REMINDER_TIME = '19:00';

export const ReminderConfigSchema = Type.Object(
  {
    webPushPublicKey: Type.String({ description: 'VAPID public key (base64url), the applicationServerKey of PushManager.subscribe()' }),
    emailEnabled: Type.Boolean({ description: 'Whether e-mail reminders are offered (SMTP configured)' }),
    defaultTime: Type.String({ examples: [DEFAULT_REMINDER_TIME] }),
  },
  { $id: 'ReminderConfig' },
);

const Channel = Type.Union([Type.Literal('WEB_PUSH'), Type.Literal('EMAIL')]);

/** A browser's PushSubscription as JSON (PushSubscription.toJSON()); extra members such as expirationTime are ignored. */
const WebPushSubscription = Type.Object({
  endpoint: Type.String({ minLength: 1, maxLength: 2048, description: 'An https URL of a public push service' }),
  keys: Type.Object({
    p256dh: Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+={0,2}$', description: 'P-256 public key, base64url (65 bytes)' }),
    auth: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_-]+={0,2}$', description: 'Authentication secret, base64url (16 bytes)' }),
  }),
});

export const SubscribeBody = Type.Object({
  deviceId: DeviceId,
  cityId: Uuid(),
  placeId: Uuid('A collection place of the city'),
  wasteTypeIds: Type.Optional(
    Type.Array(Uuid(), {
      maxItems: 100,
      default: [],
      description: 'Waste types of the city to be reminded of; [] (the default) means every waste type of the place',
    }),
  ),
  time: Type.Optional(
    Type.String({
      pattern: TIME_OF_DAY_PATTERN,
      default: DEFAULT_REMINDER_TIME,
      examples: ['19:00'],
      description: 'HH:MM, when to remind the day before each collection, in the city’s time zone (default 19:00)',
    }),
  ),
  channel: Channel,
  webPush: Type.Optional(Nullable(WebPushSubscription)),
  email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 254 }))),
});
export type SubscribeBody = Static<typeof SubscribeBody>;

const subscriptionFields = {
  id: Uuid(),
  deviceId: Type.String(),
  cityId: Uuid(),
  placeId: Uuid(),
  wasteTypeIds: Type.Array(Uuid()),
  time: Type.String({ examples: [DEFAULT_REMINDER_TIME] }),
  channel: Channel,
  status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('PENDING')], {
    description: 'PENDING: an e-mail subscription whose address is not yet confirmed (nothing is sent to it)',
  }),
  createdAt: Timestamp(),
};

export const SubscriptionSchema = Type.Object(subscriptionFields, { $id: 'ReminderSubscription' });
export type Subscription = Static<typeof SubscriptionSchema>;

export const DeviceSubscriptionSchema = Type.Object(
  { ...subscriptionFields, email: Nullable(Type.String({ examples: ['j***@exemple.fr'], description: 'The address, masked; null for push' })) },
  { $id: 'ReminderDeviceSubscription' },
);
export type DeviceSubscription = Static<typeof DeviceSubscriptionSchema>;

export const DeviceSubscriptionListSchema = Type.Array(DeviceSubscriptionSchema);

export const DeviceParams = Type.Object({ deviceId: DeviceId });
export const SubscriptionIdParams = Type.Object({ id: Uuid() });
export const DeleteQuery = Type.Object({ deviceId: DeviceId });
export const TokenQuery = Type.Object({ token: Type.String({ minLength: 1, maxLength: 1000 }) });

export const LinkResultSchema = Type.Object(
  { status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('DELETED')]) },
  { $id: 'ReminderLinkResult', description: 'JSON answer of a link when the request accepts application/json; otherwise a short French HTML page' },
);
