import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { NotFound, messages } from '../http/errors.ts';
import { ErrorSchema } from '../http/schema-helpers.ts';
import { findCities, findCityGroups } from './repository.ts';
import { CityGroupSchema, CityIdParams, CitySchema } from './schemas.ts';

export default async function cityRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/cities',
    {
      schema: {
        tags: ['cities'],
        summary: 'All ACTIF cities with their nested data',
        response: { 200: Type.Array(CitySchema) },
      },
    },
    async () => findCities(app.db, { all: true }, app.clock()),
  );

  app.get(
    '/cities/:id',
    {
      schema: {
        tags: ['cities'],
        summary: 'One ACTIF city with its nested data',
        params: CityIdParams,
        response: { 200: CitySchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => {
      const [city] = await findCities(app.db, { id: request.params.id }, app.clock());
      if (!city) throw NotFound(messages.cityNotFound);
      return city;
    },
  );

  app.get(
    '/city-groups',
    {
      schema: {
        tags: ['cities'],
        summary: 'City groups with their ACTIF cities',
        response: { 200: Type.Array(CityGroupSchema) },
      },
    },
    async () => findCityGroups(app.db),
  );
}
