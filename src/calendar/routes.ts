import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errors } from '../kernel/errors.ts';
import { parseCalendarDate, type DayNumber, todayIn } from '../kernel/dates.ts';
import { computeCalendar, plannedDateOf, withCancelled, type CalendarRange } from '../domain/collection-calendar.ts';
import { buildIcsFeed } from './ics.ts';
import { loadPlaceCalendar, publishSequences, type PlaceCalendarData } from './repository.ts';
import {
  ErrorSchema,
  IcsQuerySchema,
  IcsResponseSchema,
  NotModifiedSchema,
  OccurrenceListSchema,
  PlaceCollectionsQuerySchema,
  PlaceParamsSchema,
  type CollectionsQuery,
  type PlaceParams,
} from './schemas.ts';

/** Default span of the collections endpoint: today through today + 30. */
const DEFAULT_SPAN_DAYS = 30;
/** Longest range served at once: 366 days in all, so a whole leap year fits. */
const MAX_SPAN_DAYS = 366;
/** The iCalendar feed covers today through today + 365. */
const ICS_SPAN_DAYS = 365;

const EXTENSION_NOTE = 'Extension of the seed (docs/api.md, the collection calendar).';

async function requirePlace(app: FastifyInstance, params: PlaceParams): Promise<PlaceCalendarData> {
  const lookup = await loadPlaceCalendar(app.db, params.cityId, params.placeId);
  if (lookup.found === 'city-missing') throw errors.cityNotFound();
  if (lookup.found === 'place-missing') throw errors.collectionPlaceNotFound();
  return lookup.data;
}

function dayParam(name: 'from' | 'to', value: string): DayNumber {
  const day = parseCalendarDate(value);
  if (day === null) throw errors.dateParameter(name);
  return day;
}

/** The inclusive range asked for; `from` defaults to today in the city, `to` to `from` + 30 days. */
export function requestedRange(query: CollectionsQuery, today: DayNumber): CalendarRange {
  const from = query.from === undefined ? today : dayParam('from', query.from);
  const to = query.to === undefined ? from + DEFAULT_SPAN_DAYS : dayParam('to', query.to);
  if (to < from) throw errors.dateOrder();
  if (to - from + 1 > MAX_SPAN_DAYS) {
    throw errors.calendarSpan(MAX_SPAN_DAYS);
  }
  return { from, to };
}

/** The waste types `?wasteTypeId=` keeps, each one of the city's (400 naming the parameter otherwise); null: all. */
function requestedWasteTypes(ids: string[] | undefined, data: PlaceCalendarData): Set<string> | null {
  if (!ids || ids.length === 0) return null;
  const known = new Set(data.schedule.wasteTypes.map((w) => w.id));
  const unknown = ids.find((id) => !known.has(id));
  if (unknown !== undefined) throw errors.invalidField('wasteTypeId', `doit nommer des types de déchets de la commune (${unknown} n’en est pas un)`);
  return new Set(ids);
}

/** Whether If-None-Match names this entity tag (weak comparison, as RFC 9110 asks for this header). */
function matchesIfNoneMatch(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** Collection calendars of a place, as JSON and as a subscribable iCalendar feed. Registered under /public. */
export default async function calendarRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/cities/:cityId/places/:placeId/collections',
    {
      schema: {
        tags: ['calendar'],
        summary: 'Collection dates of a place',
        description:
          `${EXTENSION_NOTE} The collections of the place from \`from\` through \`to\` (inclusive, \`YYYY-MM-DD\` in the ` +
          'city\'s time zone, Europe/Paris unless the city says otherwise), as the exceptions (cancel, move, add) and the ' +
          'city group\'s holiday rules leave them: a moved collection on its new day with status `MOVED`, `originalDate` ' +
          'and a `note`; an added one `ADDED`; the removed ones left out, or listed with status `CANCELLED` on their own day ' +
          'with `include=cancelled`. Public holidays (on the city\'s calendar: national, or Alsace-Moselle\'s) are named in `holiday`. Default: today through today + 30; `from` alone ' +
          'gives `from` through `from` + 30. A range over 366 days, or `to` before `from`: 400. Unknown or NON_ACTIF city, ' +
          'or a place of another city: 404.',
        params: PlaceParamsSchema,
        querystring: PlaceCollectionsQuerySchema,
        response: { 200: OccurrenceListSchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => {
      const data = await requirePlace(app, request.params);
      const range = requestedRange(request.query, todayIn(data.city.timeZone, app.clock()));
      const calendar = computeCalendar(data.schedule, range);
      return request.query.include === 'cancelled' ? withCancelled(calendar) : calendar.occurrences;
    },
  );

  app.get(
    '/cities/:cityId/places/:placeId/calendar.ics',
    {
      schema: {
        tags: ['calendar'],
        summary: 'iCalendar feed of a place\'s collections',
        description:
          `${EXTENSION_NOTE} An RFC 5545 calendar to subscribe to: one all-day event per collection from today through ` +
          'today + 365 in the city\'s time zone, titled `Collecte : <waste type>`, and a `STATUS:CANCELLED` event ' +
          '(`Collecte annulée : <waste type>`, with the exception\'s name and description) for each collection an exception ' +
          'or holiday rule removes. A moved collection keeps its UID on its new day, titled `Collecte : <waste type> ' +
          '(reportée du 25 décembre)`; `SEQUENCE` grows each time an occurrence\'s day or status changes. ' +
          'UIDs are `<placeId>-<wasteTypeId>-<YYYYMMDD of the day it was planned for>@collecte`, the same on every fetch; ' +
          '`X-WR-CALNAME` and `NAME` carry the place\'s name. `?cancelled=false` leaves out cancelled events (for Home ' +
          'Assistant\'s waste_collection_schedule, which ignores `STATUS`); `?wasteTypeId=` (repeatable) keeps those waste ' +
          'types only. `DTSTAMP` is the ' +
          'time the published data last changed. Strong `ETag` computed from the body; `If-None-Match` answers 304. ' +
          '`?alarm=19:00` adds a display `VALARM` to each collection at that time the evening before.',
        params: PlaceParamsSchema,
        querystring: IcsQuerySchema,
        response: { 200: IcsResponseSchema, 304: NotModifiedSchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      const data = await requirePlace(app, request.params);
      const wasteTypeIds = requestedWasteTypes(request.query.wasteTypeId, data);
      const today = todayIn(data.city.timeZone, app.clock());
      const calendar = computeCalendar(data.schedule, { from: today, to: today + ICS_SPAN_DAYS });
      const published = withCancelled(calendar).map((o) => ({ wasteTypeId: o.wasteTypeId, plannedDate: plannedDateOf(o), date: o.date, status: o.status }));
      const body = buildIcsFeed({
        placeId: data.place.id,
        placeName: data.place.name,
        cityName: data.city.name,
        calendar,
        sequences: await publishSequences(app.db, data.place.id, published),
        dataChangedAt: data.dataChangedAt,
        alarm: request.query.alarm ?? null,
        cancelledEvents: request.query.cancelled !== false,
        wasteTypeIds,
      });
      const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
      reply.header('etag', etag);
      if (matchesIfNoneMatch(request, etag)) return reply.code(304).send();
      return reply
        .type('text/calendar; charset=utf-8')
        .header('content-disposition', `inline; filename="collectes-${data.place.id}.ics"`)
        .send(body);
    },
  );
}
