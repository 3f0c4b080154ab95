import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';

/** GET /metrics: the Prometheus text format, what an operator graphs and alerts on. */

const sample = (text: string, name: string, labels: Record<string, string> = {}): number | undefined => {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = text
    .split('\n')
    .find((l) => l.startsWith(name) && (l[name.length] === ' ' || l[name.length] === '{') && wanted.every((w) => l.includes(w)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
};

for (const kind of testDatabaseKinds()) {
  describe(`metrics (${kind})`, () => {
    it('counts requests by route and status, their latency, cache hits and rate-limit refusals', async (t) => {
      const { app } = await buildTestApp(t, kind, { env: { RATE_LIMIT_MAX: '3' } });
      for (let i = 0; i < 3; i++) assert.equal((await app.inject('/public/city-groups')).statusCode, 200);
      assert.equal((await app.inject('/public/city-groups')).statusCode, 429);
      assert.equal((await app.inject('/public/cities/not-a-uuid')).statusCode, 429);
      await app.inject('/nulle/part/du/tout.json');
      await app.inject({ method: 'DELETE', url: '/nulle/part' });

      const res = await app.inject('/metrics');
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
      const text = res.body;
      assert.equal(sample(text, 'collecte_http_requests_total', { route: '/public/city-groups', status: '200', method: 'GET' }), 3);
      assert.equal(sample(text, 'collecte_http_requests_total', { route: '/public/city-groups', status: '429' }), 1);
      assert.equal(sample(text, 'collecte_http_requests_total', { route: 'unmatched', status: '404' }), 1, 'unknown URLs share one label');
      assert.equal(sample(text, 'collecte_http_request_duration_seconds_count', { route: '/public/city-groups' }), 4);
      assert.ok(text.includes('collecte_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/public/city-groups"}'));
      assert.equal(sample(text, 'collecte_http_requests_total', { method: 'DELETE', route: 'unmatched', status: '404' }), 1);
      // A histogram Prometheus can read: cumulative buckets, +Inf equal to the count, a sum of the observed times.
      const buckets = text
        .split('\n')
        .filter((l) => l.startsWith('collecte_http_request_duration_seconds_bucket{') && l.includes('route="/public/city-groups"'))
        .map((l) => Number(l.slice(l.lastIndexOf(' ') + 1)));
      assert.equal(buckets.length, 15, 'fourteen bounds and +Inf');
      assert.deepEqual(buckets, [...buckets].sort((a, b) => a - b), 'cumulative');
      assert.equal(buckets.at(-1), 4);
      assert.ok((sample(text, 'collecte_http_request_duration_seconds_sum', { route: '/public/city-groups' }) ?? 0) > 0);
      assert.equal(text.match(/^# TYPE collecte_http_request_duration_seconds histogram$/gm)?.length, 1);
      assert.equal(sample(text, 'collecte_cache_hits_total'), 2, 'the second and third reads came from the cache');
      assert.equal(sample(text, 'collecte_rate_limit_refusals_total', { limit: 'general' }), 2);
      assert.ok((sample(text, 'collecte_cache_entries') ?? 0) >= 1);
      assert.ok((sample(text, 'collecte_process_resident_memory_bytes') ?? 0) > 0);
      assert.equal(typeof sample(text, 'collecte_data_version'), 'number');
      if (kind === 'postgres') assert.ok((sample(text, 'collecte_db_pool_connections', { state: 'total' }) ?? 0) >= 1);
      else assert.equal(sample(text, 'collecte_db_pool_connections', { state: 'total' }), undefined);
    });

    it('counts a HEAD apart from the GET of the same route', async (t) => {
      const { app } = await buildTestApp(t, kind);
      assert.equal((await app.inject('/public/city-groups')).statusCode, 200);
      assert.equal((await app.inject({ method: 'HEAD', url: '/public/city-groups' })).statusCode, 200);
      assert.equal((await app.inject({ method: 'HEAD', url: '/public/city-groups' })).statusCode, 200);
      const text = (await app.inject('/metrics')).body;
      assert.equal(sample(text, 'collecte_http_requests_total', { method: 'GET', route: '/public/city-groups', status: '200' }), 1);
      assert.equal(sample(text, 'collecte_http_requests_total', { method: 'HEAD', route: '/public/city-groups', status: '200' }), 2);
      assert.equal(sample(text, 'collecte_http_request_duration_seconds_count', { method: 'HEAD', route: '/public/city-groups' }), 2);
    });

    it('asks for METRICS_TOKEN when it is set', async (t) => {
      const { app } = await buildTestApp(t, kind, { env: { METRICS_TOKEN: 'a-long-operator-secret' } });
      for (const authorization of [undefined, 'Bearer wrong', 'a-long-operator-secret', 'Bearer a-long-operator-secret ']) {
        const res = await app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
        assert.equal(res.statusCode, 401, String(authorization));
        assert.equal(res.json().error, 'Unauthorized');
      }
      const ok = await app.inject({ url: '/metrics', headers: { authorization: 'Bearer a-long-operator-secret' } });
      assert.equal(ok.statusCode, 200);
      assert.match(ok.body, /collecte_http_requests_total/);
    });
  });
}
