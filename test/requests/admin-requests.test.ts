import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { fixedClock } from '../helpers/app.ts';
import { inject } from '../helpers/admin-fixtures.ts';
import { createAccount, loginHeaders } from '../helpers/auth-fixtures.ts';
import { agentHeaders, device, fileRequest, missedBody, MONDAY_AFTERNOON, requestsApp } from '../helpers/request-fixtures.ts';

/**
 * The staff's side of requests (docs/api.md, resident requests): the queue of the agent's groups oldest first with
 * its filters, a request's page, its handling under If-Match (status, assignee, planned day), public replies and
 * internal notes, the erasure a resident asks for, and the catalogue's editor. Permission REQUESTS; elsewhere 404.
 */

const at = (iso: string, hours: number) => new Date(Date.parse(iso) + hours * 3_600_000).toISOString();

for (const kind of testDatabaseKinds()) {
  describe(`resident requests, the staff's side (${kind})`, () => {
    it('lists the queue of the agent’s groups oldest first, with its filters and overdue flags', async (t) => {
      const clock = fixedClock(MONDAY_AFTERNOON);
      const { app, asOutsider, asManager, asRoot } = await requestsApp(t, kind, { clock });
      const missed = (await fileRequest(app, missedBody(device(1)))).json();
      clock.set(at(MONDAY_AFTERNOON, 1));
      const stolen = (await fileRequest(app, { deviceId: device(2), cityId: ids.brest, typeCode: 'bac-vole', placeId: ids.placeNord, description: 'Disparu.' })).json();
      clock.set(at(MONDAY_AFTERNOON, 2));
      const other = (await fileRequest(app, { deviceId: device(3), cityId: ids.elorn, typeCode: 'autre', description: 'Une question.' })).json();

      let asAgent = await agentHeaders(app);
      const page = await inject(app, asAgent, 'GET', '/admin/requests');
      assert.equal(page.statusCode, 200);
      assert.deepEqual(page.json().data.map((r: { id: string }) => r.id), [missed.id, stolen.id, other.id]);
      assert.deepEqual(page.json().meta, { page: 1, pageSize: 20, total: 3, totalPages: 1 });
      const first = page.json().data[0];
      assert.equal(first.email, null);
      assert.equal(first.placeName, 'Centre-ville');
      assert.equal(first.cityName, 'Brest');
      assert.equal(first.overdue, false);
      assert.equal(first.dueAt, at(MONDAY_AFTERNOON, 48));

      const ids_ = async (query: string) => (await inject(app, asAgent, 'GET', `/admin/requests?${query}`)).json().data.map((r: { id: string }) => r.id);
      assert.deepEqual(await ids_('typeCode=bac-vole'), [stolen.id]);
      assert.deepEqual(await ids_(`cityId=${ids.elorn}`), [other.id]);
      assert.deepEqual(await ids_('status=RESOLUE'), []);
      assert.deepEqual(await ids_('pageSize=1&page=2'), [stolen.id]);
      // 49 hours on: the missed collection (48 h) is overdue, the others (120 h) are not.
      clock.set(at(MONDAY_AFTERNOON, 49));
      asAgent = await agentHeaders(app);
      assert.deepEqual(await ids_('overdue=true'), [missed.id]);
      assert.deepEqual(await ids_('overdue=false'), [stolen.id, other.id]);
      assert.deepEqual((await inject(app, asAgent, 'GET', `/admin/requests?pageSize=1&typeCode=bac-vole`)).json().meta.total, 1, 'a filtered total is counted');

      // Back to when the other agents logged in (their tokens last 15 minutes of the app's clock).
      clock.set(MONDAY_AFTERNOON);
      assert.deepEqual((await inject(app, asOutsider, 'GET', '/admin/requests')).json().data, []);
      assert.equal((await inject(app, asOutsider, 'GET', `/admin/requests/${missed.id}`)).statusCode, 404);
      assert.equal((await inject(app, asOutsider, 'GET', `/admin/requests?cityGroupId=${ids.group}`)).statusCode, 404);
      assert.equal((await inject(app, asManager, 'GET', '/admin/requests')).statusCode, 403, 'CITIES is not REQUESTS');
      assert.equal((await inject(app, asRoot, 'GET', '/admin/requests')).json().meta.total, 3);
    });

    it('names the waste type, and lists whom the group’s requests may be assigned to, for REQUESTS alone', async (t) => {
      const { app, db, asAgent, asOutsider, asManager } = await requestsApp(t, kind, { clock: fixedClock(MONDAY_AFTERNOON) });
      await createAccount(db, { email: 'former@brest.fr', name: 'Ancien Agent', permissions: ['REQUESTS'], active: false });
      const filed = (await fileRequest(app, missedBody(device(1)))).json();
      const read = (await inject(app, asAgent, 'GET', `/admin/requests/${filed.id}`)).json();
      assert.deepEqual([read.wasteTypeName, read.recyclingPointName], ['Ordures ménagères', null]);

      const agents = await inject(app, asAgent, 'GET', `/admin/city-groups/${ids.group}/request-agents`);
      assert.equal(agents.statusCode, 200, agents.body);
      // The group's REQUESTS agent and the super admin; not the CITIES manager, the other group's agent, the inactive one.
      assert.deepEqual(agents.json().map((a: { name: string }) => a.name), ['Root', 'Yann Agent']);
      assert.equal((await inject(app, asOutsider, 'GET', `/admin/city-groups/${ids.group}/request-agents`)).statusCode, 404);
      assert.equal((await inject(app, asManager, 'GET', `/admin/city-groups/${ids.group}/request-agents`)).statusCode, 403);
      // Each one listed is one `assignedTo` takes.
      const url = `/admin/requests/${filed.id}`;
      const etag = String((await inject(app, asAgent, 'GET', url)).headers.etag);
      const assigned = await inject(app, { ...asAgent, 'if-match': etag }, 'PATCH', url, { assignedTo: agents.json()[0].id });
      assert.equal(assigned.json().assignedToName, 'Root');
    });

    it('changes status, assignee and planned day under If-Match, telling the resident', async (t) => {
      const clock = fixedClock(MONDAY_AFTERNOON);
      const { app, agent } = await requestsApp(t, kind, { clock });
      let asAgent = await agentHeaders(app);
      const filed = (await fileRequest(app, { deviceId: device(1), cityId: ids.brest, typeCode: 'bac-endommage', placeId: ids.placeCentre, description: 'Roue cassée.' })).json();
      const url = `/admin/requests/${filed.id}`;
      const read = await inject(app, asAgent, 'GET', url);
      const etag = String(read.headers.etag);

      assert.equal((await inject(app, asAgent, 'PATCH', url, { status: 'EN_COURS' })).statusCode, 428);
      const noDay = await inject(app, { ...asAgent, 'if-match': etag }, 'PATCH', url, { status: 'PLANIFIEE' });
      assert.deepEqual([noDay.statusCode, noDay.json().field], [400, 'plannedFor']);
      const noReason = await inject(app, { ...asAgent, 'if-match': etag }, 'PATCH', url, { status: 'REJETEE' });
      assert.deepEqual([noReason.statusCode, noReason.json().field], [400, 'reason']);
      const notAnAgent = await inject(app, { ...asAgent, 'if-match': etag }, 'PATCH', url, { assignedTo: '00000000-0000-4000-8000-00000000dead' });
      assert.deepEqual([notAnAgent.statusCode, notAnAgent.json().field], [400, 'assignedTo']);

      clock.set(at(MONDAY_AFTERNOON, 1));
      asAgent = await agentHeaders(app);
      const planned = await inject(app, { ...asAgent, 'if-match': etag }, 'PATCH', url, { status: 'PLANIFIEE', plannedFor: '2026-12-03', assignedTo: agent.id });
      assert.equal(planned.statusCode, 200, planned.body);
      assert.equal(planned.json().assignedToName, 'Yann Agent');
      assert.equal(planned.json().plannedFor, '2026-12-03');
      assert.equal((await inject(app, { ...asAgent, 'if-match': etag }, 'PATCH', url, { status: 'EN_COURS' })).statusCode, 412, 'stale');

      clock.set(at(MONDAY_AFTERNOON, 2));
      asAgent = await agentHeaders(app);
      const resolved = await inject(app, { ...asAgent, 'if-match': String(planned.headers.etag) }, 'PATCH', url, { status: 'RESOLUE', reason: 'Roue changée.' });
      assert.equal(resolved.statusCode, 200);
      assert.equal(resolved.json().closedAt, at(MONDAY_AFTERNOON, 2));

      const seen = (await app.inject(`/public/requests/${filed.id}?deviceId=${device(1)}`)).json();
      assert.equal(seen.status, 'RESOLUE');
      assert.deepEqual(seen.updates, [
        { at: MONDAY_AFTERNOON, status: 'RECUE', message: null },
        { at: at(MONDAY_AFTERNOON, 1), status: 'PLANIFIEE', message: null },
        { at: at(MONDAY_AFTERNOON, 2), status: 'RESOLUE', message: 'Roue changée.' },
      ]);
      assert.equal((await inject(app, asAgent, 'GET', `/admin/requests?assignedTo=${agent.id}`)).json().meta.total, 1);
    });

    it('keeps internal notes from the resident and shows public replies', async (t) => {
      const clock = fixedClock(MONDAY_AFTERNOON);
      const { app } = await requestsApp(t, kind, { clock });
      let asAgent = await agentHeaders(app);
      const filed = (await fileRequest(app, missedBody(device(1)))).json();
      const before = String((await inject(app, asAgent, 'GET', `/admin/requests/${filed.id}`)).headers.etag);
      clock.set(at(MONDAY_AFTERNOON, 1));
      asAgent = await agentHeaders(app);
      const note = await inject(app, asAgent, 'POST', `/admin/requests/${filed.id}/replies`, { message: 'Voir avec le prestataire.', public: false });
      assert.equal(note.statusCode, 201, note.body);
      assert.deepEqual(note.json().notes, [{ at: at(MONDAY_AFTERNOON, 1), message: 'Voir avec le prestataire.', author: { id: note.json().notes[0].author.id, name: 'Yann Agent' } }]);
      assert.notEqual(String(note.headers.etag), before);
      const reply = await inject(app, asAgent, 'POST', `/admin/requests/${filed.id}/replies`, { message: '  Un camion repasse demain matin.  ', public: true });
      assert.equal(reply.statusCode, 201);
      const seen = (await app.inject(`/public/requests/${filed.id}?deviceId=${device(1)}`)).json();
      assert.deepEqual(seen.updates.slice(1), [{ at: at(MONDAY_AFTERNOON, 1), status: null, message: 'Un camion repasse demain matin.' }]);
      assert.equal(JSON.stringify(seen).includes('prestataire'), false);
      const blank = await inject(app, asAgent, 'POST', `/admin/requests/${filed.id}/replies`, { message: ' ', public: true });
      assert.deepEqual([blank.statusCode, blank.json().field], [400, 'message']);
    });

    it('erases a request and its photos, leaving no trace of the resident in the audit log', async (t) => {
      const clock = fixedClock(MONDAY_AFTERNOON);
      const { app, db, asAgent } = await requestsApp(t, kind, { clock });
      const filed = (await fileRequest(app, missedBody(device(1), { email: 'jeanne@example.fr', description: 'Je suis Jeanne, 12 rue de Siam.' }))).json();
      const url = `/admin/requests/${filed.id}`;
      const read = await inject(app, asAgent, 'GET', url);
      assert.equal(read.json().email, 'jeanne@example.fr');
      const patched = await inject(app, { ...asAgent, 'if-match': String(read.headers.etag) }, 'PATCH', url, { status: 'EN_COURS' });
      const gone = await inject(app, { ...asAgent, 'if-match': String(patched.headers.etag) }, 'DELETE', url);
      assert.equal(gone.statusCode, 204);
      assert.equal((await inject(app, asAgent, 'GET', url)).statusCode, 404);
      assert.equal((await app.inject(`/public/requests/${filed.id}?deviceId=${device(1)}`)).statusCode, 404);
      const audit = await db.selectFrom('audit_entry').select(['entity', 'action', 'before', 'after']).where('entity_id', '=', filed.id).execute();
      assert.deepEqual(audit.map((a) => a.action).sort(), ['delete', 'update']);
      const logged = JSON.stringify(audit);
      for (const personal of ['jeanne@example.fr', 'Jeanne', 'rue de Siam']) assert.equal(logged.includes(personal), false, personal);
      assert.ok(logged.includes(filed.reference), 'the log says which request');
    });

    it('keeps the queue’s totals by group and status right through creations, status changes and erasures', async (t) => {
      const clock = fixedClock(MONDAY_AFTERNOON);
      const { app, db, asOutsider } = await requestsApp(t, kind, { clock });
      const filed = [];
      for (let n = 0; n < 6; n++) {
        filed.push((await fileRequest(app, { deviceId: device(n), cityId: n < 4 ? ids.brest : ids.elorn, typeCode: 'autre', description: `Demande ${n}` })).json());
      }
      // A report that joins an open one adds nothing.
      await fileRequest(app, missedBody(device(10)));
      await fileRequest(app, missedBody(device(11)));
      const asAgent = await agentHeaders(app);
      const change = async (id: string, body: object) => {
        const etag = String((await inject(app, asAgent, 'GET', `/admin/requests/${id}`)).headers.etag);
        return inject(app, { ...asAgent, 'if-match': etag }, body === null ? 'DELETE' : 'PATCH', `/admin/requests/${id}`, body ?? undefined);
      };
      await change(filed[0].id, { status: 'EN_COURS' });
      await change(filed[1].id, { status: 'RESOLUE' });
      await change(filed[1].id, { status: 'EN_COURS' });
      await change(filed[2].id, { status: 'REJETEE', reason: 'Hors sujet.' });
      const etag = String((await inject(app, asAgent, 'GET', `/admin/requests/${filed[3].id}`)).headers.etag);
      assert.equal((await inject(app, { ...asAgent, 'if-match': etag }, 'DELETE', `/admin/requests/${filed[3].id}`)).statusCode, 204);

      const counted = await db
        .selectFrom('resident_request')
        .select(['city_group_id', 'status', (eb) => eb.fn.countAll<string>().as('n')])
        .groupBy(['city_group_id', 'status'])
        .execute();
      const kept = await db.selectFrom('request_count').select(['city_group_id', 'status', 'n']).where('n', '>', 0).execute();
      const key = (r: { city_group_id: string; status: string; n: string | number }) => `${r.city_group_id} ${r.status} ${Number(r.n)}`;
      assert.deepEqual(kept.map(key).sort(), counted.map(key).sort());
      for (const [query, expected] of [['', 6], ['status=EN_COURS', 2], ['status=RECUE', 3], ['status=RESOLUE', 0], ['status=REJETEE', 1]] as const) {
        const page = await inject(app, asAgent, 'GET', `/admin/requests?${query}`);
        assert.equal(page.json().meta.total, expected, query);
        assert.equal(page.json().data.length, expected, query);
      }
      assert.equal((await inject(app, asOutsider, 'GET', '/admin/requests')).json().meta.total, 0);
    });

    it('counts requests per day and type in the analytics, with the median time to close', async (t) => {
      const clock = fixedClock(MONDAY_AFTERNOON);
      const { app } = await requestsApp(t, kind, { clock });
      const file = (n: number) => fileRequest(app, { deviceId: device(n), cityId: ids.brest, typeCode: 'bac-vole', placeId: ids.placeCentre, description: `Bac ${n}` });
      const filed = await Promise.all([1, 2, 3].map(async (n) => (await file(n)).json()));
      await fileRequest(app, { deviceId: device(4), cityId: ids.brest, typeCode: 'autre', description: 'Autre.' });
      const close = async (id: string, hours: number, status: string) => {
        clock.set(at(MONDAY_AFTERNOON, hours));
        const asAgent = await agentHeaders(app);
        const etag = String((await inject(app, asAgent, 'GET', `/admin/requests/${id}`)).headers.etag);
        const body = status === 'REJETEE' ? { status, reason: 'Doublon.' } : { status };
        assert.equal((await inject(app, { ...asAgent, 'if-match': etag }, 'PATCH', `/admin/requests/${id}`, body)).statusCode, 200);
      };
      await close(filed[0].id, 2, 'RESOLUE');
      await close(filed[1].id, 5, 'REJETEE');
      await close(filed[2].id, 30, 'RESOLUE'); // Tuesday 19:00 in Brest
      clock.set(at(MONDAY_AFTERNOON, 31));
      const asManager = await loginHeaders(app, 'manager@brest.fr');
      const answer = await inject(app, asManager, 'GET', `/admin/analytics?cityGroupId=${ids.group}&from=2026-11-30&to=2026-12-01`);
      assert.equal(answer.statusCode, 200, answer.body);
      assert.deepEqual(answer.json().requests, [
        { day: '2026-11-30', typeCode: 'autre', typeName: 'Autre demande', created: 1, closed: 0, medianHoursToClose: null },
        { day: '2026-11-30', typeCode: 'bac-vole', typeName: 'Bac volé ou disparu', created: 3, closed: 2, medianHoursToClose: 3.5 },
        { day: '2026-12-01', typeCode: 'bac-vole', typeName: 'Bac volé ou disparu', created: 0, closed: 1, medianHoursToClose: 30 },
      ]);
      const elsewhere = await inject(app, asManager, 'GET', `/admin/analytics?cityGroupId=${ids.group}&from=2026-12-02&to=2026-12-03`);
      assert.deepEqual(elsewhere.json().requests, []);
    });

    it('edits the catalogue: a new type, its rules, and a used type kept', async (t) => {
      const clock = fixedClock(MONDAY_AFTERNOON);
      const { app, asAgent, asOutsider } = await requestsApp(t, kind, { clock });
      const list = await inject(app, asAgent, 'GET', `/admin/city-groups/${ids.group}/request-types`);
      assert.equal(list.json().meta.total, 8);
      const body = {
        code: 'sac-jaune', name: 'Demande de sacs jaunes', category: 'BAC', targetHours: 72, place: 'REQUIRED',
        fields: [{ code: 'rouleaux', label: 'Nombre de rouleaux', datatype: 'singlevaluelist', required: true, values: [{ key: '1', name: 'Un' }, { key: '2', name: 'Deux' }] }],
      };
      const created = await inject(app, asAgent, 'POST', `/admin/city-groups/${ids.group}/request-types`, body);
      assert.equal(created.statusCode, 201, created.body);
      assert.deepEqual([created.json().date, created.json().recyclingPoint, created.json().position, created.json().active], ['NONE', 'NONE', 'OPTIONAL', true]);
      const taken = await inject(app, asAgent, 'POST', `/admin/city-groups/${ids.group}/request-types`, body);
      assert.deepEqual([taken.statusCode, taken.json().field], [400, 'code']);
      const noValues = await inject(app, asAgent, 'POST', `/admin/city-groups/${ids.group}/request-types`, {
        ...body, code: 'autre-sac', fields: [{ ...body.fields[0], values: [] }],
      });
      assert.deepEqual([noValues.statusCode, noValues.json().field], [400, 'fields[0].values']);
      // A lone surrogate in a field's label (escaped in the JSON sent) is kept as U+FFFD, not a server error.
      const odd = await app.inject({
        method: 'POST',
        url: `/admin/city-groups/${ids.group}/request-types`,
        headers: { ...asAgent, 'content-type': 'application/json' },
        payload: JSON.stringify({ ...body, code: 'etrange' }).replace('Nombre de rouleaux', 'Nombre \\udc00'),
      });
      assert.equal(odd.statusCode, 201, odd.body);
      assert.equal(odd.json().fields[0].label, 'Nombre \ufffd');
      assert.equal((await inject(app, asOutsider, 'POST', `/admin/city-groups/${ids.group}/request-types`, { ...body, code: 'x' })).statusCode, 404);

      const offered = (await app.inject(`/public/city-groups/${ids.group}/request-types`)).json();
      assert.ok(offered.some((type: { code: string }) => type.code === 'sac-jaune'), 'residents see it');
      const filed = await fileRequest(app, { deviceId: device(1), cityId: ids.brest, typeCode: 'sac-jaune', placeId: ids.placeCentre, description: 'Plus de sacs.', attributes: { rouleaux: '2' } });
      assert.equal(filed.statusCode, 201, filed.body);

      const typeUrl = `/admin/request-types/${created.json().id}`;
      const inUse = await inject(app, { ...asAgent, 'if-match': String(created.headers.etag) }, 'DELETE', typeUrl);
      assert.deepEqual([inUse.statusCode, inUse.json().code], [409, 'requestTypeInUse']);
      assert.equal((await inject(app, asAgent, 'GET', `/admin/requests/${filed.json().id}`)).json().dueAt, at(MONDAY_AFTERNOON, 72));
      // A new target moves the open requests' due time: 1 hour, so that it is overdue an hour later.
      const retargeted = await inject(app, { ...asAgent, 'if-match': String(created.headers.etag) }, 'PATCH', typeUrl, { targetHours: 1 });
      assert.equal(retargeted.statusCode, 200, retargeted.body);
      assert.equal((await inject(app, asAgent, 'GET', `/admin/requests/${filed.json().id}`)).json().dueAt, at(MONDAY_AFTERNOON, 1));
      clock.set(at(MONDAY_AFTERNOON, 2));
      const late = await inject(app, await agentHeaders(app), 'GET', `/admin/requests?overdue=true&typeCode=sac-jaune`);
      assert.equal(late.json().meta.total, 1);
      assert.equal(late.json().data[0].overdue, true);
      clock.set(MONDAY_AFTERNOON);
      const retired = await inject(app, { ...asAgent, 'if-match': String(retargeted.headers.etag) }, 'PATCH', typeUrl, { active: false });
      assert.equal(retired.statusCode, 200);
      const after = (await app.inject(`/public/city-groups/${ids.group}/request-types`)).json();
      assert.equal(after.some((type: { code: string }) => type.code === 'sac-jaune'), false, 'an inactive type is not offered');
      const refused = await fileRequest(app, { deviceId: device(2), cityId: ids.brest, typeCode: 'sac-jaune', placeId: ids.placeCentre, description: 'Encore.', attributes: { rouleaux: '1' } });
      assert.deepEqual([refused.statusCode, refused.json().code], [404, 'requestTypeNotFound']);
    });
  });
}
