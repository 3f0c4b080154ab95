import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { fixedClock, testConfig } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { inject } from '../helpers/admin-fixtures.ts';
import { loginHeaders } from '../helpers/auth-fixtures.ts';
import { reminderPeers } from '../helpers/reminder-peers.ts';
import { createNotice, noticesApp } from '../helpers/notice-fixtures.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { createReminderWorker, type ReminderWorkerOptions } from '../../src/reminders/worker.ts';

/**
 * Service notices sent to reminder subscribers (docs/api.md, collections that move and service notices) through the real worker, a push service that
 * verifies VAPID and decrypts each payload, and an SMTP server: once per subscription and notice, from `startsAt`
 * (or the write), never deleted or ended ones. The worker's clock is the test's. Brest (Paris time) has the places
 * Centre-ville and Secteur Nord; Thursday 26 November 2026 at 11:00 in Paris, no reminder is due.
 */

const NOW = '2026-11-26T10:00:00.000Z';
const at = (minutes: number) => new Date(Date.parse(NOW) + minutes * 60_000).toISOString();

for (const kind of testDatabaseKinds()) {
  describe(`service notices sent to subscribers (${kind})`, () => {
    const peers = reminderPeers();
    const env = () => ({ WEB_PUSH_ALLOW_INSECURE_ENDPOINTS: 'true', SMTP_URL: peers.mail.url, MAIL_FROM: 'Collecte <rappels@collecte.test>' });

    async function setup(t: Parameters<typeof noticesApp>[0]) {
      const clock = fixedClock(NOW);
      const built = await noticesApp(t, kind, { clock, env: env() });
      const worker = (options: Partial<ReminderWorkerOptions> = {}) => {
        const w = createReminderWorker({ db: built.db, config: testConfig(env()), log: built.app.log, now: clock, ...options });
        t.after(() => w.stop());
        return w;
      };
      return { ...built, clock, worker };
    }

    /** A push subscription of a place of Brest, named after its device. */
    async function subscribePush(app: FastifyInstance, name: string, placeId: string) {
      const subscriber = peers.push.subscriber(`${kind}-${name}`);
      const response = await app.inject({
        method: 'POST',
        url: '/public/reminders/subscriptions',
        payload: { deviceId: `device-${name}`, cityId: ids.brest, placeId, channel: 'WEB_PUSH', webPush: { endpoint: subscriber.endpoint, keys: subscriber.keys } },
      });
      assert.equal(response.statusCode, 201, response.body);
    }

    async function subscribeEmail(app: FastifyInstance, address: string, placeId: string, confirm: boolean) {
      const response = await app.inject({
        method: 'POST',
        url: '/public/reminders/subscriptions',
        payload: { deviceId: `device-${address.replace(/\W/g, '')}`, cityId: ids.brest, placeId, channel: 'EMAIL', email: address },
      });
      assert.equal(response.statusCode, 201, response.body);
      if (!confirm) return;
      const link = /\/public\/reminders\/confirm\?token=\S+/.exec(peers.mail.received.filter((m) => m.to.includes(address)).at(-1)!.text)![0];
      assert.equal((await app.inject({ url: link, headers: { accept: 'application/json' } })).statusCode, 200);
    }

    const pushesTo = (name: string) => peers.push.received.filter((p) => p.subscriber === `${kind}-${name}` && p.payload?.tag.startsWith('avis-'));
    const mailsTo = (address: string) => peers.mail.received.filter((m) => m.to.includes(address) && m.headers.get('subject')?.startsWith('Avis'));

    it('sends a notice once per subscription of its places, by push and e-mail, from its startsAt, whatever the number of workers', async (t) => {
      const { app, database, db, asManager, clock, worker } = await setup(t);
      const mail = `centre-${kind}@exemple.fr`;
      await subscribePush(app, 'centre', ids.placeCentre);
      await subscribePush(app, 'nord', ids.placeNord);
      await subscribeEmail(app, mail, ids.placeCentre, true);
      await subscribeEmail(app, `pas-confirmee-${kind}@exemple.fr`, ids.placeCentre, false);
      // On PostgreSQL the second worker has connections of its own, as another instance would.
      let second: Database = database;
      if (kind === 'postgres') {
        second = await openDatabase({ databaseUrl: process.env.DATABASE_URL!, dataDir: null, schema: database.schema, poolSize: 4 });
        t.after(() => second.close());
      }
      const a = worker();
      const b = worker({ db: second.db });

      const notice = await createNotice(app, asManager, {
        placeIds: [ids.placeCentre],
        severity: 'WARNING',
        title: 'Rue de Siam fermée',
        body: 'Travaux rue de Siam\u00a0: sortez vos bacs rue Traverse.\n\nMerci de votre compréhension.',
        startsAt: at(10),
        notify: true,
      });
      clock.set(at(9.99));
      await Promise.all([a.tick(), b.tick()]);
      assert.equal(pushesTo('centre').length, 0, 'not before startsAt');

      clock.set(at(10));
      await Promise.all([a.tick(), b.tick(), a.tick(), b.tick()]);
      await Promise.all([a.tick(), b.tick()]);
      assert.equal(pushesTo('centre').length, 1, 'once, at the first tick from startsAt');
      assert.equal(pushesTo('nord').length, 0, 'a place the notice does not concern');
      const [push] = pushesTo('centre');
      assert.equal(push.error, null);
      assert.deepEqual(push.payload, {
        title: 'Avis important – Rue de Siam fermée',
        body: 'Travaux rue de Siam\u00a0: sortez vos bacs rue Traverse.\n\nMerci de votre compréhension.',
        url: `http://localhost:80/communes/${ids.brest}/${ids.placeCentre}`,
        tag: `avis-${notice.id}`,
      });

      assert.equal(mailsTo(mail).length, 1);
      const [sent] = mailsTo(mail);
      const text = sent.text.replace(/\r\n/g, '\n');
      assert.equal(sent.headers.get('subject'), 'Avis important – Rue de Siam fermée');
      assert.match(text, /^Travaux rue de Siam\u00a0: sortez vos bacs rue Traverse\.\n\nMerci de votre compréhension\./);
      assert.match(text, /Ne plus recevoir les rappels et avis de collecte\u00a0: http:\/\/localhost:80\/public\/reminders\/unsubscribe\?token=/);
      assert.match(sent.html, /<p>Travaux rue de Siam\u00a0: sortez vos bacs rue Traverse\.<\/p><p>Merci de votre compréhension\.<\/p>/);
      assert.equal(sent.headers.get('list-unsubscribe-post'), 'List-Unsubscribe=One-Click');
      assert.match(sent.headers.get('message-id')!, new RegExp(`^<notice-[0-9a-f-]{36}-NOTICE-${notice.id}@collecte\\.test>$`));
      assert.equal(mailsTo(`pas-confirmee-${kind}@exemple.fr`).length, 0, 'nothing to an unconfirmed address');

      const rows = await db.selectFrom('reminder_delivery').select(['status']).where('kind', '=', 'NOTICE').execute();
      assert.deepEqual(rows.map((r) => r.status), ['SENT', 'SENT'], 'one row per subscription, whichever worker planned it');

      // Edited after it went out: not sent again.
      const asNow = await loginHeaders(app, 'manager@brest.fr');
      const read = await inject(app, asNow, 'GET', `/admin/notices/${notice.id}`);
      assert.equal(read.json().notifiedAt, at(10));
      const edited = await inject(app, { ...asNow, 'if-match': String(read.headers.etag) }, 'PATCH', `/admin/notices/${notice.id}`, { body: 'Rouverte.' });
      assert.equal(edited.statusCode, 200, edited.body);
      clock.set(at(11));
      await Promise.all([a.tick(), b.tick()]);
      assert.equal(pushesTo('centre').length, 1);
      assert.equal(mailsTo(mail).length, 1);
    });

    it('sends a notice whose startsAt is past at the next tick after its write, to every place of the group; never a deleted, ended or silent one', async (t) => {
      const { app, asManager, clock, worker } = await setup(t);
      await subscribePush(app, 'centre-2', ids.placeCentre);
      await subscribePush(app, 'nord-2', ids.placeNord);
      const w = worker();

      const past = await createNotice(app, asManager, { title: 'Collecte des sapins', startsAt: at(-24 * 60), notify: true });
      await createNotice(app, asManager, { title: 'Sans envoi', startsAt: at(-60) });
      const deleted = await createNotice(app, asManager, { title: 'Annulé', startsAt: at(5), notify: true });
      await createNotice(app, asManager, { title: 'Trop tard', startsAt: at(6), endsAt: at(8), notify: true });
      const etag = String((await inject(app, asManager, 'GET', `/admin/notices/${deleted.id}`)).headers.etag);
      assert.equal((await inject(app, { ...asManager, 'if-match': etag }, 'DELETE', `/admin/notices/${deleted.id}`)).statusCode, 204);

      clock.set(at(0.5));
      const summary = await w.tick();
      assert.equal(summary.notices, 2);
      for (const name of ['centre-2', 'nord-2']) {
        assert.deepEqual(pushesTo(name).map((p) => p.payload?.title), ['Avis – Collecte des sapins'], name);
        assert.equal(pushesTo(name)[0].payload?.tag, `avis-${past.id}`);
      }

      // The worker was down from before "Trop tard" started until after it ended: it is never sent.
      clock.set(at(10));
      assert.equal((await w.tick()).notices, 0);
      clock.set(at(60));
      await w.tick();
      assert.deepEqual(pushesTo('centre-2').map((p) => p.payload?.title), ['Avis – Collecte des sapins']);
    });

    it('skips a notice deleted after it was planned, while its message waits for a retry', async (t) => {
      const { app, db, asManager, clock, worker } = await setup(t);
      await subscribePush(app, 'busy', ids.placeCentre);
      peers.push.respond(`${kind}-busy`, [{ status: 503 }]);
      const w = worker();
      const notice = await createNotice(app, asManager, { title: 'Retardé', notify: true });
      const first = await w.tick();
      assert.deepEqual({ notices: first.notices, retried: first.retried }, { notices: 1, retried: 1 });

      const etag = String((await inject(app, asManager, 'GET', `/admin/notices/${notice.id}`)).headers.etag);
      assert.equal((await inject(app, { ...asManager, 'if-match': etag }, 'DELETE', `/admin/notices/${notice.id}`)).statusCode, 204);
      clock.set(at(1)); // past the first backoff
      const second = await w.tick();
      assert.equal(second.skipped, 1);
      assert.equal(second.sent, 0);
      const row = await db.selectFrom('reminder_delivery').select(['status', 'last_error']).where('kind', '=', 'NOTICE').executeTakeFirstOrThrow();
      assert.deepEqual(row, { status: 'SKIPPED', last_error: 'the notice was deleted' });
      assert.deepEqual(
        peers.push.received.filter((p) => p.subscriber === `${kind}-busy`).map((p) => p.status),
        [503],
        'the refused attempt only',
      );
    });
  });
}
