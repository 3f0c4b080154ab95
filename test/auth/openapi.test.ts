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
      'DELETE /admin/attached-locations/{id}',
      'DELETE /admin/badges/{id}',
      'DELETE /admin/blog-posts/{id}',
      'DELETE /admin/canned-replies/{id}',
      'DELETE /admin/challenges/{id}',
      'DELETE /admin/cities/{id}',
      'DELETE /admin/city-groups/{id}',
      'DELETE /admin/collection-days/{id}',
      'DELETE /admin/exceptions/{id}',
      'DELETE /admin/media/{id}',
      'DELETE /admin/menu-items/{id}',
      'DELETE /admin/menus/{id}',
      'DELETE /admin/notices/{id}',
      'DELETE /admin/pages/{id}',
      'DELETE /admin/places/{id}',
      'DELETE /admin/quiz-questions/{id}',
      'DELETE /admin/recycling-points/{id}',
      'DELETE /admin/series/{id}',
      'DELETE /admin/sites/{id}',
      'DELETE /admin/streets/{id}',
      'DELETE /admin/users/{id}',
      'DELETE /admin/waste-type-details/{id}',
      'DELETE /admin/waste-types/{id}',
      'GET /admin/analytics',
      'GET /admin/attached-locations/{id}',
      'GET /admin/audit',
      'GET /admin/badges/{id}',
      'GET /admin/blog-posts/{id}',
      'GET /admin/canned-replies/{id}',
      'GET /admin/challenges/{challengeId}/badges',
      'GET /admin/challenges/{challengeId}/series',
      'GET /admin/challenges/{id}',
      'GET /admin/cities/{cityId}/challenges',
      'GET /admin/cities/{cityId}/places',
      'GET /admin/cities/{cityId}/quiz-questions',
      'GET /admin/cities/{cityId}/recycling-points',
      'GET /admin/cities/{cityId}/waste-types',
      'GET /admin/cities/{id}',
      'GET /admin/city-groups',
      'GET /admin/city-groups/{cityGroupId}/blog-posts',
      'GET /admin/city-groups/{cityGroupId}/canned-replies',
      'GET /admin/city-groups/{cityGroupId}/cities',
      'GET /admin/city-groups/{cityGroupId}/sites',
      'GET /admin/city-groups/{id}',
      'GET /admin/collection-days/{id}',
      'GET /admin/exceptions/{id}',
      'GET /admin/export',
      'GET /admin/media',
      'GET /admin/media/{id}',
      'GET /admin/media/{id}/file',
      'GET /admin/menu-items/{id}',
      'GET /admin/menus/{id}',
      'GET /admin/menus/{menuId}/items',
      'GET /admin/notices',
      'GET /admin/notices/audience',
      'GET /admin/notices/{id}',
      'GET /admin/pages/{id}',
      'GET /admin/places/{id}',
      'GET /admin/places/{placeId}/attached-locations',
      'GET /admin/places/{placeId}/collection-days',
      'GET /admin/places/{placeId}/exceptions',
      'GET /admin/places/{placeId}/preview',
      'GET /admin/places/{placeId}/streets',
      'GET /admin/quiz-questions/{id}',
      'GET /admin/recycling-points/{id}',
      'GET /admin/series/{id}',
      'GET /admin/sites/{id}',
      'GET /admin/sites/{siteId}/menus',
      'GET /admin/sites/{siteId}/pages',
      'GET /admin/streets/{id}',
      'GET /admin/users',
      'GET /admin/users/{id}',
      'GET /admin/waste-type-details/{id}',
      'GET /admin/waste-types/{id}',
      'GET /admin/waste-types/{wasteTypeId}/details',
      'PATCH /admin/attached-locations/{id}',
      'PATCH /admin/badges/{id}',
      'PATCH /admin/blog-posts/{id}',
      'PATCH /admin/canned-replies/{id}',
      'PATCH /admin/challenges/{id}',
      'PATCH /admin/cities/{id}',
      'PATCH /admin/city-groups/{id}',
      'PATCH /admin/collection-days/{id}',
      'PATCH /admin/exceptions/{id}',
      'PATCH /admin/media/{id}',
      'PATCH /admin/menu-items/{id}',
      'PATCH /admin/menus/{id}',
      'PATCH /admin/notices/{id}',
      'PATCH /admin/pages/{id}',
      'PATCH /admin/places/{id}',
      'PATCH /admin/quiz-questions/{id}',
      'PATCH /admin/recycling-points/{id}',
      'PATCH /admin/series/{id}',
      'PATCH /admin/sites/{id}',
      'PATCH /admin/streets/{id}',
      'PATCH /admin/users/{id}',
      'PATCH /admin/waste-type-details/{id}',
      'PATCH /admin/waste-types/{id}',
      'POST /admin/challenges/{challengeId}/badges',
      'POST /admin/challenges/{challengeId}/series',
      'POST /admin/cities/{cityId}/challenges',
      'POST /admin/cities/{cityId}/places',
      'POST /admin/cities/{cityId}/quiz-questions',
      'POST /admin/cities/{cityId}/recycling-points',
      'POST /admin/cities/{cityId}/waste-types',
      'POST /admin/city-groups',
      'POST /admin/city-groups/{cityGroupId}/blog-posts',
      'POST /admin/city-groups/{cityGroupId}/canned-replies',
      'POST /admin/city-groups/{cityGroupId}/cities',
      'POST /admin/city-groups/{cityGroupId}/holiday-preview',
      'POST /admin/city-groups/{cityGroupId}/sites',
      'POST /admin/content/check',
      'POST /admin/media',
      'POST /admin/menus/{menuId}/items',
      'POST /admin/notices',
      'POST /admin/places/{placeId}/attached-locations',
      'POST /admin/places/{placeId}/collection-days',
      'POST /admin/places/{placeId}/exceptions',
      'POST /admin/places/{placeId}/preview',
      'POST /admin/places/{placeId}/streets',
      'POST /admin/sites/{siteId}/menus',
      'POST /admin/sites/{siteId}/pages',
      'POST /admin/users',
      'POST /admin/waste-types/{wasteTypeId}/details',
    ]);
    for (const { route, op } of admin) {
      assert.deepEqual(op.tags, ['admin'], route);
      assert.deepEqual(op.security, [{ accessToken: [] }], route);
      for (const status of ['401', '403']) assert.ok(status in op.responses, `${route} documents ${status}`);
    }
  });
});
