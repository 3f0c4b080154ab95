import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import cors from '@fastify/cors';
import { isApiPath, WEB_APP_CSP } from '../web/paths.ts';

const isPublic = (url: string | undefined) => url !== undefined && (url === '/public' || url.startsWith('/public/') || url.startsWith('/public?'));

/**
 * CORS and security headers. /public is open to any origin (no credentials), errors included;
 * the console (/chat) and the rest are not part of the public CORS policy.
 */
async function publicHeaders(app: FastifyInstance) {
  await app.register(cors, {
    hook: 'onRequest',
    delegator: (request, callback) => {
      if (isPublic(request.url)) {
        callback(null, {
          origin: '*',
          credentials: false,
          methods: ['GET', 'HEAD', 'POST', 'PATCH', 'OPTIONS'],
          exposedHeaders: ['ETag', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'Content-Range', 'Accept-Ranges'],
          maxAge: 600,
          // A bare OPTIONS (no Origin or Access-Control-Request-Method) gets the CORS headers too, rather
          // than @fastify/cors's text/plain 400: every answer is JSON or empty.
          strictPreflight: false,
        });
      } else {
        callback(null, { origin: false });
      }
    },
  });

  app.addHook('onSend', async (request, reply, payload) => {
    reply.headers(securityHeaders(request.url));
    return payload;
  });
}

/**
 * Headers suited to a JSON API: nothing here is meant to be framed, sniffed or run as a page,
 * except the human-readable docs, which load their own scripts and styles.
 */
export function securityHeaders(url: string): Record<string, string> {
  const headers: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
  };
  if (!isApiPath(url)) headers['content-security-policy'] = WEB_APP_CSP;
  else if (!url.startsWith('/docs')) headers['content-security-policy'] = "default-src 'none'; frame-ancestors 'none'";
  if (isPublic(url)) headers['cross-origin-resource-policy'] = 'cross-origin';
  return headers;
}

/**
 * The headers of an answer written before any hook runs (a URL the router cannot even decode): the
 * security headers, and CORS on /public so that a browser can read the error.
 */
export function earlyErrorHeaders(url: string): Record<string, string> {
  return { ...securityHeaders(url), ...(isPublic(url) ? { 'access-control-allow-origin': '*' } : {}) };
}

export default fp(publicHeaders, { name: 'collecte-public-headers' });
