import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildTestApp, fixedClock, testConfig } from '../helpers/app.ts';
import { buildApp } from '../../src/app.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';
import { ids, seedCities } from '../helpers/city-fixtures.ts';
import { inject } from '../helpers/admin-fixtures.ts';
import { createAccount, loginHeaders } from '../helpers/auth-fixtures.ts';
import { consoleEnv, otherIds, seedOtherGroup } from '../helpers/console-fixtures.ts';
import { terminateBackends } from '../helpers/terminate-backends.ts';
import { openEvents, serve, type ServerEvent } from '../helpers/event-stream.ts';
import { agentHeaders, device, fileRequest, missedBody, MONDAY_AFTERNOON, requestsApp } from '../helpers/request-fixtures.ts';

/**
 * Requests, live (docs/api.md, resident requests): the staff's queue hears every request of its groups filed or
 * changed, and nothing of another group's, as `GET /admin/requests` lists it; a device hears the requests it filed or
 * follows, as `GET /public/requests/:id` answers them, and nothing of another device's. Reconnections catch up from
 * Last-Event-ID, an agent's stream ends with its token, and a writer on another instance is heard after its
 * database connections are cut.
 */

const requestEvent = (id: string, wanted: (data: any) => boolean = () => true) => (e: ServerEvent) =>
  e.event === 'request' && e.data.id === id && wanted(e.data);

const staffEvents = (base: string, headers: Record<string, string>, lastEventId?: string) =>
  openEvents(`${base}/admin/requests/events`, { authorization: headers.authorization, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) });
const deviceEvents = (base: string, deviceId: string, lastEventId?: string) =>
  openEvents(`${base}/public/requests/events?deviceId=${deviceId}`, lastEventId ? { 'last-event-id': lastEventId } : {});

for (const kind of testDatabaseKinds()) {
  describe(`resident requests, live (${kind})`, () => {
    it('refuses a stream without a token (401), without REQUESTS (403), a malformed Last-Event-ID or device (400)', async (t) => {
      const { app, asManager, asAgent } = await requestsApp(t, kind);
      assert.equal((await app.inject('/admin/requests/events')).statusCode, 401);
      const manager = await app.inject({ url: '/admin/requests/events', headers: asManager });
      assert.equal(manager.statusCode, 403);
      assert.match(manager.json().message, /REQUESTS/);
      const badId = await app.inject({ url: '/admin/requests/events', headers: { ...asAgent, 'last-event-id': 'douze' } });
      assert.deepEqual([badId.statusCode, badId.json().field], [400, 'last-event-id']);
      const noDevice = await app.inject('/public/requests/events');
      assert.deepEqual([noDevice.statusCode, noDevice.json().field], [400, 'deviceId']);
    });

    it('tells each agent the requests of their groups as the queue lists them, filed and changed, and nothing of others', async (t) => {
      const clock = fixedClock(MONDAY_AFTERNOON);
      const { app, db } = await requestsApp(t, kind, { clock });
      await seedOtherGroup(db);
      await createAccount(db, { email: 'agent@quimper.fr', name: 'Quimper Agent', permissions: ['REQUESTS'], cityGroupIds: [otherIds.group] });
      const base = await serve(app);
      const asAgent = await agentHeaders(app);
      const brest = await staffEvents(base, asAgent);
      const quimper = await staffEvents(base, await loginHeaders(app, 'agent@quimper.fr'));
      t.after(() => {
        brest.close();
        quimper.close();
      });
      for (const stream of [brest, quimper]) {
        assert.equal(stream.response.status, 200);
        assert.match(stream.response.headers.get('content-type') ?? '', /^text\/event-stream/);
        const ready = await stream.next();
        assert.deepEqual([ready.event, ready.id], ['ready', String(ready.data.since)]);
      }

      // A resident reports a missed bin: the agent hears it as the queue lists it.
      const filed = (await fileRequest(app, missedBody(device(1)))).json();
      const heard = await brest.next(requestEvent(filed.id));
      assert.match(heard.id!, /^\d+$/);
      const listed = (await inject(app, asAgent, 'GET', '/admin/requests')).json().data[0];
      assert.deepEqual(heard.data, listed);

      // Its handling comes live, in order: a status, a note (agents only), a public reply.
      const url = `/admin/requests/${filed.id}`;
      const etag = String((await inject(app, asAgent, 'GET', url)).headers.etag);
      assert.equal((await inject(app, { ...asAgent, 'if-match': etag }, 'PATCH', url, { status: 'EN_COURS' })).statusCode, 200);
      const started = await brest.next(requestEvent(filed.id, (r) => r.status === 'EN_COURS'));
      assert.ok(Number(started.id) > Number(heard.id));
      assert.equal((await inject(app, asAgent, 'POST', `${url}/replies`, { message: 'Voir avec le prestataire.', public: false })).statusCode, 201);
      const noted = await brest.next(requestEvent(filed.id, (r) => r.notes.length === 1));
      assert.equal(noted.data.notes[0].message, 'Voir avec le prestataire.');

      // Quimper's agent heard none of it: the first request it hears of is Quimper's own.
      const own = (await fileRequest(app, { deviceId: device(2), cityId: otherIds.city, typeCode: 'autre', description: 'Une question.' })).json();
      const first = await quimper.next((e) => e.event === 'request');
      assert.equal(first.data.id, own.id);
      assert.equal(first.data.cityGroupId, otherIds.group);
    });

    it('catches a reconnecting agent up from Last-Event-ID, and ends the stream when the token expires', async (t) => {
      const clock = fixedClock(MONDAY_AFTERNOON);
      const { app } = await requestsApp(t, kind, { clock });
      const base = await serve(app);
      const asAgent = await agentHeaders(app);
      const first = await staffEvents(base, asAgent);
      const ready = await first.next((e) => e.event === 'ready');
      first.close();

      // While the agent is away, two residents report.
      const away = [
        (await fileRequest(app, missedBody(device(1)))).json().id,
        (await fileRequest(app, { deviceId: device(2), cityId: ids.brest, typeCode: 'bac-vole', placeId: ids.placeNord, description: 'Disparu.' })).json().id,
      ];
      const again = await staffEvents(base, asAgent, ready.id!);
      t.after(() => again.close());
      const seen = new Set<string>();
      while (!away.every((id) => seen.has(id))) seen.add((await again.next((e) => e.event === 'request')).data.id);

      // A token read one second before its end (it lasts 15 minutes of the app's clock): the stream ends with it.
      clock.set(new Date(Date.parse(MONDAY_AFTERNOON) + 15 * 60_000 - 1000).toISOString());
      const ending = await staffEvents(base, asAgent);
      const events = await ending.rest();
      assert.equal(events[0].event, 'ready');
      assert.equal(events.at(-1)!.event, 'expired');
    });

    it('tells a device what changes in the requests it filed or follows, as it reads them, and nothing of others', async (t) => {
      const clock = fixedClock(MONDAY_AFTERNOON);
      const { app } = await requestsApp(t, kind, { clock });
      const base = await serve(app);
      const asAgent = await agentHeaders(app);
      const filed = (await fileRequest(app, missedBody(device(1)))).json();
      // A neighbour reports the same missed collection: it joins, and follows it.
      const joined = await fileRequest(app, missedBody(device(2)));
      assert.equal(joined.statusCode, 200);
      const other = (await fileRequest(app, { deviceId: device(3), cityId: ids.brest, typeCode: 'autre', description: 'Une question.' })).json();

      const author = await deviceEvents(base, device(1));
      const neighbour = await deviceEvents(base, device(2));
      const stranger = await deviceEvents(base, device(3));
      t.after(() => [author, neighbour, stranger].forEach((s) => s.close()));
      for (const stream of [author, neighbour, stranger]) {
        assert.equal(stream.response.status, 200);
        assert.equal(stream.response.headers.get('cache-control'), 'no-store');
        assert.equal((await stream.next()).event, 'ready');
      }

      const url = `/admin/requests/${filed.id}`;
      const etag = String((await inject(app, asAgent, 'GET', url)).headers.etag);
      const planned = await inject(app, { ...asAgent, 'if-match': etag }, 'PATCH', url, { status: 'PLANIFIEE', plannedFor: '2026-12-01' });
      assert.equal(planned.statusCode, 200, planned.body);
      for (const [stream, deviceId] of [[author, device(1)], [neighbour, device(2)]] as const) {
        const heard = await stream.next(requestEvent(filed.id, (r) => r.status === 'PLANIFIEE'));
        const read = (await app.inject(`/public/requests/${filed.id}?deviceId=${deviceId}`)).json();
        assert.deepEqual(heard.data, read);
        assert.equal(heard.data.plannedFor, '2026-12-01');
        assert.equal('notes' in heard.data || 'email' in heard.data, false, 'nothing of the staff’s side');
      }

      // The stranger heard none of it: every request it hears of, up to its own answered, is its own.
      assert.equal((await inject(app, asAgent, 'POST', `/admin/requests/${other.id}/replies`, { message: 'Bonjour, voici la réponse.', public: true })).statusCode, 201);
      const heardIds = new Set<string>();
      const first = await stranger.next((e) => {
        if (e.event === 'request') heardIds.add(e.data.id);
        return e.event === 'request' && e.data.updates.some((u: { message: string | null }) => u.message === 'Bonjour, voici la réponse.');
      });
      assert.deepEqual([...heardIds], [other.id]);

      // A device away while its request changed catches up when it comes back (EventSource sends Last-Event-ID).
      const ready = Number(first.id);
      stranger.close();
      const again = await deviceEvents(base, device(3), String(ready));
      t.after(() => again.close());
      const etag2 = String((await inject(app, asAgent, 'GET', `/admin/requests/${other.id}`)).headers.etag);
      assert.equal((await inject(app, { ...asAgent, 'if-match': etag2 }, 'PATCH', `/admin/requests/${other.id}`, { status: 'RESOLUE' })).statusCode, 200);
      await again.next(requestEvent(other.id, (r) => r.status === 'RESOLUE'));
    });
  });
}

const DATABASE_URL = process.env.DATABASE_URL;

describe('resident requests, live on PostgreSQL, several instances', { skip: DATABASE_URL ? false : 'needs DATABASE_URL' }, () => {
  it('hears on one instance what another wrote, and goes on after its database connections are cut', async (t) => {
    const applicationName = `collecte-request-events-${randomBytes(4).toString('hex')}`;
    const database = await createTestDatabase('postgres', { applicationName });
    t.after(() => database.close());
    const clock = fixedClock(MONDAY_AFTERNOON);
    const writer = (await buildTestApp(t, 'postgres', { env: consoleEnv, database, clock })).app;
    const reader = (await buildTestApp(t, 'postgres', { env: consoleEnv, database, clock })).app;
    await seedCities(database.db);
    await createAccount(database.db, { email: 'agent@brest.fr', name: 'Yann Agent', permissions: ['REQUESTS'] });
    const base = await serve(reader);
    const asAgent = await loginHeaders(writer, 'agent@brest.fr');
    const staff = await staffEvents(base, asAgent);
    const resident = await deviceEvents(base, device(1));
    t.after(() => {
      staff.close();
      resident.close();
    });
    await staff.next((e) => e.event === 'ready');
    await resident.next((e) => e.event === 'ready');

    const filed = (await fileRequest(writer, missedBody(device(1)))).json();
    await staff.next(requestEvent(filed.id));

    // A failover: every connection of this test's pool is cut. The polls fail, then find their way back.
    assert.ok((await terminateBackends(applicationName)) > 0, 'no connection of the test was found to terminate');
    const url = `/admin/requests/${filed.id}`;
    let status = 0;
    for (let attempt = 0; attempt < 5 && status !== 200; attempt++) {
      const read = await inject(writer, asAgent, 'GET', url);
      if (read.statusCode !== 200) continue;
      status = (await inject(writer, { ...asAgent, 'if-match': String(read.headers.etag) }, 'PATCH', url, { status: 'EN_COURS' })).statusCode;
    }
    assert.equal(status, 200);
    await staff.next(requestEvent(filed.id, (r) => r.status === 'EN_COURS'));
    await resident.next(requestEvent(filed.id, (r) => r.status === 'EN_COURS'));
  });
});

describe('resident requests, live, when the server closes', { skip: DATABASE_URL ? false : 'needs DATABASE_URL' }, () => {
  it('refuses a stream still opening when the close begins (503), and the close does not wait for it', { timeout: 60_000 }, async (t) => {
    const database = await createTestDatabase('postgres');
    t.after(() => database.close());
    await seedCities(database.db);
    const app = await buildApp({ config: testConfig(consoleEnv), database, clock: fixedClock(MONDAY_AFTERNOON) });
    const base = await serve(app);
    assert.equal((await fileRequest(app, missedBody(device(1)))).statusCode, 201);

    // Another connection holds the requests' table: the stream's catch-up (Last-Event-ID) waits for it.
    const holder = new pg.Client({ connectionString: DATABASE_URL, options: `-c search_path=${database.schema}` });
    await holder.connect();
    t.after(() => holder.end());
    await holder.query('BEGIN; LOCK TABLE resident_request IN ACCESS EXCLUSIVE MODE');
    const opening = fetch(`${base}/public/requests/events?deviceId=${device(1)}`, { headers: { 'last-event-id': '1' } });
    const waiting = async () =>
      Number((await holder.query("SELECT count(*) AS n FROM pg_locks WHERE NOT granted AND relation = 'resident_request'::regclass")).rows[0].n);
    while ((await waiting()) === 0) await new Promise((resolve) => setTimeout(resolve, 20));

    // The close begins while the stream opens; then the table is let go and the stream's reading ends.
    const closing = app.close();
    while (app.server.listening) await new Promise((resolve) => setTimeout(resolve, 20));
    await holder.query('COMMIT');
    const answer = await opening;
    assert.equal(answer.status, 503, await answer.clone().text());
    assert.ok(answer.headers.get('retry-after'));
    await closing;
  });
});
