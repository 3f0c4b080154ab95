import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { brotliDecompressSync } from 'node:zlib';
import { buildTestApp } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';

/**
 * The API documentation's Content-Security-Policy, checked without a browser (docs-browser.test.ts renders the page
 * under it, but is skipped where Chromium is missing): every answer under /docs carries the docs' own policy, and the
 * page it serves loads only files of its own, which that policy lets run.
 */

/** The directives of a policy, by name. */
function directives(policy: string): Map<string, string[]> {
  return new Map(policy.split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...sources]) => [name, sources]));
}

for (const kind of testDatabaseKinds()) {
  describe(`API documentation headers (${kind})`, () => {
    it('puts /docs, its document and its files under a policy that runs only its own scripts and styles and forbids framing', async (t) => {
      const { app } = await buildTestApp(t, kind);
      const page = await app.inject('/docs');
      assert.equal(page.statusCode, 200);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      const policy = directives(String(page.headers['content-security-policy'] ?? ''));
      assert.deepEqual(policy.get('script-src'), ["'self'"], 'scripts from the docs only');
      assert.deepEqual(policy.get('style-src'), ["'self'"], 'styles from the docs only');
      assert.deepEqual(policy.get('object-src'), ["'none'"]);
      assert.deepEqual(policy.get('frame-ancestors'), ["'none'"]);
      assert.deepEqual(policy.get('connect-src'), ["'self'"], '"Try it out" reaches this origin only');
      assert.equal(page.headers['x-frame-options'], 'DENY');

      // What the page loads is its own, and it has no inline script or style the policy would block.
      const scripts = [...page.body.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]);
      assert.ok(scripts.length > 0);
      for (const attributes of scripts) assert.match(attributes, /\ssrc="\/docs\/static\/[^"]+\.js"/, `an inline script: ${attributes}`);
      assert.doesNotMatch(page.body, /<style\b|\sstyle=|\son[a-z]+=/i, 'no inline style or event handler');
      for (const url of [...page.body.matchAll(/\s(?:src|href)="([^"]+)"/g)].map((m) => m[1])) {
        assert.match(url, /^\/docs\//, `${url} is not one of the docs' files`);
        const file = await app.inject(url);
        assert.equal(file.statusCode, 200, url);
        assert.equal(file.headers['content-security-policy'], page.headers['content-security-policy'], url);
      }

      for (const url of ['/docs/', '/docs/json', '/docs/static/swagger-initializer.js', '/docs/admin/', '/docs/admin/json', '/docs/open311/', '/docs/open311/json']) {
        const res = await app.inject(url);
        assert.equal(res.statusCode, 200, url);
        assert.equal(res.headers['content-security-policy'], page.headers['content-security-policy'], url);
      }
    });

    it('answers the documents from the response cache, uncounted, under the docs\' policy, with 304 and brotli', async (t) => {
      // A page's YAML is the whole document written again (some 150 ms of CPU), and the docs are not counted
      // against the public rate limit: written at each request, a few clients could keep a core busy.
      const { app } = await buildTestApp(t, kind);
      for (const url of ['/docs/admin/yaml', '/docs/json', '/openapi.json']) {
        const first = await app.inject(url);
        assert.equal(first.statusCode, 200, url);
        assert.equal(first.headers['x-ratelimit-limit'], undefined, `${url}: not counted`);
        const hits = app.metrics.cacheHits;
        const again = await app.inject(url);
        assert.equal(app.metrics.cacheHits, hits + 1, `${url}: the second answer came from the response cache`);
        assert.equal(again.statusCode, 200);
        assert.equal(again.body, first.body, url);
        assert.equal(again.headers.etag, first.headers.etag, url);
        assert.equal(again.headers['content-type'], first.headers['content-type'], url);
        assert.equal(again.headers['content-security-policy'], first.headers['content-security-policy'], url);
        assert.match(String(again.headers['content-security-policy']), /script-src 'self'/, url);
        assert.equal(again.headers['x-ratelimit-limit'], undefined, `${url}: not counted`);

        const notModified = await app.inject({ url, headers: { 'if-none-match': String(first.headers.etag) } });
        assert.equal(notModified.statusCode, 304, url);
        assert.equal(notModified.body, '');
        const compressed = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
        assert.equal(compressed.headers['content-encoding'], 'br', url);
        assert.equal(brotliDecompressSync(compressed.rawPayload).toString(), first.body, url);
      }
      assert.match((await app.inject('/docs/admin/yaml')).body, /^openapi: 3\./m);
    });
  });
}
