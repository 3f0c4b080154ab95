import { Type, type Static } from 'typebox';
import { adminSchemas, NonBlank, Nullable, Timestamp, Uuid } from '../kernel/schemas.ts';
import { ADDRESS_MAX, DESCRIPTION_MAX } from '../requests/schemas.ts';

/**
 * Open311 GeoReport v2 (docs/api.md, Open311; http://wiki.open311.org/GeoReport_v2): its shapes under the standard's
 * own snake_case names, described once here for the JSON answers and the OpenAPI page. The XML answers carry the same
 * fields under the standard's element names (xml.ts).
 */

/** A datetime in the city's local time with its offset: `2026-12-01T09:30:00+01:00`. */
const LocalDatetime = (description: string) => Type.String({ examples: ['2026-12-01T09:30:00+01:00'], description });

export const DiscoverySchema = Type.Object(
  {
    changeset: LocalDatetime('When this service’s description last changed'),
    contact: Type.String(),
    key_service: Type.String({ description: 'How a partner obtains an API key' }),
    endpoints: Type.Array(
      Type.Object({
        specification: Type.String({ examples: ['http://wiki.open311.org/GeoReport_v2'] }),
        url: Type.String({ description: 'The base URL of the endpoints (`…/open311/v2`)' }),
        changeset: Type.String(),
        type: Type.String({ examples: ['production'] }),
        formats: Type.Array(Type.String(), { examples: [['application/json', 'text/xml']] }),
      }),
    ),
  },
  { title: 'Open311Discovery' },
);

export const ServiceSchema = Type.Object(
  {
    service_code: Type.String({ description: 'The request type’s `code`' }),
    service_name: Type.String(),
    description: Type.String(),
    metadata: Type.Boolean({ description: 'true when the type has fields, a waste type or a day: read its definition' }),
    type: Type.Literal('realtime'),
    keywords: Type.String({ description: 'Comma-separated' }),
    group: Type.String({ description: 'The type’s category, in French' }),
  },
  { title: 'Open311Service' },
);
export type Service = Static<typeof ServiceSchema>;

export const DATATYPES = ['string', 'number', 'datetime', 'text', 'singlevaluelist', 'multivaluelist'] as const;

export const ServiceAttributeSchema = Type.Object(
  {
    variable: Type.Boolean(),
    code: Type.String(),
    datatype: Type.Enum(DATATYPES),
    required: Type.Boolean(),
    datatype_description: Nullable(Type.String()),
    order: Type.Integer({ minimum: 1 }),
    description: Type.String(),
    values: Type.Array(Type.Object({ key: Type.String(), name: Type.String() })),
  },
  { title: 'Open311ServiceAttribute' },
);
export type ServiceAttribute = Static<typeof ServiceAttributeSchema>;

export const ServiceDefinitionSchema = Type.Object(
  { service_code: Type.String(), attributes: Type.Array(ServiceAttributeSchema) },
  { title: 'Open311ServiceDefinition' },
);
export type ServiceDefinition = Static<typeof ServiceDefinitionSchema>;

export const RequestCreatedSchema = Type.Array(
  Type.Object({
    service_request_id: Type.String({ description: 'The request’s reference (`2026-000042`)' }),
    service_notice: Nullable(Type.String()),
    account_id: Type.Null(),
  }),
  { title: 'Open311RequestCreated' },
);
export type RequestCreated = Static<typeof RequestCreatedSchema>;

export const ServiceRequestSchema = Type.Object(
  {
    service_request_id: Type.String({ description: 'The request’s reference' }),
    status: Type.Union([Type.Literal('open'), Type.Literal('closed')]),
    status_notes: Nullable(Type.String({ description: 'The message of the latest public update' })),
    service_name: Type.String(),
    service_code: Type.String(),
    description: Nullable(Type.String({ description: 'Only for types about a public place (`depot-sauvage`, `point-apport-plein`)' })),
    agency_responsible: Type.String({ description: 'The city group’s name' }),
    service_notice: Nullable(Type.String()),
    requested_datetime: LocalDatetime('Filed'),
    updated_datetime: LocalDatetime('Last changed'),
    expected_datetime: Nullable(LocalDatetime('The start of the day the service plans to act (`plannedFor`)')),
    address: Nullable(Type.String()),
    address_id: Type.Null(),
    zipcode: Type.Null(),
    lat: Nullable(Type.Number()),
    long: Nullable(Type.Number()),
    media_url: Type.Null({ description: 'Photos are never published' }),
  },
  { title: 'Open311ServiceRequest' },
);
export type ServiceRequest = Static<typeof ServiceRequestSchema>;

export const Open311ErrorSchema = Type.Array(
  Type.Object({
    code: Type.Integer({ description: 'The HTTP status', examples: [400] }),
    description: Type.String({ description: 'A French sentence naming the faulty field' }),
  }),
  { title: 'Open311Errors' },
);
export type Open311Errors = Static<typeof Open311ErrorSchema>;

const Jurisdiction = Type.String({ minLength: 1, maxLength: 20, description: 'A city group’s SIREN; required when the service holds several groups' });

export const JurisdictionQuery = Type.Object({ jurisdiction_id: Type.Optional(Jurisdiction) });
export const ServiceParams = Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) });
export const RequestIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 32, description: 'The reference (`2026-000042`)' }) });

/** A decimal number as a form sends it. */
const Decimal = (description: string) => Type.String({ maxLength: 32, pattern: '^-?[0-9]+(\\.[0-9]+)?$', description });

export const RequestListQuery = Type.Object({
  jurisdiction_id: Type.Optional(Jurisdiction),
  service_request_id: Type.Optional(Type.String({ maxLength: 2000, description: 'References, comma-separated: the other filters are then ignored' })),
  service_code: Type.Optional(Type.String({ maxLength: 2000, description: 'Service codes, comma-separated' })),
  start_date: Type.Optional(Type.String({ format: 'date-time', description: 'Filed at or after (ISO 8601 with an offset)' })),
  end_date: Type.Optional(Type.String({ format: 'date-time', description: 'Filed at or before (ISO 8601 with an offset)' })),
  status: Type.Optional(Type.String({ pattern: '^(open|closed)(,(open|closed))?$', description: '`open`, `closed`, or both comma-separated' })),
});
export type RequestListFilters = Static<typeof RequestListQuery>;

/** `attribute[code]=value` (or `attribute[code][]=value`, repeated, for a multivaluelist), gathered by form.ts. */
const Attributes = Type.Record(Type.String(), Type.Union([Type.String({ maxLength: DESCRIPTION_MAX }), Type.Array(Type.String({ maxLength: 200 }), { maxItems: 50 })]));

export const CreateRequestForm = Type.Object(
  {
    api_key: Type.Optional(Type.String({ maxLength: 200, description: 'The partner’s key (403 when missing, unknown, revoked or of another group)' })),
    jurisdiction_id: Type.Optional(Jurisdiction),
    service_code: Type.String({ minLength: 1, maxLength: 64 }),
    lat: Type.Optional(Decimal('WGS 84 latitude')),
    long: Type.Optional(Decimal('WGS 84 longitude')),
    address_string: Type.Optional(NonBlank(ADDRESS_MAX, 'A French address, as section 11’s lookup reads it')),
    address_id: Type.Optional(Type.String({ maxLength: 200, description: 'Ignored' })),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254, description: 'For the receipt and the updates' })),
    device_id: Type.Optional(Type.String({ maxLength: 200, description: 'Ignored' })),
    account_id: Type.Optional(Type.String({ maxLength: 200, description: 'Ignored' })),
    first_name: Type.Optional(Type.String({ maxLength: 200, description: 'Not stored' })),
    last_name: Type.Optional(Type.String({ maxLength: 200, description: 'Not stored' })),
    phone: Type.Optional(Type.String({ maxLength: 200, description: 'Not stored' })),
    description: NonBlank(DESCRIPTION_MAX, '1 to 2000 characters'),
    media_url: Type.Optional(Type.String({ maxLength: 1000, pattern: '^https?://\\S+$', description: 'Appended to the description the staff read; never fetched' })),
    attribute: Type.Optional(Attributes),
  },
  { description: 'application/x-www-form-urlencoded, as GeoReport v2 says' },
);
export type CreateRequestFormInput = Static<typeof CreateRequestForm>;

// ------------------------------------------------------------------ the keys, in the back office

const KeyFields = {
  cityGroupId: Uuid('The city group the partner files with'),
  name: NonBlank(120, 'Whose key it is (`FixMyStreet`, `Appli partenaire`)'),
};

export const Open311KeySchema = Type.Object(
  { id: Uuid(), name: KeyFields.name, cityGroupId: KeyFields.cityGroupId, createdAt: Timestamp(), lastUsedAt: Nullable(Timestamp('Moved at most once a minute')) },
  { title: 'Open311Key', description: 'An Open311 partner’s API key, without the key itself' },
);
export type Open311Key = Static<typeof Open311KeySchema>;

export const keySchemas = adminSchemas(Open311KeySchema, KeyFields, { id: 'Open311 key id', description: 'A new Open311 key' });
export const KeyPatch = Type.Partial(Type.Object({ name: KeyFields.name }));
export type CreateKeyInput = Static<typeof keySchemas.create>;
export type KeyPatchInput = Static<typeof KeyPatch>;

export const CreatedKeySchema = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    cityGroupId: Uuid(),
    key: Type.String({ description: 'The key: shown in this answer only (only its SHA-256 is kept)' }),
    createdAt: Timestamp(),
    lastUsedAt: Nullable(Timestamp()),
  },
  { title: 'Open311CreatedKey' },
);
