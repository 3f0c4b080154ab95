import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import { setRateHeaders, tooManyRequests, type RateVerdict } from './rate-limit.ts';
import { withTransportSecurity } from './transport-security.ts';
import { isPublicUrl } from './url-space.ts';

/**
 * The first hook of every request, and the only one a cached read meets. Every request gets the security (and, for
 * the public API, CORS) headers of its route's audience (audience.ts); every public request is counted against its
 * client IP's budget (429 past it); then a GET or HEAD the response cache holds is answered at once, in one write of
 * prebuilt headers plus this request's rate-limit figures. The API's documentation is answered from the cache too,
 * uncounted.
 *
 * A request no route answers (the not-found handler, whose context has no route config, or the web app's catch-all,
 * audience `fallback`) is judged by its URL instead, as it always was: an unknown /public URL gets the public API's
 * headers and is counted.
 *
 * One synchronous hook rather than one per concern: a small cached read costs about 10 µs in all at this machine's
 * limit, and each extra hook, promise or header written one by one is a measurable share of it. The count is
 * synchronous in memory; with Redis it is a round trip, and only then does the hook wait.
 */
async function requestEntry(app: FastifyInstance) {
  const limit = app.publicRateLimit;
  const headers = app.edgeHeaders;

  /** After the count: the 429, the cached answer, or the headers and the rest of the lifecycle. */
  const proceed = (
    request: FastifyRequest,
    reply: FastifyReply,
    config: FastifyContextConfig,
    verdict: RateVerdict | null,
    done: HookHandlerDoneFunction,
  ) => {
    // Past the limit, the 429 wins over a cached answer.
    if (!verdict?.exceeded && app.answerFromCache(request, reply, config, withTransportSecurity(request, verdict && verdict.headers))) return;
    reply.headers(headers.byAudience.public);
    if (verdict) setRateHeaders(reply, verdict);
    done(verdict?.exceeded ? tooManyRequests(verdict) : undefined);
  };

  app.addHook('onRequest', (request, reply, done) => {
    // Read once: Fastify builds routeOptions anew at each access.
    const config = request.routeOptions.config;
    const audience = config.audience ?? 'fallback';
    if (audience !== 'public') {
      if (audience !== 'fallback') {
        // What else the response cache keeps (the documentation: conditional.ts says which routes) is not counted.
        if (app.answerFromCache(request, reply, config, withTransportSecurity(request, null))) return;
        reply.headers(headers.byAudience[audience]);
        return done();
      }
      if (!isPublicUrl(request.url)) {
        reply.headers(headers.forUrl(request.url));
        return done();
      }
    }
    // Only public requests are counted.
    const verdict = limit ? limit(request) : null;
    // Not returned: a hook that answers a promise is taken for an async one.
    if (verdict instanceof Promise) void verdict.then((v) => proceed(request, reply, config, v, done), done);
    else proceed(request, reply, config, verdict, done);
  });
}

export default fp(requestEntry, {
  name: 'collecte-request-entry',
  dependencies: ['collecte-audiences', 'collecte-public-headers', 'collecte-rate-limits', 'collecte-conditional-responses'],
});
