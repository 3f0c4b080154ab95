import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { CHAT_IDS as ids, importChatBundle } from '../helpers/chat-fixtures.ts';
import { BUNDLE_SITE_SLUG } from '../helpers/bundle-fixtures.ts';
import { messages } from '../../src/kernel/errors.ts';

/** Regressions found by the fuzz test (test/fuzz): each once answered 500, English, or not in the error shape. */

function assertError(res: LightMyRequestResponse, status: number, error: string, message: string, code: string, field: string | null = null) {
  assert.equal(res.statusCode, status);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  assert.deepEqual(res.json(), { statusCode: status, message, error, code, field });
}

for (const kind of testDatabaseKinds()) {
  describe(`input hardening (${kind})`, () => {
    it('answers a URL that does not decode with the French 400 body, CORS and security headers included', async (t) => {
      const { app } = await buildTestApp(t, kind);
      for (const url of ['/public/cities/%ZZ', '/public/cms/sites/%E0%A4%A/pages', '/public/blog-posts/%', '/public/cities/%C0%AF?x=1']) {
        const res = await app.inject(url);
        assertError(res, 400, 'Bad Request', messages.badUrl, 'badUrl');
        assert.equal(res.headers['access-control-allow-origin'], '*', url);
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
      }
      const head = await app.inject({ method: 'HEAD', url: '/public/cities/%ZZ' });
      assert.equal(head.statusCode, 400);
      // Outside /public, no CORS.
      const outside = await app.inject('/chat/conversations/%ZZ');
      assertError(outside, 400, 'Bad Request', messages.badUrl, 'badUrl');
      assert.equal(outside.headers['access-control-allow-origin'], undefined);
    });

    it('answers a path parameter past the length limit with 414 in French', async (t) => {
      const { app } = await buildTestApp(t, kind);
      // The router says so only when no other route could match (here, POST has no sibling routes to try).
      const long = await app.inject({ method: 'POST', url: `/public/chat/conversations/${'a'.repeat(501)}/messages` });
      assertError(long, 414, 'URI Too Long', messages.urlTooLong, 'urlTooLong');
      assert.equal(long.headers['access-control-allow-origin'], '*');
      const decoded = await app.inject({ method: 'POST', url: `/public/chat/conversations/${'%C3%A9'.repeat(501)}/messages` });
      assertError(decoded, 414, 'URI Too Long', messages.urlTooLong, 'urlTooLong');
      // Otherwise it finds no route at all: the ordinary 404.
      assert.equal((await app.inject(`/public/cms/sites/${'a'.repeat(600)}`)).statusCode, 404);
    });

    it('refuses a NUL character in a path parameter before it reaches the database', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      await importChatBundle(t, database);
      const message = 'Le paramètre « slug » ne doit pas contenir de caractère nul.';
      // PostgreSQL text cannot hold NUL: these answered 500 (invalid byte sequence, 22021).
      assertError(await app.inject(`/public/cms/sites/${BUNDLE_SITE_SLUG}%00`), 400, 'Bad Request', message, 'validation', 'slug');
      assertError(await app.inject('/public/cms/apps/a%00b'), 400, 'Bad Request', message, 'validation', 'slug');
      assertError(await app.inject('/public/cms/sites/a%00b/menus/header'), 400, 'Bad Request', message, 'validation', 'slug');
      assert.equal((await app.inject({ method: 'HEAD', url: '/public/cms/apps/a%00b' })).statusCode, 400);
      // Schema validation still speaks first: a NUL in a UUID is a malformed UUID.
      const uuid = await app.inject(`/public/cities/${ids.city}%00`);
      assert.equal(uuid.statusCode, 400);
      assert.match(uuid.json().message, /UUID/);
      // The same slug without the NUL works.
      assert.equal((await app.inject(`/public/cms/sites/${BUNDLE_SITE_SLUG}`)).statusCode, 200);
    });

    it('refuses a NUL character in a declared body field, and ignores it in an unknown one', async (t) => {
      const { app, database } = await buildTestApp(t, kind);
      await importChatBundle(t, database);
      const created = await app.inject({
        method: 'POST',
        url: '/public/chat/conversations',
        payload: { deviceId: `nul-${kind}-device`, cityId: ids.city, note: 'a\u0000b' },
      });
      assert.equal(created.statusCode, 201, created.body);
      const url = `/public/chat/conversations/${created.json().id}/messages`;
      const res = await app.inject({ method: 'POST', url, payload: { content: 'Où va le\u0000verre ?' } });
      assertError(res, 400, 'Bad Request', 'Le champ « content » ne doit pas contenir de caractère nul.', 'validation', 'content');
      // Nothing was stored.
      const stored = await database.db.selectFrom('message').select('id').where('conversation_id', '=', created.json().id).execute();
      assert.equal(stored.length, 0);
    });

    it('answers a bare OPTIONS on /public with the CORS headers, never a text/plain 400', async (t) => {
      const { app } = await buildTestApp(t, kind);
      for (const headers of [{}, { origin: 'https://example.org' }, { 'access-control-request-method': 'GET' }]) {
        const res = await app.inject({ method: 'OPTIONS', url: '/public/cities', headers });
        assert.equal(res.statusCode, 204, JSON.stringify(headers));
        assert.equal(res.headers['access-control-allow-origin'], '*');
        assert.equal(res.body, '');
      }
    });
  });
}
