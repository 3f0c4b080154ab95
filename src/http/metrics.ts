import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { errors } from '../kernel/errors.ts';

/**
 * GET /metrics in the Prometheus text format (prom-client): requests by route and status, latency histograms, cache
 * hits, stale answers, pool usage, rate-limit refusals, the data version, and the process's own figures. With
 * METRICS_TOKEN set it needs `Authorization: Bearer <token>`.
 *
 * The hot paths only bump plain numbers (`app.metrics`) or a cached child of a metric: a cached read costs about ten
 * microseconds in all, and a label lookup per request would be a visible share of it. Gauges are read at scrape time.
 */

/** What the hot paths count; read by the collectors at scrape time. */
export interface HotCounters {
  cacheHits: number;
  staleAnswers: number;
}

/** Figures a plugin makes available to /metrics, read at scrape time. */
export interface MetricSources {
  cacheEntries?: () => number;
  cacheBytes?: () => number;
  redisAvailable?: () => boolean | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: HotCounters;
    metricSources: MetricSources;
  }
}

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

async function metrics(app: FastifyInstance) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'collecte_' });
  const hot: HotCounters = { cacheHits: 0, staleAnswers: 0 };
  const sources: MetricSources = {};
  app.decorate('metrics', hot);
  app.decorate('metricSources', sources);

  const requests = new Counter({
    name: 'collecte_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern (unmatched URLs: "unmatched") and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'collecte_http_request_duration_seconds',
    help: 'Time from the request to the end of the answer, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'collecte_rate_limit_refusals_total',
    help: 'Requests refused with 429, by limit (chat: the per-device chat rule; general: the per-IP limit)',
    labelNames: ['limit'] as const,
    registers: [registry],
  });
  new Counter({
    name: 'collecte_cache_hits_total',
    help: 'Public reads answered from the response cache',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(hot.cacheHits);
    },
  });
  new Counter({
    name: 'collecte_cache_stale_answers_total',
    help: 'Reads answered with a stale cached answer because the database was unavailable (stale-if-error)',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(hot.staleAnswers);
    },
  });
  new Gauge({
    name: 'collecte_cache_entries',
    help: 'Answers held by the response cache',
    registers: [registry],
    collect() {
      this.set(sources.cacheEntries?.() ?? 0);
    },
  });
  new Gauge({
    name: 'collecte_cache_bytes',
    help: 'Bytes of bodies and keys held by the response cache (bounded)',
    registers: [registry],
    collect() {
      this.set(sources.cacheBytes?.() ?? 0);
    },
  });
  new Gauge({
    name: 'collecte_db_pool_connections',
    help: 'PostgreSQL pool connections by state (total, idle; waiting: requests waiting for one); absent on PGlite',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const stats = app.database.poolStats?.();
      if (!stats) return;
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
  new Gauge({
    name: 'collecte_data_version',
    help: 'The data version this instance serves (moves with every change of public data)',
    registers: [registry],
    collect() {
      this.set(app.dataVersion.current);
    },
  });
  new Gauge({
    name: 'collecte_redis_available',
    help: '1 while rate-limit counters are shared through Redis, 0 while they fall back to memory; absent without Redis',
    registers: [registry],
    collect() {
      const available = sources.redisAvailable?.();
      if (available === undefined || available === null) return;
      this.set(available ? 1 : 0);
    },
  });

  /** Children of the request metrics, made once per label set. */
  const counted = new Map<string, { count: Counter.Internal; time: Histogram.Internal<'method' | 'route'> }>();
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    const key = `${request.method} ${status} ${route}`;
    let children = counted.get(key);
    if (!children) {
      children = {
        count: requests.labels(request.method, route, String(status)),
        time: latency.labels(request.method, route),
      };
      counted.set(key, children);
    }
    children.count.inc();
    children.time.observe(reply.elapsedTime / 1000);
    if (status === 429) refusals.inc({ limit: route.startsWith('/public/chat/') ? 'chat' : 'general' });
    done();
  });

  const token = app.config.metricsToken;
  const expected = token ? Buffer.from(`Bearer ${token}`) : null;
  app.get(
    '/metrics',
    {
      config: { audience: 'operations' },
      schema: {
        tags: ['operations'],
        summary: 'Prometheus metrics',
        description:
          'The Prometheus text format: requests by route and status, latency histograms, cache hits and stale answers, pool usage, ' +
          'rate-limit refusals, the data version, Redis availability, and the process’s own figures. ' +
          'With `METRICS_TOKEN` set, `Authorization: Bearer <METRICS_TOKEN>` is required (else 401).',
      },
    },
    async (request, reply) => {
      if (expected) {
        const given = Buffer.from(request.headers.authorization ?? '');
        if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw errors.unauthorized();
      }
      reply.header('cache-control', 'no-store').type(registry.contentType);
      return registry.metrics();
    },
  );
}

export default fp(metrics, { name: 'collecte-metrics' });
