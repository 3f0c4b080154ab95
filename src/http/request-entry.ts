import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import { isPublicUrl, securityHeaders } from './public-headers.ts';
import { setRateHeaders, tooManyRequests, type RateVerdict } from './rate-limit.ts';
import { withTransportSecurity } from './transport-security.ts';

/**
 * The first hook of every request, and the only one a cached read meets. Every request gets its security (and, on
 * /public, CORS) headers; every /public request, matched route or not, is counted against its client IP's budget
 * (429 past it); then a GET or HEAD the response cache holds is answered at once, in one write of prebuilt headers
 * plus this request's rate-limit figures.
 *
 * One synchronous hook rather than one per concern: a small cached read costs about 10 µs in all at this machine's
 * limit, and each extra hook, promise or header written one by one is a measurable share of it. The count is
 * synchronous in memory; with Redis it is a round trip, and only then does the hook wait.
 */
async function requestEntry(app: FastifyInstance) {
  const limit = app.publicRateLimit;

  /** After the count: the 429, the cached answer, or the headers and the rest of the lifecycle. */
  const proceed = (request: FastifyRequest, reply: FastifyReply, verdict: RateVerdict | null, done: HookHandlerDoneFunction) => {
    // Past the limit, the 429 wins over a cached answer.
    if (!verdict?.exceeded && app.answerFromCache(request, reply, withTransportSecurity(request, verdict && verdict.headers))) return;
    reply.headers(securityHeaders(request.url));
    if (verdict) setRateHeaders(reply, verdict);
    done(verdict?.exceeded ? tooManyRequests(verdict) : undefined);
  };

  app.addHook('onRequest', (request, reply, done) => {
    // Only /public URLs are counted, and only they are ever cached.
    if (!isPublicUrl(request.url)) {
      reply.headers(securityHeaders(request.url));
      return done();
    }
    const verdict = limit ? limit(request) : null;
    // Not returned: a hook that answers a promise is taken for an async one.
    if (verdict instanceof Promise) void verdict.then((v) => proceed(request, reply, v, done), done);
    else proceed(request, reply, verdict, done);
  });
}

export default fp(requestEntry, {
  name: 'collecte-request-entry',
  dependencies: ['collecte-public-headers', 'collecte-rate-limits', 'collecte-conditional-responses'],
});
