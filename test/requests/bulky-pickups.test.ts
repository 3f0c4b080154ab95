import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, fixedClock, testConfig } from '../helpers/app.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';
import { ids, seedCities } from '../helpers/city-fixtures.ts';
import { inject } from '../helpers/admin-fixtures.ts';
import { createAccount, loginHeaders } from '../helpers/auth-fixtures.ts';
import { consoleEnv } from '../helpers/console-fixtures.ts';
import { startMailServer, type MailServer } from '../helpers/smtp-server.ts';
import { agentHeaders, device, fileRequest, MONDAY_AFTERNOON, requestsApp } from '../helpers/request-fixtures.ts';
import { createRequestWorker } from '../../src/requests/worker.ts';

/**
 * Bulky-waste pickups by appointment (docs/api.md, bulky-waste pickups): the staff open days with a capacity, one by
 * one or many at once, never below what is booked; residents see the days still open (a day closes at noon the day
 * before) and book one with an address and an e-mail; a day never takes more bookings than its capacity, whatever
 * arrives at once on however many instances; a booking is cancelled until noon the day before, giving its place back;
 * and the requester is written to the evening before.
 */

const at = (iso: string, hours: number) => new Date(Date.parse(iso) + hours * 3_600_000).toISOString();
/** Monday 30 November 2026, 14:00 in Brest: past noon, so tomorrow is closed and Wednesday the first open day. */
const NOW = MONDAY_AFTERNOON;
const FULL_MESSAGE = 'Plus de place ce jour-là : choisissez un autre jour.';

/** A booking of Brest's bulky-waste pickup for `slotDate`, by `deviceId`. */
const booking = (deviceId: string, slotDate: string, extra: Record<string, unknown> = {}) => ({
  deviceId,
  cityId: ids.brest,
  typeCode: 'encombrants',
  address: '12 rue de Siam, Brest',
  email: 'jeanne@example.fr',
  description: 'Un canapé et une armoire démontée.',
  attributes: { slotDate, items: 'Un canapé, une armoire' },
  ...extra,
});

const openDays = async (app: Parameters<typeof fileRequest>[0], query = '') =>
  (await app.inject(`/public/cities/${ids.brest}/bulky-pickups${query}`)).json();

for (const kind of testDatabaseKinds()) {
  describe(`bulky-waste pickups (${kind})`, () => {
    let smtp: MailServer;
    before(async () => {
      smtp = await startMailServer();
    });
    after(() => smtp.close());

    it('opens days many at once and one by one, for REQUESTS agents of the city’s group, never below what is booked', async (t) => {
      const { app, asAgent, asManager, asOutsider } = await requestsApp(t, kind, { clock: fixedClock(NOW) });
      const url = `/admin/cities/${ids.brest}/bulky-pickups`;
      // Every Wednesday and Saturday of December, 3 places each.
      const bulk = await inject(app, asAgent, 'POST', url, { from: '2026-12-01', to: '2026-12-31', weekdays: ['mercredi', 'samedi'], capacity: 3 });
      assert.equal(bulk.statusCode, 200, bulk.body);
      const dates = bulk.json().map((d: { date: string }) => d.date);
      assert.deepEqual(dates.slice(0, 4), ['2026-12-02', '2026-12-05', '2026-12-09', '2026-12-12']);
      assert.equal(dates.length, 9);
      assert.deepEqual(bulk.json()[0], { date: '2026-12-02', capacity: 3, booked: 0, remaining: 3, bookings: [] });
      // One more day, Thursday 3 December, with 1 place.
      const one = await inject(app, asAgent, 'PUT', `${url}/2026-12-03`, { capacity: 1 });
      assert.deepEqual([one.statusCode, one.json().capacity], [200, 1]);

      assert.equal((await inject(app, asManager, 'PUT', `${url}/2026-12-03`, { capacity: 5 })).statusCode, 403, 'CITIES is not REQUESTS');
      assert.equal((await inject(app, asOutsider, 'PUT', `${url}/2026-12-03`, { capacity: 5 })).statusCode, 404, 'another group’s city');
      const badDay = await inject(app, asAgent, 'PUT', `${url}/2026-02-30`, { capacity: 5 });
      assert.deepEqual([badDay.statusCode, badDay.json().field], [400, 'date']);
      const badWeekday = await inject(app, asAgent, 'POST', url, { from: '2026-12-01', to: '2026-12-31', weekdays: ['Tuesday'], capacity: 3 });
      assert.deepEqual([badWeekday.statusCode, badWeekday.json().field], [400, 'weekdays[0]']);
      const backwards = await inject(app, asAgent, 'POST', url, { from: '2026-12-31', to: '2026-12-01', weekdays: ['mardi'], capacity: 3 });
      assert.deepEqual([backwards.statusCode, backwards.json().field], [400, 'to']);

      // A booked day cannot drop below its bookings, alone or in bulk; nothing changes then.
      assert.equal((await fileRequest(app, booking(device(1), '2026-12-03'))).statusCode, 201);
      const below = await inject(app, asAgent, 'PUT', `${url}/2026-12-03`, { capacity: 0 });
      assert.equal(below.statusCode, 409);
      assert.match(below.json().message, /jeudi 3 décembre compte déjà 1\u00a0rendez-vous/);
      const bulkBelow = await inject(app, asAgent, 'POST', url, { from: '2026-12-01', to: '2026-12-06', weekdays: ['mercredi', 'jeudi'], capacity: 0 });
      assert.equal(bulkBelow.statusCode, 409);
      const listed = await inject(app, asAgent, 'GET', `${url}?from=2026-12-01&to=2026-12-06`);
      assert.deepEqual(
        listed.json().map((d: { date: string; capacity: number; booked: number }) => [d.date, d.capacity, d.booked]),
        [['2026-12-02', 3, 0], ['2026-12-03', 1, 1], ['2026-12-05', 3, 0]],
      );
      assert.deepEqual(listed.json()[1].bookings.map((b: { address: string; items: string }) => [b.address, b.items]), [['12 rue de Siam, Brest', 'Un canapé, une armoire']]);
      // Closing a free day: it leaves the residents' list, not the staff's.
      assert.equal((await inject(app, asAgent, 'PUT', `${url}/2026-12-02`, { capacity: 0 })).statusCode, 200);
      assert.deepEqual((await openDays(app, '?to=2026-12-06')).map((d: { date: string }) => d.date), ['2026-12-03', '2026-12-05']);
    });

    it('shows residents the days still open, and books one with its rules', async (t) => {
      const clock = fixedClock(at(NOW, -3)); // Monday 11:00 in Brest: tomorrow is still open.
      const { app, asAgent } = await requestsApp(t, kind, { clock });
      const url = `/admin/cities/${ids.brest}/bulky-pickups`;
      for (const [date, capacity] of [['2026-11-30', 4], ['2026-12-01', 2], ['2026-12-02', 1]] as const) {
        assert.equal((await inject(app, asAgent, 'PUT', `${url}/${date}`, { capacity })).statusCode, 200);
      }
      assert.deepEqual(await openDays(app), [
        { date: '2026-12-01', capacity: 2, remaining: 2 },
        { date: '2026-12-02', capacity: 1, remaining: 1 },
      ]);
      // Noon: Tuesday closes.
      clock.set(NOW);
      assert.deepEqual((await openDays(app)).map((d: { date: string }) => d.date), ['2026-12-02']);
      assert.equal((await app.inject(`/public/cities/${ids.inactive}/bulky-pickups`)).statusCode, 404);

      const refused = async (body: object, field: string, status = 400) => {
        const answer = await fileRequest(app, body);
        assert.deepEqual([answer.statusCode, answer.json().field], [status, field], answer.body);
        return answer.json();
      };
      const { address: _a, ...noAddress } = booking(device(1), '2026-12-02');
      await refused(noAddress, 'address');
      await refused(booking(device(1), '2026-12-02', { email: null }), 'email');
      await refused(booking(device(1), '2026-12-02', { attributes: { items: 'Un canapé' } }), 'attributes.slotDate');
      const closed = await refused(booking(device(1), '2026-12-01'), 'attributes.slotDate');
      assert.match(closed.message, /midi la veille/);
      await refused(booking(device(1), '2026-12-09'), 'attributes.slotDate');

      const filed = await fileRequest(app, booking(device(1), '2026-12-02'));
      assert.equal(filed.statusCode, 201, filed.body);
      const request = filed.json();
      assert.deepEqual([request.status, request.plannedFor, request.attributes.slotDate], ['PLANIFIEE', '2026-12-02', '2026-12-02']);
      assert.deepEqual(request.updates.map((u: { status: string }) => u.status), ['PLANIFIEE']);
      assert.deepEqual(await openDays(app), [{ date: '2026-12-02', capacity: 1, remaining: 0 }]);
      const full = await refused(booking(device(2), '2026-12-02'), 'attributes.slotDate', 409);
      assert.equal(full.message, FULL_MESSAGE);
    });

    it('never books a day past its capacity, whatever arrives at once', async (t) => {
      const { app, asAgent } = await requestsApp(t, kind, { clock: fixedClock(NOW), env: { REQUESTS_IP_MAX: '1000' } });
      assert.equal((await inject(app, asAgent, 'PUT', `/admin/cities/${ids.brest}/bulky-pickups/2026-12-05`, { capacity: 4 })).statusCode, 200);
      const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => fileRequest(app, booking(device(`race-${i}`), '2026-12-05'))));
      const statuses = answers.map((a) => a.statusCode).sort();
      assert.deepEqual(statuses, [...Array(4).fill(201), ...Array(12).fill(409)], answers.map((a) => a.body).join('\n'));
      for (const refusedAnswer of answers.filter((a) => a.statusCode === 409)) assert.equal(refusedAnswer.json().message, FULL_MESSAGE);
      const day = (await inject(app, asAgent, 'GET', `/admin/cities/${ids.brest}/bulky-pickups?from=2026-12-05&to=2026-12-05`)).json()[0];
      assert.deepEqual([day.booked, day.remaining, day.bookings.length], [4, 0, 4]);
    });

    it('cancels a booking until noon the day before, giving its place back', async (t) => {
      const clock = fixedClock(NOW);
      const { app, asAgent } = await requestsApp(t, kind, { clock });
      assert.equal((await inject(app, asAgent, 'PUT', `/admin/cities/${ids.brest}/bulky-pickups/2026-12-03`, { capacity: 1 })).statusCode, 200);
      const filed = (await fileRequest(app, booking(device(1), '2026-12-03'))).json();
      const cancel = (id: string, deviceId: string) => app.inject({ method: 'POST', url: `/public/requests/${id}/cancel?deviceId=${deviceId}` });

      assert.equal((await cancel(filed.id, device(2))).statusCode, 404, 'another device');
      const other = (await fileRequest(app, { deviceId: device(1), cityId: ids.brest, typeCode: 'autre', description: 'Une question.' })).json();
      assert.equal((await cancel(other.id, device(1))).statusCode, 409, 'not a booking');

      clock.set(at(NOW, 24)); // Tuesday 14:00: Thursday's booking can still be cancelled.
      const cancelled = await cancel(filed.id, device(1));
      assert.equal(cancelled.statusCode, 200, cancelled.body);
      assert.equal(cancelled.json().status, 'ANNULEE');
      assert.deepEqual(cancelled.json().updates.map((u: { status: string }) => u.status), ['PLANIFIEE', 'ANNULEE']);
      assert.deepEqual(await openDays(app), [{ date: '2026-12-03', capacity: 1, remaining: 1 }], 'its place is back');
      assert.equal((await cancel(filed.id, device(1))).statusCode, 409, 'cancelled already');

      // Another resident takes the place; at noon on Wednesday it can no longer be cancelled.
      const second = (await fileRequest(app, booking(device(3), '2026-12-03'))).json();
      clock.set(at(NOW, 46)); // Wednesday 12:00
      const late = await cancel(second.id, device(3));
      assert.equal(late.statusCode, 409);
      assert.match(late.json().message, /midi la veille/);

      // The staff may still reject it, which gives the place back too.
      clock.set(at(NOW, 24));
      const asAgentNow = await agentHeaders(app);
      const read = await inject(app, asAgentNow, 'GET', `/admin/requests/${second.id}`);
      const rejected = await inject(app, { ...asAgentNow, 'if-match': String(read.headers.etag) }, 'PATCH', `/admin/requests/${second.id}`, {
        status: 'REJETEE',
        reason: 'Adresse hors de la commune.',
      });
      assert.equal(rejected.statusCode, 200, rejected.body);
      assert.deepEqual((await openDays(app)).map((d: { remaining: number }) => d.remaining), [1]);
    });

    it('writes to the requester the evening before, once, and not for a booking cancelled', async (t) => {
      const clock = fixedClock(NOW);
      const env = { SMTP_URL: smtp.url, MAIL_FROM: 'Collecte <demandes@collecte.test>', PUBLIC_BASE_URL: 'https://collecte.example' };
      const { app, db, asAgent } = await requestsApp(t, kind, { clock, env });
      assert.equal((await inject(app, asAgent, 'PUT', `/admin/cities/${ids.brest}/bulky-pickups/2026-12-03`, { capacity: 5 })).statusCode, 200);
      const kept = `garde.${kind}@example.fr`;
      const dropped = `annule.${kind}@example.fr`;
      const filed = (await fileRequest(app, booking(device(1), '2026-12-03', { email: kept }))).json();
      const gone = (await fileRequest(app, booking(device(2), '2026-12-03', { email: dropped }))).json();
      const worker = createRequestWorker({ db, config: testConfig(env), log: app.log, now: clock });
      t.after(() => worker.stop());
      await worker.tick();
      const mailsTo = (address: string) => smtp.received.filter((m) => m.to.includes(address));
      assert.match(mailsTo(kept)[0].text, /Enlèvement prévu le jeudi 3 décembre/);
      assert.equal((await app.inject({ method: 'POST', url: `/public/requests/${gone.id}/cancel?deviceId=${device(2)}` })).statusCode, 200);

      clock.set(at(NOW, 2 * 24 + 4)); // Wednesday 18:00: not yet.
      await worker.tick();
      assert.equal(mailsTo(kept).length, 1);
      clock.set(at(NOW, 2 * 24 + 5.5)); // Wednesday 19:30.
      await worker.tick();
      await worker.tick();
      const eve = mailsTo(kept).filter((m) => /^Demain/.test(m.headers.get('subject') ?? ''));
      assert.equal(eve.length, 1, 'once');
      assert.match(eve[0].headers.get('subject')!, /^Demain, jeudi 3 décembre\u00a0: enlèvement de vos encombrants/);
      assert.match(eve[0].text, new RegExp(`demande ${filed.reference}`));
      assert.match(eve[0].text, /Un canapé, une armoire/);
      assert.equal(mailsTo(dropped).filter((m) => /^Demain/.test(m.headers.get('subject') ?? '')).length, 0, 'not for a cancelled booking');
    });
  });
}

const DATABASE_URL = process.env.DATABASE_URL;

describe('bulky-waste pickups on PostgreSQL, two instances', { skip: DATABASE_URL ? false : 'needs DATABASE_URL' }, () => {
  it('books exactly the last ten places of a day when two hundred bookings arrive at once on two instances', async (t) => {
    const database = await createTestDatabase('postgres');
    t.after(() => database.close());
    const clock = fixedClock(NOW);
    const env = { ...consoleEnv, REQUESTS_IP_MAX: '1000' };
    const one = (await buildTestApp(t, 'postgres', { env, database, clock })).app;
    const two = (await buildTestApp(t, 'postgres', { env, database, clock })).app;
    await seedCities(database.db);
    await createAccount(database.db, { email: 'agent@brest.fr', name: 'Yann Agent', permissions: ['REQUESTS'] });
    const asAgent = await loginHeaders(one, 'agent@brest.fr');
    assert.equal((await inject(one, asAgent, 'PUT', `/admin/cities/${ids.brest}/bulky-pickups/2026-12-05`, { capacity: 10 })).statusCode, 200);

    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => fileRequest(i % 2 ? one : two, booking(device(`pg-race-${i}`), '2026-12-05'), `10.0.${i % 250}.${(i % 7) + 1}`)),
    );
    const counts = new Map<number, number>();
    for (const a of answers) counts.set(a.statusCode, (counts.get(a.statusCode) ?? 0) + 1);
    assert.deepEqual(Object.fromEntries(counts), { 201: 10, 409: 190 }, [...new Set(answers.filter((a) => a.statusCode >= 500).map((a) => a.body))].join('\n'));
    const day = (await inject(two, asAgent, 'GET', `/admin/cities/${ids.brest}/bulky-pickups?from=2026-12-05&to=2026-12-05`)).json()[0];
    assert.deepEqual([day.capacity, day.booked, day.remaining, day.bookings.length], [10, 10, 0, 10]);
    const references = new Set(answers.filter((a) => a.statusCode === 201).map((a) => a.json().reference));
    assert.equal(references.size, 10, 'ten distinct references');
  });
});
