import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
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
  });
}
