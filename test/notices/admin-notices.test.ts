import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { inject } from '../helpers/admin-fixtures.ts';
import { createAccount, loginHeaders } from '../helpers/auth-fixtures.ts';
import { fixedClock } from '../helpers/app.ts';
import { createNotice, noticesApp } from '../helpers/notice-fixtures.ts';

/** `/admin/notices` (docs/api.md, collections that move and service notices): CRUD, the agent's groups, the rules naming their field, If-Match. */

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
const NOW = '2026-11-26T10:00:00.000Z';
const NOTICE_NOT_FOUND = { statusCode: 404, message: 'Avis introuvable', error: 'Not Found', code: 'noticeNotFound', field: null };
const GROUP_NOT_FOUND = { statusCode: 404, message: 'Groupe de villes introuvable', error: 'Not Found', code: 'cityGroupNotFound', field: 'cityGroupId' };

for (const kind of testDatabaseKinds()) {
  describe(`/admin/notices (${kind})`, () => {
    it('creates, reads, lists, changes and deletes a notice, each write audited', async (t) => {
      const { app, db, asManager, asRoot } = await noticesApp(t, kind, { clock: fixedClock(NOW) });

      const created = await inject(app, asManager, 'POST', '/admin/notices', {
        cityGroupId: ids.group.toUpperCase(),
        title: '  Grève des agents de collecte  ',
        body: 'Les collectes du jeudi sont reportées.',
      });
      assert.equal(created.statusCode, 201, created.body);
      const notice = created.json();
      assert.deepEqual({ ...notice, id: undefined }, {
        id: undefined,
        cityGroupId: ids.group,
        cityIds: [],
        placeIds: [],
        title: 'Grève des agents de collecte',
        body: 'Les collectes du jeudi sont reportées.',
        severity: 'INFO',
        startsAt: NOW,
        endsAt: null,
        notify: false,
        notifiedAt: null,
        createdAt: NOW,
        updatedAt: NOW,
      });
      assert.match(String(created.headers.etag), /^"[A-Za-z0-9_-]{27}"$/);

      const read = await inject(app, asManager, 'GET', `/admin/notices/${notice.id}`);
      assert.equal(read.statusCode, 200);
      assert.deepEqual(read.json(), notice);
      assert.equal(read.headers.etag, created.headers.etag);
      assert.equal(read.headers['cache-control'], 'no-store');

      const second = await createNotice(app, asManager, {
        cityIds: [ids.brest],
        placeIds: [ids.placeNord, ids.placeNord.toUpperCase()],
        severity: 'WARNING',
        startsAt: '2026-11-27T06:00:00.000Z',
        endsAt: '2026-11-27T18:00:00.000Z',
        notify: true,
      });
      assert.deepEqual(second.placeIds, [ids.placeNord], 'each place once, as stored');

      // Newest startsAt first; the group filter; every group of the agent without it.
      const list = await inject(app, asManager, 'GET', '/admin/notices?pageSize=1');
      assert.equal(list.statusCode, 200);
      assert.deepEqual(list.json().meta, { page: 1, pageSize: 1, total: 2, totalPages: 2 });
      assert.equal(list.json().data[0].id, second.id);
      const filtered = await inject(app, asManager, 'GET', `/admin/notices?cityGroupId=${ids.group}`);
      assert.deepEqual(filtered.json().data.map((n: { id: string }) => n.id), [second.id, notice.id]);
      const otherGroup = await inject(app, asRoot, 'GET', `/admin/notices?cityGroupId=${ids.emptyGroup}`);
      assert.deepEqual(otherGroup.json().data, []);

      const changed = await inject(app, { ...asManager, 'if-match': String(read.headers.etag) }, 'PATCH', `/admin/notices/${notice.id}`, {
        body: 'Les collectes du jeudi sont reportées au vendredi.',
        endsAt: '2026-11-28T00:00:00.000Z',
      });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.deepEqual(changed.json(), { ...notice, body: 'Les collectes du jeudi sont reportées au vendredi.', endsAt: '2026-11-28T00:00:00.000Z' });
      assert.notEqual(changed.headers.etag, read.headers.etag);

      const deleted = await inject(app, { ...asManager, 'if-match': String(changed.headers.etag) }, 'DELETE', `/admin/notices/${notice.id}`);
      assert.equal(deleted.statusCode, 204);
      assert.deepEqual((await inject(app, asManager, 'GET', `/admin/notices/${notice.id}`)).json(), NOTICE_NOT_FOUND);

      const audit = await db.selectFrom('audit_entry').select(['action', 'entity']).where('entity_id', '=', notice.id).orderBy('at').execute();
      assert.deepEqual(audit.map((a) => a.action), ['create', 'update', 'delete']);
      assert.ok(audit.every((a) => a.entity === 'notice'));
    });

    it('answers 400 naming the field: cities of the group, places of those cities, dates, schema', async (t) => {
      const { app, asManager } = await noticesApp(t, kind);
      const refused = async (body: Record<string, unknown>) => {
        const response = await inject(app, asManager, 'POST', '/admin/notices', { cityGroupId: ids.group, title: 'Avis', body: 'Texte.', ...body });
        assert.equal(response.statusCode, 400, response.body);
        const error = response.json();
        assert.equal(error.error, 'Bad Request');
        return error as { code: string; field: string; message: string };
      };

      const city = await refused({ cityIds: [ids.brest, UNKNOWN] });
      assert.deepEqual([city.code, city.field], ['validation', 'cityIds[1]']);
      assert.equal(city.message, `Le champ «\u00a0cityIds[1]\u00a0» ne désigne aucune ville de ce groupe (${UNKNOWN}).`);
      // Zeta is a city of no group, Brest one of another group than Aber's.
      assert.equal((await refused({ cityIds: [ids.lonely] })).field, 'cityIds[0]');

      const place = await refused({ cityIds: [ids.elorn], placeIds: [ids.placeCentre] });
      assert.deepEqual([place.code, place.field], ['validation', 'placeIds[0]']);
      assert.match(place.message, /ne désigne aucun lieu de collecte des villes de «\u00a0cityIds\u00a0»/);
      const outside = await refused({ placeIds: [ids.placeNord, UNKNOWN] });
      assert.deepEqual([outside.code, outside.field], ['validation', 'placeIds[1]']);
      assert.match(outside.message, /ne désigne aucun lieu de collecte des villes de ce groupe/);

      const ends = await refused({ startsAt: '2026-11-27T06:00:00.000Z', endsAt: '2026-11-27T06:00:00.000Z' });
      assert.deepEqual([ends.code, ends.field], ['validation', 'endsAt']);
      assert.match(ends.message, /endsAt.*doit suivre le début de l’avis \(startsAt\)/);

      // What the date-time format lets through but no database holds alike: a leap second, the year 0.
      assert.deepEqual((await refused({ startsAt: '2016-12-31T23:59:60Z' })).field, 'startsAt');
      assert.deepEqual((await refused({ endsAt: '0000-01-01T00:00:00Z' })).field, 'endsAt');

      const long = await refused({ body: 'x'.repeat(1001) });
      assert.deepEqual([long.code, long.field], ['validation', 'body']);
      assert.match(long.message, /au plus 1000 caractères/);
      assert.equal((await refused({ body: 'x'.repeat(1000), severity: 'URGENT' })).field, 'severity');
      assert.equal((await refused({ title: '   ' })).field, 'title');
      assert.equal((await refused({ placeIds: ['centre-ville'] })).field, 'placeIds[0]');
      const missing = await inject(app, asManager, 'POST', '/admin/notices', { title: 'Avis', body: 'Texte.' });
      assert.deepEqual([missing.statusCode, missing.json().field], [400, 'cityGroupId']);

      // A change is judged on the notice as it would be.
      const notice = await createNotice(app, asManager, { startsAt: '2026-11-27T06:00:00.000Z' });
      const etag = String((await inject(app, asManager, 'GET', `/admin/notices/${notice.id}`)).headers.etag);
      const patch = async (body: Record<string, unknown>) => inject(app, { ...asManager, 'if-match': etag }, 'PATCH', `/admin/notices/${notice.id}`, body);
      assert.deepEqual((await patch({ endsAt: '2026-11-27T05:00:00.000Z' })).json().field, 'endsAt');
      assert.deepEqual((await patch({ cityIds: [ids.elorn], placeIds: [ids.placeCentre] })).json().field, 'placeIds[0]');
      assert.equal((await patch({ cityIds: [ids.elorn] })).statusCode, 200, 'the unchanged etag still matches: refused writes changed nothing');
    });

    it('keeps agents to their groups: 404 as if missing, 403 without CITIES, 401 without a token', async (t) => {
      const { app, db, asManager, asOutsider, asRoot } = await noticesApp(t, kind);
      await createAccount(db, { email: 'editor@brest.fr', name: 'Éditrice', permissions: ['BLOG_POSTS'] });
      const asEditor = await loginHeaders(app, 'editor@brest.fr');
      const notice = await createNotice(app, asManager, {});

      assert.deepEqual((await inject(app, asOutsider, 'GET', `/admin/notices/${notice.id}`)).json(), NOTICE_NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsider, 'GET', `/admin/notices/${UNKNOWN}`)).json(), NOTICE_NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsider, 'GET', '/admin/notices')).json().data, []);
      assert.deepEqual((await inject(app, asOutsider, 'GET', `/admin/notices?cityGroupId=${ids.group}`)).json(), GROUP_NOT_FOUND);
      assert.deepEqual((await inject(app, asOutsider, 'GET', `/admin/notices?cityGroupId=${UNKNOWN}`)).json(), GROUP_NOT_FOUND);
      const created = await inject(app, asOutsider, 'POST', '/admin/notices', { cityGroupId: ids.group, title: 'Avis', body: 'Texte.' });
      assert.deepEqual(created.json(), GROUP_NOT_FOUND);
      const unknownGroup = await inject(app, asRoot, 'POST', '/admin/notices', { cityGroupId: UNKNOWN, title: 'Avis', body: 'Texte.' });
      assert.deepEqual(unknownGroup.json(), GROUP_NOT_FOUND);
      const changed = await inject(app, { ...asOutsider, 'if-match': '*' }, 'PATCH', `/admin/notices/${notice.id}`, { title: 'Piraté' });
      assert.deepEqual(changed.json(), NOTICE_NOT_FOUND);
      const removed = await inject(app, { ...asOutsider, 'if-match': '*' }, 'DELETE', `/admin/notices/${notice.id}`);
      assert.deepEqual(removed.json(), NOTICE_NOT_FOUND);

      // A move to a group the agent does not hold is refused as if that group were missing.
      const moved = await inject(app, { ...asManager, 'if-match': '*' }, 'PATCH', `/admin/notices/${notice.id}`, { cityGroupId: ids.emptyGroup });
      assert.deepEqual(moved.json(), GROUP_NOT_FOUND);
      const byRoot = await inject(app, { ...asRoot, 'if-match': '*' }, 'PATCH', `/admin/notices/${notice.id}`, { cityGroupId: ids.emptyGroup });
      assert.equal(byRoot.statusCode, 200, byRoot.body);
      assert.equal((await inject(app, asManager, 'GET', `/admin/notices/${notice.id}`)).statusCode, 404);
      assert.equal((await inject(app, asOutsider, 'GET', `/admin/notices/${notice.id}`)).statusCode, 200);
      const badMove = await inject(app, { ...asRoot, 'if-match': '*' }, 'PATCH', `/admin/notices/${notice.id}`, { cityGroupId: ids.group, cityIds: [ids.lonely] });
      assert.deepEqual([badMove.statusCode, badMove.json().field], [400, 'cityIds[0]']);

      const forbidden = await inject(app, asEditor, 'GET', '/admin/notices');
      assert.deepEqual([forbidden.statusCode, forbidden.json().code], [403, 'adminPermission']);
      const anonymous = await app.inject({ method: 'POST', url: '/admin/notices', payload: { cityGroupId: ids.group, title: 'Avis', body: 'Texte.' } });
      assert.equal(anonymous.statusCode, 401);
    });

    it('asks for If-Match on PATCH and DELETE (428) and refuses a stale one (412)', async (t) => {
      const { app, asManager } = await noticesApp(t, kind);
      const notice = await createNotice(app, asManager, {});
      const etag = String((await inject(app, asManager, 'GET', `/admin/notices/${notice.id}`)).headers.etag);

      const blindPatch = await inject(app, asManager, 'PATCH', `/admin/notices/${notice.id}`, { title: 'Sans If-Match' });
      assert.deepEqual([blindPatch.statusCode, blindPatch.json().code], [428, 'preconditionRequired']);
      const blindDelete = await inject(app, asManager, 'DELETE', `/admin/notices/${notice.id}`);
      assert.deepEqual([blindDelete.statusCode, blindDelete.json().code], [428, 'preconditionRequired']);

      const first = await inject(app, { ...asManager, 'if-match': etag }, 'PATCH', `/admin/notices/${notice.id}`, { title: 'Premier' });
      assert.equal(first.statusCode, 200);
      const stale = await inject(app, { ...asManager, 'if-match': etag }, 'PATCH', `/admin/notices/${notice.id}`, { title: 'Second' });
      assert.deepEqual([stale.statusCode, stale.json().code], [412, 'preconditionFailed']);
      const staleDelete = await inject(app, { ...asManager, 'if-match': etag }, 'DELETE', `/admin/notices/${notice.id}`);
      assert.deepEqual([staleDelete.statusCode, staleDelete.json().code], [412, 'preconditionFailed']);
      assert.equal((await inject(app, asManager, 'GET', `/admin/notices/${notice.id}`)).json().title, 'Premier');
    });
  });
}
