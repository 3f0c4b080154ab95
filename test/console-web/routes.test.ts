// Serving the console at /console: its page for its client routes (the same list as its screen registry), its 404
// for any other path under /console, the same CSP as the citizens' app.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { buildTestApp } from '../helpers/app.ts';
import { ensureWebBuilt } from '../helpers/web-fixtures.ts';
import { CONSOLE_ROUTES } from '../../src/web/paths.ts';

describe('console client routes', () => {
  it('are the paths of the console’s screen registry', () => {
    const registry = fs.readFileSync(path.resolve(import.meta.dirname, '../../web/console/src/screens.ts'), 'utf8');
    const paths = [...registry.matchAll(/path: '([^']+)'/g)].map((m) => m[1]);
    assert.ok(paths.length >= 3, 'the registry’s paths are read from web/console/src/screens.ts');
    assert.deepEqual([...paths].sort(), [...CONSOLE_ROUTES].sort());
  });
});

for (const kind of browserDatabaseKinds()) {
  describe(`console serving (${kind})`, () => {
    it('serves the console’s page for its routes, revalidated, with the web app’s CSP', async (t) => {
      ensureWebBuilt();
      const { app } = await buildTestApp(t, kind);
      const uuid = '0d8a9bc9-104b-5b64-a127-357bd85689ee';
      for (const url of ['/console', '/console/', '/console/communes', `/console/communes/${uuid}`, `/console/communes/${uuid.toUpperCase()}?edit=1`]) {
        const res = await app.inject({ url });
        assert.equal(res.statusCode, 200, url);
        assert.match(String(res.headers['content-type']), /^text\/html/, url);
        assert.equal(res.headers['cache-control'], 'no-cache', url);
        assert.match(res.body, /<div id="console">/, url);
        const csp = String(res.headers['content-security-policy']);
        assert.match(csp, /script-src 'self'/, url);
        assert.match(csp, /frame-ancestors 'none'/, url);
        assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/, url);
      }
      // The citizens' app keeps its own page.
      assert.match((await app.inject({ url: '/tri' })).body, /<div id="app">/);
    });

    it('answers 404 to other paths under /console: the console’s page for a browser, the JSON error otherwise', async (t) => {
      ensureWebBuilt();
      const { app } = await buildTestApp(t, kind);
      const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
      for (const url of ['/console/nulle-part', '/console/communes/pas-un-uuid', '/console/index.html', '/consoles', '/console//communes']) {
        const page = await app.inject({ url, headers: { accept: browser } });
        assert.equal(page.statusCode, 404, url);
        assert.match(page.body, url === '/consoles' ? /<div id="app">/ : /<div id="console">/, url);
        assert.match(String(page.headers['content-security-policy']), /script-src 'self'/, url);
        const json = await app.inject({ url, headers: { accept: 'application/json' } });
        assert.equal(json.statusCode, 404, url);
        assert.equal(json.json().error, 'Not Found', url);
      }
    });
  });
}
