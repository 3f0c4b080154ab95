import { Type, type Static } from 'typebox';
import { CityNoticeFields, NonBlank, Nullable, Timestamp, Uuid, writeBodies } from '../kernel/schemas.ts';
import { AttachedLocationSchema, WasteCollectionDaySchema, WasteCollectionPlaceSchema, WasteTypeDetailSchema } from '../domain/city-model/schemas.ts';
import { FRENCH_WEEKDAYS } from '../kernel/dates.ts';
import { Envelope } from '../kernel/pagination.ts';
import { GroupContactFields, GroupContactWriteFields } from '../domain/group-contact.ts';
import { MAX_STREET_NUMBER } from '../bundle/schema.ts';

/**
 * The admin API's city groups, cities, waste-type details, places, collection days and attached locations (CONTRACT
 * section 13): the public shapes under the import bundle's field names, plus what the API keeps to itself (a city's
 * `status` and `timeZone`, a group's `siret` and `chatEnabled`) and the parent each record hangs off.
 */

const Name = NonBlank;
const Text = (max: number) => Type.Optional(Nullable(Type.String({ maxLength: max })));

// City groups

export const AdminCityGroupSchema = Type.Object({
  id: Uuid(),
  name: Type.String(),
  type: Type.String({ examples: ['Métropole', 'Communauté de communes'] }),
  code: Type.String(),
  siren: Type.String({ pattern: '^[0-9]+$' }),
  siret: Nullable(Type.String({ pattern: '^[0-9]{14}$', description: 'The SIREN then the establishment’s NIC' })),
  chatEnabled: Type.Boolean({ description: 'The chat assistant module (CONTRACT section 7)' }),
  ...GroupContactFields,
  createdAt: Timestamp(),
  updatedAt: Timestamp(),
});
export type AdminCityGroup = Static<typeof AdminCityGroupSchema>;
export const AdminCityGroupListSchema = Envelope(AdminCityGroupSchema);

export const { create: CreateCityGroupBody, patch: PatchCityGroupBody } = writeBodies({
  name: Name(200),
  type: Name(200, 'Category of group: Métropole, Communauté de communes…'),
  code: Name(100),
  siren: Type.String({ pattern: '^[0-9]+$', maxLength: 20, description: 'Digits (9 for a French SIREN)' }),
  siret: Type.Optional(Nullable(Type.String({ pattern: '^[0-9]{14}$', description: '14 digits, starting with the SIREN' }))),
  chatEnabled: Type.Optional(Type.Boolean({ description: 'false when absent' })),
  ...GroupContactWriteFields,
});
export type CreateCityGroupInput = Static<typeof CreateCityGroupBody>;
export type CityGroupPatch = Static<typeof PatchCityGroupBody>;
export const CityGroupIdParams = Type.Object({ id: Uuid('City group id') });
export const GroupCitiesParams = Type.Object({ cityGroupId: Uuid('City group id') });

// Cities

const CityStatus = Type.Union([Type.Literal('ACTIF'), Type.Literal('NON_ACTIF')], { description: 'NON_ACTIF: hidden from the public API' });

export const AdminCitySchema = Type.Object({
  id: Uuid(),
  name: Type.String(),
  country: Type.String(),
  population: Nullable(Type.Number()),
  status: CityStatus,
  timeZone: Type.String({ description: 'IANA time zone the collection dates are computed in', examples: ['Europe/Paris'] }),
  ...CityNoticeFields,
  cityGroupId: Nullable(Uuid('Its city group; null: none (seen by super admins only)')),
  createdAt: Timestamp(),
  updatedAt: Timestamp(),
});
export type AdminCity = Static<typeof AdminCitySchema>;
export const AdminCityListSchema = Envelope(AdminCitySchema);

const cityFields = {
  name: Name(200),
  country: Name(100),
  // The column is a 32-bit integer: a larger number is the client's fault (400), not a database error.
  population: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 2_147_483_647 }))),
  status: CityStatus,
  timeZone: Type.Optional(Nullable(Type.String({ maxLength: 100, description: 'IANA time zone; null or absent: Europe/Paris' }))),
  ...Object.fromEntries(Object.keys(CityNoticeFields).map((key) => [key, Text(5000)])) as { [K in keyof typeof CityNoticeFields]: ReturnType<typeof Text> },
};
export const CreateCityBody = Type.Object(cityFields, { description: 'Created in the group of the path' });
export const PatchCityBody = Type.Partial(
  Type.Object({
    ...cityFields,
    cityGroupId: Nullable(Uuid('Moves the city to another group (one of the agent’s own; any, or null, for a super admin)')),
  }),
);
export type CreateCityInput = Static<typeof CreateCityBody>;
export type CityPatch = Static<typeof PatchCityBody>;
export const AdminCityIdParams = Type.Object({ id: Uuid('City id') });

// Waste type details (materials)

export const AdminWasteTypeDetailSchema = Type.Object({
  ...WasteTypeDetailSchema.properties,
  wasteTypeId: Uuid('The waste type it belongs to'),
});
export type AdminWasteTypeDetail = Static<typeof AdminWasteTypeDetailSchema>;
export const AdminWasteTypeDetailListSchema = Envelope(AdminWasteTypeDetailSchema);
export const { create: CreateWasteTypeDetailBody, patch: PatchWasteTypeDetailBody } = writeBodies({
  material: Name(200),
  description: Text(2000),
  instructions: Text(2000),
  imageUrl: Text(2000),
});
export type CreateWasteTypeDetailInput = Static<typeof CreateWasteTypeDetailBody>;
export type WasteTypeDetailPatch = Static<typeof PatchWasteTypeDetailBody>;
export const WasteTypeDetailIdParams = Type.Object({ id: Uuid('Waste type detail id') });
export const WasteTypeDetailsParams = Type.Object({ wasteTypeId: Uuid('Waste type id') });

// Collection places, their days and attached locations

const StreetSide = Type.Union([Type.Literal('ALL'), Type.Literal('ODD'), Type.Literal('EVEN')], {
  description: 'ALL: every number; ODD or EVEN: one side of the street',
});

/** A street rule (CONTRACT section 11): the import bundle's shape, plus its place. */
export const AdminStreetRuleSchema = Type.Object({
  id: Uuid(),
  street: Type.String({ description: 'As written on the street plaque', examples: ['Rue de Siam'] }),
  fromNumber: Nullable(Type.Integer({ description: 'First number served (inclusive); null: from the start' })),
  toNumber: Nullable(Type.Integer({ description: 'Last number served (inclusive); null: to the end' })),
  side: StreetSide,
  placeId: Uuid('The collection place it belongs to'),
});
export type AdminStreetRule = Static<typeof AdminStreetRuleSchema>;
export const AdminStreetRuleListSchema = Envelope(AdminStreetRuleSchema);
export const { create: CreateStreetRuleBody, patch: PatchStreetRuleBody } = writeBodies({
  street: Name(200, 'As written on the street plaque'),
  fromNumber: Type.Optional(Nullable(Type.Integer({ maximum: MAX_STREET_NUMBER, description: 'From 1; null or absent: from the start' }))),
  toNumber: Type.Optional(Nullable(Type.Integer({ maximum: MAX_STREET_NUMBER, description: 'Not below fromNumber; null or absent: to the end' }))),
  side: StreetSide,
});
export type CreateStreetRuleInput = Static<typeof CreateStreetRuleBody>;
export type StreetRulePatch = Static<typeof PatchStreetRuleBody>;
export const StreetRuleIdParams = Type.Object({ id: Uuid('Street rule id') });

/** A GeoJSON Polygon or MultiPolygon (WGS 84, [longitude, latitude]); its structure is checked by the bundle's rules. */
const Area = Type.Object(
  { type: Type.String({ examples: ['Polygon', 'MultiPolygon'] }), coordinates: Type.Array(Type.Unknown()) },
  { description: 'GeoJSON Polygon or MultiPolygon, WGS 84 [longitude, latitude]; rings closed, at least 4 positions' },
);

export const AdminPlaceSchema = Type.Object({
  ...WasteCollectionPlaceSchema.properties,
  cityId: Uuid('The city it belongs to'),
  streets: Type.Array(AdminStreetRuleSchema, { description: 'Written at /admin/places/{placeId}/streets and /admin/streets/{id}' }),
  area: Nullable(Area),
});
export type AdminPlace = Static<typeof AdminPlaceSchema>;
export const AdminPlaceListSchema = Envelope(AdminPlaceSchema);
export const { create: CreatePlaceBody, patch: PatchPlaceBody } = writeBodies(
  { name: Name(200), area: Type.Optional(Nullable(Area)) },
  { description: 'Its days, exceptions, attached locations and streets are written at their own paths' },
);
export type CreatePlaceInput = Static<typeof CreatePlaceBody>;
export type PlacePatch = Static<typeof PatchPlaceBody>;
export const PlaceIdParams = Type.Object({ id: Uuid('Collection place id') });
export const CityPlacesParams = Type.Object({ cityId: Uuid('City id') });
export const PlaceChildrenParams = Type.Object({ placeId: Uuid('Collection place id') });

export const Weekday = Type.Enum([...FRENCH_WEEKDAYS], { description: 'French weekday, lowercase' });

export const AdminCollectionDaySchema = Type.Object({
  ...WasteCollectionDaySchema.properties,
  placeId: Uuid('The collection place it belongs to'),
});
export type AdminCollectionDay = Static<typeof AdminCollectionDaySchema>;
export const AdminCollectionDayListSchema = Envelope(AdminCollectionDaySchema);
export const { create: CreateCollectionDayBody, patch: PatchCollectionDayBody } = writeBodies({
  name: Weekday,
  wasteTypeId: Uuid('A waste type of the place’s city'),
  description: Text(2000),
  biweekly: Type.Optional(Nullable(Type.Boolean({ description: 'Every second week, counted from the week of startDate' }))),
  startDate: Type.Optional(Nullable(Timestamp('First day the rule applies; required when biweekly'))),
});
export type CreateCollectionDayInput = Static<typeof CreateCollectionDayBody>;
export type CollectionDayPatch = Static<typeof PatchCollectionDayBody>;
export const CollectionDayIdParams = Type.Object({ id: Uuid('Collection day id') });

export const AdminAttachedLocationSchema = Type.Object({
  ...AttachedLocationSchema.properties,
  placeId: Uuid('The collection place it belongs to'),
});
export type AdminAttachedLocation = Static<typeof AdminAttachedLocationSchema>;
export const AdminAttachedLocationListSchema = Envelope(AdminAttachedLocationSchema);
export const { create: CreateAttachedLocationBody, patch: PatchAttachedLocationBody } = writeBodies({
  name: Name(200),
  reference: Type.String({ maxLength: 200 }),
  latitude: Type.Number({ minimum: -90, maximum: 90 }),
  longitude: Type.Number({ minimum: -180, maximum: 180 }),
});
export type CreateAttachedLocationInput = Static<typeof CreateAttachedLocationBody>;
export type AttachedLocationPatch = Static<typeof PatchAttachedLocationBody>;
export const AttachedLocationIdParams = Type.Object({ id: Uuid('Attached location id') });
