import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { errors } from '../kernel/errors.ts';
import { ErrorSchema } from '../kernel/schemas.ts';

/** /ready answers within this time either way: a load balancer's health check must not hang on a dead database. */
const READY_TIMEOUT_MS = 1_000;

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
        response: { 200: Status, 503: ErrorSchema },
      },
    },
    async (request) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
      });
      try {
        await Promise.race([sql`SELECT 1`.execute(app.db), timeout]);
        return { status: 'ready' };
      } catch (err) {
        request.log.debug({ err }, 'database not ready');
        throw errors.databaseNotReady();
      } finally {
        clearTimeout(timer);
      }
    },
  );
}
