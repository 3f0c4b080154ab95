import type { FastifyInstance } from 'fastify';
import { adminAgentOf } from '../admin/agent.ts';
import { adminRoute, guardErrors, parents, registerAdminResource } from '../admin/resource.ts';
import { etagOf } from '../admin/revision.ts';
import { adminService } from '../admin/store.ts';
import { requireAdminAgent } from '../auth/guard.ts';
import { ErrorSchema } from '../kernel/schemas.ts';
import { exceptionStore } from './admin-exceptions.ts';
import { previewCollections } from './admin-preview.ts';
import { previewGroupHolidays } from './holiday-preview.ts';
import {
  CityGroupIdParams,
  exceptionSchemas,
  HolidayPreviewBody,
  HolidayPreviewSchema,
  OccurrenceListSchema,
  PlaceCollectionsQuerySchema,
  PlaceIdParams,
  PreviewBody,
  type HolidayPreviewInput,
  type PlaceCollectionsQuery,
  type PreviewInput,
} from './schemas.ts';

const WRITE_NOTE =
  'Checked with the import bundle’s rules (400 naming the field: `dateTo` before `dateFrom`, a waste type of another city). ' +
  'Recorded in the audit log; the public calendars, ICS and city answer the change within a second.';

/** `/admin/places/:placeId/exceptions` and `/admin/exceptions/:id` (docs/api.md, the admin API), for agents holding CITIES. */
export default async function calendarAdminRoutes(app: FastifyInstance) {
  requireAdminAgent(app, 'CITIES');
  registerAdminResource(app, {
    path: '/exceptions',
    parent: parents.place,
    schemas: exceptionSchemas,
    docs: {
      list: {
        summary: 'A collection place’s exceptions, by dateFrom',
        description: 'The listing envelope. A place outside the agent’s groups answers 404, like an unknown one.',
      },
      create: {
        summary: 'Create an exception of a collection place (a cancelled or moved collection)',
        description: `${WRITE_NOTE} A place outside the agent’s groups answers 404.`,
      },
      get: {
        summary: 'One exception, with its ETag',
        description: 'An exception of a place outside the agent’s groups answers 404, like an unknown one.',
      },
      update: {
        summary: 'Change an exception (partial)',
        description: `With \`If-Match\`, 412 when the exception changed since it was read. ${WRITE_NOTE}`,
      },
      remove: {
        summary: 'Delete an exception',
        description: 'With `If-Match`, 412 when the exception changed since it was read. Recorded in the audit log; public answers follow within a second.',
      },
    },
    service: adminService(exceptionStore),
  });
  registerPreview(app);
  registerHolidayPreview(app);
}

const PREVIEW_NOTE =
  'The collections of `GET /public/cities/{cityId}/places/{placeId}/collections` (docs/api.md, the collection calendar), computed by the same ' +
  'engine, for a place of any city (ACTIF or not); `from` and `to` as there (default today through today + 30 in the ' +
  'city’s time zone; `to` before `from` or a span over 366 days: 400), `include=cancelled` as there too (the collections removed, ' +
  'status `CANCELLED`, on their own day). A place outside the agent’s groups answers 404.';

/** `GET|POST /admin/places/:placeId/preview`: a place's calendar as it is, or as it would be with other days and exceptions. */
function registerPreview(app: FastifyInstance) {
  const schema = { ...adminRoute, params: PlaceIdParams, querystring: PlaceCollectionsQuerySchema };
  const response = { 200: OccurrenceListSchema, ...guardErrors, 404: ErrorSchema };
  type Request = { Params: { placeId: string }; Querystring: PlaceCollectionsQuery };

  app.get<Request>('/places/:placeId/preview', {
    schema: { ...schema, summary: 'Preview a place’s collections as they are', description: PREVIEW_NOTE, response },
  }, async (request, reply) => {
    const occurrences = await previewCollections(app.db, adminAgentOf(request), request.params.placeId, request.query, null, app.clock());
    reply.header('etag', etagOf(occurrences));
    return occurrences;
  });

  app.post<Request & { Body: PreviewInput }>('/places/:placeId/preview', {
    schema: {
      ...schema,
      summary: 'Preview a place’s collections with other days and exceptions (nothing stored)',
      description:
        `${PREVIEW_NOTE} \`collectionDays\` and \`exceptions\` (the import bundle's shapes, ids optional) replace the stored ones ` +
        '(either absent: the stored ones), checked with the bundle’s rules (400 naming the field: `collectionDays[0].wasteTypeId`). ' +
        'Nothing is stored; answers 200.',
      body: PreviewBody,
      response,
    },
  }, async (request) =>
    previewCollections(app.db, adminAgentOf(request), request.params.placeId, request.query, request.body, app.clock()));
}

/** `POST /admin/city-groups/:cityGroupId/holiday-preview`: what a group's holiday rules do over the next twelve months. */
function registerHolidayPreview(app: FastifyInstance) {
  app.post<{ Params: { cityGroupId: string }; Body: HolidayPreviewInput }>('/city-groups/:cityGroupId/holiday-preview', {
    schema: {
      ...adminRoute,
      operationId: 'previewAdminCityGroupHolidays',
      summary: 'Preview what a city group’s holiday rules do to its collections (nothing stored)',
      description:
        'For each public holiday from today (in the time zone of most of the group’s cities) to the day before the same ' +
        'date next year: the national holidays, and Alsace-Moselle’s two (`vendredi-saint`, `saint-etienne`) when a city ' +
        'of the group follows that calendar, each with the cities observing it. For each, one effect per waste type ' +
        'the group’s places of those cities collect that day by their weekly days: the `action` the rules give it (the ' +
        'most specific rule: docs/api.md, exceptions and holiday rules), how many `places` have it planned, how many of ' +
        'them an exception decides instead (`byException`), and `movedTo`, the day most of the moved collections land on, as the calendar ' +
        'engine computes each place’s calendar (the same as `GET …/collections`). `holidayRules` (the shape of ' +
        '`PATCH /admin/city-groups/{id}`) replaces the stored rules for the preview; absent, the stored rules. Proposed ' +
        'rules are checked with the bundle’s rule, as a PATCH is (400 naming `holidayRules[i].wasteTypeId` for a waste ' +
        'type not of the group’s cities, `holidayRules[i]` for a second rule naming the same holiday and waste type). ' +
        'Needs `CITIES`; a group the agent does not hold answers 404, like an unknown one. Nothing is stored; answers 200.',
      params: CityGroupIdParams,
      body: HolidayPreviewBody,
      response: { 200: HolidayPreviewSchema, ...guardErrors, 404: ErrorSchema },
    },
  }, async (request) =>
    previewGroupHolidays(app.db, adminAgentOf(request), request.params.cityGroupId, request.body, app.clock()));
}
