import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { insertCalendarScenario, type CalendarScenario } from '../helpers/calendar-fixtures.ts';
import { reminderPeers } from '../helpers/reminder-peers.ts';

const DEVICE = 'device-reminders-1';

for (const kind of testDatabaseKinds()) {
  describe(`reminder routes (${kind})`, () => {
    const peers = reminderPeers();

    const setup = async (t: Parameters<typeof buildTestApp>[0], env: Record<string, string> = {}) => {
      const clock = fixedClock('2026-11-24T12:00:00.000Z');
      const { app, database } = await buildTestApp(t, kind, {
        clock,
        env: { WEB_PUSH_ALLOW_INSECURE_ENDPOINTS: 'true', SMTP_URL: peers.mail.url, MAIL_FROM: 'Collecte <rappels@collecte.test>', ...env },
      });
      const scenario = await insertCalendarScenario(database.db);
      return { app, database, scenario, clock };
    };
    const pushBody = (s: CalendarScenario, name: string, extra: Record<string, unknown> = {}) => {
      const subscriber = peers.push.subscriber(name);
      return {
        deviceId: DEVICE,
        cityId: s.cityId,
        placeId: s.placeId,
        wasteTypeIds: [],
        time: '19:00',
        channel: 'WEB_PUSH',
        webPush: { endpoint: subscriber.endpoint, keys: subscriber.keys },
        ...extra,
      };
    };

    it('gives the VAPID public key, whether e-mail is offered and the default time; the key is kept in the database', async (t) => {
      const { app, database } = await setup(t);
      const config = (await app.inject('/public/reminders/config')).json();
      assert.equal(config.emailEnabled, true);
      assert.equal(config.defaultTime, '19:00');
      assert.equal(Buffer.from(config.webPushPublicKey, 'base64url').length, 65);
      // A second app on the same database (another instance, a restart) signs with the same key.
      const { app: other } = await buildTestApp(t, kind, { database });
      const again = (await other.inject('/public/reminders/config')).json();
      assert.equal(again.webPushPublicKey, config.webPushPublicKey);
      assert.equal(again.emailEnabled, false);
    });

    it('documents every reminder route under the reminders tag', async (t) => {
      const { app } = await setup(t);
      const doc = (await app.inject('/openapi.json')).json();
      const routes = Object.entries(doc.paths as Record<string, Record<string, { tags: string[] }>>)
        .filter(([path]) => path.startsWith('/public/reminders'))
        .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op.tags] as const));
      assert.deepEqual(routes.map(([route]) => route).sort(), [
        'DELETE /public/reminders/subscriptions/{id}',
        'GET /public/reminders/config',
        'GET /public/reminders/confirm',
        'GET /public/reminders/subscriptions/{deviceId}',
        'GET /public/reminders/unsubscribe',
        'POST /public/reminders/subscriptions',
        'POST /public/reminders/unsubscribe',
      ]);
      for (const [route, tags] of routes) assert.deepEqual(tags, ['reminders'], route);
      const preflight = await app.inject({ method: 'OPTIONS', url: '/public/reminders/subscriptions/x', headers: { origin: 'https://app.example', 'access-control-request-method': 'DELETE' } });
      assert.match(preflight.headers['access-control-allow-methods'] as string, /DELETE/);
    });

    it('takes the configured VAPID key when set', async (t) => {
      const { default: webPush } = await import('web-push');
      const keys = webPush.generateVAPIDKeys();
      const { app } = await setup(t, { VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey });
      assert.equal((await app.inject('/public/reminders/config')).json().webPushPublicKey, keys.publicKey);
    });

    it('subscribes a push endpoint (201), updates it when subscribed again for the same place (200), lists and deletes it', async (t) => {
      const { app, scenario } = await setup(t);
      const body = pushBody(scenario, 'alice');
      const created = await app.inject({ method: 'POST', url: '/public/reminders/subscriptions', payload: body });
      assert.equal(created.statusCode, 201, created.body);
      const sub = created.json();
      assert.deepEqual(Object.keys(sub).sort(), ['channel', 'cityId', 'createdAt', 'deviceId', 'id', 'placeId', 'status', 'time', 'wasteTypeIds']);
      assert.equal(sub.status, 'ACTIVE');
      assert.equal(sub.time, '19:00');
      assert.match(created.headers['x-ratelimit-limit'] as string, /^\d+$/);

      const again = await app.inject({
        method: 'POST',
        url: '/public/reminders/subscriptions',
        payload: { ...body, time: '20:30', wasteTypeIds: [scenario.wasteTypes.verre] },
      });
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(again.json().id, sub.id);
      assert.equal(again.json().time, '20:30');
      assert.deepEqual(again.json().wasteTypeIds, [scenario.wasteTypes.verre]);

      // The same endpoint for another place is another subscription.
      const other = await app.inject({ method: 'POST', url: '/public/reminders/subscriptions', payload: { ...body, placeId: scenario.otherPlaceId } });
      assert.equal(other.statusCode, 201);

      const list = await app.inject(`/public/reminders/subscriptions/${DEVICE}`);
      assert.equal(list.statusCode, 200);
      assert.equal(list.json().length, 2);
      assert.equal(list.json()[0].email, null);
      assert.ok(!list.body.includes('127.0.0.1') && !list.body.includes(body.webPush.keys.p256dh), 'neither endpoint nor keys');

      assert.equal((await app.inject({ method: 'DELETE', url: `/public/reminders/subscriptions/${sub.id}?deviceId=another-device` })).statusCode, 404);
      assert.equal((await app.inject({ method: 'DELETE', url: `/public/reminders/subscriptions/${sub.id}?deviceId=${DEVICE}` })).statusCode, 204);
      assert.equal((await app.inject({ method: 'DELETE', url: `/public/reminders/subscriptions/${sub.id}?deviceId=${DEVICE}` })).statusCode, 404);
      assert.equal((await app.inject(`/public/reminders/subscriptions/${DEVICE}`)).json().length, 1);
      assert.deepEqual((await app.inject('/public/reminders/subscriptions/unknown-device')).json(), []);
    });

    it('answers 400 naming the field, and 404 for an unknown city or place', async (t) => {
      const { app, scenario } = await setup(t);
      const body = pushBody(scenario, 'bob');
      const post = (payload: unknown) => app.inject({ method: 'POST', url: '/public/reminders/subscriptions', payload: payload as object });
      const cases: Array<[string, unknown, number, RegExp]> = [
        ['bad deviceId', { ...body, deviceId: 'x' }, 400, /deviceId/],
        ['missing cityId', { ...body, cityId: undefined }, 400, /cityId/],
        ['cityId not a UUID', { ...body, cityId: 'paris' }, 400, /cityId/],
        ['bad time', { ...body, time: '24:00' }, 400, /time/],
        ['time without minutes', { ...body, time: '19h' }, 400, /time/],
        ['bad channel', { ...body, channel: 'SMS' }, 400, /channel/],
        ['waste type not a UUID', { ...body, wasteTypeIds: ['x'] }, 400, /wasteTypeIds/],
        ['waste type of no city', { ...body, wasteTypeIds: [randomUUID()] }, 400, /wasteTypeIds/],
        ['push without webPush', { ...body, webPush: null }, 400, /webPush/],
        ['push without endpoint', { ...body, webPush: { keys: body.webPush.keys } }, 400, /endpoint/],
        ['short p256dh', { ...body, webPush: { ...body.webPush, keys: { ...body.webPush.keys, p256dh: 'AAAA' } } }, 400, /p256dh/],
        ['short auth', { ...body, webPush: { ...body.webPush, keys: { ...body.webPush.keys, auth: 'AAAA' } } }, 400, /auth/],
        ['endpoint not a URL', { ...body, webPush: { ...body.webPush, endpoint: 'not a url' } }, 400, /webPush\.endpoint/],
        ['ftp endpoint', { ...body, webPush: { ...body.webPush, endpoint: 'ftp://peers.push.example/x' } }, 400, /webPush\.endpoint.*https/],
        ['e-mail without email', { ...body, channel: 'EMAIL', webPush: null }, 400, /email/],
        ['bad e-mail', { ...body, channel: 'EMAIL', email: 'pas-une-adresse' }, 400, /email/],
        ['unknown city', { ...body, cityId: randomUUID() }, 404, /Ville introuvable/],
        ['place of another city', { ...body, placeId: scenario.otherCityPlaceId }, 404, /Lieu de collecte introuvable/],
        ['unknown place', { ...body, placeId: randomUUID() }, 404, /Lieu de collecte introuvable/],
      ];
      // The catalogue's reminder errors: the code and the field clients read (docs/api.md, conventions).
      const catalogued: Record<string, [string, string | null]> = {
        'waste type of no city': ['reminderWasteTypes', 'wasteTypeIds'],
        'push without webPush': ['reminderWebPushMissing', 'webPush'],
        'short p256dh': ['reminderPushKey', 'webPush.keys.p256dh'],
        'short auth': ['reminderPushKey', 'webPush.keys.auth'],
        'ftp endpoint': ['reminderEndpointScheme', 'webPush.endpoint'],
        'e-mail without email': ['reminderEmailMissing', 'email'],
        'unknown city': ['cityNotFound', null],
        'place of another city': ['collectionPlaceNotFound', null],
      };
      for (const [name, payload, status, message] of cases) {
        const response = await post(payload);
        assert.equal(response.statusCode, status, `${name}: ${response.body}`);
        const error = response.json();
        assert.equal(error.statusCode, status, name);
        assert.match(error.message, message, name);
        assert.equal(error.error, status === 400 ? 'Bad Request' : 'Not Found', name);
        if (name in catalogued) assert.deepEqual([error.code, error.field], catalogued[name], name);
      }
      const malformed = await app.inject({ method: 'POST', url: '/public/reminders/subscriptions', headers: { 'content-type': 'application/json' }, payload: '{' });
      assert.equal(malformed.statusCode, 400);
      assert.equal((await app.inject('/public/reminders/subscriptions/x')).statusCode, 400);
      assert.equal((await app.inject({ method: 'DELETE', url: `/public/reminders/subscriptions/not-a-uuid?deviceId=${DEVICE}` })).statusCode, 400);
      assert.equal((await app.inject({ method: 'DELETE', url: `/public/reminders/subscriptions/${randomUUID()}` })).statusCode, 400);
      assert.equal((await app.inject({ method: 'DELETE', url: `/public/reminders/subscriptions/${randomUUID()}?deviceId=${DEVICE}` })).statusCode, 404);
      assert.equal((await app.inject('/public/reminders/confirm')).statusCode, 400);
      assert.equal((await app.inject('/public/reminders/unsubscribe')).statusCode, 400);
    });

    it('refuses push endpoints on loopback, private or link-local addresses and plain http (SSRF rule)', async (t) => {
      const { app, scenario } = await setup(t, { WEB_PUSH_ALLOW_INSECURE_ENDPOINTS: 'false' });
      const body = pushBody(scenario, 'carol');
      const refused = [
        body.webPush.endpoint, // http, loopback
        'https://127.0.0.1/push/x',
        'https://127.8.9.10:8443/push/x',
        'https://localhost/push/x',
        'https://10.1.2.3/push',
        'https://172.16.0.1/push',
        'https://192.168.1.1/push',
        'https://169.254.169.254/latest/meta-data',
        'https://100.64.0.1/push',
        'https://0.0.0.0/push',
        'https://[::1]/push',
        'https://[fd00::1]/push',
        'https://[fe80::1]/push',
        'https://[::ffff:127.0.0.1]/push',
        'https://[::ffff:a00:1]/push',
        'https://[64:ff9b::a00:1]/push',
        'https://no-such-host.invalid/push',
      ];
      for (const endpoint of refused) {
        const response = await app.inject({ method: 'POST', url: '/public/reminders/subscriptions', payload: { ...body, webPush: { ...body.webPush, endpoint } } });
        assert.equal(response.statusCode, 400, `${endpoint}: ${response.body}`);
        assert.match(response.json().message, /webPush\.endpoint/, endpoint);
      }
      // A public address literal passes the rule (nothing is posted to it when subscribing).
      const ok = await app.inject({
        method: 'POST',
        url: '/public/reminders/subscriptions',
        payload: { ...body, webPush: { ...body.webPush, endpoint: 'https://93.184.215.14/push/abc' } },
      });
      assert.equal(ok.statusCode, 201, ok.body);
    });

    it('keeps private networks refused even when insecure endpoints are allowed for tests', async (t) => {
      const { app, scenario } = await setup(t);
      const body = pushBody(scenario, 'dave');
      for (const endpoint of ['http://10.0.0.1/push', 'http://192.168.0.10:8080/push', 'http://[fd12::1]/push']) {
        const response = await app.inject({ method: 'POST', url: '/public/reminders/subscriptions', payload: { ...body, webPush: { ...body.webPush, endpoint } } });
        assert.equal(response.statusCode, 400, endpoint);
      }
    });

    it('e-mail: PENDING, a French confirmation e-mail with one-click unsubscribe, the confirm link activates, masked in the list', async (t) => {
      const { app, scenario } = await setup(t);
      const before = peers.mail.received.length;
      const response = await app.inject({
        method: 'POST',
        url: '/public/reminders/subscriptions',
        headers: { host: 'collecte.example' },
        payload: { deviceId: DEVICE, cityId: scenario.cityId, placeId: scenario.placeId, channel: 'EMAIL', email: 'Jeanne.Martin@Exemple.fr' },
      });
      assert.equal(response.statusCode, 201, response.body);
      const sub = response.json();
      assert.equal(sub.status, 'PENDING');
      assert.equal(sub.time, '19:00');
      assert.deepEqual(sub.wasteTypeIds, []);
      assert.equal(peers.mail.received.length, before + 1);
      const message = peers.mail.received.at(-1)!;
      assert.deepEqual(message.to, ['jeanne.martin@exemple.fr']);
      assert.equal(message.headers.get('subject'), 'Confirmez vos rappels de collecte');
      assert.equal(message.headers.get('list-unsubscribe-post'), 'List-Unsubscribe=One-Click');
      const unsubscribeUrl = /^<(.+)>$/.exec(message.headers.get('list-unsubscribe')!)![1];
      assert.match(unsubscribeUrl, /^http:\/\/collecte\.example\/public\/reminders\/unsubscribe\?token=/);
      assert.match(message.text, /la veille de chaque collecte à 19\u00a0h, un rappel pour Centre-ville \(Villecollecte\)/);
      assert.match(message.html, /<a href="http:\/\/collecte\.example\/public\/reminders\/confirm\?token=/);
      const confirmUrl = /(http:\/\/collecte\.example\/public\/reminders\/confirm\?token=\S+)/.exec(message.text)![1];

      const listed = (await app.inject(`/public/reminders/subscriptions/${DEVICE}`)).json();
      assert.equal(listed[0].email, 'j***@exemple.fr');
      assert.ok(!JSON.stringify(listed).includes('jeanne'));

      const path = (url: string) => url.replace('http://collecte.example', '');
      const page = await app.inject({ url: path(confirmUrl), headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
      assert.equal(page.statusCode, 200);
      assert.match(page.headers['content-type'] as string, /^text\/html/);
      assert.match(page.body, /Rappels confirmés/);
      assert.deepEqual((await app.inject({ url: path(confirmUrl), headers: { accept: 'application/json' } })).json(), { status: 'ACTIVE' });
      assert.equal((await app.inject(`/public/reminders/subscriptions/${DEVICE}`)).json()[0].status, 'ACTIVE');

      // Subscribing the confirmed address again updates it and keeps it ACTIVE, without a new e-peers.mail.
      const again = await app.inject({
        method: 'POST',
        url: '/public/reminders/subscriptions',
        payload: { deviceId: DEVICE, cityId: scenario.cityId, placeId: scenario.placeId, channel: 'EMAIL', email: 'jeanne.martin@exemple.fr', time: '18:00' },
      });
      assert.equal(again.statusCode, 200);
      assert.equal(again.json().status, 'ACTIVE');
      assert.equal(peers.mail.received.length, before + 1);

      // The unsubscribe page changes nothing; its button (a form POST) and the one-click POST delete.
      const form = await app.inject({ url: path(unsubscribeUrl), headers: { accept: 'text/html' } });
      assert.equal(form.statusCode, 200);
      assert.match(form.body, /<form method="post" action="unsubscribe\?token=[^"]+"><button type="submit">Me désabonner<\/button>/);
      assert.match(form.headers['content-security-policy'] as string, /form-action 'self'/);
      assert.deepEqual((await app.inject({ url: path(unsubscribeUrl), headers: { accept: 'application/json' } })).json(), { status: 'ACTIVE' });
      const oneClick = await app.inject({
        method: 'POST',
        url: path(unsubscribeUrl),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      assert.equal(oneClick.statusCode, 200, oneClick.body);
      assert.deepEqual(oneClick.json(), { status: 'DELETED' });
      assert.deepEqual((await app.inject(`/public/reminders/subscriptions/${DEVICE}`)).json(), []);
      const done = await app.inject({ method: 'POST', url: path(unsubscribeUrl), headers: { accept: 'text/html' } });
      assert.equal(done.statusCode, 200);
      assert.match(done.body, /Désabonnement effectué/);
      assert.deepEqual((await app.inject({ url: path(unsubscribeUrl), headers: { accept: 'application/json' } })).json(), { status: 'DELETED' });
      // The confirmation link of a deleted subscription is dead.
      assert.equal((await app.inject({ url: path(confirmUrl), headers: { accept: 'application/json' } })).statusCode, 404);
    });

    it('answers 404 for a forged, altered, misused or expired link', async (t) => {
      const { app, scenario, clock } = await setup(t);
      const before = peers.mail.received.length;
      const subscribed = await app.inject({
        method: 'POST',
        url: '/public/reminders/subscriptions',
        payload: { deviceId: DEVICE, cityId: scenario.cityId, placeId: scenario.placeId, channel: 'EMAIL', email: 'paul@exemple.fr' },
      });
      assert.equal(subscribed.statusCode, 201, subscribed.body);
      const message = peers.mail.received.slice(before).find((m) => m.to.includes('paul@exemple.fr'))!;
      assert.ok(message, 'the confirmation e-mail was received');
      const confirm = /\/public\/reminders\/confirm\?token=(\S+)/.exec(message.text)![1];
      const unsubscribe = /\/public\/reminders\/unsubscribe\?token=(\S+)/.exec(message.text)![1];
      const json = { accept: 'application/json' };
      // A character inside the signature, changed in its high bits: the last base64url character carries padding bits
      // that decoders ignore, so changing it alone may leave the same bytes.
      const at = confirm.length - 6;
      const tampered = `${confirm.slice(0, at)}${confirm[at] === 'A' ? 'g' : 'A'}${confirm.slice(at + 1)}`;
      for (const url of [
        `/public/reminders/confirm?token=garbage`,
        `/public/reminders/confirm?token=${tampered}`,
        `/public/reminders/confirm?token=${unsubscribe}`,
        `/public/reminders/unsubscribe?token=${confirm}`,
      ]) {
        const response = await app.inject({ url, headers: json });
        assert.equal(response.statusCode, 404, url);
        assert.equal(response.json().error, 'Not Found');
      }
      // A browser gets the contract's error body too (never an HTML error page).
      const page = await app.inject({ url: `/public/reminders/unsubscribe?token=garbage`, headers: { accept: 'text/html' } });
      assert.equal(page.statusCode, 404);
      assert.match(page.json().message, /lien n’est pas valide ou a expiré/);
      assert.equal((await app.inject({ method: 'POST', url: `/public/reminders/unsubscribe?token=garbage`, headers: json })).statusCode, 404);
      clock.set('2026-12-02T12:00:00.000Z');
      assert.equal((await app.inject({ url: `/public/reminders/confirm?token=${confirm}`, headers: json })).statusCode, 404, 'expired after 7 days');
      assert.equal((await app.inject({ url: `/public/reminders/unsubscribe?token=${unsubscribe}`, headers: json })).statusCode, 200, 'unsubscribe never expires');
    });

    it('refuses e-mail when it is not configured, and limits confirmation e-mails per address', async (t) => {
      const { app, scenario } = await setup(t, { SMTP_URL: '' });
      const response = await app.inject({
        method: 'POST',
        url: '/public/reminders/subscriptions',
        payload: { deviceId: DEVICE, cityId: scenario.cityId, placeId: scenario.placeId, channel: 'EMAIL', email: 'a@exemple.fr' },
      });
      assert.equal(response.statusCode, 400);
      assert.match(response.json().message, /channel/);

      const { app: mailing, scenario: s2 } = await setup(t);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const r = await mailing.inject({
          method: 'POST',
          url: '/public/reminders/subscriptions',
          payload: { deviceId: DEVICE, cityId: s2.cityId, placeId: s2.placeId, channel: 'EMAIL', email: 'flood@exemple.fr' },
        });
        statuses.push(r.statusCode);
      }
      assert.deepEqual(statuses, [201, 200, 200, 200, 200, 429]);
    });
  });
}
