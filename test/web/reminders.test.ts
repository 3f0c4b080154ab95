// « Me prévenir la veille » in headless Chromium on the demo data (docs/api.md, reminders): notification
// permission asked only on the tap, the subscription posted with the chosen time and bins (checked through the API),
// the e-mail form where push is missing (confirmation e-mail received by a real SMTP server), « Ne plus me
// prévenir », the calendar feed with an alarm, and the service worker showing a reminder the worker really sent.
//
// Headless Chromium has no push service of its own (PushManager.subscribe() fails with « Registration failed -
// permission denied » even with the permission granted), so the page's PushManager.subscribe() is replaced by one
// that answers a subscription on the tests' push service (test/helpers/push-service.ts, which checks VAPID and
// decrypts): everything else is real, and the decrypted payload is then delivered to the app's real service worker
// through DevTools (ServiceWorker.deliverPushMessage). PGlite only, like the other browser suites: the routes and
// the worker are tested on both databases in test/reminders.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { startDemoServer } from '../helpers/web-fixtures.ts';
import { FULL_CHROMIUM_SKIP, launchChromium, settledFocus } from '../helpers/browser.ts';
import { startPushService, type PushService } from '../helpers/push-service.ts';
import { startMailServer, type MailServer } from '../helpers/smtp-server.ts';
import type { Database } from '../../src/db/database.ts';
import { createReminderWorker } from '../../src/reminders/worker.ts';
import { checkA11y } from '../helpers/axe.ts';

const PHONE = { width: 390, height: 844 };
const NBSP = '\u00a0';

interface City {
  id: string;
  name: string;
  wasteTypes: { id: string; name: string }[];
  wasteCollectionPlaces: { id: string; name: string; collectionDays: { wasteTypeId: string }[] }[];
}
interface Subscription {
  id: string;
  placeId: string;
  wasteTypeIds: string[];
  time: string;
  channel: 'WEB_PUSH' | 'EMAIL';
  status: 'ACTIVE' | 'PENDING';
  email: string | null;
}

/** Counts Notification.requestPermission() calls (window.__permissionAsked), installed before the app's scripts. */
const COUNT_PERMISSION = `(() => {
  window.__permissionAsked = 0;
  const original = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = (...args) => { window.__permissionAsked++; return original(...args); };
})();`;

/** PushManager.subscribe() answering `subscription` (JSON), recording the applicationServerKey it was given. */
const fakePushService = (subscription: unknown) => `(() => {
  const json = ${JSON.stringify(subscription)};
  PushManager.prototype.getSubscription = async function () { return null; };
  PushManager.prototype.subscribe = async function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    window.__applicationServerKey = btoa(String.fromCharCode(...key)).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
    window.__userVisibleOnly = options.userVisibleOnly;
    return { endpoint: json.endpoint, toJSON: () => json };
  };
})();`;

/** `day` (YYYY-MM-DD) at `time` (HH:MM) in Paris, as an instant. */
function parisInstant(day: string, time: string): Date {
  const guess = new Date(`${day}T${time}:00Z`);
  const wall = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    .format(guess)
    .replace(', ', 'T');
  const offset = new Date(`${wall}:00Z`).getTime() - guess.getTime();
  return new Date(guess.getTime() - offset);
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const addDays = (day: string, n: number) => isoDay(new Date(new Date(`${day}T00:00:00Z`).getTime() + n * 86_400_000));

describe('web app: reminders the evening before', { skip: FULL_CHROMIUM_SKIP, timeout: 240_000 }, () => {
  let origin: string;
  let app: FastifyInstance;
  let database: Database;
  let browser: Browser;
  let push: PushService;
  let mail: MailServer;
  let city: City;
  let place: City['wasteCollectionPlaces'][number];
  /** The place's waste types, two of them at least. */
  let types: { id: string; name: string }[];
  const closers: (() => Promise<void>)[] = [];

  const api = async <T,>(url: string): Promise<T> => {
    const res = await fetch(origin + url);
    assert.equal(res.status, 200, url);
    return (await res.json()) as T;
  };

  before(async () => {
    push = await startPushService();
    mail = await startMailServer();
    const env = { WEB_PUSH_ALLOW_INSECURE_ENDPOINTS: 'true', SMTP_URL: mail.url, MAIL_FROM: 'Collecte <rappels@collecte.test>' };
    const server = await startDemoServer({ after: (fn) => closers.push(fn) }, 'pglite', { env });
    ({ origin, app, database } = server);
    // Chromium itself: the headless shell has no notifications (its permission is `denied`).
    browser = await launchChromium({ full: true });
    const groups = await api<{ cities: { id: string; name: string }[] }[]>('/public/city-groups');
    const brestId = groups.flatMap((g) => g.cities).find((c) => c.name === 'Brest')!.id;
    city = await api<City>(`/public/cities/${brestId}`);
    place = city.wasteCollectionPlaces.find((p) => new Set(p.collectionDays.map((d) => d.wasteTypeId)).size >= 2)!;
    const ids = new Set(place.collectionDays.map((d) => d.wasteTypeId));
    types = city.wasteTypes.filter((w) => ids.has(w.id));
  });

  after(async () => {
    await browser?.close();
    for (const close of closers.reverse()) await close();
    await push?.close();
    await mail?.close();
  });

  async function newPage(options: Parameters<Browser['newContext']>[0] = {}, scripts: string[] = []): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: PHONE, locale: 'fr-FR', timezoneId: 'Europe/Paris', ...options });
    await context.addInitScript(COUNT_PERMISSION);
    for (const script of scripts) await context.addInitScript(script);
    const page = await context.newPage();
    await page.goto(`${origin}/communes/${city.id}/${place.id}`);
    await page.getByRole('heading', { name: 'Me prévenir la veille' }).waitFor();
    return { context, page };
  }

  const deviceOf = async (page: Page) => JSON.parse((await page.evaluate(() => localStorage.getItem('collecte.deviceId')))!) as string;
  const subscriptionsOf = (device: string) => api<Subscription[]>(`/public/reminders/subscriptions/${device}`);


  it('asks for the permission only on the tap, subscribes with the chosen time and bins; the worker’s push shows in the service worker', async () => {
    const subscriber = push.subscriber('browser');
    const { context, page } = await newPage({ permissions: ['notifications'] }, [fakePushService({ endpoint: subscriber.endpoint, expirationTime: null, keys: subscriber.keys })]);
    const config = await api<{ webPushPublicKey: string; defaultTime: string }>('/public/reminders/config');
    const time = page.getByLabel('Heure du rappel, la veille');
    assert.equal(await time.inputValue(), config.defaultTime);
    for (const type of types) assert.equal(await page.getByRole('checkbox', { name: type.name, exact: true }).isChecked(), true, type.name);
    await checkA11y(page, 'reminders form');
    assert.equal(await page.evaluate('window.__permissionAsked'), 0, 'not asked on arrival');

    // 18:30, the first bin only; with the keyboard.
    await time.fill('18:30');
    const [kept, ...dropped] = types;
    for (const type of dropped) {
      await page.getByRole('checkbox', { name: type.name, exact: true }).focus();
      await page.keyboard.press('Space');
    }
    await page.getByRole('button', { name: 'Me prévenir la veille' }).click();
    await page.getByText(`C'est noté${NBSP}: une notification la veille de chaque collecte, à 18${NBSP}h${NBSP}30.`).waitFor();
    assert.equal(await page.evaluate('window.__permissionAsked'), 1, 'asked on the tap');
    assert.equal(await page.evaluate('window.__applicationServerKey'), config.webPushPublicKey);
    assert.equal(await page.evaluate('window.__userVisibleOnly'), true);

    const device = await deviceOf(page);
    const [subscription] = await subscriptionsOf(device);
    assert.deepEqual(
      { placeId: subscription.placeId, channel: subscription.channel, status: subscription.status, time: subscription.time, wasteTypeIds: subscription.wasteTypeIds },
      { placeId: place.id, channel: 'WEB_PUSH', status: 'ACTIVE', time: '18:30', wasteTypeIds: [kept.id] },
    );
    const list = page.getByRole('list', { name: 'Rappels de cet appareil pour ce secteur' });
    // The list is read again after the subscription.
    await list.getByRole('listitem').first().waitFor();
    assert.equal(await list.getByRole('listitem').count(), 1);
    assert.match(await list.innerText(), new RegExp(`Par notification, la veille à 18${NBSP}h${NBSP}30 · ${kept.name}`));

    // The worker's evening, on an injected clock: the day before the next collection of that bin (from the API).
    const from = addDays(isoDay(new Date()), 2);
    const collections = await api<{ date: string; wasteTypeId: string; wasteTypeName: string }[]>(
      `/public/cities/${city.id}/places/${place.id}/collections?from=${from}&to=${addDays(from, 60)}`,
    );
    const next = collections.find((c) => c.wasteTypeId === kept.id)!;
    const eve = parisInstant(addDays(next.date, -1), '18:30');
    const worker = createReminderWorker({ db: database.db, config: app.config, log: app.log, now: () => eve });
    try {
      const summary = await worker.tick();
      assert.equal(summary.sent, 1);
    } finally {
      await worker.stop();
    }
    const received = push.received.filter((p) => p.subscriber === 'browser');
    assert.equal(received.length, 1);
    const payload = received[0].payload!;
    assert.equal(received[0].error, null);
    assert.match(payload.body, new RegExp(`^Demain, .*${NBSP}: ${kept.name}$`));
    assert.equal(payload.url, `${origin}/communes/${city.id}/${place.id}`);

    // That payload, pushed into the app's real service worker: it shows the notification, and a repeat (same tag)
    // replaces it.
    const cdp = await context.newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => registrations.push(...event.registrations));
    await page.evaluate('navigator.serviceWorker.ready.then(() => undefined)');
    await cdp.send('ServiceWorker.enable');
    for (let i = 0; i < 50 && !registrations.some((r) => r.scopeURL === `${origin}/` && !r.isDeleted); i++) await page.waitForTimeout(100);
    const registration = registrations.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted);
    assert.ok(registration, 'the service worker is registered');
    const notifications = () =>
      page.evaluate(
        '(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data.url })))()',
      );
    for (let attempt = 0; attempt < 2; attempt++) {
      await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: registration.registrationId, data: JSON.stringify(payload) });
      for (let i = 0; i < 100 && ((await notifications()) as unknown[]).length === 0; i++) await page.waitForTimeout(50);
    }
    assert.deepEqual(await notifications(), [{ title: payload.title, body: payload.body, tag: payload.tag, url: payload.url }]);

    // « Ne plus me prévenir » deletes it.
    await list.getByRole('button', { name: 'Ne plus me prévenir' }).click();
    await page.getByText('Ce rappel est supprimé.').waitFor();
    assert.deepEqual(await subscriptionsOf(device), []);
    // The list, there until then, goes (the wait fails the test if it stays).
    await list.waitFor({ state: 'detached' });
    await context.close();
  });

  it('where the permission is refused, offers e-mail', async () => {
    const { context, page } = await newPage();
    assert.equal(await page.evaluate('Notification.permission'), 'default');
    await page.getByRole('button', { name: 'Me prévenir la veille' }).click();
    await page.getByText('Les notifications sont refusées pour ce site sur cet appareil.', { exact: false }).waitFor();
    assert.equal(await page.evaluate('window.__permissionAsked'), 1);
    assert.equal(await page.evaluate('Notification.permission'), 'denied');
    await page.getByLabel('Votre adresse e-mail').waitFor();
    assert.deepEqual(await subscriptionsOf(await deviceOf(page)), []);
    await context.close();
  });

  it('where notifications are refused and no e-mail is offered, points to the calendar subscription with its alarm', async (t) => {
    // An instance without SMTP: no e-mail reminders.
    const bare = await startDemoServer(t, 'pglite');
    const context = await browser.newContext({ viewport: PHONE, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
    t.after(() => context.close());
    await context.addInitScript('delete window.PushManager;');
    const page = await context.newPage();
    await page.goto(`${bare.origin}/communes/${city.id}/${place.id}`);
    await page.getByRole('heading', { name: 'Me prévenir la veille' }).waitFor();
    await page.getByText('Cet appareil ne peut pas recevoir de notifications de ce site.', { exact: false }).waitFor();
    await page.getByText(`Abonnez-vous plutôt au calendrier de votre secteur${NBSP}: votre agenda vous prévient la veille à 19${NBSP}h.`).waitFor();
    assert.equal(await page.getByLabel('Votre adresse e-mail').count(), 0, 'no e-mail form without e-mail');
    await page.getByRole('button', { name: 'Ajouter un rappel à mon agenda' }).click();
    // The feed's alarm ticked, the focus on its link, which now carries the alarm.
    assert.ok(await page.getByRole('checkbox', { name: `avec un rappel la veille à 19${NBSP}h` }).isChecked());
    const subscribe = page.getByRole('link', { name: "S'abonner au calendrier" });
    assert.match(String(await subscribe.getAttribute('href')), /\?alarm=19:00$/);
    assert.equal(await settledFocus(page, () => document.activeElement?.textContent?.trim(), "S'abonner au calendrier"), "S'abonner au calendrier");
  });

  it('without PushManager: e-mail, confirmed from the e-mail received, listed, then deleted', async () => {
    const { context, page } = await newPage({}, ['delete window.PushManager;']);
    await page.getByText('Cet appareil ne peut pas recevoir de notifications de ce site.', { exact: false }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Me prévenir la veille' }).count(), 0);
    const email = page.getByLabel('Votre adresse e-mail');

    // The API's French error, shown under the field, which takes the focus and is described by it.
    await email.fill('pas-une-adresse');
    await page.getByRole('button', { name: 'Recevoir les rappels par e-mail' }).click();
    const problem = page.locator('#reminder-email-error');
    await problem.waitFor();
    assert.match(await problem.innerText(), /email/i);
    assert.equal(await email.getAttribute('aria-invalid'), 'true');
    assert.equal(await email.getAttribute('aria-describedby'), 'reminder-email-error');
    await page.waitForFunction(() => document.activeElement?.id === 'reminder-email');

    const address = `rappel-${Date.now()}@exemple.fr`;
    await email.fill(address);
    await page.getByLabel('Heure du rappel, la veille').fill('20:00');
    const before = mail.received.length;
    await page.getByRole('button', { name: 'Recevoir les rappels par e-mail' }).click();
    await page.getByText(`ouvrez l'e-mail que nous venons d'envoyer à ${address} et confirmez votre adresse`, { exact: false }).waitFor();
    assert.equal(await problem.count(), 0, 'the earlier error is gone');
    assert.equal(await page.getByRole('alert').count(), 0);
    const device = await deviceOf(page);
    const [pending] = await subscriptionsOf(device);
    assert.deepEqual(
      { channel: pending.channel, status: pending.status, time: pending.time, wasteTypeIds: pending.wasteTypeIds },
      { channel: 'EMAIL', status: 'PENDING', time: '20:00', wasteTypeIds: [] },
    );
    const list = page.getByRole('list', { name: 'Rappels de cet appareil pour ce secteur' });
    assert.match(await list.innerText(), /adresse à confirmer/);

    const confirmation = mail.received.slice(before).find((m) => m.to.includes(address));
    assert.ok(confirmation, 'the confirmation e-mail arrived');
    const link = /https?:\/\/\S+\/public\/reminders\/confirm\?token=[^\s>"]+/.exec(confirmation.text)![0];
    const confirmed = await fetch(new URL(new URL(link).pathname + new URL(link).search, origin), { headers: { accept: 'application/json' } });
    assert.deepEqual(await confirmed.json(), { status: 'ACTIVE' });

    await page.reload();
    await list.waitFor();
    assert.doesNotMatch(await list.innerText(), /adresse à confirmer/);
    assert.match(await list.innerText(), new RegExp(`Par e-mail à r\\*\\*\\*@exemple\\.fr, la veille à 20${NBSP}h · tous les bacs`));
    await checkA11y(page, 'reminders by e-mail');
    await list.getByRole('button', { name: 'Ne plus me prévenir' }).click();
    await page.getByText('Ce rappel est supprimé.').waitFor();
    assert.deepEqual(await subscriptionsOf(device), []);
    await context.close();
  });

  it('offers the calendar feed with an alarm the evening before', async () => {
    const { context, page } = await newPage({ serviceWorkers: 'block' });
    const feed = `/public/cities/${city.id}/places/${place.id}/calendar.ics`;
    const subscribe = page.getByRole('link', { name: "S'abonner au calendrier" });
    assert.equal(await subscribe.getAttribute('href'), `webcal://${new URL(origin).host}${feed}`);
    await page.getByLabel('Heure du rappel, la veille').fill('19:15');
    await page.getByRole('checkbox', { name: `avec un rappel la veille à 19${NBSP}h${NBSP}15` }).check();
    assert.equal(await subscribe.getAttribute('href'), `webcal://${new URL(origin).host}${feed}?alarm=19:15`);
    const download = await page.getByRole('link', { name: 'Télécharger le fichier .ics' }).getAttribute('href');
    assert.equal(download, `${origin}${feed}?alarm=19:15`);
    const ics = await (await fetch(download!)).text();
    assert.match(ics, /BEGIN:VALARM/);
    await context.close();
  });
});
