import { Type, type Static } from 'typebox';
import { adminSchemas, CityNoticeFields, NonBlank, Nullable, Timestamp, Uuid } from '../kernel/schemas.ts';
import {
  AttachedLocationSchema,
  HolidayCalendarSchema,
  holidayRuleSchema,
  WasteCollectionDaySchema,
  WasteCollectionPlaceSchema,
  WasteTypeDetailSchema,
} from '../domain/city-model/schemas.ts';
import { FRENCH_WEEKDAYS } from '../kernel/dates.ts';
import { GroupContactFields, GroupContactWriteFields } from '../domain/group-contact.ts';
import { MAX_STREET_NUMBER } from './place-rules.ts';

/**
 * The admin API's city groups, cities, waste-type details, places, collection days and attached locations (docs/api.md, the admin API): the public shapes under the import bundle's field names, plus what the API keeps to itself (a city's
 * `status` and `timeZone`, a group's `siret` and `chatEnabled`) and the parent each record hangs off.
 */

const Name = NonBlank;
const Text = (max: number) => Type.Optional(Nullable(Type.String({ maxLength: max })));

// City groups

/** The most holiday rules a group holds: every holiday (14 with `*`) for a few dozen waste types. */
export const MAX_HOLIDAY_RULES = 500;

const HolidayRules = Type.Array(holidayRuleSchema(Uuid('A waste type of one of the group’s cities; null: every waste type')), {
  maxItems: MAX_HOLIDAY_RULES,
  description:
    'What each public holiday does to the collections of the group’s cities (docs/api.md, collections that move and service notices), in order. The most ' +
    'specific rule wins (a holiday key over `*`, a waste type over null); no rule: `KEEP`. No two rules name the same ' +
    'holiday and waste type. Written whole: a PATCH with `holidayRules` replaces the list.',
});

/** The most origins a group lets frame its widgets (the database holds at most 100). */
export const MAX_EMBED_ORIGINS = 100;

const EmbedOrigins = Type.Array(Type.String({ maxLength: 300 }), {
  maxItems: MAX_EMBED_ORIGINS,
  description:
    'The sites that may frame the group’s widgets (docs/widgets.md): `https://` origins, stored as `https://host[:port]` ' +
    '(lower case, no trailing slash). `[]`: no other site. Written whole.',
  examples: [['https://www.plouzane.fr']],
});

export const cityGroupSchemas = adminSchemas(
  Type.Object({
    id: Uuid(),
    name: Type.String(),
    type: Type.String({ examples: ['Métropole', 'Communauté de communes'] }),
    code: Type.String(),
    siren: Type.String({ pattern: '^[0-9]+$' }),
    siret: Nullable(Type.String({ pattern: '^[0-9]{14}$', description: 'The SIREN then the establishment’s NIC' })),
    chatEnabled: Type.Boolean({ description: 'The chat assistant module (docs/assistant.md)' }),
    ...GroupContactFields,
    holidayRules: HolidayRules,
    embedOrigins: EmbedOrigins,
    createdAt: Timestamp(),
    updatedAt: Timestamp(),
  }),
  {
    name: Name(200),
    type: Name(200, 'Category of group: Métropole, Communauté de communes…'),
    code: Name(100),
    siren: Type.String({ pattern: '^[0-9]+$', maxLength: 20, description: 'Digits (9 for a French SIREN)' }),
    siret: Type.Optional(Nullable(Type.String({ pattern: '^[0-9]{14}$', description: '14 digits, starting with the SIREN' }))),
    chatEnabled: Type.Optional(Type.Boolean({ description: 'false when absent' })),
    ...GroupContactWriteFields,
    holidayRules: Type.Optional(HolidayRules),
    embedOrigins: Type.Optional(EmbedOrigins),
  },
  { id: 'City group id' },
);
export type AdminCityGroup = Static<typeof cityGroupSchemas.item>;
export type CreateCityGroupInput = Static<typeof cityGroupSchemas.create>;
export type CityGroupPatch = Static<typeof cityGroupSchemas.patch>;

// Cities

const CityStatus = Type.Union([Type.Literal('ACTIF'), Type.Literal('NON_ACTIF')], { description: 'NON_ACTIF: hidden from the public API' });

export const citySchemas = adminSchemas(
  Type.Object({
    id: Uuid(),
    name: Type.String(),
    country: Type.String(),
    population: Nullable(Type.Number()),
    status: CityStatus,
    timeZone: Type.String({ description: 'IANA time zone the collection dates are computed in', examples: ['Europe/Paris'] }),
    holidayCalendar: HolidayCalendarSchema,
    ...CityNoticeFields,
    cityGroupId: Nullable(Uuid('Its city group; null: none (seen by super admins only)')),
    createdAt: Timestamp(),
    updatedAt: Timestamp(),
  }),
  {
    name: Name(200),
    country: Name(100),
    // The column is a 32-bit integer: a larger number is the client's fault (400), not a database error.
    population: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 2_147_483_647 }))),
    status: CityStatus,
    timeZone: Type.Optional(Nullable(Type.String({ maxLength: 100, description: 'IANA time zone; null or absent: Europe/Paris' }))),
    holidayCalendar: Type.Optional(HolidayCalendarSchema),
    ...Object.fromEntries(Object.keys(CityNoticeFields).map((key) => [key, Text(5000)])) as { [K in keyof typeof CityNoticeFields]: ReturnType<typeof Text> },
  },
  {
    id: 'City id',
    description: 'Created in the group of the path',
    patchOnly: { cityGroupId: Nullable(Uuid('Moves the city to another group (one of the agent’s own; any, or null, for a super admin)')) },
  },
);
export type AdminCity = Static<typeof citySchemas.item>;
export type CreateCityInput = Static<typeof citySchemas.create>;
export type CityPatch = Static<typeof citySchemas.patch>;

// Waste type details (materials)

export const wasteTypeDetailSchemas = adminSchemas(
  Type.Object({ ...WasteTypeDetailSchema.properties, wasteTypeId: Uuid('The waste type it belongs to') }),
  { material: Name(200), description: Text(2000), instructions: Text(2000), imageUrl: Text(2000) },
  { id: 'Waste type detail id' },
);
export type AdminWasteTypeDetail = Static<typeof wasteTypeDetailSchemas.item>;
export type CreateWasteTypeDetailInput = Static<typeof wasteTypeDetailSchemas.create>;
export type WasteTypeDetailPatch = Static<typeof wasteTypeDetailSchemas.patch>;

// Collection places, their days and attached locations

const StreetSide = Type.Union([Type.Literal('ALL'), Type.Literal('ODD'), Type.Literal('EVEN')], {
  description: 'ALL: every number; ODD or EVEN: one side of the street',
});

/** A street rule (docs/api.md, from an address to a collection place): the import bundle's shape, plus its place. */
export const streetRuleSchemas = adminSchemas(
  Type.Object({
    id: Uuid(),
    street: Type.String({ description: 'As written on the street plaque', examples: ['Rue de Siam'] }),
    fromNumber: Nullable(Type.Integer({ description: 'First number served (inclusive); null: from the start' })),
    toNumber: Nullable(Type.Integer({ description: 'Last number served (inclusive); null: to the end' })),
    side: StreetSide,
    placeId: Uuid('The collection place it belongs to'),
  }),
  {
    street: Name(200, 'As written on the street plaque'),
    fromNumber: Type.Optional(Nullable(Type.Integer({ maximum: MAX_STREET_NUMBER, description: 'From 1; null or absent: from the start' }))),
    toNumber: Type.Optional(Nullable(Type.Integer({ maximum: MAX_STREET_NUMBER, description: 'Not below fromNumber; null or absent: to the end' }))),
    side: StreetSide,
  },
  { id: 'Street rule id' },
);
export type AdminStreetRule = Static<typeof streetRuleSchemas.item>;
export type CreateStreetRuleInput = Static<typeof streetRuleSchemas.create>;
export type StreetRulePatch = Static<typeof streetRuleSchemas.patch>;

/** A GeoJSON Polygon or MultiPolygon (WGS 84, [longitude, latitude]); its structure is checked by the bundle's rules. */
const Area = Type.Object(
  { type: Type.String({ examples: ['Polygon', 'MultiPolygon'] }), coordinates: Type.Array(Type.Unknown()) },
  { description: 'GeoJSON Polygon or MultiPolygon, WGS 84 [longitude, latitude]; rings closed, at least 4 positions' },
);

export const placeSchemas = adminSchemas(
  Type.Object({
    ...WasteCollectionPlaceSchema.properties,
    cityId: Uuid('The city it belongs to'),
    streets: Type.Array(streetRuleSchemas.item, { description: 'Written at /admin/places/{placeId}/streets and /admin/streets/{id}' }),
    area: Nullable(Area),
  }),
  { name: Name(200), area: Type.Optional(Nullable(Area)) },
  { id: 'Collection place id', description: 'Its days, exceptions, attached locations and streets are written at their own paths' },
);
export type AdminPlace = Static<typeof placeSchemas.item>;
export type CreatePlaceInput = Static<typeof placeSchemas.create>;
export type PlacePatch = Static<typeof placeSchemas.patch>;

export const Weekday = Type.Enum([...FRENCH_WEEKDAYS], { description: 'French weekday, lowercase' });

export const collectionDaySchemas = adminSchemas(
  Type.Object({ ...WasteCollectionDaySchema.properties, placeId: Uuid('The collection place it belongs to') }),
  {
    name: Weekday,
    wasteTypeId: Uuid('A waste type of the place’s city'),
    description: Text(2000),
    biweekly: Type.Optional(Nullable(Type.Boolean({ description: 'Every second week, counted from the week of startDate' }))),
    startDate: Type.Optional(Nullable(Timestamp('First day the rule applies; required when biweekly'))),
  },
  { id: 'Collection day id' },
);
export type AdminCollectionDay = Static<typeof collectionDaySchemas.item>;
export type CreateCollectionDayInput = Static<typeof collectionDaySchemas.create>;
export type CollectionDayPatch = Static<typeof collectionDaySchemas.patch>;

export const attachedLocationSchemas = adminSchemas(
  Type.Object({ ...AttachedLocationSchema.properties, placeId: Uuid('The collection place it belongs to') }),
  {
    name: Name(200),
    reference: Type.String({ maxLength: 200 }),
    latitude: Type.Number({ minimum: -90, maximum: 90 }),
    longitude: Type.Number({ minimum: -180, maximum: 180 }),
  },
  { id: 'Attached location id' },
);
export type AdminAttachedLocation = Static<typeof attachedLocationSchemas.item>;
export type CreateAttachedLocationInput = Static<typeof attachedLocationSchemas.create>;
export type AttachedLocationPatch = Static<typeof attachedLocationSchemas.patch>;
