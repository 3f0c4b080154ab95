import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { buildTestApp } from '../helpers/app.ts';
import { ensureWebBuilt } from '../helpers/web-fixtures.ts';
import { CLIENT_ROUTES } from '../../src/web/paths.ts';

describe('web app client routes', () => {
  it('knows the same client routes as the app’s router', () => {
    const main = fs.readFileSync(path.resolve(import.meta.dirname, '../../web/src/main.tsx'), 'utf8');
    const routerRoutes = [...main.matchAll(/match\('([^']+)', path\)/g)].map((m) => m[1]);
    assert.ok(routerRoutes.length > 5, 'the router’s routes are read from web/src/main.tsx');
    assert.deepEqual([...routerRoutes].sort(), [...CLIENT_ROUTES].sort());
  });
});

for (const kind of browserDatabaseKinds()) {
  describe(`web app serving (${kind})`, () => {
    it('serves index.html at / and for client routes, revalidated, with the app CSP', async (t) => {
      ensureWebBuilt();
      const { app } = await buildTestApp(t, kind);
      const challenge = '8c1e9a52-3f0b-4d6e-9a7c-2b5d4e6f7a80';
      for (const url of ['/', '/communes/0d8a9bc9-104b-5b64-a127-357bd85689ee', '/tri', `/defis/${challenge}/${challenge.toUpperCase()}`, '/actualites?x=1', '/communes/']) {
        const res = await app.inject({ url });
        assert.equal(res.statusCode, 200, url);
        assert.match(String(res.headers['content-type']), /^text\/html/, url);
        assert.equal(res.headers['cache-control'], 'no-cache', url);
        assert.match(res.body, /<div id="app">/, url);
        const csp = String(res.headers['content-security-policy']);
        assert.match(csp, /script-src 'self'/, url);
        assert.match(csp, /frame-ancestors 'none'/, url);
        assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/, url);
      }
    });

    it('answers 404 to any other path: the app’s page for a browser, the JSON error body otherwise', async (t) => {
      ensureWebBuilt();
      const { app } = await buildTestApp(t, kind);
      const uuid = '0d8a9bc9-104b-5b64-a127-357bd85689ee';
      const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
      const unknown = ['/nulle-part', '/communes/pas-un-uuid', `/communes/${uuid}/${uuid}/x`,
        '/defis/a/b', `/defis/${uuid}`, '/tri/x', '/Tri', '/communes//tri', '/index.html', '/wp-login.php'];
      for (const url of unknown) {
        const page = await app.inject({ url, headers: { accept: browser } });
        assert.equal(page.statusCode, 404, url);
        assert.match(String(page.headers['content-type']), /^text\/html/, url);
        assert.match(page.body, /<div id="app">/, url);
        assert.equal(page.headers['cache-control'], 'no-cache', url);
        assert.match(String(page.headers['content-security-policy']), /script-src 'self'/, url);

        for (const accept of [undefined, 'application/json', '*/*', 'application/json, text/html;q=0.5']) {
          const res = await app.inject({ url, headers: accept ? { accept } : {} });
          assert.equal(res.statusCode, 404, `${url} ${accept}`);
          assert.match(String(res.headers['content-type']), /^application\/json/, `${url} ${accept}`);
          assert.deepEqual(res.json(), { statusCode: 404, message: `Aucune route ne correspond à GET ${url}.`, error: 'Not Found', code: 'routeNotFound', field: null });
        }
        const head = await app.inject({ method: 'HEAD', url, headers: { accept: browser } });
        assert.equal(head.statusCode, 404, `HEAD ${url}`);
        // Conditional headers do not empty the not-found page.
        const conditional = await app.inject({ url, headers: { accept: browser, 'if-modified-since': 'Tue, 01 Jan 2030 00:00:00 GMT', 'if-none-match': '*' } });
        assert.equal(conditional.statusCode, 404, url);
        assert.match(String(conditional.headers['content-type']), /^text\/html/, url);
        assert.match(conditional.body, /<div id="app">/, url);
      }
      // API paths keep the JSON 404 even for a browser.
      const api = await app.inject({ url: '/public/nulle-part', headers: { accept: browser } });
      assert.equal(api.statusCode, 404);
      assert.equal(api.json().error, 'Not Found');
    });

    it('serves hashed assets for a year, compressed when asked, and the worker and manifest revalidated', async (t) => {
      const dist = ensureWebBuilt();
      const { app } = await buildTestApp(t, kind);
      const index = await app.inject({ url: '/' });
      const script = index.body.match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
      assert.ok(script, 'index.html names its script');
      const plain = await app.inject({ url: script });
      assert.equal(plain.statusCode, 200);
      assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.match(String(plain.headers['content-type']), /javascript/);
      assert.equal(plain.body, fs.readFileSync(`${dist}${script}`, 'utf8'));
      const br = await app.inject({ url: script, headers: { 'accept-encoding': 'br' } });
      assert.equal(br.headers['content-encoding'], 'br');
      assert.ok(br.rawPayload.length < plain.rawPayload.length);

      const sw = await app.inject({ url: '/sw.js' });
      assert.equal(sw.statusCode, 200);
      assert.equal(sw.headers['cache-control'], 'no-cache');
      const manifest = await app.inject({ url: '/manifest.webmanifest' });
      assert.equal(manifest.statusCode, 200);
      assert.equal(JSON.parse(manifest.body).lang, 'fr');
    });

    it('leaves API paths and missing files to the JSON 404, with the API headers', async (t) => {
      ensureWebBuilt();
      const { app } = await buildTestApp(t, kind);
      for (const url of ['/public/nope', '/public', '/chat/nope', '/health/x', '/ready/x', '/openapi.json/x', '/assets/missing.js', '/favicon.ico']) {
        const res = await app.inject({ url });
        assert.equal(res.statusCode, 404, url);
        assert.match(String(res.headers['content-type']), /^application\/json/, url);
        assert.equal(res.json().statusCode, 404, url);
        assert.equal(res.json().error, 'Not Found', url);
      }
      const api = await app.inject({ url: '/public/nope' });
      assert.equal(api.headers['content-security-policy'], "default-src 'none'; frame-ancestors 'none'");
      // The API and its documents still answer as before.
      assert.equal((await app.inject({ url: '/health' })).json().status, 'ok');
      assert.equal((await app.inject({ url: '/openapi.json' })).statusCode, 200);
      const spec = (await app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, unknown> };
      assert.equal(Object.keys(spec.paths).some((p) => p === '/' || p === '/*'), false, 'the app is not part of the API document');
    });
  });
}
