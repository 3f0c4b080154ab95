import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';

describe('OpenAPI document', () => {
  it('describes every public route of the seed and the calendar extensions, each under a declared tag', async (t) => {
    const { app } = await buildTestApp(t, 'pglite');
    const doc = (await app.inject('/openapi.json')).json();
    assert.equal(doc.info.version, '1.0');
    const declared = new Set(doc.tags.map((tag: { name: string }) => tag.name));
    const operations: string[] = [];
    for (const [path, methods] of Object.entries<Record<string, { tags?: string[] }>>(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        operations.push(`${method.toUpperCase()} ${path}`);
        assert.ok(op.tags?.length, `${method} ${path} has a tag`);
        for (const tag of op.tags!) assert.ok(declared.has(tag), `${method} ${path}: tag ${tag} is declared`);
      }
    }
    const seed = [
      'GET /public/cities',
      'GET /public/cities/{id}',
      'GET /public/city-groups',
      'GET /public/challenges/{cityId}',
      'POST /public/challenges/complete',
      'GET /public/challenges/progress/{deviceId}',
      'GET /public/blog-posts',
      'GET /public/blog-posts/{id}',
      'GET /public/cms/sites',
      'GET /public/cms/sites/{slug}',
      'GET /public/cms/apps/{slug}',
      'GET /public/cms/apps/{slug}/menus/by-id/{menuId}',
      'GET /public/cms/sites/{slug}/pages',
      'GET /public/cms/pages/{id}',
      'GET /public/cms/sites/{slug}/menus',
      'GET /public/cms/sites/{slug}/menus/{location}',
      'GET /public/cms/media/{id}',
      'GET /public/cms/media/{id}/file',
      'GET /public/cms/media/{id}/thumbnail',
      'GET /public/chat/availability',
      'POST /public/chat/conversations',
      'PATCH /public/chat/conversations/{id}/location',
      'GET /public/chat/conversations/{deviceId}',
      'GET /public/chat/conversations/{id}/messages',
      'POST /public/chat/conversations/{id}/messages',
      'GET /public/cities/{cityId}/places/{placeId}/collections',
      'GET /public/cities/{cityId}/places/{placeId}/calendar.ics',
      'GET /public/cities/{cityId}/recycling-points',
      'GET /public/cities/{cityId}/recycling-points.geojson',
      'GET /public/city-groups/{id}/equipements.csv',
      'GET /public/cities/{cityId}/collections.csv',
      'GET /public/cities/{cityId}/sorting-guide',
      'GET /public/cities/{cityId}/notices',
    ];
    for (const route of seed) assert.ok(operations.includes(route), `${route} is documented`);
  });

  it('links the open-data exports from the recycling points route and states the decisions', async (t) => {
    const { app } = await buildTestApp(t, 'pglite');
    const doc = (await app.inject('/openapi.json')).json();
    const points = doc.paths['/public/cities/{cityId}/recycling-points'].get.description as string;
    for (const link of ['recycling-points.geojson', 'equipements.csv', 'collections.csv']) assert.match(points, new RegExp(link.replace('.', '\\.')));
    assert.match(doc.paths['/public/city-groups/{id}/equipements.csv'].get.description, /COLL_SIRET/);
    assert.ok(doc.paths['/public/cities/{cityId}/recycling-points.geojson'].get.responses['200'].content['application/geo+json']);
  });

  it('gives every operation a unique camelCase operationId, named from its method and resource', async (t) => {
    const { app } = await buildTestApp(t, 'pglite');
    const doc = (await app.inject('/openapi.json')).json();
    const seen = new Map<string, string>();
    for (const [path, methods] of Object.entries<Record<string, { operationId?: string }>>(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const route = `${method.toUpperCase()} ${path}`;
        assert.match(op.operationId ?? '', /^[a-z][a-zA-Z0-9]*$/, `${route} has a camelCase operationId`);
        assert.equal(seen.get(op.operationId!), undefined, `${route} and ${seen.get(op.operationId!)} share ${op.operationId}`);
        seen.set(op.operationId!, route);
      }
    }
    const names = (route: string) => [...seen].find(([, r]) => r === route)?.[0];
    // What a generated client reads: the verb, the audience where the same resource is public and admin, the resource.
    assert.equal(names('GET /public/cities/{id}'), 'getCity');
    assert.equal(names('GET /public/cities'), 'listCities');
    assert.equal(names('GET /public/cities/{cityId}/places/{placeId}/collections'), 'listCityPlaceCollections');
    assert.equal(names('GET /public/cities/{cityId}/recycling-points'), 'listCityRecyclingPoints');
    assert.equal(names('GET /admin/cities/{cityId}/recycling-points'), 'listAdminCityRecyclingPoints');
    assert.equal(names('POST /public/reminders/subscriptions'), 'createReminderSubscription');
    assert.equal(names('PATCH /admin/exceptions/{id}'), 'updateAdminException');
    assert.equal(names('DELETE /admin/users/{id}'), 'deleteAdminUser');
    assert.equal(names('GET /public/chat/conversations/{deviceId}'), 'getChatConversationsByDeviceId');
    assert.equal(names('POST /auth/login'), 'login');
    assert.equal(names('GET /public/cms/sites/{slug}/pages'), 'listCmsSitePages');
    // Service notices (docs/api.md, collections that move and service notices).
    assert.equal(names('GET /public/cities/{cityId}/notices'), 'listCityNotices');
    assert.equal(names('GET /admin/notices'), 'listAdminNotices');
    assert.equal(names('POST /admin/notices'), 'createAdminNotice');
    assert.equal(names('GET /admin/notices/{id}'), 'getAdminNotice');
    assert.equal(names('PATCH /admin/notices/{id}'), 'updateAdminNotice');
    assert.equal(names('DELETE /admin/notices/{id}'), 'deleteAdminNotice');
    assert.equal(names('GET /admin/notices/audience'), 'getAdminNoticeAudience');
  });
});
