import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { citiesAdminApp as setup, inject } from '../helpers/admin-fixtures.ts';

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
const notFound = (message: string, code: string) => ({ statusCode: 404, message, error: 'Not Found', code, field: null });
const PLACE_NOT_FOUND = notFound('Lieu de collecte introuvable dans cette ville', 'collectionPlaceNotFound');
const RULE_NOT_FOUND = notFound('Règle de rue introuvable', 'streetRuleNotFound');
/** A write rule's fault: code `validation`, naming the faulty field. */
const invalid = (message: string, field: string) => ({ statusCode: 400, message, error: 'Bad Request', code: 'validation', field });

/** A closed square around Brest's centre. */
const SQUARE = { type: 'Polygon', coordinates: [[[-4.5, 48.38], [-4.48, 48.38], [-4.48, 48.4], [-4.5, 48.4], [-4.5, 48.38]]] };

/** A record's ETag, read at its admin URL. */
const etagOf = async (app: FastifyInstance, headers: Record<string, string>, url: string) =>
  String((await inject(app, headers, 'GET', url)).headers.etag);
const publicCities = async (app: FastifyInstance) => (await app.inject('/public/cities')).body;
async function countRules(db: import('kysely').Kysely<import('../../src/db/types.ts').DB>) {
  return (await db.selectFrom('place_street').select('id').execute()).length;
}

for (const kind of testDatabaseKinds()) {
  describe(`/admin streets and areas of a collection place (${kind})`, () => {
    it('creates, lists, reads, changes and deletes a place’s street rules; the admin place shows them, the public city never', async (t) => {
      const { app, db, asManager } = await setup(t, kind);
      const publicBefore = await publicCities(app);

      const created = await inject(app, asManager, 'POST', `/admin/places/${ids.placeCentre}/streets`, {
        street: ' Rue de Siam ', fromNumber: 1, toNumber: 99, side: 'ODD',
      });
      assert.equal(created.statusCode, 201, created.body);
      const rule = created.json();
      assert.deepEqual({ ...rule, id: undefined }, { id: undefined, street: 'Rue de Siam', fromNumber: 1, toNumber: 99, side: 'ODD', placeId: ids.placeCentre });
      const stored = await db.selectFrom('place_street').selectAll().where('id', '=', rule.id).executeTakeFirstOrThrow();
      assert.equal(stored.street_key, 'rue de siam');

      const open = await inject(app, asManager, 'POST', `/admin/places/${ids.placeCentre}/streets`, { street: 'Allée d’Aulne', side: 'ALL' });
      assert.equal(open.statusCode, 201, open.body);
      assert.deepEqual({ ...(open.json() as object), id: undefined }, { id: undefined, street: 'Allée d’Aulne', fromNumber: null, toNumber: null, side: 'ALL', placeId: ids.placeCentre });

      const list = await inject(app, asManager, 'GET', `/admin/places/${ids.placeCentre}/streets`);
      assert.deepEqual(list.json().data.map((r: { street: string }) => r.street), ['Allée d’Aulne', 'Rue de Siam'], 'by street, French order');
      assert.deepEqual(list.json().meta, { page: 1, pageSize: 20, total: 2, totalPages: 1 });
      const place = (await inject(app, asManager, 'GET', `/admin/places/${ids.placeCentre}`)).json();
      assert.deepEqual(place.streets, list.json().data);
      assert.equal(place.area, null);

      const read = await inject(app, asManager, 'GET', `/admin/streets/${rule.id}`);
      assert.deepEqual(read.json(), rule);
      const etag = String(read.headers.etag);
      const changed = await inject(app, { ...asManager, 'if-match': etag }, 'PATCH', `/admin/streets/${rule.id}`, { toNumber: 49 });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.deepEqual(changed.json(), { ...rule, toNumber: 49 });
      assert.equal((await inject(app, { ...asManager, 'if-match': etag }, 'DELETE', `/admin/streets/${rule.id}`)).statusCode, 412);

      const audit = (await inject(app, asManager, 'GET', `/admin/audit?entity=street&entityId=${rule.id}`)).json();
      const update = audit.data.find((e: { action: string }) => e.action === 'update');
      assert.deepEqual([update.before.toNumber, update.after.toNumber], [99, 49]);
      assert.equal(audit.meta.total, 2);

      // The seed's public shapes do not change (docs/api.md): not one byte.
      assert.equal(await publicCities(app), publicBefore);

      assert.equal((await inject(app, { ...asManager, 'if-match': String(changed.headers.etag) }, 'DELETE', `/admin/streets/${rule.id}`)).statusCode, 204);
      assert.deepEqual((await inject(app, asManager, 'GET', `/admin/streets/${rule.id}`)).json(), RULE_NOT_FOUND);
      assert.equal(await countRules(db), 1);
      // A place is deleted with its street rules.
      const placeEtag = await etagOf(app, asManager, `/admin/places/${ids.placeCentre}`);
      assert.equal((await inject(app, { ...asManager, 'if-match': placeEtag }, 'DELETE', `/admin/places/${ids.placeCentre}`)).statusCode, 204);
      assert.equal(await countRules(db), 0);
    });

    it('sets and clears a place’s area; the admin place shows it with its bounding box stored, the public city never', async (t) => {
      const { app, db, asManager } = await setup(t, kind);
      const publicBefore = await publicCities(app);
      const etag = await etagOf(app, asManager, `/admin/places/${ids.placeNord}`);
      const patched = await inject(app, { ...asManager, 'if-match': etag }, 'PATCH', `/admin/places/${ids.placeNord}`, { area: SQUARE });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.deepEqual(patched.json().area, SQUARE);
      assert.equal(patched.json().name, 'Secteur Nord', 'the name stays');
      const row = await db.selectFrom('collection_place').selectAll().where('id', '=', ids.placeNord).executeTakeFirstOrThrow();
      assert.deepEqual([row.area_min_lon, row.area_min_lat, row.area_max_lon, row.area_max_lat], [-4.5, 48.38, -4.48, 48.4]);
      assert.deepEqual((await inject(app, asManager, 'GET', `/admin/places/${ids.placeNord}`)).json().area, SQUARE);
      assert.equal(await publicCities(app), publicBefore);

      const multi = { type: 'MultiPolygon', coordinates: [SQUARE.coordinates, [[[-4.4, 48.3], [-4.39, 48.3], [-4.39, 48.31], [-4.4, 48.3]]]] };
      const renamed = await inject(app, { ...asManager, 'if-match': String(patched.headers.etag) }, 'PATCH', `/admin/places/${ids.placeNord}`, { name: 'Nord', area: multi });
      assert.equal(renamed.statusCode, 200, renamed.body);
      assert.deepEqual(renamed.json().area, multi);
      const cleared = await inject(app, { ...asManager, 'if-match': String(renamed.headers.etag) }, 'PATCH', `/admin/places/${ids.placeNord}`, { area: null });
      assert.equal(cleared.json().area, null);
      const clearedRow = await db.selectFrom('collection_place').selectAll().where('id', '=', ids.placeNord).executeTakeFirstOrThrow();
      assert.deepEqual([clearedRow.area, clearedRow.area_min_lon, clearedRow.area_max_lat], [null, null, null]);

      const withArea = await inject(app, asManager, 'POST', `/admin/cities/${ids.brest}/places`, { name: 'Recouvrance', area: SQUARE });
      assert.equal(withArea.statusCode, 201, withArea.body);
      assert.deepEqual([withArea.json().area, withArea.json().streets], [SQUARE, []]);
    });

    it('refuses a bad area with a French message naming the field, writing nothing', async (t) => {
      const { app, db, asManager } = await setup(t, kind);
      const before = await db.selectFrom('collection_place').selectAll().orderBy('id').execute();
      const ring = SQUARE.coordinates[0];
      const cases: [object, string, string][] = [
        [{ type: 'Point', coordinates: [-4.5, 48.4] }, 'area.type', 'doit être un Polygon ou un MultiPolygon GeoJSON'],
        [{ type: 'Polygon', coordinates: [ring.slice(0, 4)] }, 'area.coordinates[0]', 'doit se refermer\u00a0: sa dernière position doit être égale à la première'],
        [{ type: 'Polygon', coordinates: [[ring[0], ring[1], ring[0]]] }, 'area.coordinates[0]', 'doit compter au moins 4 positions (un anneau fermé)'],
        [{ type: 'Polygon', coordinates: [[ring[0], [-181, 48.38], ring[2], ring[0]]] }, 'area.coordinates[0][1][0]', 'doit être une longitude entre -180 et 180'],
        [{ type: 'Polygon', coordinates: [[ring[0], [-4.48, 91], ring[2], ring[0]]] }, 'area.coordinates[0][1][1]', 'doit être une latitude entre -90 et 90'],
        [{ type: 'Polygon', coordinates: [[ring[0], ['a', 1], ring[2], ring[0]]] }, 'area.coordinates[0][1]', 'doit être une position [longitude, latitude] en nombres'],
        [{ type: 'MultiPolygon', coordinates: [] }, 'area.coordinates', 'doit contenir au moins un polygone'],
      ];
      const asManagerOnNord = { ...asManager, 'if-match': await etagOf(app, asManager, `/admin/places/${ids.placeNord}`) };
      for (const [area, field, rule] of cases) {
        const answer = await inject(app, asManagerOnNord, 'PATCH', `/admin/places/${ids.placeNord}`, { area });
        assert.deepEqual(answer.json(), invalid(`Le champ «\u00a0${field}\u00a0» ${rule}.`, field), JSON.stringify(area));
      }
      const created = await inject(app, asManager, 'POST', `/admin/cities/${ids.brest}/places`, { name: 'X', area: { type: 'Polygon', coordinates: [ring.slice(0, 4)] } });
      assert.equal(created.statusCode, 400);
      assert.deepEqual(await db.selectFrom('collection_place').selectAll().orderBy('id').execute(), before);
    });

    it('refuses a bad rule with a French message naming the field, writing nothing', async (t) => {
      const { app, db, asManager } = await setup(t, kind);
      const url = `/admin/places/${ids.placeCentre}/streets`;
      const cases: [object, string, string][] = [
        [{ street: 'Rue de Siam', fromNumber: 20, toNumber: 10, side: 'ALL' }, 'toNumber', 'doit être égal ou supérieur à fromNumber'],
        [{ street: 'Rue de Siam', fromNumber: 0, side: 'ALL' }, 'fromNumber', 'doit être un numéro égal ou supérieur à 1 (null\u00a0: sans limite)'],
        [{ street: 'Rue de Siam', toNumber: -3, side: 'ALL' }, 'toNumber', 'doit être un numéro égal ou supérieur à 1 (null\u00a0: sans limite)'],
      ];
      for (const [body, field, rule] of cases) {
        assert.deepEqual((await inject(app, asManager, 'POST', url, body)).json(), invalid(`Le champ «\u00a0${field}\u00a0» ${rule}.`, field));
      }
      const badSide = await inject(app, asManager, 'POST', url, { street: 'Rue de Siam', side: 'BOTH' });
      assert.equal(badSide.statusCode, 400);
      assert.match(badSide.json().message, /side/);
      const huge = await inject(app, asManager, 'POST', url, { street: 'Rue de Siam', fromNumber: 2 ** 40, side: 'ALL' });
      assert.equal(huge.statusCode, 400);
      assert.match(huge.json().message, /fromNumber/);
      assert.equal(await countRules(db), 0);

      const created = await inject(app, asManager, 'POST', url, { street: 'Rue de Siam', fromNumber: 2, toNumber: 40, side: 'EVEN' });
      const rule = created.json();
      const reversed = await inject(app, { ...asManager, 'if-match': String(created.headers.etag) }, 'PATCH', `/admin/streets/${rule.id}`, { fromNumber: 50 });
      assert.deepEqual(reversed.json(), invalid('Le champ «\u00a0toNumber\u00a0» doit être égal ou supérieur à fromNumber.', 'toNumber'));
      assert.deepEqual((await inject(app, asManager, 'GET', `/admin/streets/${rule.id}`)).json(), rule);
    });

    it('refuses a rule overlapping one of the same street on another place of the city, naming it; other sides, ranges and cities pass', async (t) => {
      const { app, db, asManager } = await setup(t, kind);
      const centre = (await inject(app, asManager, 'POST', `/admin/places/${ids.placeCentre}/streets`, {
        street: 'Rue Jean-Jaurès', fromNumber: 1, toNumber: 99, side: 'ODD',
      })).json();
      const nord = `/admin/places/${ids.placeNord}/streets`;
      const overlap = await inject(app, asManager, 'POST', nord, { street: 'RUE JEAN JAURES', fromNumber: 51, side: 'ALL' });
      assert.deepEqual(
        overlap.json(),
        invalid(
          'Le champ «\u00a0street\u00a0» recouvre les numéros de la rue « RUE JEAN JAURES » déjà attribués à un autre lieu de collecte par ' +
            `la règle ${centre.id} du lieu de collecte « Centre-ville » (${ids.placeCentre}).`,
          'street',
        ),
      );
      assert.equal(await countRules(db), 1);
      // The even side, the numbers past 99, overlapping rules of one place, and another city are all free.
      for (const body of [
        { street: 'rue jean jaurès', side: 'EVEN' },
        { street: 'Rue Jean-Jaurès', fromNumber: 100, side: 'ALL' },
      ]) {
        const answer = await inject(app, asManager, 'POST', nord, body);
        assert.equal(answer.statusCode, 201, answer.body);
      }
      assert.equal((await inject(app, asManager, 'POST', `/admin/places/${ids.placeCentre}/streets`, { street: 'Rue Jean-Jaurès', fromNumber: 1, toNumber: 5, side: 'ODD' })).statusCode, 201);
      const elorn = (await inject(app, asManager, 'POST', `/admin/cities/${ids.elorn}/places`, { name: 'Bourg' })).json();
      assert.equal((await inject(app, asManager, 'POST', `/admin/places/${elorn.id}/streets`, { street: 'Rue Jean-Jaurès', side: 'ALL' })).statusCode, 201);

      // A change that would overlap is refused too.
      const even = (await inject(app, asManager, 'GET', `${nord}`)).json().data.find((r: { side: string }) => r.side === 'EVEN');
      const evenEtag = await etagOf(app, asManager, `/admin/streets/${even.id}`);
      const widened = await inject(app, { ...asManager, 'if-match': evenEtag }, 'PATCH', `/admin/streets/${even.id}`, { side: 'ALL' });
      assert.equal(widened.statusCode, 400);
      assert.match(widened.json().message, /^Le champ «\u00a0street\u00a0» recouvre les numéros de la rue « rue jean jaurès »/);
      assert.equal((await inject(app, asManager, 'GET', `/admin/streets/${even.id}`)).json().side, 'EVEN');
    });

    it('lets one of two concurrent overlapping creations through (201) and refuses the other (400)', async (t) => {
      const { app, db, asManager } = await setup(t, kind);
      for (let round = 0; round < 3; round += 1) {
        const street = `Rue de la Course ${round}`;
        const answers = await Promise.all(
          [ids.placeCentre, ids.placeNord].map((placeId) =>
            inject(app, asManager, 'POST', `/admin/places/${placeId}/streets`, { street, fromNumber: 1, toNumber: 20, side: 'ALL' }),
          ),
        );
        assert.deepEqual(answers.map((a) => a.statusCode).sort(), [201, 400], answers.map((a) => a.body).join('\n'));
        const rows = await db.selectFrom('place_street').select('place_id').where('street', '=', street).execute();
        assert.equal(rows.length, 1);
      }
    });

    it('needs a token (401) and CITIES (403); another group’s place and rules answer 404, a super admin reaches them', async (t) => {
      const { app, db, asRoot, asManager, asOutsider, asEditor } = await setup(t, kind);
      const rule = (await inject(app, asManager, 'POST', `/admin/places/${ids.placeCentre}/streets`, { street: 'Rue de Siam', side: 'ALL' })).json();
      const body = { street: 'Rue de Brest', side: 'ALL' };
      assert.equal((await inject(app, {}, 'GET', `/admin/streets/${rule.id}`)).statusCode, 401);
      assert.equal((await inject(app, {}, 'POST', `/admin/places/${ids.placeCentre}/streets`, body)).statusCode, 401);
      const forbidden = await inject(app, asEditor, 'POST', `/admin/places/${ids.placeCentre}/streets`, body);
      assert.equal(forbidden.statusCode, 403);
      assert.equal(forbidden.json().message, 'Votre compte n’a pas la permission CITIES.');

      assert.deepEqual((await inject(app, asOutsider, 'GET', `/admin/places/${ids.placeCentre}/streets`)).json(), PLACE_NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsider, 'POST', `/admin/places/${ids.placeCentre}/streets`, body)).json(), PLACE_NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsider, 'GET', `/admin/streets/${rule.id}`)).json(), RULE_NOT_FOUND);
      // With the records' very ETags (read by an agent who may): still 404, as if missing.
      const onRule = { ...asOutsider, 'if-match': await etagOf(app, asRoot, `/admin/streets/${rule.id}`) };
      const onPlace = { ...asOutsider, 'if-match': await etagOf(app, asRoot, `/admin/places/${ids.placeCentre}`) };
      assert.deepEqual((await inject(app, onRule, 'PATCH', `/admin/streets/${rule.id}`, { street: 'x' })).json(), RULE_NOT_FOUND);
      assert.deepEqual((await inject(app, onRule, 'DELETE', `/admin/streets/${rule.id}`)).json(), RULE_NOT_FOUND);
      assert.deepEqual((await inject(app, onPlace, 'PATCH', `/admin/places/${ids.placeCentre}`, { area: SQUARE })).json(), PLACE_NOT_FOUND);
      assert.deepEqual((await inject(app, asRoot, 'GET', `/admin/streets/${UNKNOWN}`)).json(), RULE_NOT_FOUND);
      assert.deepEqual((await inject(app, asRoot, 'GET', `/admin/streets/${rule.id}`)).json(), rule);
      assert.equal(await countRules(db), 1);
      const place = await db.selectFrom('collection_place').select('area').where('id', '=', ids.placeCentre).executeTakeFirstOrThrow();
      assert.equal(place.area, null);
    });
  });
}
