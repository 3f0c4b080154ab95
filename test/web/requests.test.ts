// Resident requests in the citizens' app (docs/api.md, resident requests; docs/web-app.md), in headless Chromium at
// 390 px on the demo data, the server's clock and the page's both on Monday 23 November 2026, 14:00 in Brest (a
// household-waste day of Centre-ville, so its missed-collection window is open): « Collecte non effectuée ? » from the
// calendar, the server's refusal at the field it names, a photo, « Point plein » from the points screen, « Mes
// demandes » following a staff change, the assistant's app paths as links, keyboard-only filing.
// On PGlite, and on PostgreSQL too when DATABASE_URL is set.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { TestContext } from 'node:test';
import sharp from 'sharp';
import type { FastifyInstance } from 'fastify';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startDemoServer } from '../helpers/web-fixtures.ts';
import { fixedClock } from '../helpers/app.ts';
import { CHROMIUM_SKIP, launchChromium, settledFocus } from '../helpers/browser.ts';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { createAccount, loginHeaders } from '../helpers/auth-fixtures.ts';
import { completion, fakeModel } from '../helpers/fake-model.ts';
import { checkA11y } from '../helpers/axe.ts';

const SHOTS = path.resolve(import.meta.dirname, 'screenshots');
const PHONE = { width: 390, height: 844 };
const NBSP = '\u00a0';

/** Monday 23 November 2026, 14:00 in Brest: two hours after noon of a collection day of Centre-ville. */
const NOW = '2026-11-23T13:00:00.000Z';
const TODAY = '2026-11-23';

/** Counts the page's EventSources and whether each was closed (window.__eventSources), before any of the app's scripts. */
const TRACK_EVENT_SOURCES = `(() => {
  const Original = window.EventSource;
  window.__eventSources = [];
  window.EventSource = class extends Original {
    constructor(...args) { super(...args); window.__eventSources.push(this); }
  };
})();`;

interface City {
  id: string;
  name: string;
  cityGroup: { id: string };
  wasteTypes: { id: string; name: string }[];
  wasteCollectionPlaces: { id: string; name: string }[];
  recyclingPoints: { id: string; name: string }[];
}
interface Collection {
  date: string;
  wasteTypeId: string;
  wasteTypeName: string;
  status: string;
}
interface ResidentRequest {
  id: string;
  reference: string;
  typeCode: string;
  status: string;
  placeId: string | null;
  wasteTypeId: string | null;
  date: string | null;
  recyclingPointId: string | null;
  address: string | null;
  description: string | null;
  attributes: Record<string, unknown>;
  photoCount: number;
  updates: { at: string; status: string | null; message: string | null }[];
}

for (const kind of browserDatabaseKinds()) {
  describe(`web app: resident requests (${kind})`, { skip: CHROMIUM_SKIP, timeout: 300_000 }, () => {
    let origin: string;
    let app: FastifyInstance;
    let browser: Browser;
    let brest: City;
    let centre: { id: string; name: string };
    let missedType: { id: string; name: string };
    const clock = fixedClock(NOW);
    const cspViolations: string[] = [];
    const closers: (() => Promise<void>)[] = [];
    const suite = { after: (fn: () => Promise<void>) => void closers.push(fn) };

    const api = async <T,>(url: string, init?: RequestInit): Promise<{ status: number; body: T }> => {
      const res = await fetch(origin + url, init);
      return { status: res.status, body: (await res.json()) as T };
    };
    const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

    before(async () => {
      // The language model the assistant asks, local and scripted: it answers a report with the form's app path.
      const model = await fakeModel(suite as unknown as TestContext, async () =>
        completion({
          content: `Je ne peux pas l’enregistrer moi-même${NBSP}: signalez-le ici /signaler?type=collecte-non-effectuee&cityId=${brest.id}&placeId=${centre.id}. Vous le suivrez dans /mes-demandes.`,
        }),
      );
      const server = await startDemoServer(suite, kind, {
        clock,
        env: { LLM_BASE_URL: model.baseUrl, LLM_MODEL: 'test-model', LLM_API_KEY: 'test-key' },
      });
      origin = server.origin;
      app = server.app;
      const groups = (await api<{ cities: { id: string; name: string }[] }[]>('/public/city-groups')).body;
      const brestId = groups.flatMap((g) => g.cities).find((c) => c.name === 'Brest')!.id;
      brest = (await api<City>(`/public/cities/${brestId}`)).body;
      centre = brest.wasteCollectionPlaces.find((p) => p.name.startsWith('Centre-ville'))!;
      // The place's collections of today: the window of each opened at noon.
      const today = (await api<Collection[]>(`/public/cities/${brest.id}/places/${centre.id}/collections?from=${TODAY}&to=${TODAY}`)).body;
      const collected = today.find((c) => c.status !== 'CANCELLED');
      assert.ok(collected, 'Centre-ville has a collection on Monday 23 November');
      missedType = { id: collected.wasteTypeId, name: collected.wasteTypeName };
      await createAccount(server.database.db, { email: 'agent@brest.fr', name: 'Yann Agent', permissions: ['REQUESTS'], cityGroupIds: [brest.cityGroup.id] });

      fs.mkdirSync(SHOTS, { recursive: true });
      browser = await launchChromium();
    });

    after(async () => {
      await browser?.close();
      for (const close of closers.reverse()) await close();
    });

    /** A phone in Brest whose chosen place is Centre-ville, its clock on NOW, with its own device id. */
    async function newPage(options: Parameters<Browser['newContext']>[0] = {}): Promise<{ context: BrowserContext; page: Page; deviceId: string }> {
      const context = await browser.newContext({ viewport: PHONE, locale: 'fr-FR', timezoneId: 'Europe/Paris', serviceWorkers: 'block', ...options });
      closers.push(() => context.close().catch(() => undefined));
      context.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
      });
      const deviceId = `web-test-${kind}-${Math.random().toString(16).slice(2, 14)}`;
      const place = { cityId: brest.id, cityName: brest.name, placeId: centre.id, placeName: centre.name };
      await context.addInitScript(`(() => {
        if (localStorage.getItem('collecte.deviceId')) return;
        localStorage.setItem('collecte.deviceId', ${JSON.stringify(JSON.stringify(deviceId))});
        localStorage.setItem('collecte.place', ${JSON.stringify(JSON.stringify(place))});
      })();`);
      await context.addInitScript(TRACK_EVENT_SOURCES);
      const page = await context.newPage();
      await page.clock.setFixedTime(new Date(NOW));
      return { context, page, deviceId };
    }

    const requestsOf = async (deviceId: string) => {
      const res = await api<ResidentRequest[]>(`/public/requests?deviceId=${deviceId}`);
      assert.equal(res.status, 200);
      return res.body;
    };


    /** Nothing wider than the phone: no sideways scrolling at 390 px. */
    async function fitsThePhone(page: Page, screen: string) {
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= PHONE.width, `${screen}: ${width} px wide`);
    }

    /** Presses Tab until the focus is on `selector` (keyboard only, as a resident without a pointer does). */
    async function tabTo(page: Page, selector: string) {
      for (let i = 0; i < 40; i++) {
        if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
        await page.keyboard.press('Tab');
      }
      assert.fail(`Tab never reached ${selector}`);
    }

    const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name }).waitFor();

    it('offers « Collecte non effectuée ? » on the calendar, pre-filling place, bin and day, and files it', async () => {
      const { page, deviceId } = await newPage();
      await page.goto(`${origin}/`);
      await heading(page, /Collecte à Brest/);
      const offer = page.getByRole('link', { name: new RegExp(`Collecte non effectuée\\s\\? ${missedType.name}, aujourd’hui`) });
      await offer.click();
      await heading(page, /Collecte non effectuée/);
      assert.equal(await page.getByLabel('Votre secteur de collecte').inputValue(), centre.id);
      assert.equal(await page.getByLabel('Bac ou type de déchets').inputValue(), missedType.id);
      assert.equal(await page.getByLabel('Jour de la collecte').inputValue(), TODAY);
      const query = new URL(page.url()).searchParams;
      assert.deepEqual([query.get('type'), query.get('placeId'), query.get('wasteTypeId'), query.get('date')], ['collecte-non-effectuee', centre.id, missedType.id, TODAY]);
      await checkA11y(page, 'missed-collection form');
      await fitsThePhone(page, 'missed-collection form');
      await page.screenshot({ path: path.join(SHOTS, 'request-form-phone.png'), fullPage: true });

      const description = 'Le bac était sorti à 6 h et n’a pas été vidé.';
      await page.getByLabel('Décrivez le problème').fill(description);
      assert.equal(await page.locator('#report-description-count').innerText(), `${description.length} sur 2\u202f000 caractères`);
      await page.getByRole('button', { name: 'Envoyer ma demande' }).click();
      await heading(page, 'Demande enregistrée');
      const [filed] = await requestsOf(deviceId);
      assert.deepEqual(
        [filed.typeCode, filed.placeId, filed.wasteTypeId, filed.date, filed.status],
        ['collecte-non-effectuee', centre.id, missedType.id, TODAY, 'RECUE'],
      );
      assert.match(filed.reference, /^2026-\d{6}$/);
      await page.getByText(`Votre demande ${filed.reference} est enregistrée.`).waitFor();
      await page.getByRole('link', { name: `Voir ma demande ${filed.reference}` }).click();
      await page.getByRole('heading', { level: 1, name: new RegExp(`Demande ${filed.reference}`) }).waitFor();
      assert.equal(await page.locator('.status').first().innerText(), 'Reçue');

      // A neighbour reports the same collection: it joins the open request, and says so.
      const other = await newPage();
      await other.page.goto(`${origin}/signaler?type=collecte-non-effectuee&placeId=${centre.id}&wasteTypeId=${missedType.id}&date=${TODAY}`);
      await heading(other.page, /Collecte non effectuée/);
      await other.page.getByLabel('Décrivez le problème').fill('Pas vidé non plus chez nous.');
      await other.page.getByRole('button', { name: 'Envoyer ma demande' }).click();
      await heading(other.page, 'Problème déjà signalé');
      await other.page.getByText(`Ce problème a déjà été signalé${NBSP}: vous suivez désormais la demande ${filed.reference}`).waitFor();
      assert.deepEqual((await requestsOf(other.deviceId)).map((r) => r.id), [filed.id]);
    });

    it('shows the server’s refusal at the field it names, focused, with a summary linking to it', async () => {
      const { page, deviceId } = await newPage();
      await page.goto(`${origin}/signaler`);
      await heading(page, /Signaler un problème/);
      await page.getByRole('list', { name: 'Bacs' }).waitFor();
      await checkA11y(page, 'request types');
      await page.getByRole('link', { name: /^Demande de bac/ }).click();
      await heading(page, /Demande de bac/);
      assert.equal(await page.getByLabel('Votre secteur de collecte').inputValue(), centre.id, 'the chosen place');
      const description = 'Nous sommes cinq depuis la naissance de Lili.';
      await page.getByLabel('Décrivez le problème').fill(description);
      await page.getByRole('button', { name: 'Envoyer ma demande' }).click();

      // What the server says to the same form: its sentence, at attributes.motif (a refusal is not counted nor kept).
      const refused = await api<{ message: string; field: string }>(
        '/public/requests',
        json({ deviceId, cityId: brest.id, typeCode: 'demande-bac', placeId: centre.id, description, attributes: {} }),
      );
      assert.deepEqual([refused.status, refused.body.field], [400, 'attributes.motif']);
      const motif = page.getByRole('group', { name: /Motif de la demande/ });
      await motif.getByText(refused.body.message).waitFor();
      // The first choice of the field takes the focus.
      await page.waitForFunction(() => document.activeElement?.id === 'report-attr-motif-0');
      assert.match(String(await motif.getAttribute('aria-describedby')), /report-attr-motif-error/);
      const summary = page.getByRole('alert').filter({ hasText: 'Votre demande n’a pas été envoyée' });
      await page.getByLabel('Décrivez le problème').focus();
      assert.equal(await summary.getByRole('link').innerText(), refused.body.message);
      await summary.getByRole('link').click();
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'report-attr-motif-0');
      await checkA11y(page, 'form with an error');
      await page.screenshot({ path: path.join(SHOTS, 'request-error-phone.png'), fullPage: true });

      await motif.getByLabel('Changer de taille de bac').check();
      await page.getByLabel(/Nombre de personnes au foyer/).fill('5');
      await page.getByRole('button', { name: 'Envoyer ma demande' }).click();
      await heading(page, 'Demande enregistrée');
      const [filed] = await requestsOf(deviceId);
      assert.deepEqual([filed.typeCode, filed.attributes], ['demande-bac', { motif: 'changement-volume', foyer: 5 }]);
    });

    it('uploads a photo first and attaches it, and says why one was refused', async () => {
      const { page, deviceId } = await newPage();
      await page.goto(`${origin}/signaler?type=bac-endommage&placeId=${centre.id}`);
      await heading(page, /Bac endommagé/);
      await page.getByLabel(/^Photo/).setInputFiles({ name: 'notes.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('pas une image') });
      await page.getByRole('alert').getByText(/^Erreur\s*:\s*La photo n’a pas été envoyée\./).waitFor();

      const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#b91c1c' } }).jpeg().toBuffer();
      await page.getByLabel(/^Photo/).setInputFiles({ name: 'couvercle.jpg', mimeType: 'image/jpeg', buffer: jpeg });
      await page.getByText('1 photo jointe.').waitFor();
      assert.equal(await page.getByRole('alert').count(), 0, 'the refusal is gone once a photo went');
      await page.getByRole('list', { name: 'Photos jointes' }).getByText('couvercle.jpg', { exact: true }).waitFor();
      await page.getByRole('group', { name: /Partie abîmée/ }).getByLabel('Couvercle').check();
      await page.getByLabel('Décrivez le problème').fill('Le couvercle est fendu.');
      await page.getByRole('button', { name: 'Envoyer ma demande' }).click();
      await heading(page, 'Demande enregistrée');
      const [filed] = await requestsOf(deviceId);
      assert.deepEqual([filed.typeCode, filed.photoCount, filed.attributes], ['bac-endommage', 1, { partie: 'couvercle' }]);
    });

    it('reports a full recycling point from the points screen, the point pre-filled', async () => {
      const { page, deviceId } = await newPage();
      await page.goto(`${origin}/decheteries`);
      const point = brest.recyclingPoints.find((p) => p.name.includes('Rue de Siam'))!;
      await page.getByRole('link', { name: new RegExp(`^Point plein\\s\\? Signaler ${point.name}$`) }).click();
      await heading(page, /Point d’apport plein/);
      assert.equal(await page.getByLabel('Point d’apport').inputValue(), point.id);
      await page.getByLabel('Décrivez le problème').fill('La colonne à verre déborde.');
      await page.getByRole('button', { name: 'Envoyer ma demande' }).click();
      await heading(page, 'Demande enregistrée');
      const [filed] = await requestsOf(deviceId);
      assert.deepEqual([filed.typeCode, filed.recyclingPointId], ['point-apport-plein', point.id]);
    });

    it('lists « Mes demandes » newest first with their updates, and shows the staff’s changes', async () => {
      const { page, deviceId } = await newPage();
      const stolen = await api<ResidentRequest>('/public/requests', json({ deviceId, cityId: brest.id, typeCode: 'bac-vole', placeId: centre.id, description: 'Disparu après la collecte.' }));
      // Five minutes later (same instant: the server's order between the two would be their ids').
      clock.set('2026-11-23T13:05:00.000Z');
      const other = await api<ResidentRequest>('/public/requests', json({ deviceId, cityId: brest.id, typeCode: 'autre', description: 'Une question sur le tri.' }));
      assert.deepEqual([stolen.status, other.status], [201, 201]);

      await page.goto(`${origin}/`);
      await heading(page, /Collecte à Brest/);
      await page.getByRole('navigation', { name: 'Demandes' }).getByRole('link', { name: 'Mes demandes' }).click();
      await heading(page, 'Mes demandes');
      const items = page.getByRole('list', { name: 'Vos demandes' }).getByRole('listitem').filter({ has: page.locator('h2') });
      await items.first().waitFor();
      assert.deepEqual(
        await items.locator('h2').allTextContents(),
        [`Autre demande, demande ${other.body.reference}`, `Bac volé ou disparu, demande ${stolen.body.reference}`],
        'newest first',
      );
      const card = items.filter({ hasText: stolen.body.reference });
      assert.equal(await card.locator('.status').innerText(), 'Reçue');
      assert.equal(await card.getByRole('list', { name: `Suivi de la demande ${stolen.body.reference}` }).innerText(), `23 novembre 2026 à 14${NBSP}h · Reçue`);
      await checkA11y(page, 'my requests');
      await fitsThePhone(page, 'my requests');
      await page.screenshot({ path: path.join(SHOTS, 'my-requests-phone.png'), fullPage: true });

      // The staff plan it: the screen shows it once the tab is visible again (or at once, through the server's stream).
      clock.set('2026-11-23T15:30:00.000Z');
      const asAgent = await loginHeaders(app, 'agent@brest.fr');
      const url = `/admin/requests/${stolen.body.id}`;
      const etag = String((await app.inject({ url, headers: asAgent })).headers.etag);
      const planned = await app.inject({ method: 'PATCH', url, headers: { ...asAgent, 'if-match': etag }, payload: { status: 'PLANIFIEE', plannedFor: '2026-11-26', reason: 'Un bac neuf sera livré jeudi.' } });
      assert.equal(planned.statusCode, 200, planned.body);
      await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
      await card.locator('.status').getByText('Planifiée pour le jeudi 26 novembre').waitFor();
      const updates = card.getByRole('list', { name: `Suivi de la demande ${stolen.body.reference}` }).getByRole('listitem');
      assert.deepEqual(await updates.allInnerTexts(), [
        `23 novembre 2026 à 14${NBSP}h · Reçue`,
        `23 novembre 2026 à 16${NBSP}h${NBSP}30 · Planifiée\n\nUn bac neuf sera livré jeudi.`,
      ]);

      // Resolved: seen after a reload, on the request's own screen too.
      const etag2 = String((await app.inject({ url, headers: asAgent })).headers.etag);
      const resolved = await app.inject({ method: 'PATCH', url, headers: { ...asAgent, 'if-match': etag2 }, payload: { status: 'RESOLUE' } });
      assert.equal(resolved.statusCode, 200, resolved.body);
      await page.reload();
      await card.locator('.status').getByText('Résolue').waitFor();
      await card.getByRole('link', { name: /Bac volé ou disparu/ }).click();
      await page.getByRole('heading', { level: 1, name: new RegExp(`Demande ${stolen.body.reference}`) }).waitFor();
      assert.equal(await page.locator('.status').innerText(), 'Résolue');
      await page.getByText('Un bac neuf sera livré jeudi.').waitFor();
      await checkA11y(page, 'one request');

      // Leaving the screens closes their streams.
      await page.getByRole('link', { name: 'Toutes mes demandes' }).click();
      await heading(page, 'Mes demandes');
      await page.getByRole('navigation', { name: 'Navigation principale' }).getByRole('link', { name: 'Collecte' }).click();
      await heading(page, /Collecte à Brest/);
      const states = await page.evaluate(() => (window as unknown as { __eventSources: EventSource[] }).__eventSources.map((s) => [s.url, s.readyState]));
      assert.ok(states.length >= 2, 'each screen opened the stream');
      for (const [source, state] of states) {
        assert.match(String(source), /\/public\/requests\/events\?deviceId=/);
        assert.equal(state, 2, 'closed');
      }
    });

    it('shows a public reply at once through the server’s stream of the device’s requests, without reloading', async () => {
      const probe = new AbortController();
      const stream = await fetch(`${origin}/public/requests/events?deviceId=web-probe-0000`, { headers: { accept: 'text/event-stream' }, signal: probe.signal });
      probe.abort();
      // The server offers the stream: a refusal here is a failure, not a reason to skip.
      assert.equal(stream.status, 200);

      const { page, deviceId } = await newPage();
      const filed = await api<ResidentRequest>('/public/requests', json({ deviceId, cityId: brest.id, typeCode: 'bac-vole', placeId: centre.id, description: 'Introuvable ce matin.' }));
      assert.equal(filed.status, 201);
      const lists: string[] = [];
      page.on('request', (r) => {
        if (new URL(r.url()).pathname === '/public/requests') lists.push(r.url());
      });
      await page.goto(`${origin}/mes-demandes`);
      await heading(page, 'Mes demandes');
      const card = page.getByRole('list', { name: 'Vos demandes' }).getByRole('listitem').filter({ hasText: filed.body.reference });
      await card.first().waitFor();
      await page.waitForFunction(() => (window as unknown as { __eventSources: EventSource[] }).__eventSources.some((s) => s.readyState === 1));
      const loads = lists.length;

      const asAgent = await loginHeaders(app, 'agent@brest.fr');
      const reply = await app.inject({ method: 'POST', url: `/admin/requests/${filed.body.id}/replies`, headers: asAgent, payload: { message: 'Un bac neuf vous sera livré.', public: true } });
      assert.equal(reply.statusCode, 201, reply.body);
      await card.getByText('Un bac neuf vous sera livré.').waitFor();
      assert.equal(lists.length, loads, 'brought by the stream, not by a new load of the list');
    });

    it('turns the assistant’s app paths into links that open the pre-filled form', async () => {
      const { page } = await newPage();
      await page.goto(`${origin}/assistant`);
      await heading(page, 'Poser une question');
      await page.getByLabel('Votre question').fill('Le camion est passé sans vider mon bac, que faire ?');
      await page.getByRole('button', { name: 'Envoyer' }).click();
      const answer = page.getByRole('list', { name: 'Conversation' }).locator('.message.assistant').filter({ hasText: 'signalez-le ici' });
      await answer.waitFor();
      assert.equal(await answer.locator('p').innerText(), `Je ne peux pas l’enregistrer moi-même${NBSP}: signalez-le ici Ouvrir le formulaire de signalement. Vous le suivrez dans Mes demandes.`);
      assert.equal(await answer.locator('p').evaluate((p) => p.innerHTML.includes('<script')), false);
      assert.equal(await answer.getByRole('link', { name: 'Mes demandes' }).getAttribute('href'), '/mes-demandes');
      await answer.getByRole('link', { name: 'Ouvrir le formulaire de signalement' }).click();
      await heading(page, /Collecte non effectuée/);
      assert.equal(await page.getByLabel('Votre secteur de collecte').inputValue(), centre.id);
    });

    it('files a report with the keyboard alone', async () => {
      const { page, deviceId } = await newPage();
      await page.goto(`${origin}/signaler`);
      await heading(page, /Signaler un problème/);
      await tabTo(page, 'a[href^="/signaler?type=depot-sauvage"]');
      await page.keyboard.press('Enter');
      await heading(page, /Dépôt sauvage/);
      assert.equal(await settledFocus(page, () => document.activeElement?.tagName, 'H1'), 'H1', 'the new screen’s title has the focus');
      await tabTo(page, '#report-address');
      await page.keyboard.type('Devant le 3 rue de Siam');
      await tabTo(page, '#report-description');
      await page.keyboard.type('Des sacs et un matelas abandonnés.');
      await tabTo(page, 'button[type="submit"]');
      await page.keyboard.press('Enter');
      await heading(page, 'Demande enregistrée');
      const [filed] = await requestsOf(deviceId);
      assert.deepEqual([filed.typeCode, filed.address, filed.description], ['depot-sauvage', 'Devant le 3 rue de Siam', 'Des sacs et un matelas abandonnés.']);
    });

    it('ran without a Content-Security-Policy violation', () => {
      assert.deepEqual(cspViolations, []);
    });
  });
}
