import type { FastifyInstance } from 'fastify';
import { parentPath, parents, registerAdminResource } from '../admin/resource.ts';
import { adminService } from '../admin/store.ts';
import { requireAdminAgent } from '../auth/guard.ts';
import { ADMIN_PERMISSIONS } from '../auth/permissions.ts';
import { cityGroupStore } from './admin-city-groups.ts';
import { cityStore } from './admin-cities.ts';
import placeAdminRoutes from './admin-place-routes.ts';
import { wasteTypeDetailStore } from './admin-waste-type-details.ts';
import { wasteTypeStore } from './admin-waste-types.ts';
import { citySchemas, cityGroupSchemas, wasteTypeDetailSchemas } from './admin-schemas.ts';
import { wasteTypeSchemas } from './schemas.ts';
import { withDisplayName } from '../http/plugin-name.ts';

const PUBLISHED = 'Recorded in the audit log; the public city, calendars and recycling guide answer the change within a second.';
const STALE = 'With `If-Match`, 412 when it changed since it was read.';

/**
 * The cities area's admin routes (docs/api.md, the admin API): city groups for every agent (read) and super admins (write),
 * and, for agents holding CITIES, cities, waste types and their details, places with their days and attached locations.
 */
export default async function cityAdminRoutes(app: FastifyInstance) {
  await app.register(withDisplayName(cityGroupAdminRoutes));
  await app.register(withDisplayName(citiesAdminRoutes));
  await app.register(withDisplayName(placeAdminRoutes));
}

/** `/admin/city-groups`: every agent reads its own groups; only a super admin writes them. */
async function cityGroupAdminRoutes(app: FastifyInstance) {
  requireAdminAgent(app, ADMIN_PERMISSIONS);
  registerAdminResource(app, {
    path: '/city-groups',
    schemas: cityGroupSchemas,
    docs: {
      list: {
        summary: 'The agent’s city groups (every group for a super admin), by name',
        description: 'The listing envelope. Any admin permission reads the agent’s own groups.',
      },
      create: {
        summary: 'Create a city group (super admin)',
        description: `Super admins only (403 otherwise). A \`siret\` must start with the \`siren\` (the import bundle’s rule). ${PUBLISHED}`,
      },
      get: { summary: 'One city group, with its ETag', description: 'A group the agent does not hold answers 404, like an unknown one.' },
      update: {
        summary: 'Change a city group (partial; super admin, or its holiday rules)',
        description:
          'Super admins only (403 otherwise; 404 for a group the agent does not hold), but for a PATCH that changes ' +
          '`holidayRules` alone, which an agent of the group with the permission `CITIES` may send (docs/api.md, collections that move and service notices: ' +
          'the rules decide the group’s collections, as its places’ exceptions do). `holidayRules` replaces the whole ' +
          'list; each `wasteTypeId` must be a waste type of one of the group’s cities (400 naming `holidayRules[i].wasteTypeId`), ' +
          `and no two rules name the same holiday and waste type (400 naming \`holidayRules[i]\`). ${STALE} ${PUBLISHED}`,
      },
      remove: {
        summary: 'Delete an empty city group (super admin)',
        description:
          `Super admins only. ${STALE} A group that still holds cities, blog posts, sites or chat conversations answers 409 ` +
          `(the database would delete its posts and conversations with it): move or delete them first. ${PUBLISHED}`,
      },
    },
    deleteConflict: true,
    service: adminService(cityGroupStore),
  });
}

async function citiesAdminRoutes(app: FastifyInstance) {
  requireAdminAgent(app, 'CITIES');
  registerAdminResource(app, {
    path: '/cities',
    parent: parents.cityGroup,
    schemas: citySchemas,
    docs: {
      list: {
        summary: 'A city group’s cities, ACTIF or not, by name',
        description: 'The listing envelope; the city’s own fields with `status`, `timeZone` and `cityGroupId` (its children have their own paths). ' +
          'A group the agent does not hold answers 404.',
      },
      create: {
        summary: 'Create a city in a group',
        description: `Checked with the import bundle’s city rules (400 naming the field: an unknown \`timeZone\`). ${PUBLISHED}`,
      },
      get: { summary: 'One city, with its ETag', description: 'A city outside the agent’s groups answers 404, like an unknown one.' },
      update: {
        summary: 'Change a city (partial), or move it to another group',
        description:
          `${STALE} Checked with the import bundle’s city rules. \`cityGroupId\` moves the city: into a group the agent does not hold, ` +
          `404 as if the group were missing; a super admin moves it anywhere (an unknown group: 400) or out of every group (null). ${PUBLISHED}`,
      },
      remove: {
        summary: 'Delete an empty city',
        description:
          `${STALE} A city that still holds waste types, places, recycling points, quiz questions, challenges or chat conversations ` +
          `answers 409 (they would be deleted with it): delete them first, or hide the city with \`status\` NON_ACTIF. ${PUBLISHED}`,
      },
    },
    deleteConflict: true,
    service: adminService(cityStore),
  });

  registerAdminResource(app, {
    path: '/waste-types',
    parent: parents.city,
    schemas: wasteTypeSchemas,
    docs: {
      list: {
        summary: 'A city’s waste types with their details, by name',
        description: 'The listing envelope. A city outside the agent’s groups answers 404, like an unknown one.',
      },
      create: {
        summary: 'Create a waste type of a city',
        description: `Without details (materials: see /admin/waste-types/{wasteTypeId}/details). A city outside the agent’s groups answers 404. ${PUBLISHED}`,
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
    service: adminService(wasteTypeStore),
  });

  registerAdminResource(app, {
    path: '/waste-type-details',
    parent: parentPath('/waste-types', 'wasteTypeId', 'Waste type id', '/details'),
    schemas: wasteTypeDetailSchemas,
    docs: {
      list: {
        summary: 'A waste type’s details (materials), by material',
        description: 'The listing envelope. A waste type of a city outside the agent’s groups answers 404.',
      },
      create: { summary: 'Add a detail (material) to a waste type', description: `A waste type outside the agent’s groups answers 404. ${PUBLISHED}` },
      get: { summary: 'One waste-type detail, with its ETag', description: 'Outside the agent’s groups: 404, like an unknown one.' },
      update: { summary: 'Change a waste-type detail (partial)', description: `${STALE} ${PUBLISHED}` },
      remove: { summary: 'Delete a waste-type detail', description: `${STALE} ${PUBLISHED}` },
    },
    service: adminService(wasteTypeDetailStore),
  });
}
