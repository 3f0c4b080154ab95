import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { errors } from '../kernel/errors.ts';

/**
 * GET /metrics in the Prometheus text format (prom-client): requests by route and status, latency histograms, cache
 * hits, stale answers, pool usage, rate-limit refusals, the data version, and the process's own figures. With
 * METRICS_TOKEN set it needs `Authorization: Bearer <token>`.
 *
 * The hot paths only bump plain numbers (`app.metrics`, each route's own figures): a cached read costs about ten
 * microseconds in all, and a label lookup per request would be a visible share of it. Everything else (counters from
 * those numbers, gauges, the latency histogram's text) is made at scrape time.
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

/** Counts one answer of a route: its method, status and time in seconds from the request to the end of the answer. */
export type AnswerRecorder = (method: string, status: number, seconds: number) => void;

declare module 'fastify' {
  interface FastifyInstance {
    metrics: HotCounters;
    metricSources: MetricSources;
  }
  interface FastifyContextConfig {
    /**
     * Set at start-up on every route: counts an answer in /metrics. Fastify's onResponse calls it; so does an answer
     * written before Fastify's request exists (request-entry.ts's early hits).
     */
    countAnswer?: AnswerRecorder;
  }
}

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const LATENCY_NAME = 'collecte_http_request_duration_seconds';
const LATENCY_HELP = 'Time from the request to the end of the answer, by method and route pattern';

/** One route's requests under one method: answers by status and a latency histogram, in plain numbers. */
class RouteFigures {
  readonly statuses = new Map<number, number>();
  /** Requests per latency bucket, not cumulative; the last slot holds those slower than every bound. */
  readonly buckets = new Float64Array(LATENCY_BUCKETS.length + 1);
  sum = 0;
  count = 0;

  readonly method: string;
  readonly route: string;

  constructor(method: string, route: string) {
    this.method = method;
    this.route = route;
  }

  record(status: number, seconds: number) {
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    let i = 0;
    while (i < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[i]) i++;
    this.buckets[i]++;
    this.sum += seconds;
    this.count++;
  }
}

/** A label value in the text format: backslash, double quote and line feed escaped. */
const labelValue = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/**
 * The latency histogram in Prometheus's text format, written from the routes' figures at scrape time (prom-client's
 * Histogram hashes its label set at each observation; this one is counted by each route's own hook).
 */
function latencyText(figures: RouteFigures[]): string {
  const lines = [`# HELP ${LATENCY_NAME} ${LATENCY_HELP}`, `# TYPE ${LATENCY_NAME} histogram`];
  for (const f of figures) {
    if (f.count === 0) continue;
    const labels = `method="${labelValue(f.method)}",route="${labelValue(f.route)}"`;
    let cumulative = 0;
    LATENCY_BUCKETS.forEach((bound, i) => {
      cumulative += f.buckets[i];
      lines.push(`${LATENCY_NAME}_bucket{le="${bound}",${labels}} ${cumulative}`);
    });
    lines.push(`${LATENCY_NAME}_bucket{le="+Inf",${labels}} ${f.count}`);
    lines.push(`${LATENCY_NAME}_sum{${labels}} ${f.sum}`);
    lines.push(`${LATENCY_NAME}_count{${labels}} ${f.count}`);
  }
  return `\n${lines.join('\n')}\n`;
}

async function metrics(app: FastifyInstance) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'collecte_' });
  const hot: HotCounters = { cacheHits: 0, staleAnswers: 0 };
  const sources: MetricSources = {};
  app.decorate('metrics', hot);
  app.decorate('metricSources', sources);

  /** Every route's figures, in the order routes were registered; `unmatched` for URLs no route answers. */
  const figures: RouteFigures[] = [];
  const figuresFor = (method: string, route: string) => {
    const made = new RouteFigures(method, route);
    figures.push(made);
    return made;
  };
  new Counter({
    name: 'collecte_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern (unmatched URLs: "unmatched") and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const f of figures) for (const [status, n] of f.statuses) this.inc({ method: f.method, route: f.route, status: String(status) }, n);
    },
  });
  const refusals = new Counter({
    name: 'collecte_rate_limit_refusals_total',
    help: 'Requests refused with 429, by limit (chat: the per-device chat rule; general: the per-IP limit)',
    labelNames: ['limit'] as const,
    registers: [registry],
  });
  new Counter({
    name: 'collecte_cache_hits_total',
    help: 'Reads answered from the response cache (the public API and the API documentation)',
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

  // Each route counts its own requests, with a recorder made for it as it is registered: the hot path looks up no
  // label set and builds no key. A route serving several methods (GET and HEAD are two routes) keeps one per method.
  const countRefusal = (route: string) => refusals.inc({ limit: route.startsWith('/public/chat/') ? 'chat' : 'general' });
  /** A recorder of answers under one route's label, in the figures of their method (made at the method's first request). */
  const recorderFor = (route: string): AnswerRecorder => {
    const byMethod = new Map<string, RouteFigures>();
    return (method, status, seconds) => {
      let f = byMethod.get(method);
      if (!f) byMethod.set(method, (f = figuresFor(method, route)));
      f.record(status, seconds);
      if (status === 429) countRefusal(route);
    };
  };
  app.addHook('onRoute', (route) => {
    const countAnswer = recorderFor(route.url);
    const counter = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      countAnswer(request.method, reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
    const own = route.onResponse;
    route.onResponse = own === undefined ? [counter] : Array.isArray(own) ? [...own, counter] : [own, counter];
    route.config = { ...route.config, countAnswer };
  });
  // A URL no route answers (or one a route handed to the not-found handler) reaches the not-found handler's
  // context, which has no route hook: it is counted here, under one label.
  const unmatched = recorderFor('unmatched');
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (request.is404) unmatched(request.method, reply.statusCode, reply.elapsedTime / 1000);
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
      return (await registry.metrics()) + latencyText(figures);
    },
  );
}

export default fp(metrics, { name: 'collecte-metrics' });
