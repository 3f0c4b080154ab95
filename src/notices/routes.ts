import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorSchema } from '../kernel/schemas.ts';
import { noticesInForce } from './service.ts';
import { CityNoticesParams, CityNoticesQuery, NoticeSchema } from './schemas.ts';

/** How long a public answer may be kept at most (the response cache's and browsers' max-age). */
const MAX_AGE_S = 60;

/** `GET /public/cities/:cityId/notices` (docs/api.md, collections that move and service notices). Registered under /public. */
export default async function noticeRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/cities/:cityId/notices',
    {
      schema: {
        tags: ['notices'],
        summary: 'Service notices in force now for a city, or one of its places, newest first',
        description:
          'A bare array of the city group’s notices in force now (`startsAt` past, `endsAt` null or to come), newest `startsAt` first. ' +
          'A notice naming no city and no place covers the whole group; one naming cities covers their places; one naming places covers ' +
          'only those. With `placeId`, the notices that cover that place; without, those that cover the city or any of its places ' +
          '(the resident has not said where they live, so a notice of one street of the city may be theirs). Unknown or NON_ACTIF city: ' +
          '404 `cityNotFound`; a `placeId` that is not a place of the city: 404 `collectionPlaceNotFound` at `placeId`. No write happens ' +
          'when a notice starts or ends, so the answer is never kept past the next `startsAt` or `endsAt` to come among the notices ' +
          'that cover it: this server keeps it, and `max-age` lets the client keep it, half the time left until then (60 seconds at most).',
        params: CityNoticesParams,
        querystring: CityNoticesQuery,
        response: { 200: Type.Array(NoticeSchema), 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      const now = app.clock();
      const placeId = request.query.placeId?.toLowerCase() ?? null;
      const { notices, nextChange } = await noticesInForce(app.db, request.params.cityId.toLowerCase(), placeId, now);
      if (nextChange) {
        // A copy served from this server's cache at any time until `cacheUntil` must not outlive the change in the
        // client's cache either (the header is stored with the copy): each keeps it half the time left.
        const maxAge = Math.min(MAX_AGE_S, Math.floor(Math.max(0, nextChange.getTime() - now.getTime()) / 2000));
        request.cacheUntil = new Date(nextChange.getTime() - maxAge * 1000);
        reply.header('cache-control', `public, max-age=${maxAge}`);
      }
      return notices;
    },
  );
}
