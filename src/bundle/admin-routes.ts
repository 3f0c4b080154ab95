import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { adminRoute, guardErrors } from '../auth/admin-resource.ts';
import { adminAgentOf, assertReaches, requireAdminAgent } from '../auth/guard.ts';
import { errors } from '../kernel/errors.ts';
import { ErrorSchema, Uuid } from '../kernel/schemas.ts';
import { exportArchive } from './archive.ts';
import { exportBundle } from './export.ts';
import { cityGroupExists } from './export-repository.ts';

const ExportQuery = Type.Object({
  cityGroupId: Type.Optional(Uuid('One city group; without it, every group of the agent')),
  media: Type.Optional(Type.Boolean({ default: true, description: 'false: a JSON-only bundle, without media' })),
});

/** `GET /admin/export` (CONTRACT section 13): the import bundle of one group, or of the agent's groups. */
export default async function bundleAdminRoutes(app: FastifyInstance) {
  requireAdminAgent(app, 'CITIES');

  app.get('/export', {
    schema: {
      ...adminRoute,
      summary: 'Export the data of city groups as an import bundle',
      description:
        'A super admin, or an agent holding `CITIES` for its own groups. `cityGroupId` names one group (one outside the ' +
        'agent’s groups answers 404, like an unknown one); without it, every group of the agent (a super admin: the ' +
        'whole database, records of no group included). The answer is a gzipped tar (`application/gzip`) holding ' +
        '`bundle.json` and the media files it names under `media/`; with `media=false`, the bundle alone as JSON, ' +
        'without media. Unpacked (`tar xzf`), `npm run collecte -- import bundle.json` into an empty database gives the ' +
        'same public answers. A media whose file is missing from MEDIA_DIR is left out of the bundle (and logged).',
      querystring: ExportQuery,
      response: {
        200: {
          description: 'The archive (`application/gzip`) or, with `media=false`, the bundle (`application/json`)',
          content: {
            'application/gzip': { schema: Type.String({ format: 'binary' }) },
            'application/json': { schema: Type.Object({}, { additionalProperties: true }) },
          },
        },
        ...guardErrors,
        404: ErrorSchema,
      },
    },
  }, async (request, reply) => {
    const agent = adminAgentOf(request);
    const { cityGroupId, media = true } = request.query as { cityGroupId?: string; media?: boolean };
    let scope: readonly string[] | null = agent.superAdmin ? null : agent.cityGroupIds;
    if (cityGroupId !== undefined) {
      const id = cityGroupId.toLowerCase();
      assertReaches(agent, [id], errors.cityGroupNotFound);
      if (!(await cityGroupExists(app.db, id))) throw errors.cityGroupNotFound();
      scope = [id];
    }
    const now = app.clock();
    const stem = `collecte-${scope?.length === 1 ? scope[0] : 'export'}-${now.toISOString().slice(0, 10)}`;
    const exported = await exportBundle(app.db, scope, media);
    reply.header('cache-control', 'no-store');
    if (!media) {
      reply.header('content-disposition', `attachment; filename="${stem}.json"`);
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(exported.bundle, null, 2));
    }
    const { archive, missing } = await exportArchive(exported, app.config.mediaDir, now);
    if (missing.length > 0) request.log.warn({ mediaIds: missing }, 'export: media files missing from MEDIA_DIR, left out of the bundle');
    reply.header('content-disposition', `attachment; filename="${stem}.tar.gz"`);
    return reply.type('application/gzip').send(archive);
  });
}
