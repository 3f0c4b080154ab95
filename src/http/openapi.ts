import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

/** Decisions the seed spec leaves open, stated where API users look for them. */
const DESCRIPTION = `Public API of Collecte: waste-collection information for French cities and their groups.

Conventions (see CONTRACT.md):
- Every optional field is always present; an unset value is \`null\`, an empty list \`[]\`.
- Errors are \`{statusCode, message, error}\` with a French \`message\` naming the faulty field.
- Identifiers are UUIDs; a malformed id in a path or query answers 400.
- Timestamps are ISO 8601 UTC with milliseconds.
- Ordering: by \`order\` where a resource has one, collection days Monday to Sunday, exceptions by \`dateFrom\`,
  waste-type details by \`material\`, everything else by \`name\` (French collation).`;

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Collecte — Public Waste-Collection Information API', version: '1.0', description: DESCRIPTION },
      tags: [
        { name: 'cities', description: 'Cities, city groups and their waste-collection data' },
        {
          name: 'calendar',
          description:
            'Extensions of the seed: collection dates of a place (JSON) and its subscribable iCalendar feed, computed in the city\'s time zone',
        },
        { name: 'operations', description: 'Health and readiness probes' },
        {
          name: 'console',
          description:
            'Not part of the public API: the city agents\' chat console under /chat (no CORS). Every route needs a console token ' +
            '(`Authorization: Bearer <JWT>`, HS256, minted by `npm run collecte -- console-token`) holding CHAT_CONVERSATIONS; ' +
            'an agent sees only the conversations of its token\'s `cityGroupIds` (others answer 404).',
        },
      ],
      components: {
        securitySchemes: {
          consoleToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Console token of a city agent' },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
