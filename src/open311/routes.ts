import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from 'typebox';
import { tooManyRequests } from '../http/rate-limit.ts';
import { linkOrigin } from '../http/link-pages.ts';
import { errors, messages } from '../kernel/errors.ts';
import { registerOpen311Errors, sendOpen311Error } from './errors.ts';
import { parseForm } from './form.ts';
import { keyOfGroup } from './keys.ts';
import {
  CreateRequestForm,
  DiscoverySchema,
  JurisdictionQuery,
  Open311ErrorSchema,
  RequestCreatedSchema,
  RequestIdParams,
  RequestListQuery,
  ServiceDefinitionSchema,
  ServiceParams,
  ServiceRequestSchema,
  ServiceSchema,
} from './schemas.ts';
import { DEFAULT_SPAN_DAYS, fileRequest, jurisdictionOf, LIST_MAX, listRequests, oneRequest, serviceDefinition, servicesOf } from './service.ts';
import { XML_TYPE, xmlDocument, xmlList } from './xml.ts';

/** Requests one key may file per hour: a partner files for many residents, so far more than a device's 10. */
export const OPEN311_PER_KEY_HOUR = 1000;
const HOUR_MS = 3_600_000;

/** When this interface last changed, as discovery says it. */
const CHANGESET = '2026-12-01T00:00:00+01:00';
const SPECIFICATION = 'http://wiki.open311.org/GeoReport_v2';
const BASE = '/open311/v2';

type Format = 'json' | 'xml';
const FORMATS: readonly Format[] = ['json', 'xml'];

/** The tag of this page of the documentation (openapi.ts). */
const route = { tags: ['open311'] };

const JURISDICTION =
  '`jurisdiction_id` is a city group’s SIREN (400 when missing while the service holds several groups, 404 when no group has it).';

/** The answer's schemas: the JSON shapes for `.json`; for `.xml`, the document as text (the same fields, the standard’s elements). */
function responses(format: Format, ok: Record<number, TSchema>, errorStatuses: readonly number[]) {
  const errorSchema = format === 'json' ? Open311ErrorSchema : Type.String({ description: '<errors><error><code>…</code><description>…</description></error></errors>' });
  const answers: Record<number, TSchema> = {};
  for (const [status, schema] of Object.entries(ok)) {
    answers[Number(status)] = format === 'json' ? schema : Type.String({ description: `XML: ${(schema as { title?: string }).title ?? 'the same fields'} under the standard’s element names` });
  }
  for (const status of errorStatuses) answers[status] = errorSchema;
  return { response: answers, produces: [format === 'json' ? 'application/json' : 'text/xml'] };
}

/** Sends a list or document in the asked format. */
function answer(reply: FastifyReply, format: Format, value: object, xml: () => string) {
  if (format === 'json') return reply.send(value);
  return reply.type(XML_TYPE).send(xml());
}

/**
 * Open311 GeoReport v2 (docs/api.md, Open311) under /open311/v2, in JSON and XML: an adapter over the requests area.
 * Its failures are always the standard's (errors.ts); its only body is a form, parsed here for these routes alone.
 */
export default async function open311Routes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  registerOpen311Errors(app);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, parseForm(body as string)));
  const perKey = app.rateBudget('open311-key', OPEN311_PER_KEY_HOUR, HOUR_MS);

  for (const format of FORMATS) {
    // Declared: derived from `services/:code.json`, the id would hold a dot.
    const suffix = format === 'json' ? 'Json' : 'Xml';
    app.get(
      `${BASE}/discovery.${format}`,
      {
        config: { cacheByOrigin: true },
        schema: {
          ...route,
          operationId: `getOpen311Discovery${suffix}`,
          summary: `Discovery (${format.toUpperCase()})`,
          description: 'The endpoint of this service, its formats and how partners obtain a key.',
          ...responses(format, { 200: DiscoverySchema }, [400]),
        },
      },
      async (request, reply) => {
        const changeset = CHANGESET;
        const discovery = {
          changeset,
          contact: 'L’équipe qui exploite ce service Collecte, ou le service des déchets de votre collectivité.',
          key_service: 'Une clé est délivrée à chaque partenaire par l’administrateur du service (POST /admin/open311-keys), pour un groupement.',
          endpoints: [{ specification: SPECIFICATION, url: `${linkOrigin(app.config, request)}${BASE}`, changeset, type: 'production', formats: ['application/json', 'text/xml'] }],
        };
        return answer(reply, format, discovery, () => xmlDocument('discovery', discovery));
      },
    );

    app.get(
      `${BASE}/services.${format}`,
      {
        schema: {
          ...route,
          operationId: `listOpen311Services${suffix}`,
          summary: `A city group’s services: its active request types (${format.toUpperCase()})`,
          description: `One service per active request type, by name. ${JURISDICTION}`,
          querystring: JurisdictionQuery,
          ...responses(format, { 200: Type.Array(ServiceSchema, { title: 'services' }) }, [400, 404]),
        },
      },
      async (request, reply) => {
        const services = await servicesOf(app.db, await jurisdictionOf(app.db, request.query.jurisdiction_id));
        return answer(reply, format, services, () => xmlList('services', 'service', services));
      },
    );

    app.get(
      `${BASE}/services/:code.${format}`,
      {
        schema: {
          ...route,
          operationId: `getOpen311ServiceDefinition${suffix}`,
          summary: `A service’s definition: what a request of the type answers (${format.toUpperCase()})`,
          description:
            'The type’s fields, after `waste_type` (a waste type of the request’s commune, by name), `date` (`AAAA-MM-JJ`) and ' +
            '`recycling_point` where the type asks for them. An unknown or inactive code: 404. ' + JURISDICTION,
          params: ServiceParams,
          querystring: JurisdictionQuery,
          ...responses(format, { 200: ServiceDefinitionSchema }, [400, 404]),
        },
      },
      async (request, reply) => {
        const definition = await serviceDefinition(app.db, await jurisdictionOf(app.db, request.query.jurisdiction_id), request.params.code);
        return answer(reply, format, definition, () => xmlDocument('service_definition', definition));
      },
    );

    app.post(
      `${BASE}/requests.${format}`,
      {
        schema: {
          ...route,
          operationId: `createOpen311Request${suffix}`,
          summary: `File a request for a resident (${format.toUpperCase()}; a form, with an API key)`,
          description:
            '`application/x-www-form-urlencoded`, with the key of a partner of the group (403 when missing, unknown, revoked or ' +
            'another group’s). The commune and collection place come from `lat`/`long` (the place whose area holds the point, ' +
            'else an attached location within 300 m) or `address_string` (the street rules); the resident requests’ rules apply ' +
            'unchanged: 400 naming the field (`attribute[motif]`, `lat`). A missed collection already reported and open is joined: ' +
            `200 with its reference and a \`service_notice\`. At most ${OPEN311_PER_KEY_HOUR} filings per key and hour (429). ` +
            '`first_name`, `last_name` and `phone` are not stored; `media_url` is added to what the staff read, never fetched. ' +
            JURISDICTION,
          consumes: ['application/x-www-form-urlencoded'],
          body: CreateRequestForm,
          ...responses(format, { 201: RequestCreatedSchema, 200: RequestCreatedSchema }, [400, 403, 404, 413, 429]),
        },
      },
      async (request, reply) => {
        const form = request.body;
        // A missing key is refused first, whatever else the form lacks.
        if (!form.api_key) throw errors.open311KeyRefused();
        const group = await jurisdictionOf(app.db, form.jurisdiction_id);
        const now = app.clock();
        const key = await keyOfGroup(app.db, form.api_key, group.id, now);
        const filed = await fileRequest(app.db, group, form, {
          now,
          keyId: key.id,
          origin: form.email ? linkOrigin(app.config, request) : null,
          admit: async () => {
            const verdict = await perKey(key.id);
            if (verdict.exceeded) throw tooManyRequests(verdict);
          },
        });
        reply.code(filed.created ? 201 : 200);
        return answer(reply, format, filed.answer, () => xmlList('service_requests', 'request', filed.answer));
      },
    );

    app.get(
      `${BASE}/requests.${format}`,
      {
        config: { cache: false },
        schema: {
          ...route,
          operationId: `listOpen311Requests${suffix}`,
          summary: `A city group’s requests, newest first (${format.toUpperCase()})`,
          description:
            `At most ${LIST_MAX}; filed between \`start_date\` and \`end_date\` (ISO 8601 with an offset), by default the last ` +
            `${DEFAULT_SPAN_DAYS} days; \`status\` \`open\` (RECUE, EN_COURS, PLANIFIEE) or \`closed\` (RESOLUE, REJETEE, ANNULEE); ` +
            'with `service_request_id` (references, comma-separated) the other filters are ignored. Nothing personal: no e-mail, ' +
            'name or phone; `description`, `lat`/`long` and `address` only for `depot-sauvage` and `point-apport-plein`, null ' +
            'otherwise. Datetimes in the commune’s local time with its offset. ' + JURISDICTION,
          querystring: RequestListQuery,
          ...responses(format, { 200: Type.Array(ServiceRequestSchema, { title: 'service_requests' }) }, [400, 404]),
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-cache');
        const requests = await listRequests(app.db, await jurisdictionOf(app.db, request.query.jurisdiction_id), request.query, app.clock());
        return answer(reply, format, requests, () => xmlList('service_requests', 'request', requests));
      },
    );

    app.get(
      `${BASE}/requests/:id.${format}`,
      {
        config: { cache: false },
        schema: {
          ...route,
          operationId: `getOpen311Request${suffix}`,
          summary: `One request by its reference (${format.toUpperCase()})`,
          description: 'A list of one, as the standard says; unknown, or another group’s: 404. ' + JURISDICTION,
          params: RequestIdParams,
          querystring: JurisdictionQuery,
          ...responses(format, { 200: Type.Array(ServiceRequestSchema, { title: 'service_requests' }) }, [400, 404]),
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-cache');
        const found = await oneRequest(app.db, await jurisdictionOf(app.db, request.query.jurisdiction_id), request.params.id, app.clock());
        return answer(reply, format, found, () => xmlList('service_requests', 'request', found));
      },
    );
  }

  // Any other path under /open311 is the standard's 404, not the web app's page nor the API's JSON body.
  const notFound = async (request: FastifyRequest, reply: FastifyReply) =>
    sendOpen311Error(request, reply, 404, messages.routeNotFound(request.method, request.url));
  for (const url of ['/open311', '/open311/*']) app.all(url, { config: { cache: false }, schema: { hide: true } }, notFound);
}
