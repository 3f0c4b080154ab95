import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { fixedClock, testConfig } from '../helpers/app.ts';
import { inject } from '../helpers/admin-fixtures.ts';
import { startMailServer, type MailServer, type ReceivedMail } from '../helpers/smtp-server.ts';
import { agentHeaders, device, fileRequest, missedBody, MONDAY_AFTERNOON, requestsApp } from '../helpers/request-fixtures.ts';
import { createRequestWorker } from '../../src/requests/worker.ts';

/**
 * E-mails to requesters (docs/api.md, resident requests) through a real SMTP server: the receipt with its tracking
 * link, one message per public update and none for an internal note, the one-click stop (RFC 8058), at most five a
 * day to one mailbox whatever its `+tag` and case, a send that fails retried while the request stays recorded; and
 * the worker's retention: what identifies a requester erased a year after the request closed, unclaimed photos gone.
 */

const at = (iso: string, hours: number) => new Date(Date.parse(iso) + hours * 3_600_000).toISOString();
const linkIn = (mail: ReceivedMail, path: string) => {
  const found = new RegExp(`https?://[^\\s]+/public/requests/${path}\\?token=[A-Za-z0-9._-]+`).exec(mail.text)?.[0];
  if (!found) throw new Error(`no ${path} link in ${mail.text}`);
  return found.replace(/^https?:\/\/[^/]+/, '');
};

for (const kind of testDatabaseKinds()) {
  describe(`e-mails to requesters (${kind})`, () => {
    let smtp: MailServer;
    before(async () => {
      smtp = await startMailServer();
    });
    after(() => smtp.close());
    const env = () => ({ SMTP_URL: smtp.url, MAIL_FROM: 'Collecte <demandes@collecte.test>', PUBLIC_BASE_URL: 'https://collecte.example' });

    async function setup(t: Parameters<typeof requestsApp>[0], extra: Record<string, string> = {}) {
      const clock = fixedClock(MONDAY_AFTERNOON);
      const built = await requestsApp(t, kind, { clock, env: { ...env(), ...extra } });
      const worker = (config = testConfig({ ...env(), ...extra })) => {
        const w = createRequestWorker({ db: built.db, config, log: built.app.log, now: clock });
        t.after(() => w.stop());
        return w;
      };
      return { ...built, clock, worker };
    }
    const to = (address: string) => smtp.received.filter((m) => m.to.includes(address));

    it('sends the receipt, then one message per public update, never an internal note', async (t) => {
      const { app, clock, worker } = await setup(t);
      const address = `jeanne.${kind}@example.fr`;
      const filed = (await fileRequest(app, missedBody(device(1), { email: address }))).json();
      const w = worker();
      assert.equal((await w.tick()).sent, 1);
      const [receipt] = to(address);
      assert.match(receipt.headers.get('subject')!, new RegExp(`Demande ${filed.reference} reçue\u00a0: Collecte non effectuée`));
      assert.match(receipt.text, new RegExp(`référence est ${filed.reference}`));
      assert.match(receipt.text, /reçue le 30 novembre 2026 à 14\u00a0h/);
      assert.match(receipt.headers.get('list-unsubscribe')!, /^<https:\/\/collecte\.example\/public\/requests\/unsubscribe\?token=/);
      assert.equal(receipt.headers.get('list-unsubscribe-post'), 'List-Unsubscribe=One-Click');
      assert.equal((await w.tick()).sent, 0, 'sent once');

      const track = linkIn(receipt, 'track');
      const json = await app.inject({ url: track, headers: { accept: 'application/json' } });
      assert.equal(json.statusCode, 200);
      assert.equal(json.json().id, filed.id);
      const page = await app.inject({ url: track, headers: { accept: 'text/html' } });
      assert.match(String(page.headers['content-type']), /text\/html/);
      assert.match(page.body, new RegExp(`Demande ${filed.reference}`));
      assert.equal((await app.inject({ url: `${track}x`, headers: { accept: 'application/json' } })).statusCode, 404);

      clock.set(at(MONDAY_AFTERNOON, 1));
      const asAgent = await agentHeaders(app);
      const url = `/admin/requests/${filed.id}`;
      const etag = String((await inject(app, asAgent, 'GET', url)).headers.etag);
      await inject(app, { ...asAgent, 'if-match': etag }, 'PATCH', url, { status: 'PLANIFIEE', plannedFor: '2026-12-01' });
      await inject(app, asAgent, 'POST', `${url}/replies`, { message: 'Note interne : voir le prestataire.', public: false });
      await inject(app, asAgent, 'POST', `${url}/replies`, { message: 'Un camion repasse demain matin.', public: true });
      assert.equal((await w.tick()).sent, 2);
      const subjects = to(address).map((m) => m.headers.get('subject'));
      assert.deepEqual(subjects.slice(1).sort(), [
        `Demande ${filed.reference}\u00a0: planifiée le mardi 1er décembre`,
        `Demande ${filed.reference}\u00a0: réponse du service`,
      ].sort());
      assert.ok(to(address).some((m) => m.text.includes('Un camion repasse demain matin.')));
      assert.equal(smtp.received.some((m) => m.text.includes('Note interne')), false);
    });

    it('stops at the one-click link, and keeps to five a day per mailbox whatever its +tag and case', async (t) => {
      const { app, clock, worker } = await setup(t);
      const w = worker();
      const box = `paul.${kind}@example.fr`;
      const variants = [box, box.toUpperCase(), box.replace('@', '+1@'), box.replace('@', '+2@'), box.replace('@', '+3@'), box.replace('@', '+4@')];
      const filed: { id: string; reference: string }[] = [];
      for (const [n, email] of variants.entries()) {
        filed.push((await fileRequest(app, { deviceId: device(`cap-${n}`), cityId: ids.brest, typeCode: 'autre', description: `Demande ${n}`, email })).json());
      }
      const first = await w.tick();
      assert.deepEqual([first.sent, first.postponed], [5, 1]);
      assert.equal((await w.tick()).sent, 0, 'the sixth waits for the next day');
      clock.set('2026-11-30T23:00:01.000Z'); // past midnight in Paris
      assert.equal((await w.tick()).sent, 1);

      // The stop link: GET shows a button and changes nothing; POST stops; later updates are not sent.
      // References start anew in each test's database: the mail is found by its mailbox too.
      const mail = smtp.received.find((m) => m.to.includes(variants[0]) && m.text.includes(filed[0].reference))!;
      const stop = linkIn(mail, 'unsubscribe');
      assert.deepEqual((await app.inject({ url: stop, headers: { accept: 'application/json' } })).json(), { status: 'ACTIVE' });
      const form = await app.inject({ url: stop, headers: { accept: 'text/html' } });
      assert.match(form.body, /<form method="post"/);
      const posted = await app.inject({ method: 'POST', url: stop, headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, payload: 'List-Unsubscribe=One-Click' });
      assert.deepEqual([posted.statusCode, posted.json()], [200, { status: 'STOPPED' }]);
      const asAgent = await agentHeaders(app);
      await inject(app, asAgent, 'POST', `/admin/requests/${filed[0].id}/replies`, { message: 'Réponse après arrêt.', public: true });
      clock.set('2026-12-01T09:00:00.000Z');
      await w.tick();
      assert.equal(smtp.received.some((m) => m.text.includes('Réponse après arrêt.')), false);
    });

    it('records a request whose e-mail cannot be sent, and sends it once the server answers', async (t) => {
      // A port that refuses connections: the SMTP server is away.
      const closed = net.createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as net.AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      const { app, clock, db, worker } = await setup(t);
      const address = `lea.${kind}@example.fr`;
      const filed = await fileRequest(app, missedBody(device(1), { email: address }));
      assert.equal(filed.statusCode, 201, 'recorded whatever the mail server');
      const away = worker(testConfig({ ...env(), SMTP_URL: `smtp://127.0.0.1:${port}` }));
      const failed = await away.tick();
      assert.deepEqual([failed.sent, failed.retried], [0, 1]);
      const [row] = await db.selectFrom('request_mail').select(['status', 'attempts', 'last_error']).execute();
      assert.equal(row.status, 'PENDING');
      assert.match(String(row.last_error), /^smtp: /);
      assert.equal((await worker().tick()).sent, 0, 'not before its backoff');
      clock.set(at(MONDAY_AFTERNOON, 1));
      assert.equal((await worker().tick()).sent, 1);
      assert.equal(to(address).length, 1);
    });

    it('erases what identifies a requester a year after the request closed, and unclaimed photos after a day', async (t) => {
      const { app, clock, db, worker } = await setup(t, { REQUESTS_RETENTION_DAYS: '365' });
      const filed = (await fileRequest(app, missedBody(device(1), { email: 'marc@example.fr', description: 'Je suis Marc, au 3 rue de Siam.' }))).json();
      const open = (await fileRequest(app, { deviceId: device(2), cityId: ids.brest, typeCode: 'depot-sauvage', address: '5 rue de Siam', description: 'Un canapé.' })).json();
      await db.insertInto('request_photo').values({ id: '70000000-0000-4000-8000-000000000001', request_id: null, content_type: 'image/jpeg', width: 1, height: 1, bytes: Buffer.from([1]), created_at: new Date(MONDAY_AFTERNOON) }).execute();
      const asAgent = await agentHeaders(app);
      const url = `/admin/requests/${filed.id}`;
      const etag = String((await inject(app, asAgent, 'GET', url)).headers.etag);
      await inject(app, { ...asAgent, 'if-match': etag }, 'PATCH', url, { status: 'RESOLUE' });
      const w = worker();
      clock.set(at(MONDAY_AFTERNOON, 25));
      assert.equal((await w.tick()).photosDeleted, 1);
      clock.set(at(MONDAY_AFTERNOON, 364 * 24));
      assert.equal((await w.tick()).erased, 0);
      clock.set(at(MONDAY_AFTERNOON, 366 * 24));
      assert.equal((await w.tick()).erased, 1);
      const kept = (await app.inject(`/public/requests/${filed.id}?deviceId=${device(1)}`)).json();
      assert.deepEqual([kept.description, kept.address, kept.latitude, kept.attributes], [null, null, null, {}]);
      assert.deepEqual([kept.reference, kept.status, kept.placeId, kept.wasteTypeId, kept.date], [filed.reference, 'RESOLUE', ids.placeCentre, ids.wasteOm, '2026-11-30']);
      const row = await db.selectFrom('resident_request').select(['email', 'erased_at']).where('id', '=', filed.id).executeTakeFirstOrThrow();
      assert.equal(row.email, null);
      assert.ok(row.erased_at);
      const still = (await app.inject(`/public/requests/${open.id}?deviceId=${device(2)}`)).json();
      assert.equal(still.description, 'Un canapé.', 'an open request keeps everything');
    });
  });
}

