// A record's history and the restore of a past version (docs/api.md, the admin API), for the collection data the
// console edits beside waste types and recycling points: places, their collection days and exceptions. The history
// is the audit log filtered by kind and id (GET /admin/audit?entity=&entityId=), scoped to the agent's groups; a
// restore is an ordinary PATCH of the version's fields with If-Match of the current one, so it is checked, audited and
// published like any edit, and a stale one answers 412.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { readDataVersion } from '../../src/db/data-version.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { citiesAdminApp as setup, inject } from '../helpers/admin-fixtures.ts';

interface Entry {
  id: string;
  action: 'create' | 'update' | 'delete';
  userName: string;
  entity: string;
  entityId: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** The fields the console's form writes, per kind (web/console/src/field-labels.ts). */
const WRITTEN = {
  collectionPlace: ['name', 'area'],
  collectionDay: ['name', 'wasteTypeId', 'biweekly', 'startDate', 'description'],
  exception: ['kind', 'wasteTypeId', 'dateFrom', 'dateTo', 'movedTo', 'name', 'description'],
} as const;

const pick = (entity: keyof typeof WRITTEN, record: Record<string, unknown>) => Object.fromEntries(WRITTEN[entity].map((f) => [f, record[f]]));

const history = async (app: FastifyInstance, headers: Record<string, string>, entity: string, id: string): Promise<Entry[]> => {
  const res = await inject(app, headers, 'GET', `/admin/audit?entity=${entity}&entityId=${id}`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data;
};

const etagOf = async (app: FastifyInstance, headers: Record<string, string>, url: string) => String((await inject(app, headers, 'GET', url)).headers.etag);

for (const kind of testDatabaseKinds()) {
  describe(`history and restore of places, collection days and exceptions (${kind})`, () => {
    for (const [entity, path, what] of [['collectionPlace', 'places', 'a place'], ['collectionDay', 'collection-days', 'a collection day'], ['exception', 'exceptions', 'an exception']] as const) {
      it(`restores a past version of ${what}: a new write, audited, published, 412 when stale, unseen outside the group`, async (t) => {
        const { app, db, asManager, asOutsider } = await setup(t, kind);
        const first = {
          collectionPlace: { url: `/admin/cities/${ids.brest}/places`, body: { name: 'Bellevue' } },
          collectionDay: { url: `/admin/places/${ids.placeCentre}/collection-days`, body: { name: 'mardi', wasteTypeId: ids.wasteEmb, description: 'Sortir le bac la veille' } },
          exception: {
            url: `/admin/places/${ids.placeCentre}/exceptions`,
            body: { kind: 'CANCEL', wasteTypeId: ids.wasteOm, dateFrom: '2026-12-24T23:00:00.000Z', dateTo: null, name: 'Noël', description: 'Pas de collecte' },
          },
        }[entity];
        const later = {
          collectionPlace: { name: 'Bellevue-Kerbernier' },
          collectionDay: { name: 'jeudi', description: null },
          exception: { name: 'Grève', dateFrom: '2026-12-27T23:00:00.000Z' },
        }[entity];
        const created = await inject(app, asManager, 'POST', first.url, first.body);
        assert.equal(created.statusCode, 201, created.body);
        const id = created.json().id as string;
        const url = `/admin/${path}/${id}`;
        const changed = await inject(app, { ...asManager, 'if-match': String(created.headers.etag) }, 'PATCH', url, later);
        assert.equal(changed.statusCode, 200, changed.body);

        // The history: newest first, each entry with the record before and after.
        const entries = await history(app, asManager, entity, id);
        assert.deepEqual(entries.map((e) => [e.action, e.userName]), [['update', 'Gaëlle Manager'], ['create', 'Gaëlle Manager']]);
        const original = entries[1].after!;
        assert.deepEqual(pick(entity, entries[0].before!), pick(entity, original));
        assert.deepEqual(pick(entity, entries[0].after!), pick(entity, changed.json()));

        // Another group's agent reads none of it and cannot restore it.
        assert.deepEqual(await history(app, asOutsider, entity, id), []);
        const outside = await inject(app, { ...asOutsider, 'if-match': '*' }, 'PATCH', url, pick(entity, original));
        assert.equal(outside.statusCode, 404);

        // « Restaurer cette version »: the first version's fields, sent with If-Match of the current version.
        const version = await readDataVersion(db);
        const stale = await inject(app, { ...asManager, 'if-match': String(created.headers.etag) }, 'PATCH', url, pick(entity, original));
        assert.equal(stale.statusCode, 412);
        assert.equal(stale.json().code, 'preconditionFailed');
        assert.equal((await history(app, asManager, entity, id)).length, 2, 'a refused restore writes nothing');
        const restored = await inject(app, { ...asManager, 'if-match': await etagOf(app, asManager, url) }, 'PATCH', url, pick(entity, original));
        assert.equal(restored.statusCode, 200, restored.body);
        assert.deepEqual(pick(entity, restored.json()), pick(entity, original));
        assert.equal(await readDataVersion(db), version + 1, 'the restore bumps the data version');
        const [restore] = await history(app, asManager, entity, id);
        assert.equal(restore.action, 'update');
        assert.deepEqual(pick(entity, restore.before!), pick(entity, changed.json()));
        assert.deepEqual(pick(entity, restore.after!), pick(entity, original));
      });
    }

    it('checks a restored version as any edit: a day whose waste type was deleted since is refused, naming the field', async (t) => {
      const { app, db, asManager } = await setup(t, kind);
      const type = await inject(app, asManager, 'POST', `/admin/cities/${ids.brest}/waste-types`, { name: 'Biodéchets' });
      assert.equal(type.statusCode, 201, type.body);
      const day = await inject(app, asManager, 'POST', `/admin/places/${ids.placeCentre}/collection-days`, { name: 'mardi', wasteTypeId: type.json().id });
      assert.equal(day.statusCode, 201, day.body);
      const url = `/admin/collection-days/${day.json().id}`;
      const moved = await inject(app, { ...asManager, 'if-match': String(day.headers.etag) }, 'PATCH', url, { wasteTypeId: ids.wasteOm });
      assert.equal(moved.statusCode, 200, moved.body);
      const removed = await inject(app, { ...asManager, 'if-match': await etagOf(app, asManager, `/admin/waste-types/${type.json().id}`) }, 'DELETE', `/admin/waste-types/${type.json().id}`);
      assert.equal(removed.statusCode, 204, removed.body);

      const [, createdEntry] = await history(app, asManager, 'collectionDay', day.json().id);
      const version = await readDataVersion(db);
      const refused = await inject(app, { ...asManager, 'if-match': String(moved.headers.etag) }, 'PATCH', url, pick('collectionDay', createdEntry.after!));
      assert.equal(refused.statusCode, 400, refused.body);
      assert.equal(refused.json().field, 'wasteTypeId');
      assert.match(refused.json().message, /wasteTypeId/);
      assert.equal(await readDataVersion(db), version, 'nothing published');
      assert.equal((await history(app, asManager, 'collectionDay', day.json().id)).length, 2, 'nothing audited');
    });
  });
}
