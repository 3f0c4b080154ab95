import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { findActiveCity } from '../domain/cities.ts';
import { availableChallengesByCity } from '../domain/challenges.ts';
import { errors } from '../kernel/errors.ts';
import { CompletionBatcher } from './completion-batch.ts';
import { progressOfDevice } from './repository.ts';
import {
  ChallengeListSchema,
  CityIdParamsSchema,
  CompleteChallengeBodySchema,
  CompletionSchema,
  DeviceIdParamsSchema,
  ErrorSchema,
  ProgressListSchema,
} from './schemas.ts';

/** Completion batches sent at once to PostgreSQL. */
const COMPLETION_BATCHES_IN_FLIGHT = 2;

/** Quiz challenges, their completion and each device's progress. Registered under /public. */
export default async function challengeRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // PGlite runs one statement at a time; on PostgreSQL a few batches overlap so that one commit's wait does not
  // stall the next batch (the pool holds more connections, for reads and replays).
  const completions = new CompletionBatcher(app.db, app.database.kind === 'pglite' ? 1 : COMPLETION_BATCHES_IN_FLIGHT);

  app.get(
    '/challenges/progress/:deviceId',
    {
      schema: {
        tags: ['challenges'],
        summary: 'Challenges completed by a device, newest first',
        description: 'One item per completed challenge with its best score; kept after the challenge ends or is disabled. Unknown device: `[]`.',
        params: DeviceIdParamsSchema,
        response: { 200: ProgressListSchema, 400: ErrorSchema },
      },
    },
    async (request, reply) => {
      // A device's own progress changes with each completion: always revalidate (the ETag keeps it cheap).
      reply.header('cache-control', 'no-cache');
      return progressOfDevice(app.db, request.params.deviceId);
    },
  );

  app.get(
    '/challenges/:cityId',
    {
      schema: {
        tags: ['challenges'],
        summary: 'Available challenges of a city',
        description: 'Enabled challenges whose window contains now, with series, quiz questions and badge. 404 when the city is unknown or NON_ACTIF.',
        params: CityIdParamsSchema,
        response: { 200: ChallengeListSchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => {
      const { cityId } = request.params;
      if (!(await findActiveCity(app.db, cityId))) throw errors.cityNotFound();
      const byCity = await availableChallengesByCity(app.db, [cityId], app.clock());
      return byCity.get(cityId) ?? [];
    },
  );

  app.post(
    '/challenges/complete',
    {
      schema: {
        tags: ['challenges'],
        summary: 'Record that a device completed a challenge',
        description:
          'One record per (deviceId, challengeId), enforced by the database: completing again keeps the best score, and `completedAt` is when that score was first reached. ' +
          'Unknown, disabled, or in a NON_ACTIF city: 404. Not started or ended: 400. A required challenge not yet completed by this device: 400 naming it. ' +
          'Answers 201 with the stored record, also after a lower score.',
        body: CompleteChallengeBodySchema,
        response: { 201: CompletionSchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      const record = await completions.complete(request.body, app.clock());
      return reply.code(201).send(record);
    },
  );
}
