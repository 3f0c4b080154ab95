import { Type, type Static } from 'typebox';
import { adminSchemas, NonBlank, Nullable, Uuid } from '../kernel/schemas.ts';
import { WasteTypeSchema } from '../domain/city-model/schemas.ts';
import { GroupContactFields } from '../domain/group-contact.ts';
import { ADDRESS_MAX_LENGTH } from '../kernel/address.ts';

export const CityGroupSchema = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    type: Type.String({ examples: ['Métropole', 'Communauté de communes'] }),
    code: Type.String(),
    siren: Type.String({ pattern: '^[0-9]+$' }),
    ...GroupContactFields,
    cities: Type.Array(
      Type.Object({ id: Uuid(), name: Type.String(), country: Type.String(), population: Nullable(Type.Number()) }),
      { description: 'The group’s ACTIF cities, by name' },
    ),
    _count: Type.Object({ cities: Type.Integer() }),
  },
  { $id: 'CityGroup' },
);

export const CityIdParams = Type.Object({ id: Uuid('City id') });

export type CityGroupApi = Static<typeof CityGroupSchema>;

// GET /public/places/lookup (docs/api.md, from an address to a collection place).

export const PlaceLookupQuery = Type.Object({
  cityId: Type.Optional(Uuid('The city (commune) the address is in; required with `address`, optional with a position')),
  address: Type.Optional(
    NonBlank(
      ADDRESS_MAX_LENGTH,
      'Free text: `12 bis r. de siam`, `12 rue de Siam 29200 Brest`, a street begun (`rue de si`), a location\'s name',
    ),
  ),
  lat: Type.Optional(Type.Number({ minimum: -90, maximum: 90, description: 'Latitude (WGS 84); with `lon`' })),
  lon: Type.Optional(Type.Number({ minimum: -180, maximum: 180, description: 'Longitude (WGS 84); with `lat`' })),
});
export type PlaceLookupQueryInput = Static<typeof PlaceLookupQuery>;

export const PlaceCandidateSchema = Type.Object(
  {
    cityId: Uuid(),
    cityName: Type.String(),
    placeId: Uuid(),
    placeName: Type.String(),
    matchedBy: Type.Union([Type.Literal('street'), Type.Literal('area'), Type.Literal('location')]),
    label: Type.String({ description: 'What matched, in French', examples: ['Rue de Siam, numéros impairs de 1 à 99'] }),
    distanceMeters: Nullable(Type.Integer({ minimum: 0, description: 'For a location found by position; else null' })),
  },
  { $id: 'PlaceCandidate' },
);

// The admin API's waste types (docs/api.md, the admin API): the public shape, the import bundle's field names, plus the city.

const HexColor = Type.String({ pattern: '^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$', description: '#RGB, #RRGGBB or #RRGGBBAA' });
const Text = (maxLength: number) => Type.Optional(Nullable(Type.String({ maxLength })));
const wasteTypeFields = {
  name: NonBlank(200),
  description: Text(2000),
  instructions: Text(2000),
  color: Type.Optional(Nullable(HexColor)),
  colorLight: Type.Optional(Nullable(HexColor)),
  icon: Text(200),
  imageUrl: Text(2000),
};
export const wasteTypeSchemas = adminSchemas(Type.Object({ ...WasteTypeSchema.properties, cityId: Uuid('The city it belongs to') }), wasteTypeFields, {
  id: 'Waste type id',
  description: 'Its details (materials) are not written here',
});
export type AdminWasteType = Static<typeof wasteTypeSchemas.item>;
export type CreateWasteTypeInput = Static<typeof wasteTypeSchemas.create>;
export type WasteTypePatch = Static<typeof wasteTypeSchemas.patch>;

// GET /public/search/communes and /public/search/addresses (docs/api.md, finding one's commune or address without choosing it first).

export const CommuneSearchQuery = Type.Object({
  q: NonBlank(ADDRESS_MAX_LENGTH, 'A commune\'s name, begun or with a typo or two (`plouz`, `brst`, `st pabu`), or a postcode (`29200`, begun from two digits)'),
});

export const AddressSearchQuery = Type.Object({
  q: NonBlank(
    ADDRESS_MAX_LENGTH,
    'Free text, the commune in it or not: `12 rue jean jaures brest`, `Brest, 12 rue de Siam`, `12 rue de Siam 29200`, `12 rue de siam`',
  ),
});

export const CommuneCandidateSchema = Type.Object(
  {
    cityId: Uuid(),
    cityName: Type.String(),
    cityGroupName: Nullable(Type.String()),
    postcodes: Type.Array(Type.String({ pattern: '^[0-9]{5}$' }), {
      description: 'The postcodes written beside the commune\'s name in the addresses the service publishes (recycling points, the group\'s contact); may be empty',
    }),
  },
  { $id: 'CommuneCandidate' },
);
