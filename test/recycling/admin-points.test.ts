import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/types.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { citiesAdminApp, inject } from '../helpers/admin-fixtures.ts';

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
const NOT_FOUND = { statusCode: 404, message: 'Point de collecte introuvable', error: 'Not Found', code: 'recyclingPointNotFound', field: null };
const CITY_NOT_FOUND = { statusCode: 404, message: 'Ville introuvable', error: 'Not Found', code: 'cityNotFound', field: null };
/** Wednesday 2 December 2026, 11:00 in Brest. */
const WEDNESDAY = '2026-12-02T10:00:00.000Z';
const PUBLIC = `/public/cities/${ids.brest}/recycling-points?at=${WEDNESDAY}`;

interface PublicPoint {
  id: string;
  name: string;
  kind: string | null;
  materials: string[];
  openingHoursSpec: string | null;
  openNow: boolean | null;
  nextChange: string | null;
}

const publicPoint = async (app: FastifyInstance, id: string) =>
  ((await app.inject(PUBLIC)).json() as PublicPoint[]).find((p) => p.id === id);
const geojsonFeature = async (app: FastifyInstance, id: string) =>
  (JSON.parse((await app.inject(`/public/cities/${ids.brest}/recycling-points.geojson`)).body).features as { properties: Record<string, string> }[])
    .find((f) => f.properties['collecte:id'] === id);

for (const kind of testDatabaseKinds()) {
  describe(`/admin recycling points (${kind})`, () => {
    // One app for the file: each test works on records of its own.
    let ctx: Awaited<ReturnType<typeof citiesAdminApp>>;
    const cleanups: (() => Promise<void>)[] = [];
    before(async () => {
      ctx = await citiesAdminApp({ after: (fn: () => Promise<void>) => void cleanups.push(fn) }, kind);
    });
    after(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });
    const rows = async (db: Kysely<DB>) => (await db.selectFrom('recycling_point').select('id').execute()).length;

    it('creates, lists, reads, changes and deletes a point, the public points and open data following each write, each audited', async () => {
      const { app, asManager } = ctx;
      assert.ok((await app.inject(PUBLIC)).statusCode === 200, 'the public answer is cached before the writes');

      const created = await inject(app, asManager, 'POST', `/admin/cities/${ids.brest}/recycling-points`, {
        name: ' Déchèterie de Kervallon ', address: 'Rue de Kervallon, 29200 Brest', latitude: 48.42, longitude: -4.47,
        openingHours: 'Du lundi au samedi, 9 h – 18 h', openingHoursSpec: 'Mo-Sa 09:00-18:00; PH off', kind: 'CENTRE',
        materials: [ids.wasteVerre, ids.wasteEmb.toUpperCase()],
      });
      assert.equal(created.statusCode, 201, created.body);
      const point = created.json();
      assert.deepEqual({ ...point, id: undefined }, {
        id: undefined, name: 'Déchèterie de Kervallon', address: 'Rue de Kervallon, 29200 Brest', latitude: 48.42, longitude: -4.47,
        openingHours: 'Du lundi au samedi, 9 h – 18 h', openingHoursSpec: 'Mo-Sa 09:00-18:00; PH off', kind: 'CENTRE',
        materials: [ids.wasteEmb, ids.wasteVerre], cityId: ids.brest,
      });
      assert.match(String(created.headers.etag), /^"[A-Za-z0-9_-]{27}"$/);
      const shown = await publicPoint(app, point.id);
      assert.deepEqual(
        { kind: shown?.kind, materials: shown?.materials, openNow: shown?.openNow, nextChange: shown?.nextChange },
        { kind: 'CENTRE', materials: [ids.wasteEmb, ids.wasteVerre], openNow: true, nextChange: '2026-12-02T17:00:00.000Z' },
      );
      const feature = await geojsonFeature(app, point.id);
      assert.equal(feature?.properties.opening_hours, 'Mo-Sa 09:00-18:00; PH off');
      assert.equal(feature?.properties['recycling:glass_bottles'], 'yes');

      const list = await inject(app, asManager, 'GET', `/admin/cities/${ids.brest}/recycling-points?pageSize=2`);
      assert.equal(list.statusCode, 200);
      assert.equal(list.json().meta.total, 3);
      assert.deepEqual(list.json().data.map((p: { name: string }) => p.name), ['Borne à verre Jaurès', 'Déchèterie de Kervallon'], 'by name, French order');

      const read = await inject(app, asManager, 'GET', `/admin/recycling-points/${point.id}`);
      assert.deepEqual(read.json(), point);
      const etag = String(read.headers.etag);
      assert.equal(etag, created.headers.etag);
      const changed = await inject(app, { ...asManager, 'if-match': etag }, 'PATCH', `/admin/recycling-points/${point.id}`, {
        openingHoursSpec: 'Mo-Sa 14:00-18:00', materials: [ids.wasteVerre],
      });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.deepEqual(changed.json(), { ...point, openingHoursSpec: 'Mo-Sa 14:00-18:00', materials: [ids.wasteVerre] });
      const reopened = await publicPoint(app, point.id);
      assert.deepEqual([reopened?.openNow, reopened?.nextChange, reopened?.materials], [false, '2026-12-02T13:00:00.000Z', [ids.wasteVerre]]);
      assert.equal((await geojsonFeature(app, point.id))?.properties['recycling:plastic_packaging'], undefined);

      const stale = await inject(app, { ...asManager, 'if-match': etag }, 'DELETE', `/admin/recycling-points/${point.id}`);
      assert.equal(stale.statusCode, 412);
      const deleted = await inject(app, { ...asManager, 'if-match': String(changed.headers.etag) }, 'DELETE', `/admin/recycling-points/${point.id}`);
      assert.equal(deleted.statusCode, 204);
      assert.deepEqual((await inject(app, asManager, 'GET', `/admin/recycling-points/${point.id}`)).json(), NOT_FOUND);
      assert.equal(await publicPoint(app, point.id), undefined);
      const city = ((await app.inject('/public/cities')).json() as { id: string; recyclingPoints: { id: string }[] }[]).find((c) => c.id === ids.brest)!;
      assert.ok(!city.recyclingPoints.some((p) => p.id === point.id));

      const audit = await inject(app, asManager, 'GET', `/admin/audit?entity=recyclingPoint&entityId=${point.id}`);
      assert.equal(audit.statusCode, 200);
      const entries = audit.json().data as { action: string; userName: string; before: { materials: string[] } | null; after: { materials: string[] } | null }[];
      assert.deepEqual(entries.map((e) => e.action).sort(), ['create', 'delete', 'update']);
      const update = entries.find((e) => e.action === 'update')!;
      assert.deepEqual([update.userName, update.before?.materials, update.after?.materials], ['Gaëlle Manager', [ids.wasteEmb, ids.wasteVerre], [ids.wasteVerre]]);
    });

    it('tags a point in the open data with the OSM materials its waste types’ details name, not only their names', async () => {
      const { app, asManager } = ctx;
      // « Apport en déchèterie » names no material; its details name batteries and bulbs.
      const type = await inject(app, asManager, 'POST', `/admin/cities/${ids.brest}/waste-types`, { name: 'Apport en déchèterie' });
      assert.equal(type.statusCode, 201, type.body);
      for (const material of ['Piles et batteries', 'Ampoules et néons', 'Capsules de café']) {
        const detail = await inject(app, asManager, 'POST', `/admin/waste-types/${type.json().id}/details`, { material });
        assert.equal(detail.statusCode, 201, detail.body);
      }
      const shop = await inject(app, asManager, 'POST', `/admin/cities/${ids.brest}/recycling-points`, {
        name: 'Magasin de bricolage', kind: 'SHOP', latitude: 48.4, longitude: -4.49, materials: [type.json().id],
      });
      assert.equal(shop.statusCode, 201, shop.body);
      const tags = (await geojsonFeature(app, shop.json().id))?.properties ?? {};
      assert.deepEqual(
        Object.keys(tags).filter((k) => k.startsWith('recycling:')),
        ['recycling:batteries', 'recycling:light_bulbs'],
      );
      assert.equal(tags.amenity, 'recycling');
    });

    it('refuses a spec that does not parse and materials of no waste type of the city (400 naming the field), writing nothing', async () => {
      const { app, db, asManager } = ctx;
      const count = await rows(db);
      const version = await db.selectFrom('data_version').select('version').executeTakeFirst();
      const post = (body: object) => inject(app, asManager, 'POST', `/admin/cities/${ids.brest}/recycling-points`, { name: 'Borne', ...body });

      const badSpec = await post({ openingHoursSpec: 'Mo-Fr 09:00-' });
      assert.equal(badSpec.statusCode, 400);
      assert.match(badSpec.json().message, /^Le champ «\u00a0openingHoursSpec\u00a0» n’est pas une valeur opening_hours d’OpenStreetMap valide \(.+\)\.$/);
      // French the OSM library reads only with warnings: refused, with the form other OSM tools read to copy.
      const french = await post({ openingHoursSpec: 'Lu-Ve 9h-18h' });
      assert.deepEqual(french.json(), {
        statusCode: 400, error: 'Bad Request', code: 'validation', field: 'openingHoursSpec',
        message: 'Le champ «\u00a0openingHoursSpec\u00a0» n’est lu qu’approximativement par les outils OpenStreetMap\u00a0: écrivez «\u00a0Mo-Fr 09:00-18:00\u00a0» (jours Mo Tu We Th Fr Sa Su, heures 09:00-18:00).',
      });
      const empty = await post({ openingHoursSpec: ' ' });
      assert.equal(empty.json().message, 'Le champ «\u00a0openingHoursSpec\u00a0» ne doit pas être vide (null quand les horaires ne sont pas connus).');
      const foreign = await post({ materials: [UNKNOWN] });
      assert.deepEqual(foreign.json(), {
        statusCode: 400, error: 'Bad Request', code: 'validation', field: 'materials[0]',
        message: `Le champ «\u00a0materials[0]\u00a0» ne désigne aucun type de déchet de cette ville (${UNKNOWN}).`,
      });
      const twice = await post({ materials: [ids.wasteVerre, ids.wasteVerre] });
      assert.match(twice.json().message, /^Le champ «\u00a0materials\[1\]\u00a0» le type de déchet .+ figure déjà dans cette liste\.$/);
      const badKind = await post({ kind: 'DECHETERIE' });
      assert.equal(badKind.statusCode, 400);
      assert.match(badKind.json().message, /kind/);

      const [existing] = await db.selectFrom('recycling_point').select('id').where('city_id', '=', ids.brest).orderBy('name').execute();
      const read = await inject(app, asManager, 'GET', `/admin/recycling-points/${existing.id}`);
      const patched = await inject(app, { ...asManager, 'if-match': String(read.headers.etag) }, 'PATCH', `/admin/recycling-points/${existing.id}`, { openingHoursSpec: 'Mo-Fr 25:00-26:00' });
      assert.equal(patched.statusCode, 400);
      assert.match(patched.json().message, /openingHoursSpec/);
      assert.deepEqual((await inject(app, asManager, 'GET', `/admin/recycling-points/${existing.id}`)).json(), read.json());
      assert.equal(await rows(db), count);
      assert.deepEqual(await db.selectFrom('data_version').select('version').executeTakeFirst(), version);
      assert.equal((await db.selectFrom('audit_entry').select('id').where('entity_id', '=', existing.id).execute()).length, 0);
    });

    it('needs a token (401) and CITIES (403); another group’s city and points answer 404; a point keeps its city', async () => {
      const { app, db, asRoot, asManager, asOutsider, asEditor } = ctx;
      const [existing] = await db.selectFrom('recycling_point').select('id').where('city_id', '=', ids.brest).execute();
      const body = { name: 'Borne' };
      const count = await rows(db);
      assert.equal((await inject(app, {}, 'GET', `/admin/recycling-points/${existing.id}`)).statusCode, 401);
      const forbidden = await inject(app, asEditor, 'POST', `/admin/cities/${ids.brest}/recycling-points`, body);
      assert.deepEqual([forbidden.statusCode, forbidden.json().message], [403, 'Votre compte n’a pas la permission CITIES.']);
      assert.deepEqual((await inject(app, asOutsider, 'GET', `/admin/cities/${ids.brest}/recycling-points`)).json(), CITY_NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsider, 'POST', `/admin/cities/${ids.brest}/recycling-points`, body)).json(), CITY_NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsider, 'GET', `/admin/recycling-points/${existing.id}`)).json(), NOT_FOUND);
      // With the point's very ETag (read by an agent who may): still 404, as if missing.
      const etag = String((await inject(app, asManager, 'GET', `/admin/recycling-points/${existing.id}`)).headers.etag);
      const asOutsiderWriting = { ...asOutsider, 'if-match': etag };
      assert.deepEqual((await inject(app, asOutsiderWriting, 'PATCH', `/admin/recycling-points/${existing.id}`, { name: 'x' })).json(), NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsiderWriting, 'DELETE', `/admin/recycling-points/${existing.id}`)).json(), NOT_FOUND);
      // A city of no group is the super admin's alone.
      assert.deepEqual((await inject(app, asManager, 'POST', `/admin/cities/${ids.lonely}/recycling-points`, body)).json(), CITY_NOT_FOUND);
      assert.equal(await rows(db), count);

      // Naming another city in a PATCH does not move the point (its materials are its city's): it stays where it is.
      const moved = await inject(app, { ...asManager, 'if-match': etag }, 'PATCH', `/admin/recycling-points/${existing.id}`, { cityId: ids.lonely });
      assert.equal(moved.statusCode, 200);
      assert.equal(moved.json().cityId, ids.brest);
      assert.equal((await db.selectFrom('recycling_point').select('id').where('city_id', '=', ids.lonely).execute()).length, 0);

      assert.deepEqual((await inject(app, asRoot, 'GET', `/admin/recycling-points/${UNKNOWN}`)).json(), NOT_FOUND);
      const byRoot = await inject(app, asRoot, 'POST', `/admin/cities/${ids.lonely}/recycling-points`, body);
      assert.equal(byRoot.statusCode, 201);
      assert.equal((await inject(app, asManager, 'GET', `/admin/recycling-points/${byRoot.json().id}`)).statusCode, 404);
    });
  });
}
