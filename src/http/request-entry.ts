import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import type { CachedResponse } from './response-cache.ts';
import type { AnswerRecorder } from './metrics.ts';
import { clientAddress } from './client-address.ts';
import { setRateHeaders, tooManyRequests, type RateVerdict } from './rate-limit.ts';
import { isHttps, withTransportSecurity } from './transport-security.ts';
import { isPublicUrl } from './url-space.ts';

/** A URL whose answers the response cache keeps, as the first hook learnt it: enough to answer it before the router. */
interface KnownUrl {
  /** Its cache key (conditional.ts: the route and the parameters it declares). */
  key: string;
  /** Whether its route's requests count against the general rate limit (audience public). */
  counted: boolean;
  /** Its route's figures in /metrics. */
  countAnswer: AnswerRecorder | undefined;
}

/**
 * How many bytes of raw URLs the early hits remember, at most; past it they forget them all and learn again from the
 * next requests (a crawler's walk through distinct URLs must not grow the process). URLs longer than the second bound
 * are never remembered.
 */
const KNOWN_URL_BYTES = 1024 * 1024;
const KNOWN_URL_MAX_LENGTH = 2048;

/**
 * Every request's entry: the early hits, then the first hook.
 *
 * **The first hook** (onRequest, the only hook a cached read meets). Every request gets the security (and, for the
 * public API, CORS) headers of its route's audience (audience.ts); every public request is counted against its
 * client IP's budget (429 past it); then a GET or HEAD the response cache holds is answered at once, in one write of
 * prebuilt headers plus this request's rate-limit figures. The API's documentation is answered from the cache too,
 * uncounted. A request no route answers (the not-found handler, whose context has no route config, or the web app's
 * catch-all, audience `fallback`) is judged by its URL instead: an unknown /public URL gets the public API's headers
 * and is counted. One synchronous hook rather than one per concern: each extra hook, promise or header written one by
 * one is a measurable share of a small cached read. The count is synchronous in memory; with Redis it is a round
 * trip, and only then does the hook wait.
 *
 * **The early hits**, before Fastify's router. Once the first hook has answered a raw URL from the cache, the URL's
 * cache key is known: a URL always reaches the same route with the same parameters (no route has a host or version
 * constraint). The next GET or HEAD of that exact URL, while its entry is fresh, is answered from the server's
 * `request` event, with what the first hook would have done: the count against the client's budget (the client read
 * as Fastify reads it: client-address.ts), HSTS on HTTPS, the same write (conditional.ts), the route's figures in
 * /metrics. Fastify's request, reply, routing and child logger are not made: a third of what such a read allocated,
 * and the young-generation collections that came with it. Anything else goes to Fastify as before: an unknown URL, an
 * entry gone stale, a 429 (its verdict handed over, so the request is not counted twice), the server closing (Fastify
 * answers 503). They are off when each request is logged (LOG_LEVEL info or below: Fastify's request log, with its
 * id, is not repeated here), without the response cache, and with `app.inject` (which calls Fastify directly).
 */
async function requestEntry(app: FastifyInstance) {
  const limit = app.publicRateLimit;
  const headers = app.edgeHeaders;

  /** Verdicts of requests the early hits counted and then gave to Fastify (a 429, an entry gone meanwhile). */
  const countedEarly = new WeakMap<IncomingMessage, RateVerdict>();
  const known = { GET: new Map<string, KnownUrl>(), HEAD: new Map<string, KnownUrl>() };
  let knownBytes = 0;
  const early = installEarlyHits();

  /** After the first hook answered a request from the cache: its raw URL, remembered for the early hits. */
  const remember = (request: FastifyRequest, config: FastifyContextConfig) => {
    const url = request.raw.url;
    const key = request.cacheKey;
    // An answer that depends on the Host is keyed by it too: not from the URL alone.
    if (!early || url === undefined || key === undefined || config.cacheByOrigin || url.length > KNOWN_URL_MAX_LENGTH) return;
    const urls = request.method === 'HEAD' ? known.HEAD : known.GET;
    if (urls.has(url)) return;
    if (knownBytes + url.length > KNOWN_URL_BYTES) {
      known.GET.clear();
      known.HEAD.clear();
      knownBytes = 0;
    }
    urls.set(url, { key, counted: config.audience === 'public', countAnswer: config.countAnswer });
    knownBytes += url.length;
  };

  /** After the count: the 429, the cached answer, or the headers and the rest of the lifecycle. */
  const proceed = (
    request: FastifyRequest,
    reply: FastifyReply,
    config: FastifyContextConfig,
    verdict: RateVerdict | null,
    done: HookHandlerDoneFunction,
  ) => {
    // Past the limit, the 429 wins over a cached answer.
    if (!verdict?.exceeded && app.answerFromCache(request, reply, config, withTransportSecurity(isHttps(request), verdict && verdict.headers))) {
      remember(request, config);
      return;
    }
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
        if (app.answerFromCache(request, reply, config, withTransportSecurity(isHttps(request), null))) {
          remember(request, config);
          return;
        }
        reply.headers(headers.byAudience[audience]);
        return done();
      }
      if (!isPublicUrl(request.url)) {
        reply.headers(headers.forUrl(request.url));
        return done();
      }
    }
    // Only public requests are counted, once: the early hits may have counted this one already.
    const verdict = countedEarly.get(request.raw) ?? (limit ? limit(request.ip) : null);
    // Not returned: a hook that answers a promise is taken for an async one.
    if (verdict instanceof Promise) void verdict.then((v) => proceed(request, reply, config, v, done), done);
    else proceed(request, reply, config, verdict, done);
  });

  /**
   * Puts the early hits in front of Fastify's handler of the server's `request` event; false, leaving the server as
   * it was, when they are off.
   */
  function installEarlyHits(): boolean {
    const server = app.server;
    const handlers = server.listeners('request') as ((request: IncomingMessage, response: ServerResponse) => void)[];
    const log = app.log as { isLevelEnabled?: (level: string) => boolean };
    const requestsLogged = log.isLevelEnabled?.('info') === true;
    if (!app.config.responseCache || requestsLogged || handlers.length !== 1) return false;
    const [fastify] = handlers;
    const client = clientAddress(app.config.trustProxy);
    let closing = false;
    app.addHook('preClose', (done) => {
      closing = true;
      done();
    });

    const write = (request: IncomingMessage, response: ServerResponse, url: KnownUrl, entry: CachedResponse, rate: string[] | null, start: number) => {
      app.writeCachedAnswer(request, response, entry, withTransportSecurity(client.isHttps(request), rate));
      url.countAnswer?.(request.method!, response.statusCode, (performance.now() - start) / 1000);
    };
    /** After the count: the answer (true), or Fastify with the verdict (the 429's, or an entry gone stale meanwhile). */
    const settle = (request: IncomingMessage, response: ServerResponse, url: KnownUrl, verdict: RateVerdict, entry: CachedResponse | undefined, start: number) => {
      if (!verdict.exceeded && entry !== undefined) {
        write(request, response, url, entry, verdict.headers, start);
        return true;
      }
      countedEarly.set(request, verdict);
      return false;
    };

    /** Answers a request here, or says it goes to Fastify; true too while its count waits on Redis. */
    const answer = (request: IncomingMessage, response: ServerResponse): boolean => {
      const method = request.method;
      const url = method === 'GET' ? known.GET.get(request.url!) : method === 'HEAD' ? known.HEAD.get(request.url!) : undefined;
      if (url === undefined || closing) return false;
      const entry = app.cachedAnswer(url.key);
      if (entry === undefined) return false;
      const start = performance.now();
      if (!url.counted || !limit) {
        write(request, response, url, entry, null, start);
        return true;
      }
      const verdict = limit(client.ip(request));
      if (!(verdict instanceof Promise)) return settle(request, response, url, verdict, entry, start);
      // The count waited on Redis: the entry is looked up again.
      verdict.then(
        (v) => guarded(request, response, () => settle(request, response, url, v, app.cachedAnswer(url.key), start)),
        () => fastify(request, response),
      );
      return true;
    };
    /**
     * Runs a step of the early answer so that a fault in it cannot take the process down (the server's event has no
     * Fastify around it): one that fails before writing anything leaves the request to Fastify, one that fails after
     * closes the connection.
     */
    const guarded = (request: IncomingMessage, response: ServerResponse, step: (request: IncomingMessage, response: ServerResponse) => boolean) => {
      let handled: boolean;
      try {
        handled = step(request, response);
      } catch (err) {
        app.log.error({ err }, 'a cached answer could not be written before the router');
        if (response.headersSent) response.destroy();
        handled = response.headersSent;
      }
      if (!handled) fastify(request, response);
    };

    server.removeListener('request', fastify);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => guarded(request, response, answer));
    return true;
  }
}

export default fp(requestEntry, {
  name: 'collecte-request-entry',
  dependencies: ['collecte-audiences', 'collecte-public-headers', 'collecte-rate-limits', 'collecte-conditional-responses', 'collecte-metrics'],
});
