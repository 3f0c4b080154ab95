import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { Type, type TSchema } from 'typebox';
import type { DB } from '../db/types.ts';
import { PaginationQuery, type PageRequest } from '../kernel/pagination.ts';
import { ErrorSchema } from '../kernel/schemas.ts';
import { adminAgentOf, type AdminAgent } from './guard.ts';
import { IfMatchHeaders } from './schemas.ts';

/**
 * The five admin routes of a resource that belongs to a parent (CONTRACT section 13): listed and created under the
 * parent's path (`/places/:placeId/exceptions`), read, changed and deleted at its own (`/exceptions/:id`), every
 * read with its ETag, every change and deletion under `If-Match` (412 when stale). An area declares its resource
 * with this and keeps its rules in its service; the routes themselves are written once, here.
 */

export const adminRoute = { tags: ['admin'], security: [{ accessToken: [] }] };
export const guardErrors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema };
const oneErrors = { ...guardErrors, 404: ErrorSchema };
const PageQuery = Type.Object(PaginationQuery);

/** What a service answers for one record: the record, its ETag, and after a write the data version it moved to. */
export interface Versioned {
  etag: string;
  dataVersion?: number;
}

type Doc = { summary: string; description: string };

export interface AdminResource<V extends Versioned> {
  /** The record's own path, plural kebab-case: `/exceptions`. */
  path: string;
  /** The parent's path and its id parameter: `/places/:placeId`, `placeId`. */
  parentPath: string;
  parentParam: string;
  schemas: { parentParams: TSchema; idParams: TSchema; list: TSchema; item: TSchema; create: TSchema; patch: TSchema };
  docs: { list: Doc; create: Doc; get: Doc; update: Doc; remove: Doc };
  /** Whether a deletion can be refused with 409 (the record is still in use). */
  deleteConflict?: boolean;
  /** The record out of what the service answers. */
  record(versioned: V): unknown;
  service: {
    list(db: Kysely<DB>, agent: AdminAgent, parentId: string, page: PageRequest): Promise<unknown>;
    create(db: Kysely<DB>, agent: AdminAgent, parentId: string, body: never, now: Date): Promise<V>;
    get(db: Kysely<DB>, agent: AdminAgent, id: string): Promise<V>;
    update(db: Kysely<DB>, agent: AdminAgent, id: string, body: never, ifMatch: string | undefined, now: Date): Promise<V>;
    remove(db: Kysely<DB>, agent: AdminAgent, id: string, ifMatch: string | undefined, now: Date): Promise<number>;
  };
}

type Params = Record<string, string>;

/** Registers the resource's routes on an admin plugin that already called requireAdminAgent. */
export function registerAdminResource<V extends Versioned>(app: FastifyInstance, resource: AdminResource<V>): void {
  const { db } = app;
  const { schemas, docs, service } = resource;
  const listPath = `${resource.parentPath}${resource.path}`;
  const onePath = `${resource.path}/:id`;

  /** A write's data version is this instance's at once, so that its own public answers follow without waiting. */
  const adopt = (dataVersion: number | undefined) => {
    if (dataVersion !== undefined) app.dataVersion.current = Math.max(app.dataVersion.current, dataVersion);
  };
  const answer = (reply: FastifyReply, versioned: V) => {
    adopt(versioned.dataVersion);
    reply.header('etag', versioned.etag);
    return resource.record(versioned);
  };
  const parentId = (request: FastifyRequest) => (request.params as Params)[resource.parentParam];
  const id = (request: FastifyRequest) => (request.params as Params).id;
  const ifMatch = (request: FastifyRequest) => (request.headers as Record<string, string | undefined>)['if-match'];

  app.get(listPath, {
    schema: { ...adminRoute, ...docs.list, params: schemas.parentParams, querystring: PageQuery, response: { 200: schemas.list, ...oneErrors } },
  }, async (request) => service.list(db, adminAgentOf(request), parentId(request), request.query as PageRequest));

  app.post(listPath, {
    schema: { ...adminRoute, ...docs.create, params: schemas.parentParams, body: schemas.create, response: { 201: schemas.item, ...oneErrors } },
  }, async (request, reply) =>
    answer(reply.code(201), await service.create(db, adminAgentOf(request), parentId(request), request.body as never, app.clock())));

  app.get(onePath, {
    schema: { ...adminRoute, ...docs.get, params: schemas.idParams, response: { 200: schemas.item, ...oneErrors } },
  }, async (request, reply) => answer(reply, await service.get(db, adminAgentOf(request), id(request))));

  app.patch(onePath, {
    schema: {
      ...adminRoute, ...docs.update, params: schemas.idParams, headers: IfMatchHeaders, body: schemas.patch,
      response: { 200: schemas.item, ...oneErrors, 412: ErrorSchema },
    },
  }, async (request, reply) =>
    answer(reply, await service.update(db, adminAgentOf(request), id(request), request.body as never, ifMatch(request), app.clock())));

  app.delete(onePath, {
    schema: {
      ...adminRoute, ...docs.remove, params: schemas.idParams, headers: IfMatchHeaders,
      response: { 204: Type.Null({ description: 'Deleted' }), ...oneErrors, ...(resource.deleteConflict ? { 409: ErrorSchema } : {}), 412: ErrorSchema },
    },
  }, async (request, reply) => {
    adopt(await service.remove(db, adminAgentOf(request), id(request), ifMatch(request), app.clock()));
    return reply.code(204).send(null);
  });
}
