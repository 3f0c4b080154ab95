import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { adminRoute, guardErrors } from '../auth/admin-routes.ts';
import { adminAgentOf, requireAdminAgent } from '../auth/guard.ts';
import { IfMatchHeaders } from '../auth/schemas.ts';
import { ErrorSchema } from '../kernel/schemas.ts';
import * as wasteTypes from './admin-waste-types.ts';
import {
  AdminWasteTypeListSchema,
  AdminWasteTypeSchema,
  CityWasteTypesParams,
  CreateWasteTypeBody,
  PatchWasteTypeBody,
  WasteTypeIdParams,
  WasteTypeListQuery,
} from './schemas.ts';

const notFound = { ...guardErrors, 404: ErrorSchema };
const PUBLISHED = 'Recorded in the audit log; the public city, calendars and recycling guide answer the change within a second.';

/** `/admin/cities/:cityId/waste-types` and `/admin/waste-types/:id` (CONTRACT section 13), for agents holding CITIES. */
export default async function cityAdminRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  requireAdminAgent(app, 'CITIES');
  const { db } = app;

  /** Sends the waste type with its ETag; after a write, this instance serves the new data version at once. */
  function send(reply: FastifyReply, { wasteType, etag, dataVersion }: wasteTypes.VersionedWasteType) {
    if (dataVersion !== undefined) app.dataVersion.current = Math.max(app.dataVersion.current, dataVersion);
    reply.header('etag', etag);
    return wasteType;
  }

  app.get(
    '/cities/:cityId/waste-types',
    {
      schema: {
        ...adminRoute,
        summary: 'A city’s waste types with their details, by name',
        description: 'The listing envelope. A city outside the agent’s groups answers 404, like an unknown one.',
        params: CityWasteTypesParams,
        querystring: WasteTypeListQuery,
        response: { 200: AdminWasteTypeListSchema, ...notFound },
      },
    },
    async (request) => wasteTypes.listWasteTypes(db, adminAgentOf(request), request.params.cityId, request.query),
  );

  app.post(
    '/cities/:cityId/waste-types',
    {
      schema: {
        ...adminRoute,
        summary: 'Create a waste type of a city',
        description: `Without details (materials). A city outside the agent’s groups answers 404. ${PUBLISHED}`,
        params: CityWasteTypesParams,
        body: CreateWasteTypeBody,
        response: { 201: AdminWasteTypeSchema, ...notFound },
      },
    },
    async (request, reply) =>
      send(reply.code(201), await wasteTypes.createWasteType(db, adminAgentOf(request), request.params.cityId, request.body, app.clock())),
  );

  app.get(
    '/waste-types/:id',
    {
      schema: {
        ...adminRoute,
        summary: 'One waste type, with its ETag',
        description: 'A waste type of a city outside the agent’s groups answers 404, like an unknown one.',
        params: WasteTypeIdParams,
        response: { 200: AdminWasteTypeSchema, ...notFound },
      },
    },
    async (request, reply) => send(reply, await wasteTypes.getWasteType(db, adminAgentOf(request), request.params.id)),
  );

  app.patch(
    '/waste-types/:id',
    {
      schema: {
        ...adminRoute,
        summary: 'Change a waste type (partial; its details are not changed here)',
        description: `With \`If-Match\`, 412 when the waste type changed since it was read. ${PUBLISHED}`,
        params: WasteTypeIdParams,
        headers: IfMatchHeaders,
        body: PatchWasteTypeBody,
        response: { 200: AdminWasteTypeSchema, ...notFound, 412: ErrorSchema },
      },
    },
    async (request, reply) => {
      const { params, body, headers } = request;
      return send(reply, await wasteTypes.updateWasteType(db, adminAgentOf(request), params.id, body, headers['if-match'], app.clock()));
    },
  );

  app.delete(
    '/waste-types/:id',
    {
      schema: {
        ...adminRoute,
        summary: 'Delete a waste type and its details',
        description:
          'With `If-Match`, 412 when the waste type changed since it was read. A waste type still named by a collection day, an exception, ' +
          'a quiz question or a recycling point’s materials answers 409 (the database would delete them with it): change or delete those ' +
          `first. ${PUBLISHED}`,
        params: WasteTypeIdParams,
        headers: IfMatchHeaders,
        response: { 204: Type.Null({ description: 'Deleted' }), ...notFound, 409: ErrorSchema, 412: ErrorSchema },
      },
    },
    async (request, reply) => {
      const dataVersion = await wasteTypes.deleteWasteType(db, adminAgentOf(request), request.params.id, request.headers['if-match'], app.clock());
      app.dataVersion.current = Math.max(app.dataVersion.current, dataVersion);
      return reply.code(204).send(null);
    },
  );
}
