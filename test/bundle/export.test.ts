import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { importBundle } from '../../src/bundle/import.ts';
import { DEMO_BUNDLE_PATH } from '../../src/demo/load.ts';
import type { Database } from '../../src/db/database.ts';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { authEnv, createAccount, loginHeaders } from '../helpers/auth-fixtures.ts';
import { testDatabaseKinds } from '../helpers/database.ts';

/**
 * `GET /admin/export` (docs/api.md, the admin API): what an operator moving a city to another server does. The demo's two
 * groups are exported, imported into an empty database, and every public answer must be the same; importing an
 * export back into its own database changes nothing.
 */

const run = promisify(execFile);
const NOW = '2026-11-22T10:00:00.000Z';
const BREST = '6257598e-116b-5090-9b09-374e65036c9b';
const ABERS = 'da54dfd7-bb11-5096-9c78-3066c4a969ae';

async function tempDir(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'collecte-export-'));
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  return dir;
}

/** An app on a fresh database with its own media folder; the demo loaded when asked. */
async function app(t: Parameters<typeof buildTestApp>[0], kind: Parameters<typeof buildTestApp>[1], withDemo: boolean) {
  const mediaDir = await tempDir(t);
  const built = await buildTestApp(t, kind, { env: { ...authEnv, MEDIA_DIR: mediaDir }, clock: fixedClock(NOW) });
  if (withDemo) await importInto(built.database, JSON.parse(await fs.readFile(DEMO_BUNDLE_PATH, 'utf8')), path.dirname(DEMO_BUNDLE_PATH), mediaDir);
  return { ...built, mediaDir };
}

function importInto(database: Database, bundle: unknown, baseDir: string, mediaDir: string) {
  return importBundle(database, bundle, { baseDir, mediaDir, now: new Date(NOW) });
}

/** Every public answer a citizen's app reads, by URL, found by walking the API from its lists. */
async function publicAnswers(app: FastifyInstance): Promise<Map<string, string>> {
  const answers = new Map<string, string>();
  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url });
    answers.set(url, `${res.statusCode} ${res.headers['content-type']} ${res.body}`);
    return res;
  };
  const cities = (await get('/public/cities')).json() as { id: string; cityGroup: { id: string } | null; wasteCollectionPlaces: { id: string }[] }[];
  await get('/public/city-groups');
  for (const city of cities) {
    await get(`/public/cities/${city.id}`);
    await get(`/public/challenges/${city.id}`);
    await get(`/public/cities/${city.id}/recycling-points`);
    await get(`/public/cities/${city.id}/recycling-points.geojson`);
    for (const place of city.wasteCollectionPlaces.slice(0, 2)) {
      await get(`/public/cities/${city.id}/places/${place.id}/collections?from=2026-11-01&to=2027-01-31`);
    }
  }
  const posts = (await get('/public/blog-posts')).json() as { id: string }[];
  for (const post of posts) await get(`/public/blog-posts/${post.id}`);
  const sites = (await get('/public/cms/sites')).json() as { data: { slug: string }[] };
  for (const site of sites.data) {
    await get(`/public/cms/sites/${site.slug}`);
    await get(`/public/cms/sites/${site.slug}/menus`);
    const pages = (await get(`/public/cms/sites/${site.slug}/pages`)).json() as { data: { id: string }[] };
    for (const page of pages.data) await get(`/public/cms/pages/${page.id}`);
  }
  return answers;
}

const demoMedia = async () =>
  (JSON.parse(await fs.readFile(DEMO_BUNDLE_PATH, 'utf8')) as { media: { id: string; public: boolean; path: string }[] }).media;

for (const kind of testDatabaseKinds()) {
  describe(`admin export (${kind})`, () => {
    it('a JSON-only export imported into an empty database gives the same public answers, and back into its own changes nothing', async (t) => {
      const source = await app(t, kind, true);
      await createAccount(source.database.db, { email: 'root@collecte.fr', superAdmin: true, permissions: [] });
      const asRoot = await loginHeaders(source.app, 'root@collecte.fr');

      const res = await source.app.inject({ method: 'GET', url: '/admin/export?media=false', headers: asRoot });
      assert.equal(res.statusCode, 200, res.body);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      assert.match(String(res.headers['content-disposition']), /^attachment; filename="collecte-export-2026-11-22\.json"$/);
      const bundle = res.json();
      assert.deepEqual(bundle.cityGroups.map((g: { id: string }) => g.id).sort(), [BREST, ABERS].sort());
      assert.deepEqual(bundle.media, [], 'media=false leaves media out');

      const target = await app(t, kind, false);
      await importInto(target.database, bundle, await tempDir(t), target.mediaDir);
      const expected = await publicAnswers(source.app);
      const actual = await publicAnswers(target.app);
      assert.ok(expected.size > 60, `walked ${expected.size} public answers`);
      for (const [url, answer] of expected) assert.equal(actual.get(url), answer, url);

      // The export holds every stored field: fed back to its own database, nothing moves.
      const again = await importInto(source.database, bundle, await tempDir(t), source.mediaDir);
      assert.equal(again.changedRows, 0);
      assert.equal(again.deletedRows, 0);
    });

    it('exports places’ streets and areas: the export re-imports unchanged into its own database and identically into an empty one', async (t) => {
      const source = await app(t, kind, true);
      const db = source.database.db;
      await createAccount(db, { email: 'root@collecte.fr', superAdmin: true, permissions: [] });
      const asRoot = await loginHeaders(source.app, 'root@collecte.fr');
      const [first, second] = await db.selectFrom('collection_place').select(['id', 'city_id']).where('city_id', '=',
        db.selectFrom('collection_place').select('city_id').groupBy('city_id').having((eb) => eb.fn.countAll(), '>=', 2).orderBy('city_id').limit(1),
      ).orderBy('id').limit(2).execute();
      // The demo's own rules of the place (docs/api.md, from an address to a collection place) stay beside the ones added here.
      const demoRules = await db.selectFrom('place_street').select(['street', 'from_number', 'to_number', 'side'])
        .where('place_id', '=', first.id).execute();
      const post = (url: string, payload: object, method: 'POST' | 'PATCH' = 'POST', headers: Record<string, string> = asRoot) =>
        source.app.inject({ method, url, headers, payload });
      for (const [placeId, body] of [
        [first.id, { street: 'Rue de Siam', fromNumber: 1, toNumber: 99, side: 'ODD' }],
        [first.id, { street: 'Place de la Liberté', side: 'ALL' }],
        [second.id, { street: 'rue de siam', side: 'EVEN' }],
      ] as const) {
        assert.equal((await post(`/admin/places/${placeId}/streets`, body)).statusCode, 201);
      }
      const area = { type: 'Polygon', coordinates: [[[-4.5, 48.38], [-4.48, 48.38], [-4.48, 48.4], [-4.5, 48.38]]] };
      const etag = String((await source.app.inject({ method: 'GET', url: `/admin/places/${first.id}`, headers: asRoot })).headers.etag);
      assert.equal((await post(`/admin/places/${first.id}`, { area }, 'PATCH', { ...asRoot, 'if-match': etag })).statusCode, 200);

      const res = await source.app.inject({ method: 'GET', url: '/admin/export?media=false', headers: asRoot });
      assert.equal(res.statusCode, 200, res.body);
      const bundle = res.json();
      const places = bundle.cities.find((c: { id: string }) => c.id === first.city_id).wasteCollectionPlaces;
      const exported = places.find((p: { id: string }) => p.id === first.id);
      assert.deepEqual(exported.area, area);
      assert.deepEqual(exported.streets.map((r: { street: string; fromNumber: number | null; toNumber: number | null; side: string }) =>
        [r.street, r.fromNumber, r.toNumber, r.side]).sort(), [
        ...demoRules.map((r) => [r.street, r.from_number, r.to_number, r.side]),
        ['Place de la Liberté', null, null, 'ALL'],
        ['Rue de Siam', 1, 99, 'ODD'],
      ].sort());

      const again = await importInto(source.database, bundle, await tempDir(t), source.mediaDir);
      assert.equal(again.changedRows, 0);
      assert.equal(again.deletedRows, 0);

      const target = await app(t, kind, false);
      await importInto(target.database, bundle, await tempDir(t), target.mediaDir);
      const rows = (d: typeof db) => Promise.all([
        d.selectFrom('place_street').selectAll().orderBy('id').execute(),
        d.selectFrom('collection_place').selectAll().orderBy('id').execute(),
      ]);
      assert.deepEqual(await rows(target.database.db), await rows(db));
      assert.equal((await target.app.inject('/public/cities')).body, (await source.app.inject('/public/cities')).body);
    });

    it('the archive holds bundle.json and the media files, which tar unpacks and the import reads', async (t) => {
      const source = await app(t, kind, true);
      await createAccount(source.database.db, { email: 'root@collecte.fr', superAdmin: true, permissions: [] });
      const asRoot = await loginHeaders(source.app, 'root@collecte.fr');

      const res = await source.app.inject({ method: 'GET', url: '/admin/export', headers: asRoot });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], 'application/gzip');
      assert.match(String(res.headers['content-disposition']), /filename="collecte-export-2026-11-22\.tar\.gz"$/);
      const dir = await tempDir(t);
      await fs.writeFile(path.join(dir, 'export.tar.gz'), res.rawPayload);
      await run('tar', ['xzf', 'export.tar.gz'], { cwd: dir });
      const bundle = JSON.parse(await fs.readFile(path.join(dir, 'bundle.json'), 'utf8'));
      const media = await demoMedia();
      assert.equal(bundle.media.length, media.length);
      for (const entry of bundle.media) {
        const original = media.find((m) => m.id === entry.id)!;
        assert.deepEqual(await fs.readFile(path.join(dir, entry.path)), await fs.readFile(path.join(path.dirname(DEMO_BUNDLE_PATH), original.path)));
      }

      const target = await app(t, kind, false);
      await importInto(target.database, bundle, dir, target.mediaDir);
      for (const m of media.filter((m) => m.public)) {
        const [a, b] = await Promise.all([source.app, target.app].map((s) => s.inject({ method: 'GET', url: `/public/cms/media/${m.id}/file` })));
        assert.equal(b.statusCode, 200);
        assert.deepEqual(b.rawPayload, a.rawPayload);
        assert.equal(b.headers['content-type'], a.headers['content-type']);
      }
    });

    it('an agent exports its own groups only; another group is 404, another permission 403, no token 401', async (t) => {
      const source = await app(t, kind, true);
      const db = source.database.db;
      await createAccount(db, { email: 'abers@collecte.fr', permissions: ['CITIES'], cityGroupIds: [ABERS] });
      await createAccount(db, { email: 'editor@collecte.fr', permissions: ['BLOG_POSTS'], cityGroupIds: [ABERS] });
      await createAccount(db, { email: 'root@collecte.fr', superAdmin: true, permissions: [] });
      const asAbers = await loginHeaders(source.app, 'abers@collecte.fr');
      const get = (url: string, headers: Record<string, string> = asAbers) => source.app.inject({ method: 'GET', url, headers });

      const own = await get('/admin/export?media=false');
      assert.equal(own.statusCode, 200);
      const bundle = own.json();
      assert.deepEqual(bundle.cityGroups.map((g: { id: string }) => g.id), [ABERS]);
      assert.ok(bundle.cities.length > 0);
      assert.ok(bundle.cities.every((c: { cityGroupId: string }) => c.cityGroupId === ABERS));
      assert.ok(bundle.blogPosts.every((p: { cityGroupId: string }) => p.cityGroupId === ABERS));
      assert.ok(bundle.sites.every((s: { cityGroupId: string }) => s.cityGroupId === ABERS));
      assert.deepEqual(bundle.media, [], 'media of no group are not an agent’s');

      const named = await get(`/admin/export?media=false&cityGroupId=${ABERS}`);
      assert.equal(named.statusCode, 200);
      assert.match(String(named.headers['content-disposition']), new RegExp(`collecte-${ABERS}-2026-11-22\\.json`));

      const other = await get(`/admin/export?cityGroupId=${BREST}`);
      assert.equal(other.statusCode, 404);
      assert.equal(other.json().message, 'Groupe de villes introuvable');
      const unknown = await get('/admin/export?cityGroupId=00000000-0000-4000-8000-000000000000', await loginHeaders(source.app, 'root@collecte.fr'));
      assert.equal(unknown.statusCode, 404);
      assert.equal((await get('/admin/export', await loginHeaders(source.app, 'editor@collecte.fr'))).statusCode, 403);
      assert.equal((await get('/admin/export', {})).statusCode, 401);
      const bad = await get('/admin/export?cityGroupId=brest');
      assert.equal(bad.statusCode, 400);
      assert.match(bad.json().message, /cityGroupId/);
    });
  });
}
