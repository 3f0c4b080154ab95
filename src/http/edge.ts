import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import audiences from './audience.ts';
import { registerErrorHandling } from './error-handler.ts';
import metrics from './metrics.ts';
import publicHeaders from './public-headers.ts';
import rateLimits from './rate-limit.ts';
import dataVersion from './data-version.ts';
import conditionalResponses from './conditional.ts';
import transportSecurity from './transport-security.ts';
import requestEntry from './request-entry.ts';
import draining from './draining.ts';

/**
 * The HTTP edge: every piece of hand-written HTTP machinery that stands between the network and the routes, in the
 * order it must run. Areas register routes only; nothing else adds a global hook. Every route declares its audience
 * (audience.ts) and the edge chooses by it, never by the URL; only a request no route answers is judged by its URL.
 *
 * What a request meets, in order (Fastify runs hooks of one kind in registration order):
 *
 * | step | hook | owner | does, reading |
 * |---|---|---|---|
 * | 0 | the server's request event | request-entry.ts | the early hits: a GET/HEAD of a raw URL step 3 already answered from the cache, while fresh, answered as step 3 would, before routing; else on to Fastify |
 * | 1 | onRoute (at start) | audience.ts | writes each route's audience into its config (its own, else its area's); none stops the start |
 * | 2 | onRoute (at start) | conditional.ts, metrics.ts | plans the cache key of each GET of audience public or docs from its declared parameters; each route's recorder for /metrics |
 * | 3 | onRequest | request-entry.ts | reads config.audience once: that audience's headers (public-headers.ts); counts a public request against the client IP (rate-limit.ts, 429 past it); answers a cached GET/HEAD at once (conditional.ts + response-cache.ts), 304 included. A cache hit ends here. |
 * | 4 | onRequest, preValidation | the route's own | e.g. the admin guard, the chat's per-device limit |
 * | 5 | validation | Fastify + Ajv | the contract's 400 with the French message naming the field (error-handler.ts) |
 * | 6 | preHandler | error-handler.ts | refuses NUL characters in declared fields before any database access |
 * | 7 | handler | the area | reads data-version.ts's version for its validator |
 * | 8 | onSend | conditional.ts | ETag / 304 and compression (a kept body's variants once; any other on the thread pool); Cache-Control and the cache for config.audience public |
 * | 9 | onSend | transport-security.ts | HSTS on HTTPS answers, after the cache stored its shared header lines |
 * | 10 | onResponse | metrics.ts | counts the answer by route and status |
 * | — | preClose | draining.ts | from the start of a close until the server has closed, closes each keep-alive connection as it turns idle |
 * | — | error handler | error-handler.ts | DomainError → its status and message; DatabaseUnavailable → the stale cached answer or 503; anything else → 500 without internals |
 *
 * The /public preflights (OPTIONS) are routes of public-headers.ts. Redis, when configured, is shared by the rate
 * limits (rate-windows.ts) and read through redis.ts; the data version is polled by data-version.ts.
 */
async function edge(app: FastifyInstance) {
  // First of the preClose hooks: the areas' own (the live feeds ending their streams) run after it.
  await app.register(draining);
  // First: every later onRoute hook, and every route (the edge's own /metrics too), is given its audience by it.
  await app.register(audiences);
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
