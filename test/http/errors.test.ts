import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';

for (const kind of testDatabaseKinds()) {
  describe(`health and error shape (${kind})`, () => {
    it('answers /health and /ready', async (t) => {
      const { app } = await buildTestApp(t, kind);
      assert.equal((await app.inject('/health')).statusCode, 200);
      const ready = await app.inject('/ready');
      assert.equal(ready.statusCode, 200);
      assert.deepEqual(ready.json(), { status: 'ready' });
    });

    it('answers an unknown route with the contract error body', async (t) => {
      const { app } = await buildTestApp(t, kind);
      const res = await app.inject('/public/nope');
      assert.equal(res.statusCode, 404);
      assert.match(res.headers['content-type'] as string, /^application\/json/);
      const body = res.json();
      assert.equal(body.statusCode, 404);
      assert.equal(body.error, 'Not Found');
      assert.match(body.message, /Aucune route/);
    });

    it('serves the OpenAPI document at version 1.0', async (t) => {
      const { app } = await buildTestApp(t, kind);
      const res = await app.inject('/openapi.json');
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().info.version, '1.0');
      const docs = await app.inject('/docs');
      assert.ok([200, 302].includes(docs.statusCode));
    });
  });
}
