import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { WEB_APP_CSP } from '../../src/http/url-space.ts';
import { buildTestApp, testConfig } from '../helpers/app.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';

const API_CSP = "default-src 'none'; frame-ancestors 'none'";
const DOCS_CSP_START = "default-src 'self'; script-src 'self'";

/** The header set an answer carries, named as the edge names them (src/http/public-headers.ts). */
function headerSet(res: LightMyRequestResponse): 'public' | 'api' | 'docs' | 'webApp' | 'none' {
  const csp = String(res.headers['content-security-policy'] ?? '');
  if (res.headers['x-content-type-options'] !== 'nosniff') return 'none';
  if (res.headers['access-control-allow-origin'] === '*') {
    assert.equal(csp, API_CSP);
    assert.equal(res.headers['cross-origin-resource-policy'], 'cross-origin');
    return 'public';
  }
  assert.equal(res.headers['cross-origin-resource-policy'], undefined);
  if (csp === API_CSP) return 'api';
  if (csp === WEB_APP_CSP) return 'webApp';
  if (csp.startsWith(DOCS_CSP_START)) return 'docs';
  return 'none';
}

const counted = (res: LightMyRequestResponse) => res.headers['x-ratelimit-limit'] !== undefined;

describe('route audiences at start-up', () => {
  it('refuses to start with a route that declares no audience, naming it', async (t) => {
    const database = await createTestDatabase('pglite');
    const app = await buildApp({ config: testConfig(), database });
    // The second app never becomes ready: closing it may fail the same way.
    const other = await buildApp({ config: testConfig(), database });
    t.after(async () => {
      await app.close();
      await other.close().catch(() => undefined);
      await database.close();
    });
    assert.throws(() => app.get('/orphan', async () => ({})), /GET \/orphan declares no audience: set config\.audience/);
    assert.throws(
      () => app.get('/stray', { config: { audience: 'everyone' as never } }, async () => ({})),
      /GET \/stray declares an unknown audience "everyone"/,
    );

    // Inside a plugin, as an area would: the app does not become ready.
    await assert.rejects(async () => {
      await other.register(async (scope) => {
        scope.post('/lost', async () => ({}));
      });
      await other.ready();
    }, /POST \/lost declares no audience/);
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`route audiences at the edge (${kind})`, () => {
    it('chooses headers, counting and caching by the route audience, not by the URL', async (t) => {
      const database = await createTestDatabase(kind);
      const app = await buildApp({ config: testConfig(), database });
      t.after(async () => {
        await app.close();
        await database.close();
      });
      const calls = { public: 0, admin: 0 };
      // A route under /public that is not the public API, and a public route outside /public.
      app.get('/public/not-public', { config: { audience: 'admin' } }, async () => {
        calls.admin++;
        return { ok: true };
      });
      app.get('/elsewhere', { config: { audience: 'public' } }, async () => {
        calls.public++;
        return { ok: true };
      });
      await app.ready();

      const notPublic = await app.inject('/public/not-public');
      assert.equal(notPublic.statusCode, 200);
      assert.equal(headerSet(notPublic), 'api');
      assert.equal(counted(notPublic), false, 'not counted against the public budget');
      assert.equal(notPublic.headers['cache-control'], undefined, 'no public Cache-Control');
      await app.inject('/public/not-public');
      assert.equal(calls.admin, 2, 'never answered from the response cache');

      const elsewhere = await app.inject('/elsewhere');
      assert.equal(elsewhere.statusCode, 200);
      assert.equal(headerSet(elsewhere), 'public');
      assert.equal(counted(elsewhere), true);
      assert.equal(elsewhere.headers['cache-control'], 'public, max-age=60');
      const again = await app.inject('/elsewhere');
      assert.equal(again.headers.etag, elsewhere.headers.etag);
      assert.equal(calls.public, 1, 'the second answer came from the response cache');
    });

    it('gives each mounted area the headers of its audience', async (t) => {
      const { app } = await buildTestApp(t, kind);
      const uuid = '00000000-0000-4000-8000-000000000000';
      const spec = app.swagger() as { paths: Record<string, Record<string, unknown>> };
      let checked = 0;
      for (const [path, operations] of Object.entries(spec.paths)) {
        const url = path.replace(/\{[^}]+\}/g, uuid);
        for (const method of Object.keys(operations)) {
          if (!['get', 'post', 'patch', 'delete'].includes(method)) continue;
          // No body: every route answers before its handler (400, 401, 404…) or reads nothing; none writes.
          const res = await app.inject({ method: method.toUpperCase() as 'GET', url });
          // Open311 is a public interface too (any origin may call it; a partner's filings are limited by its key).
          const expected = path.startsWith('/public') || path.startsWith('/open311/') ? 'public' : 'api';
          assert.equal(headerSet(res), expected, `${method.toUpperCase()} ${path} (${res.statusCode})`);
          assert.equal(counted(res), expected === 'public', `${method.toUpperCase()} ${path}: counted`);
          checked++;
        }
      }
      assert.ok(checked > 150, `${checked} operations checked`);

      // The routes the document hides: preflights, the docs and the document, the web app.
      const preflight = await app.inject({ method: 'OPTIONS', url: '/public/cities', headers: { origin: 'https://ville.example' } });
      assert.equal(preflight.statusCode, 204);
      assert.equal(headerSet(preflight), 'public');
      assert.equal(headerSet(await app.inject('/docs')), 'docs');
      assert.equal(headerSet(await app.inject('/docs/json')), 'docs');
      assert.equal(headerSet(await app.inject('/openapi.json')), 'docs');
      // Registered by the edge itself, before the document: the probes' and metrics' API headers, no CORS.
      const metrics = await app.inject('/metrics');
      assert.equal(metrics.statusCode, 200);
      assert.equal(headerSet(metrics), 'api');
      assert.equal(counted(metrics), false);
      assert.equal(headerSet(await app.inject('/')), 'webApp');
    });

    it('keeps, for a URL no route answers, the headers and counting its URL always had', async (t) => {
      const { app } = await buildTestApp(t, kind);
      const json = { accept: 'application/json' };
      const cases: [string, string, ReturnType<typeof headerSet>, boolean][] = [
        ['GET', '/public/nowhere', 'public', true],
        ['POST', '/public/nowhere', 'public', true],
        ['DELETE', '/public/cities', 'public', true],
        ['GET', '/public?x=1', 'public', true],
        ['GET', '/publicity', 'webApp', false],
        ['GET', '/admin/nowhere', 'api', false],
        ['POST', '/admin/nowhere', 'api', false],
        ['GET', '/chat/nowhere', 'api', false],
        ['GET', '/auth/nowhere', 'api', false],
        ['GET', '/health/nowhere', 'api', false],
        ['GET', '/openapi.json/nowhere', 'api', false],
        ['GET', '/docs-elsewhere', 'docs', false],
        ['GET', '/metrics/nowhere', 'webApp', false],
        ['GET', '/nowhere', 'webApp', false],
        ['PUT', '/nowhere', 'webApp', false],
      ];
      for (const [method, url, expected, isCounted] of cases) {
        const res = await app.inject({ method: method as 'GET', url, headers: json });
        assert.equal(res.statusCode, 404, `${method} ${url}`);
        assert.equal(res.json().code, 'routeNotFound', `${method} ${url}`);
        assert.equal(headerSet(res), expected, `${method} ${url}`);
        assert.equal(counted(res), isCounted, `${method} ${url}: counted`);
      }
      // The web app's own 404 page for a browser keeps the web app's policy.
      const page = await app.inject({ url: '/nowhere', headers: { accept: 'text/html' } });
      assert.equal(headerSet(page), 'webApp');
    });
  });
}
