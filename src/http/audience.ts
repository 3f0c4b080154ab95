import { withDisplayName } from './plugin-name.ts';
import type { FastifyInstance, FastifyPluginAsync, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Whom a route answers. The edge chooses a request's security and CORS headers, whether the general rate limit counts
 * it, its Cache-Control and whether the response cache keeps it by its route's audience, never by its URL:
 *
 * - `public`: the citizens' API under /public (CORS for any origin, counted per client IP, cached until data changes);
 * - `admin`: the back office under /admin;
 * - `agent`: the agents' chat console (/chat) and their login (/auth);
 * - `operations`: the probes and metrics (/health, /ready, /metrics);
 * - `docs`: the API's documentation pages and their files (/docs) and the OpenAPI document (/openapi.json);
 * - `web`: the web apps' files and pages;
 * - `fallback`: a catch-all that answers the paths no other route does (the web app's client-side routes and its
 *   404s). Its requests are treated as a URL no route answers at all: by the space the URL falls in (url-space.ts),
 *   so that an unknown /public URL keeps the public API's headers and counts against its budget.
 *
 * Every route has one: a route registered without it stops the application at start-up (`routeWithoutAudience`).
 */
export const AUDIENCES = ['public', 'admin', 'agent', 'operations', 'docs', 'web', 'fallback'] as const;
export type Audience = (typeof AUDIENCES)[number];

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Whom the route answers (src/http/audience.ts). Set on the route, or by `forAudience` for every route of an
     * area; the edge reads it from `request.routeOptions.config`. Absent only on the not-found handler.
     */
    audience?: Audience;
  }
  interface FastifyInstance {
    /** The audience `forAudience` gave this scope's routes. */
    routeAudience?: Audience;
  }
}

/** The start-up failure of a route that says nobody it answers, or an audience that does not exist. */
export function routeWithoutAudience(route: Pick<RouteOptions, 'method' | 'url'>, given: unknown): Error {
  const methods = Array.isArray(route.method) ? route.method.join(',') : route.method;
  const what = given === undefined ? 'declares no audience' : `declares an unknown audience ${JSON.stringify(given)}`;
  return new Error(
    `${methods} ${route.url} ${what}: set config.audience on the route to one of ${AUDIENCES.join(', ')}, ` +
      'or register its plugin with forAudience (src/http/audience.ts)',
  );
}

/**
 * `routes` as a plugin whose every route answers `audience`, unless a route declares its own: how app.ts mounts each
 * area. The scope is encapsulated: the audience reaches this plugin's routes and no one else's.
 */
export function forAudience<Options extends Record<string, unknown>>(
  audience: Audience,
  routes: FastifyPluginAsync<Options>,
): FastifyPluginAsync<Options> {
  const plugin: FastifyPluginAsync<Options> = async (scope, options) => {
    scope.decorate('routeAudience', audience);
    // The prefix was this scope's to take: given again, it would be added twice.
    const { prefix: _prefix, ...rest } = options as Options & { prefix?: string };
    await scope.register(routes, rest as Options);
  };
  Object.defineProperty(plugin, 'name', { value: `${routes.name || 'routes'} (${audience})` });
  withDisplayName(routes);
  return withDisplayName(plugin);
}


const KNOWN = new Set<unknown>(AUDIENCES);

/**
 * Gives every route its audience as it is registered: its own `config.audience`, else its scope's (`forAudience`).
 * Registered first by the edge, so that every later onRoute hook (the response cache's plan) reads it.
 */
async function audiences(app: FastifyInstance) {
  app.addHook('onRoute', function (this: FastifyInstance, route) {
    const audience = route.config?.audience ?? this.routeAudience;
    if (!KNOWN.has(audience)) throw routeWithoutAudience(route, audience);
    if (route.config?.audience !== audience) route.config = { ...route.config, audience };
  });
}

export default fp(audiences, { name: 'collecte-audiences' });
