import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, fixedClock, testConfig } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { insertCalendarScenario } from '../helpers/calendar-fixtures.ts';
import { reminderPeers } from '../helpers/reminder-peers.ts';
import { createReminderWorker } from '../../src/reminders/worker.ts';

/**
 * An e-mail subscription is one per place and address, and the address is no secret: a device that
 * knows it must neither re-point, change nor delete someone's subscription, nor learn from the answer in which sectors
 * the address is subscribed. What another device asks for is a subscription of its own, PENDING, that replaces the
 * address's subscription at that place only once the link sent to the address is followed.
 */

const json = { accept: 'application/json' };

for (const kind of testDatabaseKinds()) {
  describe(`e-mail subscriptions asked for by another device (${kind})`, () => {
    const peers = reminderPeers();
    const env = () => ({ SMTP_URL: peers.mail.url, MAIL_FROM: 'Collecte <rappels@collecte.test>' });

    async function setup(t: Parameters<typeof buildTestApp>[0]) {
      const clock = fixedClock('2026-11-26T12:00:00.000Z');
      const { app, database } = await buildTestApp(t, kind, { clock, env: env() });
      const scenario = await insertCalendarScenario(database.db);
      const subscribe = (deviceId: string, email: string, extra: Record<string, unknown> = {}) =>
        app.inject({
          method: 'POST',
          url: '/public/reminders/subscriptions',
          payload: { deviceId, cityId: scenario.cityId, placeId: scenario.placeId, channel: 'EMAIL', email, ...extra },
        });
      return { app, database, scenario, clock, subscribe };
    }

    /** The mails to an address about one place, oldest first. */
    const mailsTo = (address: string, placeName = 'Centre-ville') => peers.mail.received.filter((m) => m.to.includes(address) && m.text.includes(placeName));
    const linkIn = (text: string, purpose: 'confirm' | 'unsubscribe') => new RegExp(`/public/reminders/${purpose}\\?token=\\S+`).exec(text)![0];
    const list = async (app: FastifyInstance, deviceId: string) => (await app.inject(`/public/reminders/subscriptions/${deviceId}`)).json();

    it('answers 201 PENDING as for a new address, moves nothing until the mailbox confirms, and the mailbox’s link then hands it over', async (t) => {
      const { app, scenario, subscribe } = await setup(t);
      const owner = `proprietaire-${kind}@exemple.fr`;
      const mine = await subscribe('device-owner', owner);
      assert.equal(mine.statusCode, 201, mine.body);
      const ownerLinks = mailsTo(owner)[0].text;
      assert.equal((await app.inject({ url: linkIn(ownerLinks, 'confirm'), headers: json })).statusCode, 200);
      const before = await list(app, 'device-owner');
      assert.equal(before[0].status, 'ACTIVE');

      // Another device, which knows the address: the answer is that of a brand-new address, for the place where the
      // address is subscribed as for one where it is not.
      const taken = await subscribe('device-intruder', owner, { time: '06:30', wasteTypeIds: [scenario.wasteTypes.verre] });
      const elsewhere = await subscribe('device-intruder', owner, { placeId: scenario.otherPlaceId });
      const fresh = await subscribe('device-intruder', `inconnue-${kind}@exemple.fr`);
      for (const [name, response] of [['taken', taken], ['elsewhere', elsewhere], ['fresh', fresh]] as const) {
        assert.equal(response.statusCode, 201, `${name}: ${response.body}`);
        const body = response.json();
        assert.deepEqual(Object.keys(body).sort(), Object.keys(mine.json()).sort(), name);
        assert.equal(body.status, 'PENDING', name);
        assert.equal(body.deviceId, 'device-intruder', name);
      }
      assert.notEqual(taken.json().id, mine.json().id, 'never the existing subscription’s id');
      assert.equal(taken.json().time, '06:30');

      // Nothing changed for the owner's device: same subscription, same settings, still ACTIVE.
      assert.deepEqual(await list(app, 'device-owner'), before);
      // The other device sees its own requests only, and cannot delete the owner's subscription.
      const theirs = await list(app, 'device-intruder');
      assert.equal(theirs.length, 3);
      assert.ok(theirs.every((s: { deviceId: string; status: string }) => s.deviceId === 'device-intruder' && s.status === 'PENDING'));
      const stolen = await app.inject({ method: 'DELETE', url: `/public/reminders/subscriptions/${mine.json().id}?deviceId=device-intruder` });
      assert.equal(stolen.statusCode, 404);
      assert.deepEqual(await list(app, 'device-owner'), before);
      // Its own request, asked for again, is its own to update: 200, as before.
      const again = await subscribe('device-intruder', owner, { time: '06:45', wasteTypeIds: [scenario.wasteTypes.verre] });
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(again.json().id, taken.json().id);
      assert.equal(again.json().status, 'PENDING');

      // The mailbox is told that confirming replaces what it already receives.
      const request = mailsTo(owner).at(-1)!;
      assert.notEqual(request.text, ownerLinks);
      assert.match(request.text, /reçoit déjà/);
      assert.doesNotMatch(mailsTo(`inconnue-${kind}@exemple.fr`)[0].text, /reçoit déjà/);

      // The mailbox follows the new link: the subscription is now the other device's, with its settings.
      assert.deepEqual((await app.inject({ url: linkIn(request.text, 'confirm'), headers: json })).json(), { status: 'ACTIVE' });
      assert.deepEqual(await list(app, 'device-owner'), []);
      const handedOver = (await list(app, 'device-intruder')).find((s: { id: string }) => s.id === taken.json().id);
      assert.deepEqual(
        { id: handedOver.id, status: handedOver.status, time: handedOver.time, wasteTypeIds: handedOver.wasteTypeIds },
        { id: taken.json().id, status: 'ACTIVE', time: '06:45', wasteTypeIds: [scenario.wasteTypes.verre] },
      );
      // The old subscription's links name a subscription that is gone.
      assert.deepEqual((await app.inject({ url: linkIn(ownerLinks, 'unsubscribe'), headers: json })).json(), { status: 'DELETED' });
    });

    it('leaves another device’s unconfirmed request as it is: the first link followed wins, the other link is dead', async (t) => {
      const { app, subscribe } = await setup(t);
      const address = `deux-demandes-${kind}@exemple.fr`;
      assert.equal((await subscribe('device-first', address, { time: '18:00' })).statusCode, 201);
      const first = mailsTo(address).at(-1)!.text;
      const second = await subscribe('device-second', address, { time: '21:00' });
      assert.equal(second.statusCode, 201, second.body);
      assert.equal(second.json().status, 'PENDING');
      const secondLink = linkIn(mailsTo(address).at(-1)!.text, 'confirm');
      assert.deepEqual(
        (await list(app, 'device-first')).map((s: { time: string; status: string }) => [s.time, s.status]),
        [['18:00', 'PENDING']],
      );

      assert.equal((await app.inject({ url: secondLink, headers: json })).statusCode, 200);
      assert.deepEqual((await list(app, 'device-first')), []);
      assert.deepEqual((await list(app, 'device-second')).map((s: { time: string; status: string }) => [s.time, s.status]), [['21:00', 'ACTIVE']]);
      assert.equal((await app.inject({ url: linkIn(first, 'confirm'), headers: json })).statusCode, 404);
      // Following the winning link again changes nothing.
      assert.deepEqual((await app.inject({ url: secondLink, headers: json })).json(), { status: 'ACTIVE' });
      assert.equal((await list(app, 'device-second')).length, 1);
    });

    it('a subscription handed over in the evening is not reminded twice of the same collection, and then at its new time', async (t) => {
      const { app, database, clock, subscribe } = await setup(t);
      const worker = createReminderWorker({ db: database.db, config: testConfig(env()), log: app.log, now: clock });
      t.after(() => worker.stop());
      const address = `soiree-${kind}@exemple.fr`;
      const reminders = () => peers.mail.received.filter((m) => m.to.includes(address) && m.headers.get('subject')?.startsWith('Collecte demain'));
      assert.equal((await subscribe('device-evening-a', address)).statusCode, 201);
      assert.equal((await app.inject({ url: linkIn(mailsTo(address).at(-1)!.text, 'confirm'), headers: json })).statusCode, 200);

      clock.set('2026-11-26T18:00:00.000Z'); // 19:00 in Paris, the evening before Friday 27 November
      await worker.tick();
      assert.equal(reminders().length, 1);

      clock.set('2026-11-26T18:30:00.000Z');
      assert.equal((await subscribe('device-evening-b', address, { time: '20:00' })).statusCode, 201);
      assert.equal((await app.inject({ url: linkIn(mailsTo(address).at(-1)!.text, 'confirm'), headers: json })).statusCode, 200);
      clock.set('2026-11-26T19:00:00.000Z'); // 20:00 in Paris: the new subscription's time
      await worker.tick();
      assert.equal(reminders().length, 1, 'the 27 November collection was already announced to this address');

      clock.set('2026-12-03T18:00:00.000Z'); // 19:00 in Paris, the evening before Friday 4 December
      await worker.tick();
      assert.equal(reminders().length, 1);
      clock.set('2026-12-03T19:00:00.000Z');
      await worker.tick();
      assert.equal(reminders().length, 2, 'reminded at the new time');
    });
  });
}
