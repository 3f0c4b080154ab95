import type { FastifyInstance } from 'fastify';
import { registerAdminResource } from '../auth/admin-resource.ts';
import { requireAdminAgent } from '../auth/guard.ts';
import * as wasteTypes from './admin-waste-types.ts';
import {
  AdminWasteTypeListSchema,
  AdminWasteTypeSchema,
  CityWasteTypesParams,
  CreateWasteTypeBody,
  PatchWasteTypeBody,
  WasteTypeIdParams,
} from './schemas.ts';

const PUBLISHED = 'Recorded in the audit log; the public city, calendars and recycling guide answer the change within a second.';

/** `/admin/cities/:cityId/waste-types` and `/admin/waste-types/:id` (CONTRACT section 13), for agents holding CITIES. */
export default async function cityAdminRoutes(app: FastifyInstance) {
  requireAdminAgent(app, 'CITIES');
  registerAdminResource(app, {
    path: '/waste-types',
    parentPath: '/cities/:cityId',
    parentParam: 'cityId',
    schemas: {
      parentParams: CityWasteTypesParams,
      idParams: WasteTypeIdParams,
      list: AdminWasteTypeListSchema,
      item: AdminWasteTypeSchema,
      create: CreateWasteTypeBody,
      patch: PatchWasteTypeBody,
    },
    docs: {
      list: {
        summary: 'A city’s waste types with their details, by name',
        description: 'The listing envelope. A city outside the agent’s groups answers 404, like an unknown one.',
      },
      create: {
        summary: 'Create a waste type of a city',
        description: `Without details (materials). A city outside the agent’s groups answers 404. ${PUBLISHED}`,
      },
      get: {
        summary: 'One waste type, with its ETag',
        description: 'A waste type of a city outside the agent’s groups answers 404, like an unknown one.',
      },
      update: {
        summary: 'Change a waste type (partial; its details are not changed here)',
        description: `With \`If-Match\`, 412 when the waste type changed since it was read. ${PUBLISHED}`,
      },
      remove: {
        summary: 'Delete a waste type and its details',
        description:
          'With `If-Match`, 412 when the waste type changed since it was read. A waste type still named by a collection day, an exception, ' +
          'a quiz question or a recycling point’s materials answers 409 (the database would delete them with it): change or delete those ' +
          `first. ${PUBLISHED}`,
      },
    },
    deleteConflict: true,
    record: (versioned: wasteTypes.VersionedWasteType) => versioned.wasteType,
    service: {
      list: wasteTypes.listWasteTypes,
      create: wasteTypes.createWasteType,
      get: wasteTypes.getWasteType,
      update: wasteTypes.updateWasteType,
      remove: wasteTypes.deleteWasteType,
    },
  });
}
