import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { etagMatches, negotiateEncoding } from '../http/conditional.ts';
import { errors } from '../kernel/errors.ts';
import { ErrorSchema } from '../kernel/schemas.ts';
import { countActiveCities, readCityGroupRows } from './repository.ts';
import { toCityGroups } from './mapper.ts';
import { findCities } from '../kernel/city-model/read.ts';
import { StreamVersionMoved, startCitiesStream } from './stream.ts';
import { CitySchema, type CityApi } from '../kernel/city-model/schemas.ts';
import { CityGroupSchema, CityIdParams } from './schemas.ts';

export default async function cityRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  /** Streamed lists this instance is sending (at most CITIES_MAX_STREAMS). */
  const streams = { inFlight: 0 };

  app.get(
    '/cities',
    {
      schema: {
        tags: ['cities'],
        summary: 'All ACTIF cities with their nested data',
        response: { 200: Type.Array(CitySchema) },
      },
    },
    async (request, reply) => {
      const now = app.clock();
      // Up to the threshold the list is built once and kept with its variants by the response cache;
      // above it, it is streamed in batches (never held whole) and bypasses the cache.
      if ((await countActiveCities(app.db)) <= app.config.citiesStreamThreshold) return findCities(app.db, { all: true }, now);
      return sendCitiesStream(app, streams, request, reply, now);
    },
  );

  app.get(
    '/cities/:id',
    {
      schema: {
        tags: ['cities'],
        summary: 'One ACTIF city with its nested data',
        params: CityIdParams,
        response: { 200: CitySchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => {
      const [city] = await findCities(app.db, { id: request.params.id }, app.clock());
      if (!city) throw errors.cityNotFound();
      return city;
    },
  );

  app.get(
    '/city-groups',
    {
      schema: {
        tags: ['cities'],
        summary: 'City groups with their ACTIF cities',
        response: { 200: Type.Array(CityGroupSchema) },
      },
    },
    async () => toCityGroups(await readCityGroupRows(app.db)),
  );
}

/**
 * Every ACTIF city as a streamed body, with its strong ETag (304 on If-None-Match) and gzip/brotli on request.
 * Past CITIES_MAX_STREAMS lists being sent at once, 503 with Retry-After: each one holds memory, and reads the database
 * batch after batch for as long as its client takes.
 */
async function sendCitiesStream(
  app: FastifyInstance,
  streams: { inFlight: number },
  request: FastifyRequest,
  reply: FastifyReply,
  now: Date,
) {
  if (streams.inFlight >= app.config.citiesMaxStreams) throw errors.unavailable(10);
  streams.inFlight++;
  let counted = true;
  const uncount = () => {
    if (!counted) return;
    counted = false;
    streams.inFlight--;
  };
  // 'close' comes once the answer is sent or the client went away, whichever happens first.
  reply.raw.once('close', uncount);
  let stream;
  try {
    stream = await startCitiesStream(app.database, now);
  } catch (err) {
    uncount();
    throw err;
  }
  const encoding = negotiateEncoding(request.headers['accept-encoding']);
  const etag = encoding === 'identity' ? stream.etag : `${stream.etag.slice(0, -1)}-${encoding}"`;
  reply.header('content-type', 'application/json; charset=utf-8');
  reply.header('cache-control', 'public, max-age=60');
  reply.header('vary', 'Accept-Encoding');
  reply.header('etag', etag);
  const notModified = etagMatches(request.headers['if-none-match'], etag);
  if (notModified || request.method === 'HEAD') {
    if (notModified) return reply.code(304).send();
    return reply.send(Readable.from([]));
  }
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  const serialize = reply.compileSerializationSchema(CitySchema as unknown as Record<string, unknown>) as (city: CityApi) => string;
  const body = stream.open(serialize, encoding, (err) => {
    if (err instanceof StreamVersionMoved) request.log.warn({ err }, 'GET /public/cities aborted: the data changed while streaming');
    else if ((err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') request.log.debug('GET /public/cities: client went away');
    else request.log.error({ err }, 'GET /public/cities stream failed');
  });
  return reply.send(body);
}
