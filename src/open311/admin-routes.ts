import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { adminAgentOf } from '../admin/agent.ts';
import { adminRoute, answerVersioned, guardErrors, registerAdminResource } from '../admin/resource.ts';
import { adminService } from '../admin/store.ts';
import { requireAdminAgent } from '../auth/guard.ts';
import { ADMIN_PERMISSIONS } from '../auth/permissions.ts';
import { errors } from '../kernel/errors.ts';
import { ErrorSchema, Uuid } from '../kernel/schemas.ts';
import { keyStore, newKey } from './keys.ts';
import { CreatedKeySchema, KeyPatch, keySchemas } from './schemas.ts';

const AUDITED = 'Super admins only (403 `open311KeysSuperAdminOnly` otherwise). Recorded in the audit log (`open311Key`), never with the key.';

/**
 * `/admin/open311-keys` (docs/api.md, Open311): the API keys of the city groups' Open311 partners, a super admin's
 * alone. Listed, read, renamed and revoked through the admin framework; created by a route of its own, whose answer
 * alone carries the key.
 */
export default async function open311AdminRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // A key opens a group's requests to a partner: a super admin's call, refused to anyone else before anything else.
  requireAdminAgent(app, ADMIN_PERMISSIONS, { superAdminOnly: errors.open311KeysSuperAdminOnly });
  const service = adminService(keyStore);

  registerAdminResource(app, {
    path: '/open311-keys',
    listQuery: { cityGroupId: Type.Optional(Uuid('Only the keys of this city group')) },
    // No `create`: the key's own route below answers the key, which the framework's item leaves out.
    schemas: { idParams: keySchemas.idParams, list: keySchemas.list, item: keySchemas.item, patch: KeyPatch },
    docs: {
      list: { summary: 'Open311 partners’ API keys, by name (super admin)', description: `The listing envelope, without the keys themselves. ${AUDITED}` },
      get: { summary: 'One Open311 key, with its ETag (super admin)', description: 'Without the key itself. Unknown: 404 `open311KeyNotFound`.' },
      update: { summary: 'Rename an Open311 key (super admin)', description: `With \`If-Match\` (412 when stale). ${AUDITED}` },
      remove: {
        summary: 'Revoke an Open311 key (super admin)',
        description:
          'Deletes it: from then on, `POST /open311/v2/requests` with it answers 403. `If-Match` is required, as for every admin ' +
          'deletion (428 without; `*` for whatever version is there); the ETag leaves out `lastUsedAt`, which the partner moves. ' +
          `The requests it filed stay. ${AUDITED}`,
      },
    },
    service,
  });

  app.post(
    '/open311-keys',
    {
      schema: {
        ...adminRoute,
        summary: 'Give a city group’s Open311 partner an API key (super admin)',
        description:
          'Answers the key once, in `key` (43 characters): only its SHA-256 is stored, so a lost key is revoked and another made. ' +
          `An unknown \`cityGroupId\`: 404 at \`cityGroupId\`. ${AUDITED}`,
        body: keySchemas.create,
        response: { 201: CreatedKeySchema, ...guardErrors, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      const key = newKey();
      const created = await answerVersioned(app, reply, await service.create(app.db, adminAgentOf(request), undefined, { ...request.body, key } as never, app.clock()));
      return reply.code(201).send({ ...created, key });
    },
  );
}
