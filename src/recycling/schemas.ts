import { Type, type Static } from 'typebox';
import { RecyclingPointSchema } from '../domain/city-model/schemas.ts';
import { adminSchemas, NonBlank, Nullable, Timestamp, Uuid } from '../kernel/schemas.ts';

export const CityParamsSchema = Type.Object({ cityId: Uuid('City id') });
export type CityParams = Static<typeof CityParamsSchema>;

export const GroupParamsSchema = Type.Object({ id: Uuid('City group id') });
export type GroupParams = Static<typeof GroupParamsSchema>;

export const PointsQuerySchema = Type.Object({
  at: Type.Optional(
    Type.String({
      format: 'date-time',
      examples: ['2026-12-24T15:30:00.000Z'],
      description: 'Instant the opening state is computed at (ISO 8601 with its offset). Default: now.',
    }),
  ),
  lat: Type.Optional(Type.Number({ minimum: -90, maximum: 90, description: 'Latitude (WGS 84) to measure from; with `lon`.' })),
  lon: Type.Optional(Type.Number({ minimum: -180, maximum: 180, description: 'Longitude (WGS 84) to measure from; with `lat`.' })),
  wasteTypeId: Type.Optional(Uuid('Keep the points that take this waste type (an id of the city\'s waste types).')),
});
export type PointsQuery = Static<typeof PointsQuerySchema>;

export const RecyclingPointKindSchema = Nullable(
  Type.Union([Type.Literal('CENTRE'), Type.Literal('CONTAINER'), Type.Literal('SHOP')], {
    description: 'CENTRE: a déchèterie; CONTAINER: a bin; SHOP: a take-back shop; null: not said',
  }),
);

/** The seed's RecyclingPoint plus what docs/api.md, recycling points and open data adds. */
export const RecyclingPointStatusSchema = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    address: Nullable(Type.String()),
    latitude: Nullable(Type.Number()),
    longitude: Nullable(Type.Number()),
    openingHours: Nullable(Type.String({ description: 'Free text, as in GET /public/cities' })),
    kind: RecyclingPointKindSchema,
    materials: Type.Array(Uuid(), { description: 'Ids of the city\'s waste types the point takes, by waste type name' }),
    openingHoursSpec: Nullable(
      Type.String({
        description: 'OpenStreetMap `opening_hours` syntax',
        examples: ['Mo-Fr 09:00-12:00,14:00-18:00; Sa 09:00-18:00; PH off'],
      }),
    ),
    openNow: Nullable(Type.Boolean({ description: 'Open at `at`; null without a spec. A state the spec leaves unknown is false.' })),
    nextChange: Nullable(Timestamp('Next opening or closing after `at`; null when the state never changes (`24/7`) or without a spec')),
    distanceMeters: Nullable(Type.Integer({ description: 'Great-circle distance from `lat`/`lon`, whole metres; null without them or without a position' })),
  },
  { $id: 'RecyclingPointStatus' },
);
export type RecyclingPointStatus = Static<typeof RecyclingPointStatusSchema>;

export const GeoJsonResponseSchema = {
  description:
    'RFC 7946 `FeatureCollection` (`application/geo+json`) of `Point` features (`[longitude, latitude]`), OpenStreetMap tags as properties.',
  content: { 'application/geo+json': { schema: Type.Object({ type: Type.Literal('FeatureCollection'), features: Type.Array(Type.Unknown()) }) } },
};

// The admin API's recycling points (docs/api.md, the admin API; recycling points and open data): the seed's shape, what section 14 adds, the city.

const OpeningHoursSpec = Type.String({
  maxLength: 1000,
  description: 'OpenStreetMap `opening_hours` syntax; must parse (null: not known)',
  examples: ['Mo-Fr 09:00-12:00,14:00-18:00; Sa 09:00-18:00; PH off'],
});

const Text = (maxLength: number) => Type.Optional(Nullable(Type.String({ maxLength })));

export const recyclingPointSchemas = adminSchemas(
  Type.Object({
    ...RecyclingPointSchema.properties,
    openingHoursSpec: Nullable(OpeningHoursSpec),
    kind: RecyclingPointKindSchema,
    materials: Type.Array(Uuid(), { description: 'Ids of the city\'s waste types the point takes, by waste type name' }),
    cityId: Uuid('The city it belongs to'),
  }),
  {
    name: NonBlank(200),
    address: Text(500),
    latitude: Type.Optional(Nullable(Type.Number({ minimum: -90, maximum: 90 }))),
    longitude: Type.Optional(Nullable(Type.Number({ minimum: -180, maximum: 180 }))),
    openingHours: Text(1000),
    openingHoursSpec: Type.Optional(Nullable(OpeningHoursSpec)),
    kind: Type.Optional(RecyclingPointKindSchema),
    materials: Type.Optional(
      Type.Array(Uuid(), { maxItems: 100, description: 'Waste types of the same city, each once; replaces the whole list' }),
    ),
  },
  { id: 'Recycling point id' },
);
export type AdminRecyclingPoint = Static<typeof recyclingPointSchemas.item>;
export type CreateRecyclingPointInput = Static<typeof recyclingPointSchemas.create>;
export type RecyclingPointPatch = Static<typeof recyclingPointSchemas.patch>;
