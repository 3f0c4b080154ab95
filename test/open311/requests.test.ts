import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { fixedClock } from '../helpers/app.ts';
import { agentHeaders, device, fileRequest, missedBody, MONDAY_AFTERNOON } from '../helpers/request-fixtures.ts';
import {
  assertFields,
  assertOpen311Error,
  assertXmlError,
  BREST_SIREN,
  open311App,
  parseXml,
  postRequest,
  SIAM,
} from '../helpers/open311-fixtures.ts';

/**
 * Filing and following requests through Open311 (docs/api.md, Open311): the requests service's rules, the place found
 * from a position or an address, keys refused in the standard's errors, nothing personal published, the listings'
 * filters, in JSON and XML.
 */

const J = { jurisdiction_id: BREST_SIREN };

/** A household's new-bin request by address (Secteur Nord's street), with what identifies the resident. */
const binForm = (apiKey: string, extra: Record<string, string | string[]> = {}) => ({
  api_key: apiKey,
  ...J,
  service_code: 'demande-bac',
  address_string: '12 rue Jean Jaurès, Brest',
  description: 'Nous venons d’emménager, pas de bac.',
  email: 'jeanne.dupont@example.fr',
  first_name: 'Jeanne',
  last_name: 'Dupont',
  phone: '0601020304',
  'attribute[motif]': 'nouvel-arrivant',
  'attribute[foyer]': '3',
  ...extra,
});

const dumpingForm = (apiKey: string, extra: Record<string, string> = {}) => ({
  api_key: apiKey,
  ...J,
  service_code: 'depot-sauvage',
  ...SIAM,
  description: 'Un matelas abandonné sur le trottoir.',
  ...extra,
});

async function adminRequests(app: FastifyInstance, headers: Record<string, string>) {
  const response = await app.inject({ url: `/admin/requests?cityGroupId=${ids.group}&pageSize=100`, headers });
  assert.equal(response.statusCode, 200, response.body);
  return response.json().data as Record<string, any>[];
}

for (const kind of testDatabaseKinds()) {
  describe(`Open311 requests (${kind})`, () => {
    it('files a request with a good key: in the staff’s queue, listed without anything personal', async (t) => {
      const clock = fixedClock(MONDAY_AFTERNOON);
      const { app, asAgent, brestKey } = await open311App(t, kind, { clock });
      const created = await postRequest(app, binForm(brestKey.key));
      assert.equal(created.statusCode, 201, created.body);
      const [receipt] = created.json();
      assertFields(receipt, 'requestCreated');
      assert.deepEqual(receipt, { service_request_id: '2026-000001', service_notice: null, account_id: null });

      const [staff] = await adminRequests(app, asAgent);
      assert.equal(staff.reference, '2026-000001');
      assert.equal(staff.placeId, ids.placeNord, 'the place found from the address');
      assert.equal(staff.cityId, ids.brest);
      assert.equal(staff.email, 'jeanne.dupont@example.fr');
      assert.deepEqual(staff.attributes, { motif: 'nouvel-arrivant', foyer: 3 });
      assert.equal(staff.address, '12 rue Jean Jaurès, Brest');

      const listed = await app.inject(`/open311/v2/requests.json?jurisdiction_id=${BREST_SIREN}`);
      assert.equal(listed.statusCode, 200, listed.body);
      assert.equal(listed.headers['cache-control'], 'no-cache');
      const [request] = listed.json();
      assertFields(request, 'request');
      assert.deepEqual(
        [request.service_request_id, request.status, request.service_code, request.service_name, request.agency_responsible],
        ['2026-000001', 'open', 'demande-bac', 'Demande de bac', 'Brest Métropole'],
      );
      assert.equal(request.requested_datetime, '2026-11-30T14:00:00+01:00', 'Paris time with its offset');
      assert.deepEqual([request.description, request.address, request.lat, request.long, request.media_url], [null, null, null, null, null]);
      for (const secret of ['jeanne', 'dupont', '0601020304', 'emménager', 'Jaurès']) assert.ok(!listed.body.toLowerCase().includes(secret.toLowerCase()), secret);

      const xml = parseXml(await app.inject(`/open311/v2/requests.xml?jurisdiction_id=${BREST_SIREN}`));
      assert.equal(xml.root, 'service_requests');
      assert.deepEqual(Object.keys(xml.content), ['request']);
      assertFields(xml.content.request[0], 'request');
      assert.equal(xml.content.request[0].service_request_id, '2026-000001');
    });

    it('publishes where and what for a public place, and answers a filing in XML', async (t) => {
      const { app, brestKey } = await open311App(t, kind, { clock: fixedClock(MONDAY_AFTERNOON) });
      const created = await postRequest(app, dumpingForm(brestKey.key, { media_url: 'https://partenaire.example/photo/1.jpg' }), 'xml');
      assert.equal(created.statusCode, 201, created.body);
      const receipt = parseXml(created);
      assert.equal(receipt.root, 'service_requests');
      assertFields(receipt.content.request[0], 'requestCreated');
      const reference = receipt.content.request[0].service_request_id;

      const [request] = (await app.inject(`/open311/v2/requests/${reference}.json?jurisdiction_id=${BREST_SIREN}`)).json();
      assertFields(request, 'request');
      assert.equal(request.lat, 48.3898);
      assert.equal(request.long, -4.4876);
      assert.match(request.description, /^Un matelas abandonné sur le trottoir\.\n\nPhoto\u00a0: https:\/\/partenaire\.example\/photo\/1\.jpg$/);
      const one = parseXml(await app.inject(`/open311/v2/requests/${reference}.xml?jurisdiction_id=${BREST_SIREN}`));
      assert.equal(one.content.request.length, 1);
      assert.equal(one.content.request[0].lat, '48.3898');
      assertOpen311Error(await app.inject(`/open311/v2/requests/2026-999999.json?jurisdiction_id=${BREST_SIREN}`), 404);
      assertXmlError(await app.inject(`/open311/v2/requests/2026-999999.xml?jurisdiction_id=${BREST_SIREN}`), 404);
    });

    it('joins a missed collection already reported and open, with the same rules as residents', async (t) => {
      const { app, brestKey } = await open311App(t, kind, { clock: fixedClock(MONDAY_AFTERNOON) });
      const resident = await fileRequest(app, missedBody(device(1)));
      assert.equal(resident.statusCode, 201, resident.body);
      const missed = {
        api_key: brestKey.key,
        ...J,
        service_code: 'collecte-non-effectuee',
        ...SIAM,
        description: 'Bac gris non vidé.',
        'attribute[waste_type]': 'ordures menageres',
        'attribute[date]': '2026-11-30',
      };
      const joined = await postRequest(app, missed);
      assert.equal(joined.statusCode, 200, joined.body);
      const [receipt] = joined.json();
      assert.equal(receipt.service_request_id, resident.json().reference);
      assert.match(receipt.service_notice, /Déjà signalé/);
      // The window of a missed collection holds: a Tuesday had no collection.
      assertOpen311Error(await postRequest(app, { ...missed, 'attribute[date]': '2026-12-01' }), 400, 'attribute[date]');
      assertOpen311Error(await postRequest(app, { ...missed, 'attribute[date]': 'lundi' }), 400, 'attribute[date]');
      assertOpen311Error(await postRequest(app, { ...missed, 'attribute[waste_type]': 'Plutonium' }), 400, 'attribute[waste_type]');
      // Without a position or address, in a group of two cities: where is it?
      const { lat: _lat, long: _long, ...nowhere } = missed;
      assertOpen311Error(await postRequest(app, nowhere), 400, 'address_string');
    });

    it('refuses a missing, unknown, revoked or another group’s key with 403, in the standard’s errors', async (t) => {
      const { app, asRoot, brestKey, aberKey, makeKey } = await open311App(t, kind, { clock: fixedClock(MONDAY_AFTERNOON) });
      const { api_key: _key, ...withoutKey } = binForm(brestKey.key);
      assertOpen311Error(await postRequest(app, withoutKey), 403, 'api_key');
      assertXmlError(await postRequest(app, withoutKey, 'xml'), 403);
      assertOpen311Error(await postRequest(app, binForm('not-a-key')), 403);
      assertOpen311Error(await postRequest(app, binForm(aberKey.key)), 403);
      const doomed = await makeKey(ids.group, 'Ancien partenaire');
      const revoked = await app.inject({ method: 'DELETE', url: `/admin/open311-keys/${doomed.id}`, headers: { ...asRoot, 'if-match': '*' } });
      assert.equal(revoked.statusCode, 204, revoked.body);
      assertOpen311Error(await postRequest(app, binForm(doomed.key)), 403);
      assertXmlError(await postRequest(app, binForm(doomed.key), 'xml'), 403);
      // Nothing was filed.
      assert.equal((await app.inject(`/open311/v2/requests.json?jurisdiction_id=${BREST_SIREN}`)).json().length, 0);
    });

    it('answers a bad field with 400 naming it, a body over 100 KiB with 413, a JSON body with 400: always the standard’s errors', async (t) => {
      const { app, brestKey } = await open311App(t, kind, { clock: fixedClock(MONDAY_AFTERNOON) });
      assertOpen311Error(await postRequest(app, binForm(brestKey.key, { 'attribute[motif]': 'caprice' })), 400, 'attribute[motif]');
      assertOpen311Error(await postRequest(app, binForm(brestKey.key, { 'attribute[foyer]': 'beaucoup' })), 400, 'attribute[foyer]');
      assertOpen311Error(await postRequest(app, binForm(brestKey.key, { description: '' })), 400, 'description');
      assertOpen311Error(await postRequest(app, binForm(brestKey.key, { email: 'pas-une-adresse' })), 400, 'email');
      assertOpen311Error(await postRequest(app, dumpingForm(brestKey.key, { long: '' })), 400, 'long');
      assertOpen311Error(await postRequest(app, binForm(brestKey.key, { service_code: 'inconnu' })), 404, 'service_code');
      assertXmlError(await postRequest(app, binForm(brestKey.key, { 'attribute[motif]': 'caprice' }), 'xml'), 400);
      const { lat: _lat, long: _long, ...unplaced } = dumpingForm(brestKey.key);
      assertOpen311Error(await postRequest(app, { ...unplaced, address_string: 'Impasse Inconnue' }), 400, 'address_string');

      const huge = await postRequest(app, binForm(brestKey.key, { description: 'x'.repeat(110 * 1024) }));
      assertOpen311Error(huge, 413);
      assertXmlError(await postRequest(app, binForm(brestKey.key, { description: 'x'.repeat(110 * 1024) }), 'xml'), 413);
      const json = await app.inject({ method: 'POST', url: '/open311/v2/requests.json', payload: binForm(brestKey.key) });
      assertOpen311Error(json, 400);
      assertOpen311Error(await app.inject(`/open311/v2/requests.json?jurisdiction_id=${BREST_SIREN}&status=pending`), 400, 'status');
    });

    it('filters the listings by reference, service, status and dates; the last 90 days by default, newest first', async (t) => {
      const clock = fixedClock('2026-08-01T08:00:00.000Z');
      const { app, brestKey } = await open311App(t, kind, { clock });
      assert.equal((await postRequest(app, binForm(brestKey.key))).statusCode, 201);
      clock.set(MONDAY_AFTERNOON);
      assert.equal((await postRequest(app, dumpingForm(brestKey.key))).statusCode, 201);
      clock.set('2026-11-30T15:00:00.000Z');
      assert.equal((await postRequest(app, binForm(brestKey.key))).statusCode, 201);
      const list = async (query: string) => {
        const response = await app.inject(`/open311/v2/requests.json?jurisdiction_id=${BREST_SIREN}${query}`);
        assert.equal(response.statusCode, 200, response.body);
        return (response.json() as { service_request_id: string }[]).map((r) => r.service_request_id);
      };
      // The summer's request is past the default 90 days; newest first.
      assert.deepEqual(await list(''), ['2026-000003', '2026-000002']);
      assert.deepEqual(await list('&start_date=2026-07-01T00:00:00%2B02:00'), ['2026-000003', '2026-000002', '2026-000001']);
      assert.deepEqual(await list('&start_date=2026-07-01T00:00:00Z&end_date=2026-11-30T14:30:00%2B01:00'), ['2026-000002', '2026-000001']);
      assert.deepEqual(await list('&service_code=depot-sauvage'), ['2026-000002']);
      assert.deepEqual(await list('&service_code=demande-bac,depot-sauvage&start_date=2026-01-01T00:00:00Z'), ['2026-000003', '2026-000002', '2026-000001']);
      assert.deepEqual(await list('&service_request_id=2026-000001,2026-000003&service_code=depot-sauvage'), ['2026-000003', '2026-000001']);

      // The staff plan one, and close another with a public reply.
      const asAgent = await agentHeaders(app);
      const staff = await adminRequests(app, asAgent);
      const idOf = (reference: string) => staff.find((r) => r.reference === reference)!.id;
      const patch = (id: string, body: object) =>
        app.inject({ method: 'PATCH', url: `/admin/requests/${id}`, headers: { ...asAgent, 'if-match': '*' }, payload: body });
      assert.equal((await patch(idOf('2026-000003'), { status: 'PLANIFIEE', plannedFor: '2026-12-03' })).statusCode, 200);
      assert.equal((await patch(idOf('2026-000002'), { status: 'RESOLUE' })).statusCode, 200);
      const reply = await app.inject({ method: 'POST', url: `/admin/requests/${idOf('2026-000002')}/replies`, headers: asAgent, payload: { message: 'Le matelas a été enlevé.', public: true } });
      assert.equal(reply.statusCode, 201, reply.body);
      await app.inject({ method: 'POST', url: `/admin/requests/${idOf('2026-000002')}/replies`, headers: asAgent, payload: { message: 'Note interne.', public: false } });

      assert.deepEqual(await list('&status=closed'), ['2026-000002']);
      assert.deepEqual(await list('&status=open'), ['2026-000003']);
      assert.deepEqual(await list('&status=open,closed'), ['2026-000003', '2026-000002']);
      const [planned, closed] = (await app.inject(`/open311/v2/requests.json?jurisdiction_id=${BREST_SIREN}`)).json();
      assert.equal(planned.expected_datetime, '2026-12-03T00:00:00+01:00');
      assert.equal(planned.status, 'open');
      assert.deepEqual([closed.status, closed.status_notes, closed.expected_datetime], ['closed', 'Le matelas a été enlevé.', null]);
      assert.match(closed.updated_datetime, /^2026-11-30T16:00:00\+01:00$/);
      const xml = parseXml(await app.inject(`/open311/v2/requests.xml?jurisdiction_id=${BREST_SIREN}&status=closed`));
      assert.equal(xml.content.request[0].status_notes, 'Le matelas a été enlevé.');
      assert.equal(xml.content.request[0].expected_datetime, '');
    });
  });
}
