import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { errorBody } from '../http/error-handler.ts';

const Status = Type.Object({ status: Type.String() });

export default async function healthRoutes(app: FastifyInstance) {
  app.get(
    '/health',
    { schema: { tags: ['operations'], summary: 'The process is up', response: { 200: Status } } },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/ready',
    {
      schema: {
        tags: ['operations'],
        summary: 'The database answers',
        response: { 200: Status, 503: Type.Object({ statusCode: Type.Number(), message: Type.String(), error: Type.String() }) },
      },
    },
    async (request, reply) => {
      try {
        await sql`SELECT 1`.execute(app.db);
        return { status: 'ready' };
      } catch (err) {
        request.log.warn({ err }, 'database not ready');
        return reply.code(503).send(errorBody(503, 'La base de données ne répond pas.'));
      }
    },
  );
}
