import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type TProperties, type TSchema } from 'typebox';
import { PaginationQuery, type PageRequest } from '../kernel/pagination.ts';
import { ErrorSchema, Uuid } from '../kernel/schemas.ts';
import { adminAgentOf } from './agent.ts';
import type { AdminService, Versioned } from './store.ts';
import { IfMatchHeaders } from './schemas.ts';

/**
 * The five admin routes of a resource that belongs to a parent (docs/api.md, the admin API): listed and created under the
 * parent's path (`/places/:placeId/exceptions`), read, changed and deleted at its own (`/exceptions/:id`), every
 * read with its ETag, every change and deletion under `If-Match` (412 when stale). An area declares its resource
 * with this and keeps its rules in its service; the routes themselves are written once, here.
 */

export const adminRoute = { tags: ['admin'], security: [{ accessToken: [] }] };
export const guardErrors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema };
const oneErrors = { ...guardErrors, 404: ErrorSchema };
const PageQuery = Type.Object(PaginationQuery);

type Doc = { summary: string; description: string };

export interface AdminResource {
  /** The record's own path, plural kebab-case: `/exceptions`. */
  path: string;
  /**
   * The parent's path and its id parameter (`/places/:placeId`, `placeId`); none for a top-level resource. `list`: the
   * list's segment under the parent when it is not `path` (a waste type's `/details`, the import bundle's name).
   */
  parent?: { path: string; param: string; params: TSchema; list?: string };
  /**
   * The bodies; without `create`, no JSON creation route is registered: the area writes its own (media are uploaded
   * as multipart/form-data).
   */
  schemas: { idParams: TSchema; list: TSchema; item: TSchema; create?: TSchema; patch: TSchema };
  docs: { list: Doc; create?: Doc; get: Doc; update: Doc; remove: Doc };
  /**
   * Query parameters the listing takes besides the page, for a top-level resource whose records name their parent in
   * their body (a service notice's `?cityGroupId=`): handed to the store's `list` as they were validated.
   */
  listQuery?: TProperties;
  /** Whether a deletion can be refused with 409 (the record is still in use). */
  deleteConflict?: boolean;
  /** Whether a creation can be refused with 409 (the parent holds one already: a challenge's badge). */
  createConflict?: boolean;
  service: AdminService<unknown>;
}

type Params = Record<string, string>;

/** A parent named in the path by its id (`/cities/:cityId`), its parameter described as `description`. */
export function parentPath(collection: string, param: string, description: string, list?: string): NonNullable<AdminResource['parent']> {
  return { path: `${collection}/:${param}`, param, params: Type.Object({ [param]: Uuid(description) }), ...(list === undefined ? {} : { list }) };
}

/** The parents the records of several areas hang off. */
export const parents = {
  cityGroup: parentPath('/city-groups', 'cityGroupId', 'City group id'),
  city: parentPath('/cities', 'cityId', 'City id'),
  place: parentPath('/places', 'placeId', 'Collection place id'),
};

/** The answers of a conditional write: 412 with a stale `If-Match`, 428 without one (the admin guard's). */
export const writeConditionErrors = { 412: ErrorSchema, 428: ErrorSchema };

/**
 * A write's data version is this instance's at once, with the publication schedule it leaves (src/http/data-version.ts),
 * so that its own public answers follow without waiting.
 */
export async function adoptDataVersion(app: FastifyInstance, dataVersion: number | undefined): Promise<void> {
  if (dataVersion !== undefined) await app.dataVersion.adopt(dataVersion);
}

/** The record a service answered, with its ETag; after a write, its data version adopted. */
export async function answerVersioned<T>(app: FastifyInstance, reply: FastifyReply, versioned: Versioned<T>): Promise<T> {
  await adoptDataVersion(app, versioned.dataVersion);
  reply.header('etag', versioned.etag);
  return versioned.record;
}

/** Registers the resource's routes on an admin plugin that already called requireAdminAgent. */
export function registerAdminResource(app: FastifyInstance, resource: AdminResource): void {
  const { db } = app;
  const { schemas, docs, service } = resource;
  const listPath = `${resource.parent?.path ?? ''}${resource.parent?.list ?? resource.path}`;
  const parentParams = resource.parent ? { params: resource.parent.params } : {};
  const listQuery = resource.listQuery ? Type.Object({ ...resource.listQuery, ...PaginationQuery }) : PageQuery;
  const onePath = `${resource.path}/:id`;

  const adopt = (dataVersion: number | undefined) => adoptDataVersion(app, dataVersion);
  const answer = (reply: FastifyReply, versioned: Versioned<unknown>) => answerVersioned(app, reply, versioned);
  const parentId = (request: FastifyRequest) => resource.parent && (request.params as Params)[resource.parent.param];
  const id = (request: FastifyRequest) => (request.params as Params).id;
  const ifMatch = (request: FastifyRequest) => (request.headers as Record<string, string | undefined>)['if-match'];

  app.get(listPath, {
    schema: { ...adminRoute, ...docs.list, ...parentParams, querystring: listQuery, response: { 200: schemas.list, ...oneErrors } },
  }, async (request) => service.list(db, adminAgentOf(request), parentId(request), request.query as PageRequest & Record<string, unknown>));

  if (schemas.create) {
    app.post(listPath, {
      schema: {
        ...adminRoute, ...docs.create, ...parentParams, body: schemas.create,
        response: { 201: schemas.item, ...oneErrors, ...(resource.createConflict ? { 409: ErrorSchema } : {}) },
      },
    }, async (request, reply) =>
      answer(reply.code(201), await service.create(db, adminAgentOf(request), parentId(request), request.body as never, app.clock())));
  }

  app.get(onePath, {
    schema: { ...adminRoute, ...docs.get, params: schemas.idParams, response: { 200: schemas.item, ...oneErrors } },
  }, async (request, reply) => answer(reply, await service.get(db, adminAgentOf(request), id(request))));

  app.patch(onePath, {
    schema: {
      ...adminRoute, ...docs.update, params: schemas.idParams, headers: IfMatchHeaders, body: schemas.patch,
      response: { 200: schemas.item, ...oneErrors, ...writeConditionErrors },
    },
  }, async (request, reply) =>
    answer(reply, await service.update(db, adminAgentOf(request), id(request), request.body as never, ifMatch(request), app.clock())));

  app.delete(onePath, {
    schema: {
      ...adminRoute, ...docs.remove, params: schemas.idParams, headers: IfMatchHeaders,
      response: { 204: Type.Null({ description: 'Deleted' }), ...oneErrors, ...(resource.deleteConflict ? { 409: ErrorSchema } : {}), ...writeConditionErrors },
    },
  }, async (request, reply) => {
    await adopt(await service.remove(db, adminAgentOf(request), id(request), ifMatch(request), app.clock()));
    return reply.code(204).send(null);
  });
}
