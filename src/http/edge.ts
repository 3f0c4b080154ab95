import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { registerErrorHandling } from './error-handler.ts';
import metrics from './metrics.ts';
import publicHeaders from './public-headers.ts';
import rateLimits from './rate-limit.ts';
import dataVersion from './data-version.ts';
import conditionalResponses from './conditional.ts';
import transportSecurity from './transport-security.ts';
import requestEntry from './request-entry.ts';

/**
 * The HTTP edge: every piece of hand-written HTTP machinery that stands between the network and the routes, in the
 * order it must run. Areas register routes only; nothing else adds a global hook.
 *
 * What a request meets, in order (Fastify runs hooks of one kind in registration order):
 *
 * | step | hook | owner | does |
 * |---|---|---|---|
 * | 1 | onRoute (at start) | conditional.ts | plans each cacheable GET's cache key from its declared parameters |
 * | 2 | onRequest | request-entry.ts | security and CORS headers (public-headers.ts); counts /public against the client IP (rate-limit.ts, 429 past it); answers a cached GET/HEAD at once (conditional.ts + response-cache.ts), 304 included. A cache hit ends here. |
 * | 3 | onRequest, preValidation | the route's own | e.g. the chat's per-device limit |
 * | 4 | validation | Fastify + Ajv | the contract's 400 with the French message naming the field (error-handler.ts) |
 * | 5 | preHandler | error-handler.ts | refuses NUL characters in declared fields before any database access |
 * | 6 | handler | the area | reads data-version.ts's version for its validator |
 * | 7 | onSend | conditional.ts | ETag / Last-Modified / 304; stores a public GET's answer in the cache |
 * | 8 | onSend | transport-security.ts | HSTS on HTTPS answers, after the cache stored its shared header lines |
 * | 9 | onResponse | metrics.ts | counts the answer by route and status |
 * | — | error handler | error-handler.ts | DomainError → its status and message; DatabaseUnavailable → the stale cached answer or 503; anything else → 500 without internals |
 *
 * The /public preflights (OPTIONS) are routes of public-headers.ts. Redis, when configured, is shared by the rate
 * limits (rate-windows.ts) and read through redis.ts; the data version is polled by data-version.ts.
 */
async function edge(app: FastifyInstance) {
  registerErrorHandling(app);
  await app.register(metrics);
  await app.register(publicHeaders);
  await app.register(rateLimits);
  await app.register(dataVersion);
  await app.register(conditionalResponses);
  await app.register(transportSecurity);
  await app.register(requestEntry);
}

export default fp(edge, { name: 'collecte-edge' });
