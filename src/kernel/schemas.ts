import { Type, type TProperties, type TSchema } from 'typebox';
import { Envelope } from './pagination.ts';

/**
 * The building blocks every area's schemas are made of (docs/api.md, Conventions): ids, nullable fields, timestamps,
 * the error body, the device id, the short reference to a city group, and the field groups the API and the import
 * bundle share. One definition each, so that every route validates and documents them alike.
 */

/** A UUID, case-insensitive: what every id of the API is. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID_PATTERN.test(value);

/** A body with the ids of `fields` (one id or a list of them, when set) lowercase, as ids are stored. */
export function lowercaseIds<B extends object>(body: B, ...fields: (keyof B)[]): B {
  const lower = (value: unknown) =>
    typeof value === 'string' ? value.toLowerCase() : Array.isArray(value) ? value.map((id: string) => id.toLowerCase()) : value;
  return { ...body, ...Object.fromEntries(fields.filter((field) => body[field]).map((field) => [field, lower(body[field])])) };
}

/** A device id (challenges, chat): 8 to 128 letters, digits, `-` and `_`. */
export const DEVICE_ID_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;

export const isDeviceId = (value: unknown): value is string => typeof value === 'string' && DEVICE_ID_PATTERN.test(value);

/** An optional field of the seed: always present in responses, `null` when unset. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A name-like text: 1 to `maxLength` characters, not only spaces (stored trimmed). */
export const NonBlank = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, pattern: '\\S', ...(description ? { description } : {}) });

export const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });

/** ISO 8601 UTC timestamp with milliseconds. */
export const Timestamp = (description?: string) =>
  Type.String({ format: 'date-time', examples: ['2026-11-21T09:30:00.000Z'], ...(description ? { description } : {}) });

/** A time of day, `HH:MM` on the 24-hour clock (a reminder's time, a calendar alarm's). */
export const TIME_OF_DAY_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';

export const TimeOfDay = (description?: string) =>
  Type.String({ pattern: TIME_OF_DAY_PATTERN, examples: ['19:00'], ...(description ? { description } : {}) });

/** Minutes since midnight of a valid `HH:MM`. */
export const minutesOfDay = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** A telephone number as people write it: digits, spaces, dots, dashes, parentheses, a leading +. */
export const PHONE_PATTERN = '^\\+?[0-9][0-9 .()-]{3,28}[0-9]$';

export const DeviceId = Type.String({ minLength: 8, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' });

export const ErrorSchema = Type.Object(
  {
    statusCode: Type.Integer({ examples: [404] }),
    message: Type.String({ examples: ['Ville introuvable'] }),
    error: Type.String({ examples: ['Not Found'] }),
    code: Type.String({
      examples: ['cityNotFound'],
      description: 'The stable name of the error kind, from the one catalogue (docs/api.md): clients branch on it, never on `message`',
    }),
    field: Type.Union([Type.String(), Type.Null()], {
      examples: ['wasteTypeIds'],
      description: 'The JSON name or path (`webPush.endpoint`, `items[2].name`) of the faulty field, or null when the error is no one field’s',
    }),
  },
  { $id: 'Error', description: 'Error body of every failure' },
);

/** The city group a city, a post or a site belongs to, as a short reference. */
export const CityGroupRefSchema = Type.Object({
  id: Uuid(),
  name: Type.String(),
  type: Type.String({ examples: ['METROPOLE'] }),
});

// Field groups that the API returns and the import bundle accepts alike (docs/api.md, the collection calendar and docs/bundle.md), written in the
// API's form: always present, null when unset. The bundle makes each field optional (src/bundle/schema.ts).

/** How a waste type is shown to citizens. The API and the bundle check a colour their own way: each passes its own. */
export const WasteTypeDisplayFields = <Color extends TSchema>(color: Color) => ({
  description: Nullable(Type.String()),
  instructions: Nullable(Type.String()),
  color: Nullable(color),
  colorLight: Nullable(color),
  icon: Nullable(Type.String()),
  imageUrl: Nullable(Type.String()),
});

/** How a material of a waste type (one of its `details`) is shown. */
export const WasteTypeDetailDisplayFields = {
  description: Nullable(Type.String()),
  instructions: Nullable(Type.String()),
  imageUrl: Nullable(Type.String()),
};

/** What a city tells its citizens about their bins: free texts. */
export const CityNoticeFields = {
  outOfTheBins: Nullable(Type.String()),
  presentationOfBins: Nullable(Type.String()),
  returnOfBins: Nullable(Type.String()),
  respectOfCalendar: Nullable(Type.String()),
  holidays: Nullable(Type.String()),
};

/**
 * What an admin resource's routes validate and document (src/admin/resource.ts): its record, a page of them, its
 * id parameter (described as `id`), and the bodies of its writes, from one set of fields: `fields` as declared to
 * create one (the body described as `description`), any of them to change one (PATCH), `patchOnly` for a change
 * alone (a move to another city group).
 */
export function adminSchemas<T extends TSchema, F extends TProperties, P extends TProperties = {}>(
  item: T,
  fields: F,
  { id, description, patchOnly }: { id?: string; description?: string; patchOnly?: P } = {},
) {
  return {
    item,
    list: Envelope(item),
    idParams: Type.Object({ id: Uuid(id) }),
    create: Type.Object(fields, description === undefined ? {} : { description }),
    patch: Type.Partial(Type.Object({ ...fields, ...(patchOnly as P) })),
  };
}

/**
 * A value as JSON the database accepts: every string made well formed first (a lone UTF-16 surrogate, which a client
 * may send escaped in JSON, becomes U+FFFD), as the drivers do for a text parameter. PostgreSQL refuses `\ud800` in
 * a jsonb, which would otherwise fail the write with a 500.
 */
export const databaseJson = (value: unknown): string =>
  JSON.stringify(value, (_key, item: unknown) => (typeof item === 'string' ? item.toWellFormed() : item));
