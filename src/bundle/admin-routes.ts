import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { adminRoute, guardErrors } from '../admin/resource.ts';
import { adminAgentOf } from '../admin/agent.ts';
import { holdsPermission, requestedGroupScope, requireAdminAgent } from '../auth/guard.ts';
import { ErrorSchema, Uuid } from '../kernel/schemas.ts';
import { exportArchive } from './archive.ts';
import { exportBundle } from './export.ts';

const ExportQuery = Type.Object({
  cityGroupId: Type.Optional(Uuid('One city group; without it, every group of the agent')),
  media: Type.Optional(Type.Boolean({ default: true, description: 'false: a JSON-only bundle, without media' })),
});

/** `GET /admin/export` (docs/api.md, the admin API): the import bundle of one group, or of the agent's groups. */
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
        'same public answers. A media whose file is missing from MEDIA_DIR is left out of the bundle (and logged). ' +
        'Each group carries its console\'s canned replies (`cannedReplies`) when the agent also holds `CHAT_CONVERSATIONS` ' +
        '(a super admin always); otherwise the key is left out, and importing the bundle leaves the stored replies alone.',
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
    const scope = await requestedGroupScope(app.db, agent, cityGroupId);
    const now = app.clock();
    const stem = `collecte-${scope?.length === 1 ? scope[0] : 'export'}-${now.toISOString().slice(0, 10)}`;
    // Canned replies are the console's: only an agent who may read them there takes them away.
    const exported = await exportBundle(app.db, scope, media, { cannedReplies: holdsPermission(agent, ['CHAT_CONVERSATIONS']) });
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
