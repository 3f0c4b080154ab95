import type { FastifyInstance } from 'fastify';
import { parents, registerAdminResource } from '../admin/resource.ts';
import { adminService } from '../admin/store.ts';
import { requireAdminAgent } from '../auth/guard.ts';
import { attachedLocationStore, collectionDayStore, placeStore } from './admin-places.ts';
import { streetRuleStore } from './admin-streets.ts';
import { attachedLocationSchemas, collectionDaySchemas, placeSchemas, streetRuleSchemas } from './admin-schemas.ts';

const PUBLISHED = 'Recorded in the audit log; the public city, calendars and ICS answer the change within a second.';
const STALE = 'With `If-Match`, 412 when it changed since it was read.';
const OUTSIDE = 'Outside the agent’s groups: 404, like an unknown one.';

/**
 * `/admin/cities/:cityId/places`, `/admin/places/:id`, and a place's collection days, attached locations and streets (docs/api.md, the admin API), for agents holding CITIES. Exceptions and the preview are the calendar area's (src/calendar).
 */
export default async function placeAdminRoutes(app: FastifyInstance) {
  requireAdminAgent(app, 'CITIES');
  registerAdminResource(app, {
    path: '/places',
    parent: parents.city,
    schemas: placeSchemas,
    docs: {
      list: {
        summary: 'A city’s collection places (sectors), by name, with their days, exceptions and attached locations',
        description: `The listing envelope. A city outside the agent’s groups answers 404.`,
      },
      create: { summary: 'Create a collection place of a city', description: `A city outside the agent’s groups answers 404. ${PUBLISHED}` },
      get: { summary: 'One collection place, with its ETag, streets and area', description: OUTSIDE },
      update: {
        summary: 'Rename a collection place or set its area',
        description:
          '`area`: a GeoJSON Polygon or MultiPolygon (WGS 84, [longitude, latitude]) or null, checked with the import bundle’s rules ' +
          `(400 naming the field: \`area.coordinates[0]\` not closed or under 4 positions, a longitude or latitude out of range, another type). ${STALE} ${PUBLISHED}`,
      },
      remove: {
        summary: 'Delete a collection place with its days, exceptions and attached locations',
        description: `${STALE} Chat conversations set at the place keep their city and lose the place. ${PUBLISHED}`,
      },
    },
    service: adminService(placeStore),
  });

  registerAdminResource(app, {
    path: '/collection-days',
    parent: parents.place,
    schemas: collectionDaySchemas,
    docs: {
      list: {
        summary: 'A place’s collection days, Monday to Sunday',
        description: 'The listing envelope, in the public order (weekday, then waste type name). A place outside the agent’s groups answers 404.',
      },
      create: {
        summary: 'Add a collection day to a place',
        description:
          'Checked with the import bundle’s rules (400 naming the field: a waste type of another city, a biweekly day without `startDate`). ' +
          `A place outside the agent’s groups answers 404. ${PUBLISHED}`,
      },
      get: { summary: 'One collection day, with its ETag', description: OUTSIDE },
      update: { summary: 'Change a collection day (partial)', description: `${STALE} Checked with the import bundle’s rules. ${PUBLISHED}` },
      remove: { summary: 'Delete a collection day', description: `${STALE} ${PUBLISHED}` },
    },
    service: adminService(collectionDayStore),
  });

  registerAdminResource(app, {
    path: '/attached-locations',
    parent: parents.place,
    schemas: attachedLocationSchemas,
    docs: {
      list: { summary: 'A place’s attached locations (residences, buildings), by name', description: 'The listing envelope. ' + OUTSIDE },
      create: { summary: 'Attach a named location to a place', description: `A place outside the agent’s groups answers 404. ${PUBLISHED}` },
      get: { summary: 'One attached location, with its ETag', description: OUTSIDE },
      update: { summary: 'Change an attached location (partial)', description: `${STALE} ${PUBLISHED}` },
      remove: { summary: 'Delete an attached location', description: `${STALE} ${PUBLISHED}` },
    },
    service: adminService(attachedLocationStore),
  });

  const STREET_RULES =
    'Checked with the import bundle’s rules (400 naming the field): numbers from 1, `toNumber` not below `fromNumber`, and no ' +
    'overlap with a rule of the same street (case, accents, hyphens and apostrophes aside) on another place of the city, ' +
    'the message naming that rule and its place; concurrent writes of one city are serialised, so two cannot both pass.';
  registerAdminResource(app, {
    path: '/streets',
    parent: parents.place,
    schemas: streetRuleSchemas,
    docs: {
      list: { summary: 'A place’s street rules, by street then first number', description: 'The listing envelope. ' + OUTSIDE },
      create: {
        summary: 'Add a street rule to a place (a street, a number range, a side)',
        description: `${STREET_RULES} A place outside the agent’s groups answers 404. ${PUBLISHED}`,
      },
      get: { summary: 'One street rule, with its ETag', description: OUTSIDE },
      update: { summary: 'Change a street rule (partial)', description: `${STALE} ${STREET_RULES} ${PUBLISHED}` },
      remove: { summary: 'Delete a street rule', description: `${STALE} ${PUBLISHED}` },
    },
    service: adminService(streetRuleStore),
  });
}
