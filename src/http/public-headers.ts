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
        });
      } else {
        callback(null, { origin: false });
      }
    },
  });

  // Headers suited to a JSON API: nothing here is meant to be framed, sniffed or run as a page,
  // except the human-readable docs, which load their own scripts and styles.
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
    if (!isApiPath(request.url)) {
      reply.header('content-security-policy', WEB_APP_CSP);
    } else if (!request.url.startsWith('/docs')) {
      reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
    }
    if (isPublic(request.url)) reply.header('cross-origin-resource-policy', 'cross-origin');
    return payload;
  });
}

export default fp(publicHeaders, { name: 'collecte-public-headers' });
