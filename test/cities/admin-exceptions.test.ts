import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { citiesAdminApp as setup, inject } from '../helpers/admin-fixtures.ts';

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
const NOT_FOUND = { statusCode: 404, message: 'Exception de collecte introuvable', error: 'Not Found', code: 'collectionExceptionNotFound', field: null };
const PLACE_NOT_FOUND = {
  statusCode: 404, message: 'Lieu de collecte introuvable dans cette ville', error: 'Not Found', code: 'collectionPlaceNotFound', field: null,
};
/** Friday 4 December 2026, midnight in Brest: a day the centre's household waste is collected. */
const FRIDAY = '2026-12-03T23:00:00.000Z';
const CALENDAR = `/public/cities/${ids.brest}/places/${ids.placeCentre}/collections?from=2026-12-04&to=2026-12-04`;

const householdOn = async (app: FastifyInstance) =>
  (await app.inject(CALENDAR)).json().filter((o: { wasteTypeId: string }) => o.wasteTypeId === ids.wasteOm).length;

for (const kind of testDatabaseKinds()) {
  describe(`/admin exceptions (${kind})`, () => {
    it('creates, lists, reads, changes and deletes an exception, the public calendar following each write', async (t) => {
      const { app, db, asManager } = await setup(t, kind);
      assert.equal(await householdOn(app), 1);

      const created = await inject(app, asManager, 'POST', `/admin/places/${ids.placeCentre}/exceptions`, {
        dateFrom: FRIDAY, wasteTypeId: ids.wasteOm, name: 'Grève', description: 'Collecte annulée',
      });
      assert.equal(created.statusCode, 201, created.body);
      const exception = created.json();
      assert.deepEqual({ ...exception, id: undefined }, {
        id: undefined, dateFrom: FRIDAY, dateTo: null, wasteTypeId: ids.wasteOm, name: 'Grève', description: 'Collecte annulée',
        kind: 'CANCEL', movedTo: null, placeId: ids.placeCentre,
      });
      assert.match(String(created.headers.etag), /^"[A-Za-z0-9_-]{27}"$/);
      assert.equal(await householdOn(app), 0, 'the cancelled collection is gone from the public calendar at once');

      const list = await inject(app, asManager, 'GET', `/admin/places/${ids.placeCentre}/exceptions?pageSize=2`);
      assert.equal(list.statusCode, 200);
      assert.deepEqual(list.json().meta, { page: 1, pageSize: 2, total: 3, totalPages: 2 });
      assert.equal(list.json().data[0].id, exception.id, 'by dateFrom');

      const read = await inject(app, asManager, 'GET', `/admin/exceptions/${exception.id}`);
      assert.equal(read.statusCode, 200);
      assert.deepEqual(read.json(), exception);
      const etag = String(read.headers.etag);
      assert.equal(etag, created.headers.etag);

      const changed = await inject(app, { ...asManager, 'if-match': etag }, 'PATCH', `/admin/exceptions/${exception.id}`, { description: 'Reportée au samedi' });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.deepEqual(changed.json(), { ...exception, description: 'Reportée au samedi' });
      assert.notEqual(changed.headers.etag, etag);

      const stale = await inject(app, { ...asManager, 'if-match': etag }, 'DELETE', `/admin/exceptions/${exception.id}`);
      assert.equal(stale.statusCode, 412);
      assert.match(stale.json().message, /modifié depuis que vous l’avez lu/);

      const deleted = await inject(app, { ...asManager, 'if-match': String(changed.headers.etag) }, 'DELETE', `/admin/exceptions/${exception.id}`);
      assert.equal(deleted.statusCode, 204);
      assert.equal(deleted.body, '');
      assert.deepEqual((await inject(app, asManager, 'GET', `/admin/exceptions/${exception.id}`)).json(), NOT_FOUND);
      assert.equal(await householdOn(app), 1, 'the collection is back once the exception is deleted');

      const audit = await db.selectFrom('audit_entry').selectAll().where('entity_id', '=', exception.id).orderBy('at').orderBy('action').execute();
      assert.deepEqual(audit.map((a) => [a.entity, a.action, a.user_name, a.city_group_ids]).sort(), [
        ['exception', 'create', 'Gaëlle Manager', [ids.group]],
        ['exception', 'delete', 'Gaëlle Manager', [ids.group]],
        ['exception', 'update', 'Gaëlle Manager', [ids.group]],
      ]);
      const update = audit.find((a) => a.action === 'update')!;
      const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);
      assert.equal(json(update.before).description, 'Collecte annulée');
      assert.equal(json(update.after).description, 'Reportée au samedi');
    });

    it('refuses a record that breaks the bundle’s rules with a French message naming the field, writing nothing', async (t) => {
      const { app, db, asManager } = await setup(t, kind);
      const before = await db.selectFrom('collection_exception').select('id').execute();
      const version = await db.selectFrom('data_version').select('version').executeTakeFirst();
      const backwards = await inject(app, asManager, 'POST', `/admin/places/${ids.placeCentre}/exceptions`, {
        dateFrom: FRIDAY, dateTo: '2026-12-01T23:00:00.000Z', wasteTypeId: ids.wasteOm,
      });
      assert.deepEqual(backwards.json(), {
        statusCode: 400, error: 'Bad Request', code: 'validation', field: 'dateTo',
        message: 'Le champ «\u00a0dateTo\u00a0» doit être une date égale ou postérieure à dateFrom.',
      });
      const foreignType = await inject(app, asManager, 'POST', `/admin/places/${ids.placeCentre}/exceptions`, { dateFrom: FRIDAY, wasteTypeId: UNKNOWN });
      assert.equal(foreignType.statusCode, 400);
      assert.match(foreignType.json().message, /«\u00a0wasteTypeId\u00a0» ne désigne aucun type de déchet de cette ville/);
      const [existing] = before;
      const read = await inject(app, asManager, 'GET', `/admin/exceptions/${existing.id}`);
      const patched = await inject(app, { ...asManager, 'if-match': String(read.headers.etag) }, 'PATCH', `/admin/exceptions/${existing.id}`, { dateTo: '2020-01-01T00:00:00.000Z' });
      assert.equal(patched.statusCode, 400);
      assert.match(patched.json().message, /dateTo/);
      assert.deepEqual((await inject(app, asManager, 'GET', `/admin/exceptions/${existing.id}`)).json(), read.json());
      assert.deepEqual(await db.selectFrom('collection_exception').select('id').execute(), before);
      assert.deepEqual(await db.selectFrom('data_version').select('version').executeTakeFirst(), version);
      assert.equal((await db.selectFrom('audit_entry').select('id').where('entity', '=', 'exception').execute()).length, 0);
    });

    it('lets one of two PATCHes sent at once with the same If-Match win; the other answers 412', async (t) => {
      const { app, db, asManager } = await setup(t, kind);
      const [existing] = await db.selectFrom('collection_exception').select('id').where('place_id', '=', ids.placeCentre).execute();
      const read = await inject(app, asManager, 'GET', `/admin/exceptions/${existing.id}`);
      const headers = { ...asManager, 'if-match': String(read.headers.etag) };
      const answers = await Promise.all(
        ['Première', 'Seconde'].map((name) => inject(app, headers, 'PATCH', `/admin/exceptions/${existing.id}`, { name })),
      );
      assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 412]);
      const winner = answers.find((a) => a.statusCode === 200)!.json();
      assert.deepEqual((await inject(app, asManager, 'GET', `/admin/exceptions/${existing.id}`)).json(), winner);
    });

    it('needs a token (401) and CITIES (403); another group’s place and exceptions answer 404, a super admin reaches them', async (t) => {
      const { app, db, asRoot, asOutsider, asEditor } = await setup(t, kind);
      const [existing] = await db.selectFrom('collection_exception').select('id').where('place_id', '=', ids.placeCentre).execute();
      const body = { dateFrom: FRIDAY, wasteTypeId: ids.wasteOm };
      assert.equal((await inject(app, {}, 'GET', `/admin/exceptions/${existing.id}`)).statusCode, 401);
      const forbidden = await inject(app, asEditor, 'POST', `/admin/places/${ids.placeCentre}/exceptions`, body);
      assert.equal(forbidden.statusCode, 403);
      assert.equal(forbidden.json().message, 'Votre compte n’a pas la permission CITIES.');

      assert.deepEqual((await inject(app, asOutsider, 'GET', `/admin/places/${ids.placeCentre}/exceptions`)).json(), PLACE_NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsider, 'POST', `/admin/places/${ids.placeCentre}/exceptions`, body)).json(), PLACE_NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsider, 'GET', `/admin/exceptions/${existing.id}`)).json(), NOT_FOUND);
      // With the exception's very ETag (read by an agent who may): still 404, as if missing.
      const etag = String((await inject(app, asRoot, 'GET', `/admin/exceptions/${existing.id}`)).headers.etag);
      const asOutsiderWriting = { ...asOutsider, 'if-match': etag };
      assert.deepEqual((await inject(app, asOutsiderWriting, 'PATCH', `/admin/exceptions/${existing.id}`, { name: 'x' })).json(), NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsiderWriting, 'DELETE', `/admin/exceptions/${existing.id}`)).json(), NOT_FOUND);
      assert.deepEqual((await inject(app, asRoot, 'GET', `/admin/exceptions/${UNKNOWN}`)).json(), NOT_FOUND);
      assert.equal((await inject(app, asRoot, 'GET', `/admin/exceptions/${existing.id}`)).statusCode, 200);
      assert.equal((await db.selectFrom('audit_entry').select('id').where('entity', '=', 'exception').execute()).length, 0);
    });

    it('keeps the audit entry and the data version with the write: a failing write leaves neither', async (t) => {
      const { app, db, asManager } = await setup(t, kind);
      const before = Number((await db.selectFrom('data_version').select('version').executeTakeFirstOrThrow()).version);
      const created = await inject(app, asManager, 'POST', `/admin/places/${ids.placeCentre}/exceptions`, { dateFrom: FRIDAY, wasteTypeId: ids.wasteOm });
      assert.equal(created.statusCode, 201);
      const after = Number((await db.selectFrom('data_version').select('version').executeTakeFirstOrThrow()).version);
      assert.equal(after, before + 1);
      assert.equal(app.dataVersion.current, after, 'this instance sees its own write at once');
      // A write whose audit entry cannot be stored is rolled back whole: no exception, no version bump.
      await sql`ALTER TABLE audit_entry ADD CONSTRAINT no_exception_audit CHECK (entity <> 'exception') NOT VALID`.execute(db);
      const count = async () => (await db.selectFrom('collection_exception').select('id').execute()).length;
      const rows = await count();
      const failed = await inject(app, asManager, 'POST', `/admin/places/${ids.placeCentre}/exceptions`, { dateFrom: FRIDAY, wasteTypeId: ids.wasteVerre });
      assert.equal(failed.statusCode, 500);
      assert.equal(await count(), rows);
      assert.equal(Number((await db.selectFrom('data_version').select('version').executeTakeFirstOrThrow()).version), after);
    });
  });
}
