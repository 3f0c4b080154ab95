import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import { randomUUID } from 'node:crypto';
import { Type } from 'typebox';
import { tooManyRequests } from '../http/rate-limit.ts';
import { ErrorSchema } from '../kernel/schemas.ts';
import { encodePhoto, PHOTO_MAX_BYTES, PHOTO_MAX_MEGAPIXELS, readPhotoForm } from './photos.ts';
import { insertPhoto } from './repository.ts';
import {
  CreateRequestBody,
  DeviceQuery,
  GroupParams,
  MailStatusSchema,
  PhotoReceiptSchema,
  RequestParams,
  RequestSchema,
  RequestsConfigSchema,
  RequestTypeSchema,
  TokenQuery,
} from './schemas.ts';
import { cachedCatalogue, createRequest, mailStatus, requestOfDevice, requestsOfDevice, requestTypesOfGroup, stopMails, trackedRequest } from './service.ts';
import { stopPages } from './messages.ts';
import { FilingBatcher } from './filing-batch.ts';
import { deviceCatchUp, deviceStreams } from './live.ts';
import { bulkyPublicRoutes } from './bulky-routes.ts';
import { eventStreamResponse, LastEventIdHeaders } from '../http/live-streams.ts';
import { cachedLinkKey } from '../domain/signed-links.ts';
import { answerLink, ignoreFormBodies, linkOrigin } from '../http/link-pages.ts';

/** Batches of creations written at once on PostgreSQL (each holds a connection until it commits). */
const FILINGS_IN_FLIGHT = 2;

/** Creations per device and hour (docs/api.md, resident requests); per IP, REQUESTS_IP_MAX. */
export const REQUESTS_PER_DEVICE = 10;
const HOUR_MS = 3_600_000;

/** A device's requests are its own and change with every update: never kept by a cache. */
const noStore = { cache: false };

/** The residents' side of requests (docs/api.md, resident requests). Registered under /public. */
export default async function requestRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  await app.register(multipart);

  // Multipart bodies are @fastify/multipart's (registered above), which leaves one unread when the route does not read it.
  ignoreFormBodies(app, ['application/x-www-form-urlencoded']);
  const linkKey = cachedLinkKey(app.db);
  const catalogue = cachedCatalogue(app.db, () => app.dataVersion.current);
  // One batch at a time on the embedded database's single connection; a few in flight on PostgreSQL's pool.
  const filer = new FilingBatcher(app.db, app.database.kind === 'pglite' ? 1 : FILINGS_IN_FLIGHT);
  // The links of a request's e-mails start where it was filed from (or PUBLIC_BASE_URL); none without an address.
  const mailOrigin = (request: FastifyRequest<{ Body: { email?: string | null } }>) => (request.body.email ? linkOrigin(app.config, request) : null);

  const perDevice = app.rateBudget('requests-device', REQUESTS_PER_DEVICE, HOUR_MS);
  const perIp = app.rateBudget('requests-ip', app.config.requestsIpMax, HOUR_MS);
  // A creation counts once it has passed its type's rules, just before it is written (a report joining an open one
  // counts too): a resident correcting a form is not locked out by the faults they corrected.
  const admitCreation = (request: FastifyRequest, deviceId: string) => async () => {
    const [device, ip] = await Promise.all([perDevice(deviceId), perIp(request.ip)]);
    if (device.exceeded) throw tooManyRequests(device);
    if (ip.exceeded) throw tooManyRequests(ip);
  };

  // The configuration does not change while the process runs: the map (or none) is the same for every client.
  const tiles = app.config.mapTiles;
  const formConfig = { map: tiles && { tileUrl: tiles.url, attribution: tiles.attribution } };
  app.get(
    '/requests/config',
    {
      config: { cache: true },
      schema: {
        tags: ['requests'],
        summary: 'What the report form offers beside « Me localiser » and a typed address',
        description:
          '`map`: the tile server of a map on which the resident places the position (MAP_TILE_URL, with its credit ' +
          'MAP_TILE_ATTRIBUTION), or null when the operator configured none: the app then draws no map and reaches no other server.',
        response: { 200: RequestsConfigSchema },
      },
    },
    async () => formConfig,
  );

  app.get(
    '/city-groups/:id/request-types',
    {
      schema: {
        tags: ['requests'],
        summary: 'The request types residents may file with a city group, by name',
        description:
          'A bare array of the group’s active types by `name` (French order). Every group starts with the default catalogue ' +
          '(`collecte-non-effectuee`, `bac-endommage`, `bac-vole`, `demande-bac`, `point-apport-plein`, `depot-sauvage`, `autre`, ' +
          '`encombrants`), which its agents edit. Unknown group: 404 `cityGroupNotFound`.',
        params: GroupParams,
        response: { 200: Type.Array(RequestTypeSchema), 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => requestTypesOfGroup(app.db, request.params.id.toLowerCase()),
  );

  app.post(
    '/requests',
    {
      schema: {
        tags: ['requests'],
        summary: 'File a request (a missed collection, a broken bin, illegal dumping…)',
        description:
          'What the type marks `REQUIRED` must be given and what it marks `NONE` must be absent or null (400 `validation` naming the ' +
          'field); its fields are answered in `attributes` by `code` (`attributes.motif`). A position is `latitude` with `longitude`, or ' +
          'an `address`. Unknown or NON_ACTIF city: 404 `cityNotFound`; a type the city’s group does not offer: 404 ' +
          '`requestTypeNotFound`; a place, waste type or recycling point of another city: 400 naming it; `photoIds` must name photos ' +
          'uploaded within 24 hours and not yet taken. A missed collection (`collecte-non-effectuee`) names a day on which the place had ' +
          'that waste type collected (after exceptions, moves and holiday rules), reported from noon that day (the city’s time) until ' +
          '48 hours later: otherwise 400 at `date`, saying which rule failed. While a report of the same place, waste type and day is ' +
          'open, another answers **200** with that request, which the device then follows. Creations count 10 per hour per ' +
          '`deviceId` and `REQUESTS_IP_MAX` (default 30) per hour per IP, counted once a request has passed its rules (a report that ' +
          'joins an open one counts): 429 beyond, and nothing is written.',
        body: CreateRequestBody,
        response: { 200: RequestSchema, 201: RequestSchema, 400: ErrorSchema, 404: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (request, reply) => {
      const { request: filed, created } = await createRequest(app.db, request.body, {
        now: app.clock(),
        origin: mailOrigin(request),
        admit: admitCreation(request, request.body.deviceId),
        catalogue,
        filer,
      });
      return reply.code(created ? 201 : 200).send(filed);
    },
  );

  app.post(
    '/requests/photos',
    {
      schema: {
        tags: ['requests'],
        summary: 'Upload a photo for a request (multipart/form-data, part `file`)',
        description:
          `A JPEG, PNG or WebP (read from its bytes) of at most ${PHOTO_MAX_BYTES / 1024 / 1024} MiB (413 beyond) and ` +
          `${PHOTO_MAX_MEGAPIXELS} megapixels (400 beyond). Stored re-encoded as a JPEG of at most 2048 pixels a side with every ` +
          'metadata removed (EXIF position included); never served on a public URL (agents see it). Name its `id` in a request’s ' +
          '`photoIds` within 24 hours, after which an unclaimed photo is deleted. An upload cut off mid-way stores nothing.',
        consumes: ['multipart/form-data'],
        response: { 201: PhotoReceiptSchema, 400: ErrorSchema, 413: ErrorSchema },
      },
    },
    async (request, reply) => {
      const photo = await encodePhoto(await readPhotoForm(request));
      const id = randomUUID();
      await insertPhoto(app.db, { id, content_type: photo.contentType, width: photo.width, height: photo.height, bytes: photo.bytes, created_at: app.clock() });
      return reply.code(201).send({ id });
    },
  );

  app.get(
    '/requests',
    {
      config: noStore,
      schema: {
        tags: ['requests'],
        summary: 'The requests a device filed or follows, newest first',
        description: 'A bare array (the latest 100), each with its public history (`updates`).',
        querystring: DeviceQuery,
        response: { 200: Type.Array(RequestSchema), 400: ErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return requestsOfDevice(app.db, request.query.deviceId);
    },
  );

  bulkyPublicRoutes(app);

  const live = deviceStreams(app.db, (err) => app.log.warn({ err }, 'requests live: poll failed, trying again'));
  app.addHook('preClose', async () => live.close());

  app.get(
    '/requests/events',
    {
      // A stream answers GET alone: a HEAD would hold its connection open for nothing.
      exposeHeadRoute: false,
      config: noStore,
      schema: {
        tags: ['requests'],
        summary: 'A device’s requests, live: a server-sent events stream of those that change',
        description:
          'A `text/event-stream`, for the browser’s `EventSource`. Events: `ready` `{since}` first; then `request`, the request ' +
          'as `GET /public/requests/{id}` answers it, each time one the device filed or follows changes (a status, a planned ' +
          'day, a public reply), with `id` its change number; `reset` when a reconnection missed too much (reload the list). ' +
          'With `Last-Event-ID` (as `EventSource` sends it when it reconnects), the changes after that number come first. ' +
          'Comments (`: ping`) every 25 s keep proxies from closing the connection; 503 with `Retry-After` when the instance ' +
          'holds too many streams.',
        querystring: DeviceQuery,
        headers: LastEventIdHeaders,
        response: { 200: eventStreamResponse, 400: ErrorSchema, 503: ErrorSchema },
      },
    },
    async (request, reply) => {
      const { deviceId } = request.query;
      const lastEventId = request.headers['last-event-id'];
      await live.serve(reply, {
        audience: deviceId,
        accepts: (change) => change.devices.has(deviceId),
        eventOf: (change) => ({ event: 'request', data: change.request, id: change.seq }),
        catchUp: lastEventId === undefined ? undefined : () => deviceCatchUp(app.db, Number(lastEventId), deviceId),
      });
    },
  );

  app.get(
    '/requests/track',
    {
      config: noStore,
      schema: {
        tags: ['requests'],
        summary: 'Follow a request from the link of its e-mails',
        description:
          'The request the signed token names, as its device sees it (JSON), or a short French page with its status and history when ' +
          'the request accepts text/html (a browser). The link works without the device and does not expire; a bad token, or a ' +
          'request erased since: 404 with the error body.',
        querystring: TokenQuery,
        response: { 200: RequestSchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const tracked = await trackedRequest(app.db, await linkKey(), request.query.token, app.clock());
      return answerLink(request, reply, tracked);
    },
  );

  const stopDescription =
    'The link of every e-mail about a request (`List-Unsubscribe`, RFC 8058): the requester receives no more e-mail about it; the ' +
    'request itself goes on. JSON `{status}` (`ACTIVE` while e-mails are sent, `STOPPED` after), or a short French page for a ' +
    'browser; a bad token: 404.';
  app.get(
    '/requests/unsubscribe',
    {
      config: noStore,
      schema: {
        tags: ['requests'],
        summary: 'The page of the unsubscribe link of a request’s e-mails',
        description: `Changes nothing (mail scanners open links): its button POSTs to the same URL. ${stopDescription}`,
        querystring: TokenQuery,
        response: { 200: MailStatusSchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const status = await mailStatus(app.db, await linkKey(), request.query.token, app.clock());
      const action = `unsubscribe?token=${encodeURIComponent(request.query.token)}`;
      return answerLink(request, reply, { json: { status }, page: status === 'ACTIVE' ? stopPages.form(action) : stopPages.done() });
    },
  );
  app.post(
    '/requests/unsubscribe',
    {
      schema: {
        tags: ['requests'],
        summary: 'Stop the e-mails about a request (RFC 8058 one-click)',
        description: `The body (\`List-Unsubscribe=One-Click\`, a form or nothing) is ignored; already stopped: the same answer. ${stopDescription}`,
        querystring: TokenQuery,
        response: { 200: MailStatusSchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      await stopMails(app.db, await linkKey(), request.query.token, app.clock());
      return answerLink(request, reply, { json: { status: 'STOPPED' as const }, page: stopPages.done() });
    },
  );

  app.get(
    '/requests/:id',
    {
      config: noStore,
      schema: {
        tags: ['requests'],
        summary: 'One request of the device’s, with its updates',
        description: 'A request the device neither filed nor follows answers 404 `requestNotFound`, as an unknown one.',
        params: RequestParams,
        querystring: DeviceQuery,
        response: { 200: RequestSchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return requestOfDevice(app.db, request.params.id.toLowerCase(), request.query.deviceId);
    },
  );
}
