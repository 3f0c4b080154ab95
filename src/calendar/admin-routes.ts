import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { adminRoute, guardErrors } from '../auth/admin-routes.ts';
import { adminAgentOf, requireAdminAgent } from '../auth/guard.ts';
import { IfMatchHeaders } from '../auth/schemas.ts';
import { ErrorSchema } from '../kernel/schemas.ts';
import * as exceptions from './admin-exceptions.ts';
import {
  AdminExceptionListSchema,
  AdminExceptionSchema,
  CreateExceptionBody,
  ExceptionIdParams,
  ExceptionListQuery,
  PatchExceptionBody,
  PlaceIdParams,
} from './schemas.ts';

const oneErrors = { ...guardErrors, 404: ErrorSchema };
const WRITE_NOTE =
  'Checked with the import bundle’s rules (400 naming the field: `dateTo` before `dateFrom`, a waste type of another city). ' +
  'Recorded in the audit log; the public calendars, ICS and city answer the change within a second.';

/** `/admin/places/:placeId/exceptions` and `/admin/exceptions/:id` (CONTRACT section 13), for agents holding CITIES. */
export default async function calendarAdminRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  requireAdminAgent(app, 'CITIES');
  const { db } = app;

  /** The record with its ETag; a write's new data version is this instance's at once. */
  const answer = (reply: FastifyReply, { exception, etag, dataVersion }: exceptions.VersionedException & { dataVersion?: number }) => {
    if (dataVersion !== undefined) app.dataVersion.current = Math.max(app.dataVersion.current, dataVersion);
    reply.header('etag', etag);
    return exception;
  };

  app.get(
    '/places/:placeId/exceptions',
    {
      schema: {
        ...adminRoute,
        summary: 'A collection place’s exceptions, by dateFrom',
        description: 'The listing envelope. A place outside the agent’s groups answers 404, like an unknown one.',
        params: PlaceIdParams,
        querystring: ExceptionListQuery,
        response: { 200: AdminExceptionListSchema, ...oneErrors },
      },
    },
    async (request) => exceptions.listExceptions(db, adminAgentOf(request), request.params.placeId, request.query),
  );

  app.post(
    '/places/:placeId/exceptions',
    {
      schema: {
        ...adminRoute,
        summary: 'Create an exception of a collection place (a cancelled or moved collection)',
        description: `${WRITE_NOTE} A place outside the agent’s groups answers 404.`,
        params: PlaceIdParams,
        body: CreateExceptionBody,
        response: { 201: AdminExceptionSchema, ...oneErrors },
      },
    },
    async (request, reply) =>
      answer(reply.code(201), await exceptions.createException(db, adminAgentOf(request), request.params.placeId, request.body, app.clock())),
  );

  app.get(
    '/exceptions/:id',
    {
      schema: {
        ...adminRoute,
        summary: 'One exception, with its ETag',
        description: 'An exception of a place outside the agent’s groups answers 404, like an unknown one.',
        params: ExceptionIdParams,
        response: { 200: AdminExceptionSchema, ...oneErrors },
      },
    },
    async (request, reply) => answer(reply, await exceptions.getException(db, adminAgentOf(request), request.params.id)),
  );

  app.patch(
    '/exceptions/:id',
    {
      schema: {
        ...adminRoute,
        summary: 'Change an exception (partial)',
        description: `With \`If-Match\`, 412 when the exception changed since it was read. ${WRITE_NOTE}`,
        params: ExceptionIdParams,
        headers: IfMatchHeaders,
        body: PatchExceptionBody,
        response: { 200: AdminExceptionSchema, ...oneErrors, 412: ErrorSchema },
      },
    },
    async (request, reply) => {
      const { params, body, headers } = request;
      return answer(reply, await exceptions.updateException(db, adminAgentOf(request), params.id, body, headers['if-match'], app.clock()));
    },
  );

  app.delete(
    '/exceptions/:id',
    {
      schema: {
        ...adminRoute,
        summary: 'Delete an exception',
        description: 'With `If-Match`, 412 when the exception changed since it was read. Recorded in the audit log; public answers follow within a second.',
        params: ExceptionIdParams,
        headers: IfMatchHeaders,
        response: { 204: Type.Null({ description: 'Deleted' }), ...oneErrors, 412: ErrorSchema },
      },
    },
    async (request, reply) => {
      const version = await exceptions.deleteException(db, adminAgentOf(request), request.params.id, request.headers['if-match'], app.clock());
      app.dataVersion.current = Math.max(app.dataVersion.current, version);
      return reply.code(204).send(null);
    },
  );
}
