import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { fixedClock } from '../helpers/app.ts';
import { device, fileRequest, missedBody, MONDAY_AFTERNOON, requestsApp } from '../helpers/request-fixtures.ts';

/**
 * The residents' side of requests (docs/api.md, resident requests): the catalogue every group starts with, a request
 * filed with its type's rules, the missed-collection window and its de-duplication, the device's list and detail.
 */

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';

/** The status code, code and field of an error answer. */
async function refusal(response: { statusCode: number; json(): { code?: string; field?: string | null; message: string } }) {
  const body = response.json();
  return [response.statusCode, body.code, body.field];
}

for (const kind of testDatabaseKinds()) {
  describe(`resident requests, the residents' side (${kind})`, () => {
    it('offers every group the default catalogue, by name, in the contract’s shape', async (t) => {
      const { app } = await requestsApp(t, kind);
      const response = await app.inject(`/public/city-groups/${ids.group}/request-types`);
      assert.equal(response.statusCode, 200);
      const types = response.json() as { code: string; name: string }[];
      assert.deepEqual(
        types.map((type) => type.code).sort(),
        ['autre', 'bac-endommage', 'bac-vole', 'collecte-non-effectuee', 'demande-bac', 'depot-sauvage', 'encombrants', 'point-apport-plein'],
      );
      const names = types.map((type) => type.name);
      assert.deepEqual(names, [...names].sort((a, b) => a.localeCompare(b, 'fr')));
      const missed = types.find((type) => type.code === 'collecte-non-effectuee')!;
      assert.deepEqual(Object.keys(missed).sort(), ['category', 'code', 'description', 'fields', 'name', 'photo', 'place', 'position', 'targetHours', 'wasteType']);
      assert.equal(missed.name, 'Collecte non effectuée');
      assert.deepEqual([(missed as never as Record<string, string>).place, (missed as never as Record<string, string>).wasteType], ['REQUIRED', 'REQUIRED']);
      const dumping = types.find((type) => type.code === 'depot-sauvage') as unknown as Record<string, unknown>;
      assert.deepEqual([dumping.position, dumping.photo], ['REQUIRED', 'OPTIONAL']);
      const bin = types.find((type) => type.code === 'demande-bac') as unknown as { fields: { code: string; datatype: string; values: unknown[] }[] };
      assert.equal(bin.fields[0].datatype, 'singlevaluelist');
      assert.ok(bin.fields[0].values.length > 0);
      // A group created later gets it too; an unknown one is a 404.
      const other = await app.inject(`/public/city-groups/${ids.emptyGroup}/request-types`);
      assert.equal(other.json().length, 8);
      assert.deepEqual(await refusal(await app.inject(`/public/city-groups/${UNKNOWN}/request-types`)), [404, 'cityGroupNotFound', null]);
    });

    it('files a missed collection once: a second device joins the open request and follows it', async (t) => {
      const clock = fixedClock(MONDAY_AFTERNOON);
      const { app } = await requestsApp(t, kind, { clock });
      const first = await fileRequest(app, missedBody(device(1), { email: 'Jeanne.Dupont+bac@example.fr' }));
      assert.equal(first.statusCode, 201, first.body);
      const filed = first.json();
      assert.match(filed.reference, /^2026-\d{6}$/);
      assert.equal(filed.reference, '2026-000001');
      assert.equal(filed.status, 'RECUE');
      assert.equal(filed.typeName, 'Collecte non effectuée');
      assert.equal(filed.date, '2026-11-30');
      assert.equal(filed.photoCount, 0);
      assert.equal(filed.plannedFor, null);
      assert.equal('email' in filed, false, 'a resident’s answer does not echo the e-mail');
      assert.deepEqual(filed.updates, [{ at: MONDAY_AFTERNOON, status: 'RECUE', message: null }]);

      const second = await fileRequest(app, missedBody(device(2), { description: 'Pas vidé chez nous non plus.' }));
      assert.equal(second.statusCode, 200);
      assert.equal(second.json().id, filed.id);
      const listed = await app.inject(`/public/requests?deviceId=${device(2)}`);
      assert.deepEqual(listed.json().map((r: { id: string }) => r.id), [filed.id]);
      assert.equal((await app.inject(`/public/requests/${filed.id}?deviceId=${device(2)}`)).statusCode, 200);
      assert.deepEqual(await refusal(await app.inject(`/public/requests/${filed.id}?deviceId=${device(3)}`)), [404, 'requestNotFound', null]);

      // Another waste type or another day is another request, numbered on.
      clock.set('2026-12-04T15:00:00.000Z');
      const friday = await fileRequest(app, missedBody(device(1), { date: '2026-12-04' }));
      assert.equal(friday.statusCode, 201);
      assert.equal(friday.json().reference, '2026-000002');
      const mine = await app.inject(`/public/requests?deviceId=${device(1)}`);
      assert.deepEqual(mine.json().map((r: { id: string }) => r.id), [friday.json().id, filed.id], 'newest first');
    });

    it('makes one request of reports of the same missed collection sent at the same instant', async (t) => {
      const clock = fixedClock(MONDAY_AFTERNOON);
      const { app, db } = await requestsApp(t, kind, { clock });
      const answers = await Promise.all(Array.from({ length: 12 }, (_, n) => fileRequest(app, missedBody(device(`same-${n}`)))));
      assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
      assert.equal(new Set(answers.map((a) => a.json().id)).size, 1);
      const rows = await db.selectFrom('resident_request').select('reference').execute();
      assert.deepEqual(rows, [{ reference: '2026-000001' }]);
      const followers = await db.selectFrom('request_follower').select('device_id').execute();
      assert.equal(followers.length, 12, 'every device follows it');
      // No reference number was spent by the reports that joined.
      const next = await fileRequest(app, { deviceId: device(99), cityId: ids.brest, typeCode: 'autre', description: 'Autre chose.' });
      assert.equal(next.json().reference, '2026-000002');
    });

    it('takes a missed collection only on a collection day, from noon until 48 hours after', async (t) => {
      const clock = fixedClock('2026-11-30T10:59:00.000Z'); // 11:59 in Brest
      const { app } = await requestsApp(t, kind, { clock });
      const tooEarly = await fileRequest(app, missedBody(device(1)));
      assert.deepEqual(await refusal(tooEarly), [400, 'validation', 'date']);
      assert.match(tooEarly.json().message, /à partir de 12\u00a0h le jour de la collecte/);
      clock.set('2026-11-30T11:00:00.000Z'); // noon
      assert.equal((await fileRequest(app, missedBody(device(2)))).statusCode, 201);

      clock.set('2026-12-02T11:00:01.000Z'); // 48 hours and a second after noon
      const tooLate = await fileRequest(app, missedBody(device(3), { wasteTypeId: ids.wasteEmb, date: '2026-11-30' }));
      // Emballages go every other Wednesday: not on that Monday at all.
      assert.deepEqual(await refusal(tooLate), [400, 'validation', 'date']);
      assert.match(tooLate.json().message, /n’était pas collecté le lundi 30 novembre/);
      const late = await fileRequest(app, missedBody(device(3), { date: '2026-11-30', description: 'Encore là.' }));
      // The first report is still open, but this one is out of the window: the rule speaks first.
      assert.deepEqual(await refusal(late), [400, 'validation', 'date']);
      assert.match(late.json().message, /48\u00a0heures/);

      clock.set('2026-12-01T13:00:00.000Z');
      const tuesday = await fileRequest(app, missedBody(device(4), { date: '2026-12-01' }));
      assert.deepEqual(await refusal(tuesday), [400, 'validation', 'date']);
      // A collection the calendar cancelled (1 January 2027 is cancelled by an exception) was not missed.
      clock.set('2027-01-01T13:00:00.000Z');
      const cancelled = await fileRequest(app, missedBody(device(5), { date: '2027-01-01' }));
      assert.deepEqual(await refusal(cancelled), [400, 'validation', 'date']);
      assert.match(cancelled.json().message, /annulée/);
    });

    it('holds each type to what it requires and forbids, naming the field', async (t) => {
      const clock = fixedClock(MONDAY_AFTERNOON);
      const { app } = await requestsApp(t, kind, { clock });
      const base = { deviceId: device(1), cityId: ids.brest, description: 'Le couvercle est cassé.' };
      const cases: [string, Record<string, unknown>, number, string | null, string | null][] = [
        ['a stolen bin without its place', { typeCode: 'bac-vole' }, 400, 'validation', 'placeId'],
        ['a stolen bin with a position', { typeCode: 'bac-vole', placeId: ids.placeCentre, latitude: 48.39, longitude: -4.48 }, 400, 'validation', 'latitude'],
        ['a latitude without its longitude', { typeCode: 'autre', latitude: 48.39 }, 400, 'validation', 'longitude'],
        ['dumping without a position', { typeCode: 'depot-sauvage' }, 400, 'validation', 'latitude'],
        ['dumping naming a waste type', { typeCode: 'depot-sauvage', address: 'Rue de Siam', wasteTypeId: ids.wasteOm }, 400, 'validation', 'wasteTypeId'],
        ['a bin request without its reason', { typeCode: 'demande-bac', placeId: ids.placeCentre }, 400, 'validation', 'attributes.motif'],
        ['a reason not in the list', { typeCode: 'demande-bac', placeId: ids.placeCentre, attributes: { motif: 'caprice' } }, 400, 'validation', 'attributes.motif'],
        ['a household size that is no number', { typeCode: 'demande-bac', placeId: ids.placeCentre, attributes: { motif: 'nouvel-arrivant', foyer: 'trois' } }, 400, 'validation', 'attributes.foyer'],
        ['a full point without its point', { typeCode: 'point-apport-plein' }, 400, 'validation', 'recyclingPointId'],
        ['a place of another city', { typeCode: 'bac-vole', placeId: '40000000-0000-4000-8000-000000000099' }, 400, 'validation', 'placeId'],
        ['a missed collection without its day', { typeCode: 'collecte-non-effectuee', placeId: ids.placeCentre, wasteTypeId: ids.wasteOm }, 400, 'validation', 'date'],
        ['an unknown type', { typeCode: 'licorne' }, 404, 'requestTypeNotFound', 'typeCode'],
        ['a photo never uploaded', { typeCode: 'autre', photoIds: [UNKNOWN] }, 400, 'validation', 'photoIds[0]'],
        ['no description', { typeCode: 'autre', description: undefined }, 400, 'validation', 'description'],
        ['a blank description', { typeCode: 'autre', description: '   ' }, 400, 'validation', 'description'],
        ['a description past 2000 characters', { typeCode: 'autre', description: 'x'.repeat(2001) }, 400, 'validation', 'description'],
        ['a malformed e-mail', { typeCode: 'autre', email: 'pas-une-adresse' }, 400, 'validation', 'email'],
        ['a day that does not exist', { typeCode: 'autre', date: '2026-02-30' }, 400, 'validation', 'date'],
      ];
      for (const [what, extra, status, code, field] of cases) {
        const response = await fileRequest(app, { ...base, ...extra });
        assert.deepEqual(await refusal(response), [status, code, field], what);
        assert.match(response.json().message, /^Le (champ|paramètre)|introuvable/, what);
      }
      assert.deepEqual(await refusal(await fileRequest(app, { ...base, typeCode: 'autre', cityId: UNKNOWN })), [404, 'cityNotFound', null]);
      assert.deepEqual(await refusal(await fileRequest(app, { ...base, typeCode: 'autre', cityId: ids.inactive })), [404, 'cityNotFound', null]);
      // A city of no group offers no type.
      assert.deepEqual(await refusal(await fileRequest(app, { ...base, typeCode: 'autre', cityId: ids.lonely })), [404, 'requestTypeNotFound', 'typeCode']);
      const list = await app.inject(`/public/requests?deviceId=${device(1)}`);
      assert.deepEqual(list.json(), [], 'nothing refused was stored');

      const dumping = await fileRequest(app, { ...base, typeCode: 'depot-sauvage', address: '  Rue de Siam, devant le 12 ', description: 'Un matelas.' });
      assert.equal(dumping.statusCode, 201, dumping.body);
      assert.equal(dumping.json().address, 'Rue de Siam, devant le 12');
      const bin = await fileRequest(app, {
        ...base, typeCode: 'demande-bac', placeId: ids.placeCentre.toUpperCase(),
        attributes: { motif: 'nouvel-arrivant', foyer: 3, ignored: 'not a field of the type' },
      });
      assert.equal(bin.statusCode, 201, bin.body);
      assert.equal(bin.json().placeId, ids.placeCentre);
      assert.deepEqual(bin.json().attributes, { motif: 'nouvel-arrivant', foyer: 3 });
      // A day given to a type that does not ask for one is kept: the contract lets a type forbid a place, a position,
      // a waste type or photos, not a day.
      // A lone UTF-16 surrogate (sent escaped in JSON) is stored as U+FFFD, in a text column and in the answers alike.
      const odd = await app.inject({
        method: 'POST',
        url: '/public/requests',
        headers: { 'content-type': 'application/json' },
        payload: `{"deviceId":"${device('odd')}","cityId":"${ids.brest}","typeCode":"demande-bac","placeId":"${ids.placeCentre}",` +
          `"description":"Bac \\ud800 cassé","attributes":{"motif":"nouvel-arrivant"},"address":"x\\udfff"}`,
      });
      assert.equal(odd.statusCode, 201, odd.body);
      assert.equal(odd.json().description, 'Bac \ufffd cassé');
      const broken = await fileRequest(app, { ...base, typeCode: 'bac-endommage', placeId: ids.placeCentre, date: '2026-11-28' });
      assert.equal(broken.statusCode, 201, broken.body);
      assert.equal(broken.json().date, '2026-11-28');
    });

    it('limits creations to 10 an hour per device, and per IP to REQUESTS_IP_MAX', async (t) => {
      const clock = fixedClock(MONDAY_AFTERNOON);
      const { app } = await requestsApp(t, kind, { clock, env: { REQUESTS_IP_MAX: '14' } });
      const body = (n: number) => ({ deviceId: device('flood'), cityId: ids.brest, typeCode: 'autre', description: `Demande ${n}` });
      // Refused by its type's rules, a request is not counted: the resident corrects the form and files it.
      for (let n = 0; n < 3; n++) assert.equal((await fileRequest(app, { ...body(n), typeCode: 'bac-vole' }, '203.0.113.7')).statusCode, 400);
      for (let n = 1; n <= 10; n++) assert.equal((await fileRequest(app, body(n), '203.0.113.7')).statusCode, 201);
      const refused = await fileRequest(app, body(11), '203.0.113.7');
      assert.deepEqual(await refusal(refused), [429, 'rateLimited', null]);
      assert.ok(Number(refused.headers['retry-after']) > 0);
      // Other devices of the same address share its budget of 14.
      for (let n = 12; n <= 14; n++) {
        assert.equal((await fileRequest(app, { ...body(n), deviceId: device(n) }, '203.0.113.7')).statusCode, 201);
      }
      assert.equal((await fileRequest(app, { ...body(15), deviceId: device(15) }, '203.0.113.7')).statusCode, 429);
      assert.equal((await fileRequest(app, { ...body(16), deviceId: device(16) }, '203.0.113.8')).statusCode, 201);
    });
  });
}
