import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { forAudience } from './audience.ts';

/** Decisions the seed spec leaves open, stated where API users look for them. */
const DESCRIPTION = `Public API of Collecte: waste-collection information for French cities and their groups.

Conventions (docs/api.md in the repository says more):
- Every optional field is always present; an unset value is \`null\`, an empty list \`[]\`.
- Errors are \`{statusCode, message, error, code, field}\`: a French \`message\` naming the faulty field, \`code\` the stable
  camelCase name of the error kind (\`cityNotFound\`, \`validation\`, \`rateLimited\`, \`preconditionFailed\`…) and \`field\`
  the faulty field's JSON name or path (\`webPush.endpoint\`), or null. Clients read \`code\` and \`field\`, never the wording.
- Every operation has a unique camelCase \`operationId\` (verb, audience, resource: \`listCityRecyclingPoints\`,
  \`updateAdminException\`), for generated clients.
- Identifiers are UUIDs; a malformed id in a path or query answers 400.
- Timestamps are ISO 8601 UTC with milliseconds.
- Ordering: by \`order\` where a resource has one, collection days Monday to Sunday, exceptions by \`dateFrom\`,
  waste-type details by \`material\`, everything else by \`name\` (French collation).
- Rate limits: every /public response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset
  (Unix time in seconds); a 429 also carries Retry-After.
- Caching: GET answers carry a strong ETag (one per content coding) and honour If-None-Match with 304; public data
  carries \`Cache-Control: public, max-age=60\`. Time-dependent visibility (challenge windows, page publication) is
  judged at request time and may be served from the service's cache for up to 60 seconds, like any browser cache.
- Bodies over 100 KiB answer 413; unknown body fields are ignored; a JSON number sent as a string is a 400.`;

// The residents' requests have a back-office page of their own: with them the back office passed 140 operations.
// Bookings of bulky-waste pickups are requests: their days and the group's assignees go with them.
const aboutRequests = (path: string) =>
  /^\/admin\/(requests|request-types)(\/|$)|^\/admin\/city-groups\/[^/]+\/(request-types|request-agents)$|^\/admin\/cities\/[^/]+\/bulky-pickups(\/|$)/.test(path);
// What the city group publishes (news, sites and their pages and menus, media, frequently asked questions) has a
// back-office page of its own too: with the frequently asked questions, the back office passed 140 operations again.
const aboutContent = (path: string) =>
  /^\/admin\/(blog-posts|sites|pages|menus|menu-items|media|faq|content)(\/|$)|^\/admin\/city-groups\/[^/]+\/(blog-posts|sites|media|faq)$/.test(path);
// The partners' keys are the back office's, shown beside the interface they open.
const aboutOpen311 = (path: string) => path.startsWith('/open311/') || /^\/admin\/open311-keys(\/|$)/.test(path);

/** The pages of the API documentation, by their address: which paths of the document each shows (see below). */
export const DOCS_PAGES: Readonly<Record<string, (path: string) => boolean>> = {
  '/docs': (path) => !path.startsWith('/admin') && !aboutOpen311(path),
  '/docs/open311': aboutOpen311,
  '/docs/admin': (path) => (path.startsWith('/admin') || path.startsWith('/auth')) && !aboutRequests(path) && !aboutContent(path) && !aboutOpen311(path),
  '/docs/admin-requests': aboutRequests,
  '/docs/admin-content': aboutContent,
};

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    // A schema with an `$id` (`City`, `Error`…) is named by it under components.schemas, so that a generated client
    // reads `components['schemas']['City']` rather than `def-3`.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
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
        {
          name: 'recycling',
          description:
            'Recycling points with their opening state now (OpenStreetMap `opening_hours` specs, French public holidays), ' +
            'materials and distance; and the open-data exports: GeoJSON with OSM tags, the SCDL « équipements » CSV. ' +
            'The calendar\'s CSV export is under calendar. GET /public/cities keeps the seed\'s RecyclingPoint unchanged.',
        },
        {
          name: 'guide',
          description:
            'The sorting guide: « où jeter ? » searched on the server over a city\'s materials, their synonyms, its quiz ' +
            'materials and its waste types, ranked and forgiving (accents, plurals, word order, typos). Each search is counted ' +
            'per day, city and normalised query, with nothing that identifies the citizen.',
        },
        {
          name: 'challenges',
          description:
            'Quiz challenges with badges. Completing again keeps the best score (an equal score does not move completedAt); ' +
            'a prerequisite counts as met once this device completed the required challenge, even if it has since ended.',
        },
        { name: 'blog', description: 'News of a city group, in MDX (Markdown with :::tip, :::warning and :::info callouts)' },
        {
          name: 'cms',
          description:
            'Sites and apps of a city group: pages (served once publishedAt <= now), menus (items linking to an unpublished ' +
            'page are left out with their children). Listings use the envelope {data, meta: {page, pageSize, total, totalPages}}.',
        },
        {
          name: 'media',
          description:
            'Public media files: metadata, bytes (Range, If-None-Match) and thumbnails (longest side at most 320 px). ' +
            'Unknown and private media answer the same 404.',
        },
        {
          name: 'chat',
          description:
            'The anonymous citizen chat assistant, where the city group has the module enabled. Conversation creation and ' +
            'message sending share a limit of 20 requests per minute per deviceId (X-RateLimit-* headers describe it).',
        },
        {
          name: 'reminders',
          description:
            'Reminders the evening before each collection, by Web Push (VAPID, aes128gcm) or by e-mail with double opt-in ' +
            '(docs/api.md, reminders). Subscriptions belong to a deviceId; e-mails carry signed confirmation and one-click ' +
            'unsubscribe links (RFC 8058).',
        },
        {
          name: 'notices',
          description:
            'Service notices of a city group in force now (docs/api.md, collections that move and service notices): a strike, a closed road, a change of rounds, for the ' +
            'whole group, some cities or some collection places. Agents write them under /admin/notices.',
        },
        {
          name: 'faq',
          description:
            'The questions residents ask a city group, with their answers, in the order its agents chose (docs/api.md, frequently asked ' +
            'questions). Agents holding CMS write them under /admin/city-groups/{cityGroupId}/faq.',
        },
        {
          name: 'requests',
          description:
            'Resident requests (docs/api.md, resident requests): a missed bin, a broken or stolen one, a full container, illegal ' +
            'dumping, filed with the type’s rules from a city group’s catalogue and followed by the device that filed it. Agents ' +
            'holding REQUESTS handle them under /admin/requests.',
        },
        {
          name: 'open311',
          description:
            'Open311 GeoReport v2 (http://wiki.open311.org/GeoReport_v2) for the city groups’ partners (docs/api.md, Open311), under ' +
            '/open311/v2 in JSON (`.json`) and XML (`.xml`): discovery, the services (a group’s request types), their definitions, ' +
            'requests filed with a partner’s API key (a form) and listed without anything personal. `jurisdiction_id` is a city ' +
            'group’s SIREN. Failures are always the standard’s `[{code, description}]` (`<errors><error>…` in XML), never the ' +
            'error body of the rest of the API. Keys are made by a super admin at /admin/open311-keys.',
        },
        { name: 'operations', description: 'Health and readiness probes' },
        {
          name: 'console',
          description:
            'Not part of the public API: the city agents\' chat console under /chat (no CORS). Every route needs a console token ' +
            '(`Authorization: Bearer <JWT>`, HS256, minted by `npm run collecte -- console-token`) holding CHAT_CONVERSATIONS; ' +
            'an agent sees only the conversations of its token\'s `cityGroupIds` (others answer 404).',
        },
        {
          name: 'auth',
          description:
            'Agents\' login under /auth (no CORS, never cached: `Cache-Control: no-store`). `POST /auth/login` answers an access token, the ' +
            'console JWT of the console tag (HS256 with CONSOLE_JWT_SECRET, 15 minutes), whose claims are `sub` (the account id), `name`, ' +
            '`permissions`, `cityGroupIds`, `account: true` and, for a super admin only, `superAdmin: true`. Every /admin and /chat request ' +
            'is judged on the account as it now is, not on the claims: a deactivated or deleted account answers 401 at once, a permission ' +
            'or group taken away is gone from the next request on (/chat ignores `superAdmin`: a super admin uses it with CHAT_CONVERSATIONS ' +
            'and the groups of its account). The refresh token lives in an HttpOnly cookie ' +
            'limited to /auth and rotates on every refresh; a reused one revokes the whole session.',
        },
        {
          name: 'admin',
          description:
            'The back office under /admin: every route needs an access token (`Authorization: Bearer`, from POST /auth/login; 401 without ' +
            'or expired) holding the route\'s permission (403 without; a super admin holds them all). A record outside the agent\'s city ' +
            'groups answers 404, as if missing. A read of one record carries an `ETag`; every PATCH and DELETE must send it back as `If-Match` ' +
            '(428 `preconditionRequired` without it, 412 `preconditionFailed` when it no longer matches; `*` for whatever version is there). ' +
            'The account behind the token is read at every request: deactivated or deleted, 401 at once. Every write is recorded in the audit log. Answers carry `Cache-Control: no-store`.',
        },
      ],
      components: {
        securitySchemes: {
          consoleToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Console token of a city agent' },
          accessToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Access token of an agent\'s account (POST /auth/login)' },
          refreshCookie: { type: 'apiKey', in: 'cookie', name: 'collecte_refresh', description: 'Refresh token set by POST /auth/login' },
        },
      },
    },
  });
  // BaseLayout: the page without Swagger's top bar, whose logo is an SVG carrying an inline <style> that the docs'
  // Content-Security-Policy (public-headers.ts, no 'unsafe-inline') refuses; the bar's "explore" box has no use here.
  //
  // Five pages, one document: /docs shows the public API (with the console, login and probes), /docs/admin the back
  // office, /docs/admin-requests the back office of residents' requests and bulky-waste pickups, /docs/admin-content
  // that of what the group publishes, /docs/open311 the partners' Open311 interface with its keys. Swagger UI 5 stops drawing operations past about 140 in one page (no error: the page shows the first
  // tags and nothing more), and the back office alone has over 100; /openapi.json stays the whole document.
  const page = (routePrefix: string, keep: (path: string) => boolean) =>
    app.register(
      forAudience('docs', async (scope) => {
        await scope.register(swaggerUi, {
          routePrefix,
          uiConfig: { deepLinking: true, layout: 'BaseLayout' },
          transformSpecification: (spec) => {
            const whole = spec as { paths?: Record<string, unknown> };
            return { ...whole, paths: Object.fromEntries(Object.entries(whole.paths ?? {}).filter(([path]) => keep(path))) };
          },
        });
      }),
    );
  for (const [routePrefix, keep] of Object.entries(DOCS_PAGES)) await page(routePrefix, keep);
  app.get('/openapi.json', { schema: { hide: true }, config: { audience: 'docs' } }, async () => app.swagger());
}
