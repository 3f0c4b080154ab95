import { Type, type Static } from 'typebox';
import { Nullable, Uuid } from '../kernel/schemas.ts';

export const CityGroupSchema = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    type: Type.String({ examples: ['Métropole', 'Communauté de communes'] }),
    code: Type.String(),
    siren: Type.String({ pattern: '^[0-9]+$' }),
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
