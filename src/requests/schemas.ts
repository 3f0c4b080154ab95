import { Type, type Static } from 'typebox';
import { Envelope } from '../kernel/pagination.ts';
import { adminSchemas, DeviceId, NonBlank, Nullable, Timestamp, Uuid } from '../kernel/schemas.ts';

/**
 * Residents' requests (docs/api.md, resident requests): the request types of a group's catalogue and the requests
 * themselves, each described once here; the residents' and the staff's shapes are built from the same fields.
 */

export const REQUEST_STATUSES = ['RECUE', 'EN_COURS', 'PLANIFIEE', 'RESOLUE', 'REJETEE', 'ANNULEE'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
/** A request in one of these is open: followed, de-duplicated, counted overdue. */
export const OPEN_STATUSES: readonly RequestStatus[] = ['RECUE', 'EN_COURS', 'PLANIFIEE'];
export const isOpen = (status: RequestStatus) => OPEN_STATUSES.includes(status);

export const REQUIREMENTS = ['NONE', 'OPTIONAL', 'REQUIRED'] as const;
export const CATEGORIES = ['COLLECTE', 'BAC', 'POINT_APPORT', 'PROPRETE', 'ENCOMBRANTS', 'AUTRE'] as const;
export const FIELD_DATATYPES = ['string', 'text', 'number', 'date', 'singlevaluelist', 'multivaluelist'] as const;
export type FieldDatatype = (typeof FIELD_DATATYPES)[number];

/** Longest texts: the contract's 2000 characters for a description; a `string` field is a line. */
export const DESCRIPTION_MAX = 2000;
export const STRING_FIELD_MAX = 200;
export const ADDRESS_MAX = 300;
/** Most photos one request carries. */
export const PHOTOS_MAX = 5;
/** Most extra questions one type asks, and choices one list offers. */
const FIELDS_MAX = 20;
const VALUES_MAX = 50;

const Requirement = (what: string) =>
  Type.Enum(REQUIREMENTS, { description: `Whether a request of the type must (\`REQUIRED\`), may (\`OPTIONAL\`) or must not (\`NONE\`) name ${what}` });
const Code = (description: string) =>
  Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', description });
const FieldCode = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z][A-Za-z0-9_-]*$', description: 'Its key in a request’s `attributes`' });
export const Day = (description: string) => Type.String({ format: 'date', examples: ['2026-12-01'], description });

export const RequestFieldSchema = Type.Object(
  {
    code: FieldCode,
    label: NonBlank(200, 'The question as residents read it'),
    datatype: Type.Enum(FIELD_DATATYPES, {
      description: '`string` (a line, 200 characters), `text` (2000), `number`, `date` (`YYYY-MM-DD`), `singlevaluelist` (one key of `values`), `multivaluelist` (an array of them)',
    }),
    required: Type.Boolean(),
    values: Type.Array(Type.Object({ key: Type.String({ minLength: 1, maxLength: 64 }), name: NonBlank(200) }), {
      maxItems: VALUES_MAX,
      description: 'The choices of a list; [] for the other datatypes',
    }),
  },
  { title: 'RequestField', description: 'An extra question of a request type' },
);
export type RequestField = Static<typeof RequestFieldSchema>;

const RequestTypeFields = {
  code: Code('Stable code of the type (`collecte-non-effectuee`): what forms, the assistant and Open311 name it by'),
  name: NonBlank(120, 'Its name as residents read it'),
  description: Nullable(Type.String({ maxLength: 500, description: 'A sentence that helps choose it' })),
  category: Type.Enum(CATEGORIES, { description: 'What it is about, to group the types in a form' }),
  place: Requirement('a collection place (`placeId`)'),
  position: Requirement('a position (`latitude` and `longitude`, or an `address`)'),
  wasteType: Requirement('a waste type (`wasteTypeId`)'),
  photo: Requirement('photos (`photoIds`)'),
  fields: Type.Array(RequestFieldSchema, { maxItems: FIELDS_MAX, description: 'Extra questions, answered in `attributes` by their `code`' }),
  targetHours: Type.Integer({ minimum: 1, maximum: 8760, description: 'Hours within which the service aims to close one: past them, an open request is overdue' }),
};

export const RequestTypeSchema = Type.Object(RequestTypeFields, {
  title: 'RequestType',
  description: 'A kind of request residents may file with their city group',
});
export type RequestType = Static<typeof RequestTypeSchema>;

export const GroupParams = Type.Object({ id: Uuid('City group id') });

// ------------------------------------------------------------------ requests, as residents see them

export const RequestUpdateSchema = Type.Object(
  {
    at: Timestamp(),
    status: Nullable(Type.Enum(REQUEST_STATUSES, { description: 'The status the request went to; null for a reply' })),
    message: Nullable(Type.String({ description: 'The reply, or the reason of a status change (a rejection’s); else null' })),
  },
  { title: 'RequestUpdate' },
);
export type RequestUpdate = Static<typeof RequestUpdateSchema>;

const PublicRequestFields = {
  id: Uuid(),
  reference: Type.String({ pattern: '^[0-9]{4}-[0-9]{6,}$', examples: ['2026-000042'], description: 'Year, then a number counting up within the city group' }),
  typeCode: Type.String(),
  typeName: Type.String(),
  status: Type.Enum(REQUEST_STATUSES, {
    description: '`RECUE`, `EN_COURS`, `PLANIFIEE` (`plannedFor` set), `RESOLUE`, `REJETEE` (the reason in its update), `ANNULEE`',
  }),
  cityId: Uuid(),
  placeId: Nullable(Uuid()),
  wasteTypeId: Nullable(Uuid()),
  date: Nullable(Day('The day concerned (a missed collection’s)')),
  recyclingPointId: Nullable(Uuid()),
  latitude: Nullable(Type.Number()),
  longitude: Nullable(Type.Number()),
  address: Nullable(Type.String()),
  description: Nullable(Type.String({ description: 'null once erased (retention)' })),
  attributes: Type.Record(Type.String(), Type.Unknown(), { description: 'The answers to the type’s fields, by `code`' }),
  photoCount: Type.Integer({ minimum: 0 }),
  plannedFor: Nullable(Day('The day the service plans to act')),
  createdAt: Timestamp(),
  updatedAt: Timestamp(),
  updates: Type.Array(RequestUpdateSchema, { description: 'Status changes and public replies, oldest first' }),
};

export const RequestSchema = Type.Object(PublicRequestFields, { title: 'ResidentRequest', description: 'A resident’s request' });
export type ResidentRequest = Static<typeof RequestSchema>;

export const CreateRequestBody = Type.Object(
  {
    deviceId: DeviceId,
    cityId: Uuid('The city it concerns'),
    typeCode: Type.String({ minLength: 1, maxLength: 64, description: 'A type of the city’s group (`GET /public/city-groups/{id}/request-types`)' }),
    placeId: Type.Optional(Nullable(Uuid('A collection place of the city'))),
    wasteTypeId: Type.Optional(Nullable(Uuid('A waste type of the city'))),
    date: Type.Optional(Nullable(Day('`YYYY-MM-DD` in the city’s time zone'))),
    recyclingPointId: Type.Optional(Nullable(Uuid('A recycling point of the city'))),
    latitude: Type.Optional(Nullable(Type.Number({ minimum: -90, maximum: 90 }))),
    longitude: Type.Optional(Nullable(Type.Number({ minimum: -180, maximum: 180 }))),
    address: Type.Optional(Nullable(NonBlank(ADDRESS_MAX, 'As the resident typed it'))),
    description: NonBlank(DESCRIPTION_MAX, 'What happened, 1 to 2000 characters; stored trimmed'),
    email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 254, description: 'For a receipt and the updates; optional' }))),
    attributes: Type.Optional(Nullable(Type.Record(Type.String(), Type.Unknown(), { description: 'The type’s fields by `code`; others are ignored' }))),
    photoIds: Type.Optional(Nullable(Type.Array(Uuid(), { maxItems: PHOTOS_MAX, description: 'Photos uploaded first (`POST /public/requests/photos`)' }))),
  },
  { description: 'A new request' },
);
export type CreateRequestInput = Static<typeof CreateRequestBody>;

export const DeviceQuery = Type.Object({ deviceId: DeviceId });
export const RequestParams = Type.Object({ id: Uuid('Request id') });

export const TokenQuery = Type.Object({ token: Type.String({ minLength: 1, maxLength: 1000, description: 'The signed token of an e-mail’s link' }) });
export const MailStatusSchema = Type.Object(
  { status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('STOPPED')], { description: 'Whether e-mails about the request are still sent' }) },
  { title: 'RequestMailStatus', description: 'JSON answer of the link when the request accepts application/json; otherwise a short French HTML page' },
);

export const PhotoReceiptSchema = Type.Object({ id: Uuid('Name it in `photoIds` within 24 hours') }, { title: 'RequestPhotoReceipt' });

export const RequestMapSchema = Type.Object(
  {
    tileUrl: Type.String({
      description: 'XYZ raster tiles, 256 px, Web Mercator: `{z}`, `{x}` and `{y}` replaced by the tile’s zoom, column and row',
      examples: ['https://tile.openstreetmap.org/{z}/{x}/{y}.png'],
    }),
    attribution: Type.String({ description: 'The credit the tile server asks for, shown on the map', examples: ['© les contributeurs d’OpenStreetMap'] }),
  },
  { title: 'RequestMap' },
);

export const RequestsConfigSchema = Type.Object(
  {
    map: Type.Union([RequestMapSchema, Type.Null()], {
      description: 'The map of the form’s position, from the operator’s tile server (MAP_TILE_URL); null: no map, no tile server reached',
    }),
  },
  { $id: 'RequestsConfig' },
);

// ------------------------------------------------------------------ the staff's side

const AdminRequestTypeSchema = Type.Object(
  {
    id: Uuid(),
    cityGroupId: Uuid(),
    ...RequestTypeFields,
    date: Requirement('a day (`date`; `NONE` and `OPTIONAL` alike take one given); a missed collection’s is checked against the place’s calendar'),
    recyclingPoint: Requirement('a recycling point (`recyclingPointId`; `NONE` and `OPTIONAL` alike take one given)'),
    active: Type.Boolean({ description: 'false: residents no longer see it (a type some request uses is never deleted)' }),
    createdAt: Timestamp(),
    updatedAt: Timestamp(),
  },
  { title: 'AdminRequestType', description: 'A request type as agents edit it' },
);
export type AdminRequestType = Static<typeof AdminRequestTypeSchema>;

const { code: _code, ...EditableTypeFields } = RequestTypeFields;
const WritableTypeFields = {
  code: RequestTypeFields.code,
  ...EditableTypeFields,
  description: Type.Optional(RequestTypeFields.description),
  place: Type.Optional(RequestTypeFields.place),
  position: Type.Optional(RequestTypeFields.position),
  wasteType: Type.Optional(RequestTypeFields.wasteType),
  photo: Type.Optional(RequestTypeFields.photo),
  date: Type.Optional(AdminRequestTypeSchema.properties.date),
  recyclingPoint: Type.Optional(AdminRequestTypeSchema.properties.recyclingPoint),
  fields: Type.Optional(RequestTypeFields.fields),
  active: Type.Optional(AdminRequestTypeSchema.properties.active),
};
export const requestTypeSchemas = adminSchemas(AdminRequestTypeSchema, WritableTypeFields, {
  id: 'Request type id',
  description: 'A new request type; the requirements left out are `OPTIONAL`, `date` and `recyclingPoint` `NONE`',
});
export type CreateRequestTypeInput = Static<typeof requestTypeSchemas.create>;
export type RequestTypePatchInput = Static<typeof requestTypeSchemas.patch>;

const AgentRef = Type.Object({ id: Uuid(), name: Type.String() });

export const AdminRequestSchema = Type.Object(
  {
    ...PublicRequestFields,
    cityGroupId: Uuid(),
    cityName: Type.String(),
    placeName: Nullable(Type.String()),
    wasteTypeName: Nullable(Type.String()),
    recyclingPointName: Nullable(Type.String()),
    email: Nullable(Type.String({ format: 'email' })),
    photos: Type.Array(Type.Object({ id: Uuid(), url: Type.String({ description: 'Its bytes, for agents (`GET /admin/requests/{id}/photos/{photoId}`)' }) })),
    assignedTo: Nullable(Uuid('The agent in charge')),
    assignedToName: Nullable(Type.String()),
    overdue: Type.Boolean({ description: 'Open for longer than its type’s `targetHours`' }),
    dueAt: Timestamp('When it becomes overdue: created plus the type’s `targetHours`'),
    closedAt: Nullable(Timestamp()),
    followers: Type.Integer({ minimum: 1, description: 'Devices that follow it: its author and those whose report joined it' }),
    notes: Type.Array(
      Type.Object({ at: Timestamp(), message: Type.String(), author: Nullable(AgentRef) }),
      { description: 'Internal notes, oldest first: never shown to the requester' },
    ),
  },
  { title: 'AdminResidentRequest', description: 'A request as agents handle it' },
);
export type AdminRequest = Static<typeof AdminRequestSchema>;

const RequestPatch = Type.Object(
  {
    status: Type.Optional(Type.Enum(REQUEST_STATUSES)),
    assignedTo: Type.Optional(Nullable(Uuid('An agent of the group holding REQUESTS; null: nobody'))),
    plannedFor: Type.Optional(Nullable(Day('Required to set `PLANIFIEE`'))),
    reason: Type.Optional(NonBlank(DESCRIPTION_MAX, 'Told to the requester with the status change; required for `REJETEE`')),
  },
  { description: 'A change of status, assignment or planned day' },
);
export type RequestPatchInput = Static<typeof RequestPatch>;

export const requestSchemas = {
  item: AdminRequestSchema,
  list: Envelope(AdminRequestSchema),
  idParams: RequestParams,
  patch: RequestPatch,
};

export const RequestListQuery = {
  cityGroupId: Type.Optional(Uuid('Only this group’s (404 for a group outside the agent’s)')),
  status: Type.Optional(Type.Enum(REQUEST_STATUSES)),
  typeCode: Type.Optional(Type.String({ maxLength: 64 })),
  cityId: Type.Optional(Uuid()),
  assignedTo: Type.Optional(Uuid()),
  overdue: Type.Optional(Type.Boolean({ description: 'true: only the open requests past their target; false: the others' })),
};

export const ReplyBody = Type.Object({
  message: NonBlank(DESCRIPTION_MAX, 'Stored trimmed'),
  public: Type.Boolean({ description: 'true: an update the requester sees and is told of; false: an internal note' }),
});
export type ReplyInput = Static<typeof ReplyBody>;

export const PhotoParams = Type.Object({ id: Uuid('Request id'), photoId: Uuid('Photo id') });
