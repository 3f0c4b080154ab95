import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Audience } from './audience.ts';
import { isApiPath, isPublicUrl, tileOrigin, webAppCsp } from './url-space.ts';

const SECURITY = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};
const API_CSP = "default-src 'none'; frame-ancestors 'none'";
/**
 * The API documentation (Swagger UI, @fastify/swagger-ui): its bundled scripts and styles, all served from /docs/static
 * (no inline script or style element), the document from /docs/json, icons as data: URLs, and "Try it out"
 * requests to this origin only.
 */
const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * CORS of the public API: any origin, no credentials (the seed's API is anonymous), on every answer, errors
 * included. The console (/chat) and everything else are outside this policy.
 */
const PUBLIC_CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'ETag, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Content-Range, Accept-Ranges, Link',
};
const PREFLIGHT = {
  'access-control-allow-methods': 'GET, HEAD, POST, PATCH, DELETE, OPTIONS',
  'access-control-max-age': '600',
};

/** The headers of routed answers by audience, and of unrouted ones by URL: built once per app, a request only picks its set. */
export interface EdgeHeaders {
  /**
   * The headers of a routed answer, by its route's audience. Headers suited to a JSON API: nothing here is meant to be
   * framed, sniffed or run as a page, except the human-readable docs and the web app, each under a policy of its own;
   * CORS on the public API.
   */
  readonly byAudience: Readonly<Record<Exclude<Audience, 'fallback'>, Record<string, string>>>;
  /**
   * The headers of an answer to a URL no route answers (a 404, the web app's catch-all), by the space the URL falls
   * in. Also used for answers written before any hook runs (a URL the router cannot decode), so that a browser can
   * read those errors too.
   */
  forUrl(url: string): Record<string, string>;
}

declare module 'fastify' {
  interface FastifyInstance {
    edgeHeaders: EdgeHeaders;
  }
}

/** The header sets of a deployment: only the web app's CSP depends on its configuration (the map's tile server, if any). */
export function edgeHeaders(mapTileUrl: string | null): EdgeHeaders {
  const sets = {
    public: { ...SECURITY, 'content-security-policy': API_CSP, 'cross-origin-resource-policy': 'cross-origin', ...PUBLIC_CORS },
    api: { ...SECURITY, 'content-security-policy': API_CSP },
    docs: { ...SECURITY, 'content-security-policy': DOCS_CSP },
    webApp: { ...SECURITY, 'content-security-policy': webAppCsp(tileOrigin(mapTileUrl)) },
  };
  return {
    byAudience: { public: sets.public, admin: sets.api, agent: sets.api, operations: sets.api, docs: sets.docs, web: sets.webApp },
    forUrl(url) {
      if (isPublicUrl(url)) return sets.public;
      if (url.startsWith('/docs')) return sets.docs;
      return isApiPath(url) ? sets.api : sets.webApp;
    },
  };
}

/**
 * The app's header sets (`app.edgeHeaders`), and the preflights of the public API. The headers of every other answer
 * are set as each request arrives (request-entry.ts), so that every answer, errors included, carries them.
 */
async function publicHeaders(app: FastifyInstance) {
  app.decorate('edgeHeaders', edgeHeaders(app.config.mapTiles?.url ?? null));
  // Preflights of the public API. A bare OPTIONS (no Origin, no Access-Control-Request-Method) gets the same
  // empty 204: every answer is JSON or empty.
  for (const url of ['/public', '/public/*']) {
    app.options(url, { schema: { hide: true }, config: { audience: 'public' } }, (request, reply) => {
      const asked = request.headers['access-control-request-headers'];
      reply.headers(PREFLIGHT);
      reply.header('access-control-allow-headers', typeof asked === 'string' && asked ? asked : 'Content-Type, If-None-Match, Range');
      reply.code(204).send();
    });
  }
}

export default fp(publicHeaders, { name: 'collecte-public-headers' });
