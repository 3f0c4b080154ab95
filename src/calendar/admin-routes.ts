import type { FastifyInstance } from 'fastify';
import { registerAdminResource } from '../auth/admin-resource.ts';
import { requireAdminAgent } from '../auth/guard.ts';
import * as exceptions from './admin-exceptions.ts';
import {
  AdminExceptionListSchema,
  AdminExceptionSchema,
  CreateExceptionBody,
  ExceptionIdParams,
  PatchExceptionBody,
  PlaceIdParams,
} from './schemas.ts';

const WRITE_NOTE =
  'Checked with the import bundle’s rules (400 naming the field: `dateTo` before `dateFrom`, a waste type of another city). ' +
  'Recorded in the audit log; the public calendars, ICS and city answer the change within a second.';

/** `/admin/places/:placeId/exceptions` and `/admin/exceptions/:id` (CONTRACT section 13), for agents holding CITIES. */
export default async function calendarAdminRoutes(app: FastifyInstance) {
  requireAdminAgent(app, 'CITIES');
  registerAdminResource(app, {
    path: '/exceptions',
    parentPath: '/places/:placeId',
    parentParam: 'placeId',
    schemas: {
      parentParams: PlaceIdParams,
      idParams: ExceptionIdParams,
      list: AdminExceptionListSchema,
      item: AdminExceptionSchema,
      create: CreateExceptionBody,
      patch: PatchExceptionBody,
    },
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
    record: (versioned: exceptions.VersionedException) => versioned.exception,
    service: {
      list: exceptions.listExceptions,
      create: exceptions.createException,
      get: exceptions.getException,
      update: exceptions.updateException,
      remove: exceptions.deleteException,
    },
  });
}
