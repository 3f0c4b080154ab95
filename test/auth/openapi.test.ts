import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';
import { authEnv } from '../helpers/auth-fixtures.ts';

// The document does not depend on the database: once, on the embedded one.
describe('OpenAPI of the agents’ accounts', () => {
  it('documents /auth under the auth tag and every /admin route under the admin tag with the bearer scheme', async (t) => {
    const { app } = await buildTestApp(t, 'pglite', { env: authEnv });
    const doc = (await app.inject('/openapi.json')).json();
    assert.deepEqual(doc.components.securitySchemes.accessToken, {
      type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Access token of an agent\'s account (POST /auth/login)',
    });
    assert.equal(doc.components.securitySchemes.refreshCookie.in, 'cookie');
    const tags = Object.fromEntries(doc.tags.map((tag: { name: string; description: string }) => [tag.name, tag.description]));
    assert.match(tags.auth, /`superAdmin: true`/);
    assert.match(tags.admin, /412/);
    const operations = Object.entries(doc.paths as Record<string, Record<string, { tags: string[]; security?: unknown; responses: object }>>)
      .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, op })));
    const auth = operations.filter(({ route }) => route.includes(' /auth/'));
    assert.deepEqual(auth.map(({ route }) => route).sort(), ['POST /auth/login', 'POST /auth/logout', 'POST /auth/refresh']);
    for (const { op } of auth) assert.deepEqual(op.tags, ['auth']);
    const admin = operations.filter(({ route }) => route.includes(' /admin/'));
    assert.deepEqual(admin.map(({ route }) => route).sort(), [
      'DELETE /admin/exceptions/{id}', 'DELETE /admin/users/{id}', 'DELETE /admin/waste-types/{id}', 'GET /admin/audit',
      'GET /admin/cities/{cityId}/waste-types', 'GET /admin/exceptions/{id}', 'GET /admin/places/{placeId}/exceptions', 'GET /admin/users',
      'GET /admin/users/{id}', 'GET /admin/waste-types/{id}', 'PATCH /admin/exceptions/{id}', 'PATCH /admin/users/{id}',
      'PATCH /admin/waste-types/{id}', 'POST /admin/cities/{cityId}/waste-types', 'POST /admin/places/{placeId}/exceptions', 'POST /admin/users',
    ]);
    for (const { route, op } of admin) {
      assert.deepEqual(op.tags, ['admin'], route);
      assert.deepEqual(op.security, [{ accessToken: [] }], route);
      for (const status of ['401', '403']) assert.ok(status in op.responses, `${route} documents ${status}`);
    }
  });
});
