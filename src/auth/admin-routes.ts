import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorSchema } from '../kernel/schemas.ts';
import { adminAgentOf } from '../admin/agent.ts';
import { auditLog } from '../admin/audit.ts';
import { adminRoute, guardErrors, writeConditionErrors } from '../admin/resource.ts';
import { AuditListSchema, AuditQuery, IfMatchHeaders } from '../admin/schemas.ts';
import { requireAdminAgent } from './guard.ts';
import { ADMIN_PERMISSIONS } from './permissions.ts';
import { CreateUserBody, PatchUserBody, UserIdParams, UserListQuery, UserListSchema, UserSchema } from './schemas.ts';
import * as users from './users.ts';

/** Every admin route: its tag and the access token's scheme in the OpenAPI document, and the guard's answers. */
const oneUserErrors = { ...guardErrors, 404: ErrorSchema };

/** An account answered with its ETag, which a later If-Match names. */
function withEtag(reply: FastifyReply, { user, etag }: users.VersionedUser) {
  reply.header('etag', etag);
  return user;
}

/** `/admin/users` (docs/api.md, the admin API): the accounts, for agents holding USERS. */
async function userRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  requireAdminAgent(app, 'USERS');
  const { db } = app;

  app.get(
    '/users',
    {
      schema: {
        ...adminRoute,
        summary: 'Accounts the agent manages, by name',
        description: 'A super admin sees every account; another agent the accounts that are not super admins and whose groups are all its own.',
        querystring: UserListQuery,
        response: { 200: UserListSchema, ...guardErrors },
      },
    },
    async (request) => users.listUsers(db, adminAgentOf(request), request.query),
  );

  app.get(
    '/users/:id',
    {
      schema: {
        ...adminRoute,
        summary: 'One account, with its ETag',
        description: 'An account the agent does not manage answers 404, like an unknown one.',
        params: UserIdParams,
        response: { 200: UserSchema, ...oneUserErrors },
      },
    },
    async (request, reply) => withEtag(reply, await users.getUser(db, adminAgentOf(request), request.params.id)),
  );

  app.post(
    '/users',
    {
      schema: {
        ...adminRoute,
        summary: 'Create an account',
        description:
          'The e-mail is stored lower-cased and must be free (409). An agent gives only the permissions and groups it holds itself, ' +
          'and never `superAdmin` (403). An account that is not a super admin needs at least one group.',
        body: CreateUserBody,
        response: { 201: UserSchema, ...guardErrors, 409: ErrorSchema },
      },
    },
    async (request, reply) => withEtag(reply.code(201), await users.createUser(db, adminAgentOf(request), request.body, app.clock())),
  );

  app.patch(
    '/users/:id',
    {
      schema: {
        ...adminRoute,
        summary: 'Change an account (partial)',
        description:
          'With `If-Match`, 412 when the account changed since it was read. An agent changes only accounts whose permissions it all holds. ' +
          'A new `password` or `active: false` ends the account’s sessions. Nobody deactivates their own account.',
        params: UserIdParams,
        headers: IfMatchHeaders,
        body: PatchUserBody,
        response: { 200: UserSchema, ...oneUserErrors, 409: ErrorSchema, ...writeConditionErrors },
      },
    },
    async (request, reply) => {
      const { params, body, headers } = request;
      return withEtag(reply, await users.updateUser(db, adminAgentOf(request), params.id, body, headers['if-match'], app.clock()));
    },
  );

  app.delete(
    '/users/:id',
    {
      schema: {
        ...adminRoute,
        summary: 'Delete an account',
        description: 'With `If-Match`, 412 when the account changed since it was read. The audit log keeps its name. Nobody deletes their own account.',
        params: UserIdParams,
        headers: IfMatchHeaders,
        response: { 204: Type.Null({ description: 'Deleted' }), ...oneUserErrors, ...writeConditionErrors },
      },
    },
    async (request, reply) => {
      await users.deleteUser(db, adminAgentOf(request), request.params.id, request.headers['if-match'], app.clock());
      return reply.code(204).send(null);
    },
  );
}

/** `/admin/audit`: the log of admin writes, for every agent holding an admin permission, within its groups. */
async function auditRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  requireAdminAgent(app, ADMIN_PERMISSIONS);

  app.get(
    '/audit',
    {
      schema: {
        ...adminRoute,
        summary: 'The log of admin writes, newest first',
        description:
          'The listing envelope. `entity`, `entityId`, and `from`/`to` (timestamps, both included) narrow it. A super admin reads ' +
          'every entry; another agent the entries of records whose groups are all its own (an account of several groups is all of ' +
          'them; a record of no group, a super admin’s account, are for super admins). Any admin permission reads it; CHAT_CONVERSATIONS ' +
          'alone does not.',
        querystring: AuditQuery,
        response: { 200: AuditListSchema, ...guardErrors },
      },
    },
    async (request) => auditLog(app.db, adminAgentOf(request), request.query),
  );
}

/** The admin routes of src/auth, registered under /admin. */
export default async function authAdminRoutes(app: FastifyInstance) {
  await app.register(userRoutes);
  await app.register(auditRoutes);
}
