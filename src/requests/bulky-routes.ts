import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { adminAgentOf } from '../admin/agent.ts';
import { adminRoute, guardErrors } from '../admin/resource.ts';
import { ErrorSchema } from '../kernel/schemas.ts';
import { adminPickupDays, cancelBooking, openPickupDays, setPickupCapacity } from './bulky-pickups.ts';
import {
  AdminPickupDaySchema,
  CapacitiesBody,
  CapacityBody,
  CityDayParams,
  CityParams,
  OpenDaysQuery,
  OpenPickupDaySchema,
  StaffDaysQuery,
} from './bulky-schemas.ts';
import { DeviceQuery, RequestParams, RequestSchema } from './schemas.ts';
import { requestOfDevice } from './service.ts';

/** Bulky-waste pickups, the residents' side (docs/api.md, bulky-waste pickups): registered by routes.ts under /public. */
export function bulkyPublicRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/cities/:cityId/bulky-pickups',
    {
      // Places are taken by every booking: never kept by a cache.
      config: { cache: false },
      schema: {
        tags: ['requests'],
        summary: 'The days a resident may book a bulky-waste pickup for',
        description:
          'A bare array by day: the city’s days with a capacity, from the first one still open (a day closes at noon the day ' +
          'before, city time) or `from` if later, to `to` (by default 90 days after `from`). Full days are listed, `remaining` 0. ' +
          'An unknown or inactive city: 404.',
        params: CityParams,
        querystring: OpenDaysQuery,
        response: { 200: Type.Array(OpenPickupDaySchema), 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return openPickupDays(app.db, request.params.cityId, request.query, app.clock());
    },
  );

  app.post(
    '/requests/:id/cancel',
    {
      config: { cache: false },
      schema: {
        tags: ['requests'],
        summary: 'Cancel a bulky-waste pickup booking',
        description:
          'Until noon the day before its day (city time): the booking becomes `ANNULEE`, its place goes back to the day, and ' +
          'the requester is told by e-mail as of any update. After that, or for a request that is not a standing booking: 409. ' +
          'A request the device neither filed nor follows: 404.',
        params: RequestParams,
        querystring: DeviceQuery,
        response: { 200: RequestSchema, 400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) => {
      const id = request.params.id.toLowerCase();
      await cancelBooking(app.db, id, request.query.deviceId, app.clock());
      return requestOfDevice(app.db, id, request.query.deviceId);
    },
  );
}

/** Bulky-waste pickups, the staff's side: registered by admin-routes.ts under /admin, for agents holding REQUESTS. */
export function bulkyAdminRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const GROUPS = 'A city outside the agent’s groups answers 404, as an unknown one.';
  const AUDITED = 'Audited (`bulkyPickupDays`, named by the city).';

  app.get(
    '/cities/:cityId/bulky-pickups',
    {
      schema: {
        ...adminRoute,
        summary: 'A city’s bulky-waste pickup days with their bookings',
        description: `A bare array by day, closed days (capacity 0) too, each with its standing bookings sorted by address: the crew’s list. ${GROUPS}`,
        params: CityParams,
        querystring: StaffDaysQuery,
        response: { 200: Type.Array(AdminPickupDaySchema), ...guardErrors, 404: ErrorSchema },
      },
    },
    async (request) => adminPickupDays(app.db, adminAgentOf(request), request.params.cityId, request.query),
  );

  app.put(
    '/cities/:cityId/bulky-pickups/:date',
    {
      schema: {
        ...adminRoute,
        summary: 'Set one pickup day’s capacity',
        description: `\`0\` closes the day. Never below what is already booked: 409 \`pickupDayOverbooked\`. Answers the day. ${AUDITED} ${GROUPS}`,
        params: CityDayParams,
        body: CapacityBody,
        response: { 200: AdminPickupDaySchema, ...guardErrors, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) => {
      const { cityId, date } = request.params;
      const [day] = await setPickupCapacity(app.db, adminAgentOf(request), cityId, { days: { date }, capacity: request.body.capacity }, app.clock());
      return day;
    },
  );

  app.post(
    '/cities/:cityId/bulky-pickups',
    {
      schema: {
        ...adminRoute,
        summary: 'Set the capacity of many pickup days at once',
        description:
          'Every day from `from` to `to` that falls on one of `weekdays` (French names: `mardi`) gets `capacity`, in one ' +
          'transaction: a day that would drop below its bookings answers 409 naming it, and nothing changes. Answers the days of ' +
          `the range as they now are. ${AUDITED} ${GROUPS}`,
        params: CityParams,
        body: CapacitiesBody,
        response: { 200: Type.Array(AdminPickupDaySchema), ...guardErrors, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) => {
      const { from, to, weekdays, capacity } = request.body;
      return setPickupCapacity(app.db, adminAgentOf(request), request.params.cityId, { days: { from, to, weekdays }, capacity }, app.clock());
    },
  );
}
