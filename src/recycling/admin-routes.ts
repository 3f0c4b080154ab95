import type { FastifyInstance } from 'fastify';
import { parents, registerAdminResource } from '../admin/resource.ts';
import { adminService } from '../admin/store.ts';
import { requireAdminAgent } from '../auth/guard.ts';
import { recyclingPointStore } from './admin-points.ts';
import { recyclingPointSchemas } from './schemas.ts';

const PUBLISHED =
  'Recorded in the audit log; the public recycling points, their open-data exports (GeoJSON, SCDL CSV), the city and the ' +
  'sorting guide answer the change within a second.';
const CHECKED =
  'Checked with the import bundle’s rules (400 with a French message naming the field): `openingHoursSpec` must parse as ' +
  'OpenStreetMap `opening_hours`, `materials` are waste types of the same city, each once. A point keeps its city.';

/** `/admin/cities/:cityId/recycling-points` and `/admin/recycling-points/:id` (docs/api.md, the admin API; recycling points and open data), for agents holding CITIES. */
export default async function recyclingAdminRoutes(app: FastifyInstance) {
  requireAdminAgent(app, 'CITIES');
  registerAdminResource(app, {
    path: '/recycling-points',
    parent: parents.city,
    schemas: recyclingPointSchemas,
    docs: {
      list: {
        summary: 'A city’s recycling points with their kind, spec and materials, by name',
        description: 'Needs CITIES. The listing envelope. A city outside the agent’s groups answers 404, like an unknown one.',
      },
      create: {
        summary: 'Create a recycling point of a city',
        description: `Needs CITIES. ${CHECKED} A city outside the agent’s groups answers 404. ${PUBLISHED}`,
      },
      get: {
        summary: 'One recycling point, with its ETag',
        description: 'Needs CITIES. A point of a city outside the agent’s groups answers 404, like an unknown one.',
      },
      update: {
        summary: 'Change a recycling point (partial; `materials` replaces the whole list)',
        description: `Needs CITIES. With \`If-Match\`, 412 when the point changed since it was read. ${CHECKED} ${PUBLISHED}`,
      },
      remove: {
        summary: 'Delete a recycling point',
        description: `Needs CITIES. With \`If-Match\`, 412 when the point changed since it was read. ${PUBLISHED}`,
      },
    },
    service: adminService(recyclingPointStore),
  });
}
