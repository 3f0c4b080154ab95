// « Prendre rendez-vous pour des encombrants » in the citizens' app (docs/api.md, bulky-waste pickups; docs/web-app.md),
// in headless Chromium at 390 px on the demo data, the server's clock and the page's both on Monday 23 November 2026,
// 14:00 in Brest (past noon: Tuesday is closed, Wednesday 25 the first day open). Brest's agent opens Wednesdays and
// Saturdays with two places each; Saturday 28 is booked full. The calendar shows what the server lists, a day filled
// meanwhile is said at the calendar, the address is found as on the commune screen (its place with it), « Annuler »
// in « Mes demandes » until noon the day before, and the keyboard alone books a day.
// On PGlite, and on PostgreSQL too when DATABASE_URL is set.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startDemoServer } from '../helpers/web-fixtures.ts';
import { fixedClock } from '../helpers/app.ts';
import { CHROMIUM_SKIP, launchChromium, settledFocus } from '../helpers/browser.ts';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { createAccount, loginHeaders } from '../helpers/auth-fixtures.ts';
import { checkA11y } from '../helpers/axe.ts';

const SHOTS = path.resolve(import.meta.dirname, 'screenshots');
const PHONE = { width: 390, height: 844 };
const NBSP = '\u00a0';
const FULL_MESSAGE = 'Plus de place ce jour-là : choisissez un autre jour.';
const CLOSED_MESSAGE = `Un rendez-vous s’annule jusqu’à midi la veille${'\u00a0'}: pour celui-ci, contactez le service de collecte.`;

/** Monday 23 November 2026, 14:00 in Brest. */
const NOW = '2026-11-23T13:00:00.000Z';
const TITLE = 'Prendre rendez-vous pour des encombrants';

interface ResidentRequest {
  id: string;
  reference: string;
  typeCode: string;
  status: string;
  placeId: string | null;
  address: string | null;
  description: string | null;
  attributes: Record<string, unknown>;
  plannedFor: string | null;
}
interface PickupDay {
  date: string;
  capacity: number;
  remaining: number;
}

for (const kind of browserDatabaseKinds()) {
  describe(`web app: bulky-waste pickup booking (${kind})`, { skip: CHROMIUM_SKIP, timeout: 300_000 }, () => {
    let origin: string;
    let app: FastifyInstance;
    let browser: Browser;
    let brestId: string;
    const clock = fixedClock(NOW);
    const closers: (() => Promise<void>)[] = [];
    const suite = { after: (fn: () => Promise<void>) => void closers.push(fn) };

    const api = async <T,>(url: string, init?: RequestInit): Promise<{ status: number; body: T }> => {
      const res = await fetch(origin + url, init);
      return { status: res.status, body: (await res.json()) as T };
    };
    const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    let filler = 0;
    /** A booking made elsewhere (another resident), through the API. */
    const bookElsewhere = async (slotDate: string) => {
      const res = await api<ResidentRequest>(
        '/public/requests',
        json({
          deviceId: `web-test-other-${kind}-${++filler}`,
          cityId: brestId,
          typeCode: 'encombrants',
          address: `${filler} rue de Siam, Brest`,
          email: 'voisin@example.fr',
          description: 'Devant la porte.',
          attributes: { slotDate, items: 'Un matelas' },
        }),
      );
      assert.equal(res.status, 201, JSON.stringify(res.body));
    };
    const dayOf = async (date: string) => (await api<PickupDay[]>(`/public/cities/${brestId}/bulky-pickups?from=${date}&to=${date}`)).body[0];
    const requestsOf = async (deviceId: string) => (await api<ResidentRequest[]>(`/public/requests?deviceId=${deviceId}`)).body;

    before(async () => {
      const server = await startDemoServer(suite, kind, { clock });
      origin = server.origin;
      app = server.app;
      const groups = (await api<{ id: string; cities: { id: string; name: string }[] }[]>('/public/city-groups')).body;
      const group = groups.find((g) => g.cities.some((c) => c.name === 'Brest'))!;
      brestId = group.cities.find((c) => c.name === 'Brest')!.id;
      await createAccount(server.database.db, { email: 'agent@brest.fr', name: 'Yann Agent', permissions: ['REQUESTS'], cityGroupIds: [group.id] });
      const asAgent = await loginHeaders(app, 'agent@brest.fr');
      const opened = await app.inject({
        method: 'POST',
        url: `/admin/cities/${brestId}/bulky-pickups`,
        headers: asAgent,
        payload: { from: '2026-11-23', to: '2026-12-31', weekdays: ['mercredi', 'samedi'], capacity: 2 },
      });
      assert.equal(opened.statusCode, 200, opened.body);
      await bookElsewhere('2026-11-28');
      await bookElsewhere('2026-11-28');

      fs.mkdirSync(SHOTS, { recursive: true });
      browser = await launchChromium();
    });

    after(async () => {
      await browser?.close();
      for (const close of closers.reverse()) await close();
    });

    /** A phone in Brest, its clock on NOW, with its own device id. */
    async function newPage(): Promise<{ context: BrowserContext; page: Page; deviceId: string }> {
      const context = await browser.newContext({ viewport: PHONE, locale: 'fr-FR', timezoneId: 'Europe/Paris', serviceWorkers: 'block' });
      closers.push(() => context.close().catch(() => undefined));
      const deviceId = `web-test-${kind}-${Math.random().toString(16).slice(2, 14)}`;
      await context.addInitScript(`localStorage.setItem('collecte.deviceId', ${JSON.stringify(JSON.stringify(deviceId))});`);
      const page = await context.newPage();
      await page.clock.setFixedTime(new Date(NOW));
      return { context, page, deviceId };
    }


    async function fitsThePhone(page: Page, screen: string) {
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= PHONE.width, `${screen}: ${width} px wide`);
    }

    /** Waits for the error summary to say `text`; else fails with what it says. */
    async function summaryShows(page: Page, text: string) {
      const summary = page.locator('.error-summary');
      for (let i = 0; i < 100; i++) {
        if ((await summary.innerText().catch(() => '')).includes(text)) return;
        await page.waitForTimeout(100);
      }
      assert.fail(`the error summary says: ${await summary.innerText().catch(() => '(none)')}`);
    }

    const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name }).waitFor();
    const openForm = async (page: Page) => {
      await page.goto(`${origin}/signaler?type=encombrants&cityId=${brestId}`);
      await heading(page, new RegExp(TITLE));
    };
    /** The radio of a day, named by its long French day and what is left. */
    const dayRadio = (page: Page, name: string | RegExp) => page.getByRole('radio', { name });

    it('reaches the booking from « Signaler un problème », shows the open days on a calendar, full ones disabled', async () => {
      const { page } = await newPage();
      await page.goto(`${origin}/signaler?cityId=${brestId}`);
      await page.getByRole('link', { name: /Enlèvement des encombrants/ }).click();
      await heading(page, new RegExp(TITLE));
      // Wednesday 25 (the first open), Saturday 28 full, every Wednesday and Saturday of December.
      const radios = page.getByRole('radio');
      const names = await radios.evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).labels![0].innerText.replace(/\s+/g, ' ').trim()));
      assert.equal(names.length, 2 + 9, names.join(' | '));
      assert.ok(await dayRadio(page, 'mercredi 25 novembre, 2 places restantes').isEnabled());
      assert.ok(await dayRadio(page, 'samedi 28 novembre, complet').isDisabled());
      assert.ok(await dayRadio(page, 'mercredi 2 décembre, 2 places restantes').isEnabled());
      // Tuesday 24 closed at noon today, and no other weekday is offered.
      assert.equal(await dayRadio(page, /mardi 24 novembre/).count(), 0);
      assert.equal(await dayRadio(page, /jeudi/).count(), 0);
      // The months as captions, Monday first.
      assert.deepEqual(await page.locator('.pickup-month caption').allInnerTexts(), ['Novembre 2026', 'Décembre 2026']);
      assert.equal(await page.locator('.pickup-month').first().locator('th').first().getAttribute('scope'), 'col');
      await checkA11y(page, 'booking form');
      await fitsThePhone(page, 'booking form');
      await page.screenshot({ path: path.join(SHOTS, 'bulky-booking-phone.png'), fullPage: true });
    });

    it('books a day at an address found as on the commune screen, then cancels it in « Mes demandes », its place given back', async () => {
      const { page, deviceId } = await newPage();
      await openForm(page);
      await dayRadio(page, 'mercredi 2 décembre, 2 places restantes').check();
      await page.getByText(`Enlèvement le mercredi 2 décembre, annulable jusqu’au mardi 1er décembre à 12${NBSP}h.`).waitFor();
      const box = page.getByRole('combobox', { name: 'L’adresse de l’enlèvement' });
      await box.fill('12 rue de siam');
      const option = page.getByRole('option').first();
      const label = (await option.locator('.suggestion-label').innerText()).trim();
      await option.click();
      assert.equal(await box.inputValue(), label);
      await page.getByLabel('Objets déposés').fill('Un canapé trois places et une armoire démontée');
      await page.getByLabel('Où trouver vos objets').fill('Devant le portail, côté rue.');
      await page.getByLabel('Votre adresse e-mail').fill('jeanne@example.fr');
      await page.getByRole('button', { name: 'Réserver ce jour' }).click();
      await heading(page, 'Rendez-vous enregistré');
      await page.getByText('Vos encombrants seront enlevés le mercredi 2 décembre').waitFor();

      const [booked] = await requestsOf(deviceId);
      assert.equal(booked.typeCode, 'encombrants');
      assert.equal(booked.status, 'PLANIFIEE');
      assert.equal(booked.plannedFor?.slice(0, 10), '2026-12-02');
      assert.equal(booked.address, label);
      assert.ok(booked.placeId, 'the place of the chosen address goes with the booking');
      assert.deepEqual(booked.attributes, { slotDate: '2026-12-02', items: 'Un canapé trois places et une armoire démontée' });
      assert.equal(booked.description, 'Devant le portail, côté rue.');
      assert.equal((await dayOf('2026-12-02')).remaining, 1);

      await page.getByRole('link', { name: `Voir mon rendez-vous ${booked.reference}` }).click();
      await heading(page, /Enlèvement des encombrants/);
      await page.getByText('Planifiée pour le mercredi 2 décembre').waitFor();
      await page.getByText('Un canapé trois places et une armoire démontée').waitFor();
      await page.getByText(`Annulable jusqu’au mardi 1er décembre à 12${NBSP}h.`).waitFor();
      await checkA11y(page, 'booking page');
      await page.getByRole('button', { name: /Annuler ce rendez-vous/ }).click();
      // Asked once more, the focus on the answer that acts.
      const confirm = page.getByRole('button', { name: 'Oui, annuler le rendez-vous' });
      await confirm.waitFor();
      assert.equal(await settledFocus(page, () => document.activeElement?.textContent, 'Oui, annuler le rendez-vous'), 'Oui, annuler le rendez-vous');
      await page.getByRole('button', { name: 'Non, le garder' }).click();
      assert.equal((await requestsOf(deviceId))[0].status, 'PLANIFIEE', '« Non » keeps it');
      await page.getByRole('button', { name: /Annuler ce rendez-vous/ }).click();
      await confirm.click();
      await page.locator('.request-meta .status', { hasText: 'Annulée' }).waitFor();
      assert.equal(await page.getByRole('button', { name: /Annuler ce rendez-vous/ }).count(), 0);
      assert.equal((await requestsOf(deviceId))[0].status, 'ANNULEE');
      assert.equal((await dayOf('2026-12-02')).remaining, 2, 'the place is back');
    });

    it('says at the calendar what the server refuses: no day chosen, then a day filled meanwhile', async () => {
      const { page, deviceId } = await newPage();
      await openForm(page);
      await page.getByRole('combobox', { name: 'L’adresse de l’enlèvement' }).fill('3 rue de Siam');
      await page.getByLabel('Objets déposés').fill('Une machine à laver');
      await page.getByLabel('Où trouver vos objets').fill('Au pied de l’immeuble.');
      await page.getByLabel('Votre adresse e-mail').fill('paul@example.fr');
      await page.getByRole('button', { name: 'Réserver ce jour' }).click();
      const summary = page.getByRole('alert').filter({ hasText: 'Votre demande n’a pas été envoyée' });
      await summary.waitFor();
      // The error is tied to the calendar, whose first open day takes the focus.
      const picker = page.getByRole('group', { name: 'Jour d’enlèvement' });
      assert.match((await picker.getAttribute('aria-describedby')) ?? '', /-error$/);
      assert.match(await picker.innerText(), /Erreur/);
      assert.equal(await settledFocus(page, () => (document.activeElement as HTMLInputElement | null)?.value, '2026-11-25'), '2026-11-25');
      assert.deepEqual(await requestsOf(deviceId), []);

      // Wednesday 25 is chosen, then taken by two neighbours before the resident sends.
      await dayRadio(page, 'mercredi 25 novembre, 2 places restantes').check();
      await bookElsewhere('2026-11-25');
      await bookElsewhere('2026-11-25');
      await page.getByRole('button', { name: 'Réserver ce jour' }).click();
      await summaryShows(page, FULL_MESSAGE);
      // The calendar read again: the day is now full and nothing is chosen.
      await dayRadio(page, 'mercredi 25 novembre, complet').waitFor();
      assert.ok(await dayRadio(page, 'mercredi 25 novembre, complet').isDisabled());
      assert.equal(await page.getByRole('radio', { checked: true }).count(), 0);
      assert.deepEqual(await requestsOf(deviceId), []);
      assert.equal((await dayOf('2026-11-25')).remaining, 0);
    });

    it('refuses a cancellation past noon the day before, with the server’s reason, keeping the booking', async () => {
      const { page, deviceId } = await newPage();
      await openForm(page);
      await dayRadio(page, 'mercredi 9 décembre, 2 places restantes').check();
      await page.getByRole('combobox', { name: 'L’adresse de l’enlèvement' }).fill('5 rue de Siam');
      await page.getByLabel('Objets déposés').fill('Un sommier');
      await page.getByLabel('Où trouver vos objets').fill('Devant le garage.');
      await page.getByLabel('Votre adresse e-mail').fill('lea@example.fr');
      await page.getByRole('button', { name: 'Réserver ce jour' }).click();
      await heading(page, 'Rendez-vous enregistré');
      // The page still thinks it is Monday; the server's clock has passed Tuesday 8 December, noon.
      clock.set('2026-12-08T11:30:00.000Z');
      try {
        await page.goto(`${origin}/mes-demandes`);
        await page.getByRole('button', { name: /Annuler ce rendez-vous/ }).click();
        await page.getByRole('button', { name: 'Oui, annuler le rendez-vous' }).click();
        const refusal = page.getByRole('alert');
        await refusal.waitFor();
        assert.equal(await refusal.innerText(), CLOSED_MESSAGE);
      } finally {
        clock.set(NOW);
      }
      assert.equal((await requestsOf(deviceId))[0].status, 'PLANIFIEE');
      // A page whose own clock is past the deadline offers no « Annuler » at all.
      const late = await newPage();
      await late.context.addInitScript(`localStorage.setItem('collecte.deviceId', ${JSON.stringify(JSON.stringify(deviceId))});`);
      await late.page.clock.setFixedTime(new Date('2026-12-08T11:30:00.000Z'));
      await late.page.goto(`${origin}/mes-demandes`);
      await late.page.getByText('Planifiée pour le mercredi 9 décembre').waitFor();
      assert.equal(await late.page.getByRole('button', { name: /Annuler ce rendez-vous/ }).count(), 0);
    });

    it('books with the keyboard alone: arrows between days, the address from its list', async () => {
      const { page, deviceId } = await newPage();
      await openForm(page);
      // Tab into the calendar: its first open day, then the arrows move to the next open ones (the full day skipped).
      for (let i = 0; i < 40 && !(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type === 'radio')); i++) {
        await page.keyboard.press('Tab');
      }
      // The open days in order (Wednesday 25 may have been filled by the test before: the first still open).
      const open = await page.locator('input[type=radio]:not(:disabled)').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
      assert.equal(await page.evaluate(() => (document.activeElement as HTMLInputElement).value), open[0]);
      await page.keyboard.press('ArrowRight');
      const chosen = open[1];
      assert.equal(await page.evaluate(() => (document.activeElement as HTMLInputElement).value), chosen);
      assert.equal(await page.getByRole('radio', { checked: true }).getAttribute('value'), chosen);
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'booking-address');
      await page.keyboard.type('12 rue de siam');
      await page.getByRole('option').first().waitFor();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Deux chaises');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Sur le trottoir.');
      // Past the optional photo's controls to the e-mail.
      for (let i = 0; i < 10 && !(await page.evaluate(() => document.activeElement?.id === 'report-email')); i++) await page.keyboard.press('Tab');
      await page.keyboard.type('clavier@example.fr');
      await page.keyboard.press('Enter');
      await heading(page, 'Rendez-vous enregistré');
      const [booked] = await requestsOf(deviceId);
      assert.deepEqual(booked.attributes, { slotDate: chosen, items: 'Deux chaises' });
      assert.ok(booked.placeId);
    });
  });
}
