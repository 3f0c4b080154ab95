import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { etagMatches, negotiateEncoding } from '../http/conditional.ts';
import { errors } from '../kernel/errors.ts';
import { ErrorSchema } from '../kernel/schemas.ts';
import { countActiveCities, readCityGroupRows } from './repository.ts';
import { toCityGroups } from './mapper.ts';
import { findCities } from '../domain/city-model/read.ts';
import { StreamVersionMoved, startCitiesStream } from './stream.ts';
import { CitySchema, type CityApi } from '../domain/city-model/schemas.ts';
import {
  AddressSearchQuery,
  CityGroupSchema,
  CityIdParams,
  CommuneCandidateSchema,
  CommuneSearchQuery,
  PlaceCandidateSchema,
  PlaceLookupQuery,
} from './schemas.ts';
import { loadAllStreets, loadCommunes, searchAddresses, searchCommunes } from './search.ts';
import { areaIndexPerVersion, loadAreaIndex, loadCityStreets, lookupAddress, lookupPosition } from './lookup.ts';
import { cachedPerCity } from '../domain/city-cache.ts';
import { findActiveCity } from '../domain/cities.ts';

export default async function cityRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  /** Streamed lists this instance is sending (at most CITIES_MAX_STREAMS). */
  const streams = { inFlight: 0 };
  // A city's street index, built once per data version: each keystroke of an address box is a distinct lookup URL,
  // which the response cache cannot answer.
  const streetsOf = cachedPerCity((cityId) => loadCityStreets(app.db, cityId), {
    version: () => app.dataVersion.current,
    now: () => app.clock().getTime(),
    kept: 500,
  });
  // Every ACTIF place's area in memory, per data version (lookup.ts); the GiST query answers while it is read.
  const areas = areaIndexPerVersion(() => loadAreaIndex(app.db), () => app.dataVersion.current);
  // The communes (with their postcodes) and, when they are few, every commune's streets, per data version: the
  // searches of the home screen's box (search.ts) run on each keystroke.
  const communes = perVersion(() => loadCommunes(app.db), () => app.dataVersion.current);
  const allStreets = perVersion(async () => loadAllStreets(app.db, await communes()), () => app.dataVersion.current);

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
    '/places/lookup',
    {
      schema: {
        tags: ['cities'],
        operationId: 'lookupPlaces',
        summary: 'Collection places of an address or a position',
        description:
          'docs/api.md, from an address to a collection place. A bare array of up to 10 candidates, best first. `?cityId=&address=`: the number (with ' +
          '`bis`/`ter`), the street and its type are read from free text; case, accents, hyphens, apostrophes, the usual ' +
          'abbreviations, the postcode and the commune\'s name do not matter. Matching tiers, best first: the same street, ' +
          'the same without articles, the same name without the street type (`12 siam`), a street begun (from two letters ' +
          'of its name, for suggestions while typing), then one typo (names under 10 letters) or two. With a number some ' +
          'rule holds, the places whose rules hold it; without a number, or with one no rule holds, every place sharing ' +
          'the street, labelled with the numbers each serves. Attached locations match by name too (`matchedBy: location`), ' +
          'after the streets of the same tier. `?lat=&lon=` (with `cityId` or across every ACTIF city): the places whose ' +
          '`area` holds the point (a point on a border belongs to both sides), else the attached locations within 300 m, ' +
          'nearest first, one per place, with `distanceMeters`. 400: neither form, both, `lat` without `lon`, `address` ' +
          'without `cityId`, a malformed or out-of-range coordinate, an address over 200 characters. 404: unknown or ' +
          'NON_ACTIF city. Nothing found: `[]`.',
        querystring: PlaceLookupQuery,
        response: { 200: Type.Array(PlaceCandidateSchema), 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => {
      const { cityId, address, lat, lon } = request.query;
      const positioned = lat !== undefined || lon !== undefined;
      if (address !== undefined && positioned) throw errors.lookupTwoForms();
      if (address === undefined && !positioned) throw errors.lookupNoForm();
      if (address !== undefined && cityId === undefined) throw errors.missingWith('cityId', 'address');
      if (lat === undefined && positioned) throw errors.missingWith('lat', 'lon');
      if (lon === undefined && positioned) throw errors.missingWith('lon', 'lat');
      if (address !== undefined) {
        const streets = await streetsOf(cityId!);
        if (!streets) throw errors.cityNotFound();
        return lookupAddress(streets, address);
      }
      if (cityId !== undefined && !(await findActiveCity(app.db, cityId))) throw errors.cityNotFound();
      return lookupPosition(app.db, areas.current(), { lat: lat!, lon: lon! }, cityId ?? null);
    },
  );

  app.get(
    '/search/communes',
    {
      schema: {
        tags: ['cities'],
        operationId: 'searchCommunes',
        summary: 'ACTIF communes by name or postcode, typos tolerated',
        description:
          'docs/api.md, finding one\'s commune or address without choosing it first. A bare array of up to 10 communes, best first: ' +
          'the name itself (case, accents, hyphens, apostrophes, `St`/`Ste` and a leading article aside: `plouzane`, `relecq kerhuon`, ' +
          '`st pabu`) or one of its postcodes (`29200`); a name begun (`plouz`); a later word of the name begun (`kerhuon`); one typo ' +
          '(Damerau-Levenshtein) in a text of 4 to 7 letters, two from 8 (`brst`, `brets`, `plouzanne`); a name begun with a typo. ' +
          'Then by name. Digits only: a postcode, whole or begun from two digits. A commune\'s postcodes are those written beside ' +
          'its name in the addresses the service publishes (recycling points, the group\'s contact). 400: `q` missing, blank or ' +
          'over 200 characters. Nothing found: `[]`.',
        querystring: CommuneSearchQuery,
        response: { 200: Type.Array(CommuneCandidateSchema), 400: ErrorSchema },
      },
    },
    async (request) => searchCommunes(await communes(), request.query.q),
  );

  app.get(
    '/search/addresses',
    {
      schema: {
        tags: ['cities'],
        operationId: 'searchAddresses',
        summary: 'Collection places of an address typed without choosing a commune',
        description:
          'docs/api.md, finding one\'s commune or address without choosing it first. The answer of `GET /public/places/lookup` ' +
          '(up to 10 `PlaceCandidate`, best first, each naming its commune) for free text that may name its commune: by its name ' +
          'written last or first (`12 rue jean jaures brest`, `Brest, 12 rue de Siam`), a typo aside as for the commune search ' +
          '(not after an article: `Rue de Brest` is a street), or by its postcode (`12 rue de Siam 29200`). The street is then ' +
          'matched in that commune as the lookup matches it. When the text names no commune, or nothing is found in the one it ' +
          'names, the streets of every ACTIF commune are searched (when the service covers at most 100 communes and 10,000 streets; past that, `[]`), ' +
          'best tier first, then by commune. 400: `q` missing, blank or over 200 characters. Nothing found: `[]`.',
        querystring: AddressSearchQuery,
        response: { 200: Type.Array(PlaceCandidateSchema), 400: ErrorSchema },
      },
    },
    async (request) => searchAddresses({ communes: await communes(), all: await allStreets(), streetsOf }, request.query.q),
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

/** A value read once per data version; a failed read is tried again by the next call. */
function perVersion<T>(load: () => Promise<T>, version: () => number): () => Promise<T> {
  let kept: { version: number; value: Promise<T> } | null = null;
  return () => {
    const wanted = version();
    if (kept?.version === wanted) return kept.value;
    const fresh = { version: wanted, value: load() };
    kept = fresh;
    fresh.value.catch(() => {
      if (kept === fresh) kept = null;
    });
    return fresh.value;
  };
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
