// The citizens' web app end to end, as a citizen uses it, in headless Chromium on the demo data.
// One browser and one server for the file (PGlite only: the API itself is tested on both databases;
// here the client is under test). Skipped with a reason where Debian's chromium is not installed.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startDemoServer } from '../helpers/web-fixtures.ts';
import { agentToken, bearer } from '../helpers/console-fixtures.ts';
import { CHROMIUM_SKIP, launchChromium } from '../helpers/browser.ts';
import { checkA11y as checkPageA11y } from '../helpers/axe.ts';

const SKIP = CHROMIUM_SKIP;
const SHOTS = path.resolve(import.meta.dirname, 'screenshots');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const MONTHS = 'janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre';

interface City {
  id: string;
  name: string;
  cityGroup: { id: string };
  wasteTypes: { id: string; name: string; details: { material: string }[] }[];
  wasteCollectionPlaces: { id: string; name: string }[];
  recyclingPoints: { name: string; address: string; openingHours: string }[];
}

describe('web app in a browser', { skip: SKIP, timeout: 240_000 }, () => {
  let origin: string;
  let browser: Browser;
  let phone: BrowserContext;
  let page: Page;
  const cspViolations: string[] = [];
  const closers: (() => Promise<void>)[] = [];

  const api = async <T,>(url: string): Promise<T> => {
    const res = await fetch(origin + url);
    assert.equal(res.status, 200, url);
    return (await res.json()) as T;
  };

  before(async () => {
    const server = await startDemoServer({ after: (fn) => closers.push(fn) });
    origin = server.origin;
    fs.mkdirSync(SHOTS, { recursive: true });
    browser = await launchChromium();
    phone = await newContext(PHONE);
    page = await phone.newPage();
  });

  after(async () => {
    await browser?.close();
    for (const close of closers.reverse()) await close();
  });

  async function newContext(viewport: { width: number; height: number }, options: Parameters<Browser['newContext']>[0] = {}) {
    const context = await browser.newContext({ viewport, locale: 'fr-FR', timezoneId: 'Europe/Paris', ...options });
    context.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    return context;
  }

  /** Screenshot at phone width (this page) and at desktop width (a context with the same storage). */
  async function shoot(name: string, url = new URL(page.url()).pathname) {
    // The phone shot is the screen as seen (the tab bar is fixed at the bottom); the desktop one is the whole page.
    await page.screenshot({ path: path.join(SHOTS, `${name}-phone.png`) });
    const desktop = await newContext(DESKTOP, { storageState: await phone.storageState(), serviceWorkers: 'block' });
    const wide = await desktop.newPage();
    await wide.goto(origin + url);
    await wide.locator('h1').first().waitFor();
    await wide.waitForLoadState('networkidle');
    await wide.screenshot({ path: path.join(SHOTS, `${name}-desktop.png`), fullPage: true });
    await desktop.close();
  }

  /** axe-core on the current screen: no serious or critical violation. */
  const checkA11y = (screen: string) => checkPageA11y(page, screen);

  it('finds a commune as you type, accents ignored, and shows the next collections the calendar endpoint gives', async () => {
    // The commune list (the home screen's one box is tested in home-search.test.ts).
    await page.goto(origin + '/communes');
    const search = page.getByLabel('Votre commune');
    await search.fill('plouz');
    await page.getByRole('link', { name: /^Plouzané/ }).waitFor();
    await search.fill('guipavas');
    await page.getByRole('link', { name: /^Guipavas/ }).waitFor();
    await search.fill('PLOUZANE');
    const plouzane = page.getByRole('link', { name: /^Plouzané/ });
    await checkA11y('commune search');
    await page.screenshot({ path: path.join(SHOTS, 'search-phone.png') });
    await plouzane.click();

    const cities = await api<{ id: string; name: string; cities: { id: string; name: string }[] }[]>('/public/city-groups');
    const cityId = cities.flatMap((g) => g.cities).find((c) => c.name === 'Plouzané')!.id;
    const city = await api<City>(`/public/cities/${cityId}`);
    assert.ok(city.wasteCollectionPlaces.length > 1, 'Plouzané has several places to choose from');
    await page.getByRole('heading', { level: 1, name: /votre secteur/ }).waitFor();
    await checkA11y('place choice');
    await shoot('places');
    const place = city.wasteCollectionPlaces[0];
    await page.getByRole('link', { name: place.name, exact: true }).click();

    await page.getByRole('heading', { level: 1, name: /Collecte à Plouzané/ }).waitFor();
    const collections = await api<{ date: string; wasteTypeId: string; wasteTypeName: string }[]>(
      `/public/cities/${cityId}/places/${place.id}/collections`,
    );
    assert.ok(collections.length > 0);
    const firstByType = new Map<string, string>();
    for (const c of collections) if (!firstByType.has(c.wasteTypeId)) firstByType.set(c.wasteTypeId, c.date);
    for (const [wasteTypeId, date] of firstByType) {
      const card = page.locator(`[data-waste-type="${wasteTypeId}"]`);
      assert.equal(await card.locator('.next time').getAttribute('datetime'), date, `next date of ${wasteTypeId}`);
      const shown = await card.locator('.next time').innerText();
      assert.match(shown, new RegExp(`^(Aujourd’hui|Demain|[A-Z][a-z]+ \\d{1,2}(er)? (${MONTHS}))$`), shown);
    }

    // What changes in the coming two months is listed as the collections answer says it (the city's exceptions may
    // cancel, move or add a collection, and holiday rules change collections no exception names).
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
    const until = new Date(Date.parse(`${today}T00:00:00Z`) + 62 * 86_400_000).toISOString().slice(0, 10);
    const changes = await api<{ wasteTypeId: string; status: string }[]>(
      `/public/cities/${cityId}/places/${place.id}/collections?from=${today}&to=${until}&include=cancelled`,
    );
    for (const c of changes.filter((c) => c.status !== 'PLANNED')) {
      assert.ok((await page.locator(`.exceptions [data-waste-type="${c.wasteTypeId}"][data-status="${c.status}"]`).count()) > 0, `${c.status} ${c.wasteTypeId}`);
    }

    // One-click subscription to the place's iCalendar feed, and a plain download.
    const feed = `/public/cities/${cityId}/places/${place.id}/calendar.ics`;
    const host = new URL(origin).host;
    assert.equal(await page.getByRole('link', { name: "S'abonner au calendrier" }).getAttribute('href'), `webcal://${host}${feed}`);
    const download = await page.getByRole('link', { name: /Télécharger le fichier/ }).getAttribute('href');
    assert.equal(download, `${origin}${feed}`);
    const ics = await fetch(download!);
    assert.match(String(ics.headers.get('content-type')), /^text\/calendar/);
    assert.match(await ics.text(), /BEGIN:VCALENDAR/);

    await checkA11y('calendar');
    await shoot('calendar');
  });

  it("shows the group's frequently asked questions on the commune's screen and under the calendar, each answer opening under its question", async () => {
    const groups = await api<{ cities: { id: string; name: string }[] }[]>('/public/city-groups');
    const cityId = groups.flatMap((g) => g.cities).find((c) => c.name === 'Plouzané')!.id;
    const faq = await api<{ id: string; question: string; answer: string }[]>(`/public/cities/${cityId}/faq`);
    assert.ok(faq.length >= 2, 'the demo group has questions');
    // On the commune's screen, under the choice of a place (where the assistant's quotes send residents)…
    await page.goto(`${origin}/communes/${cityId}`);
    const onCommune = page.getByRole('region', { name: 'Questions fréquentes' });
    await onCommune.getByRole('heading', { level: 2, name: 'Questions fréquentes' }).waitFor();
    assert.deepEqual(await onCommune.locator('summary').allInnerTexts(), faq.map((e) => e.question));
    // …and under each place's calendar.
    const city = await api<City>(`/public/cities/${cityId}`);
    await page.goto(`${origin}/communes/${cityId}/${city.wasteCollectionPlaces[0].id}`);
    const section = page.getByRole('region', { name: 'Questions fréquentes' });
    await section.getByRole('heading', { level: 2, name: 'Questions fréquentes' }).waitFor();
    assert.deepEqual(await section.locator('summary').allInnerTexts(), faq.map((e) => e.question), 'the group’s order');

    // Closed until asked: a click opens the first, the keyboard the second.
    const firstAnswer = section.getByText(faq[0].answer.split(/\n\s*\n/)[0].trim());
    assert.equal(await firstAnswer.isVisible(), false);
    await section.locator('summary').first().click();
    await firstAnswer.waitFor({ state: 'visible' });
    await section.locator('summary').nth(1).focus();
    await page.keyboard.press('Enter');
    await section.getByText(faq[1].answer.split(/\n\s*\n/)[0].trim()).waitFor({ state: 'visible' });
    assert.equal(await section.locator('details[open]').count(), 2);
    await checkA11y('calendar with questions open');
  });

  it('answers "pot de yaourt" with the waste type of the city', async () => {
    await page.getByRole('link', { name: 'Où jeter ?' }).click();
    await page.getByLabel('Objet ou matière').fill('pot de yaourt');
    const answer = page.locator('.answer').filter({ hasText: 'Pot en plastique (yaourt' }).first();
    await answer.waitFor();
    const cityId = page.url() && (await page.evaluate(() => JSON.parse(localStorage.getItem('collecte.place')!).cityId));
    const city = await api<City>(`/public/cities/${cityId}`);
    const type = city.wasteTypes.find((w) => w.details.some((d) => d.material.startsWith('Pot en plastique (yaourt')))!;
    assert.match(await answer.locator('.verdict').innerText(), new RegExp(type.name));
    await checkA11y('où jeter');
    await shoot('sorting');
  });

  it('lists the recycling points with address and opening hours', async () => {
    await page.getByRole('link', { name: 'Déchèteries' }).click();
    const cityId = await page.evaluate(() => JSON.parse(localStorage.getItem('collecte.place')!).cityId);
    const city = await api<City>(`/public/cities/${cityId}`);
    const point = city.recyclingPoints[0];
    const card = page.locator('.points li').filter({ hasText: point.name });
    await card.waitFor();
    assert.match(await card.innerText(), new RegExp(point.address.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    assert.ok((await card.innerText()).includes(point.openingHours));
    await checkA11y('déchèteries');
    await shoot('points');
  });

  it('plays a quiz to the end, records the score and shows the badge', async () => {
    await page.getByRole('link', { name: 'Défis' }).click();
    await page.getByRole('heading', { level: 1, name: 'Défis du tri' }).waitFor();
    await checkA11y('défis');
    const cityId = await page.evaluate(() => JSON.parse(localStorage.getItem('collecte.place')!).cityId);
    const challenges = await api<{ id: string; name: string; requiredChallengeId: string | null; badge: { name: string } | null; series: { name: string; quizQuestions: unknown[] }[] }[]>(
      `/public/challenges/${cityId}`,
    );
    const challenge = challenges.find((c) => c.requiredChallengeId === null && c.badge)!;
    assert.ok(challenge.series.length > 1, 'the demo challenge has several quizzes');
    const city = await api<City>(`/public/cities/${cityId}`);
    const deviceId = await page.evaluate(() => JSON.parse(localStorage.getItem('collecte.deviceId')!));
    // Every quiz of the challenge, every answer right: the challenge is done, and its badge won, after the last only.
    for (const [n, serie] of challenge.series.entries()) {
      await page.getByRole('link', { name: new RegExp(`Jouer : ${serie.name}`) }).first().click();
      for (let i = 0; i < serie.quizQuestions.length; i++) {
        await page.getByText(`question ${i + 1} sur ${serie.quizQuestions.length}`).waitFor();
        if (n === 0 && i === 0) {
          await checkA11y('quiz');
          await page.screenshot({ path: path.join(SHOTS, 'quiz-phone.png') });
        }
        const correct = (serie.quizQuestions[i] as { correctWasteTypeId: string }).correctWasteTypeId;
        await page.locator('.options button').filter({ hasText: city.wasteTypes.find((w) => w.id === correct)!.name }).first().click();
        await page.getByRole('button', { name: /Question suivante|Voir mon score/ }).click();
      }
      await page.getByRole('heading', { level: 1, name: 'Quiz terminé' }).waitFor();
      if (n < challenge.series.length - 1) {
        await page.getByText(`il reste ${challenge.series.length - n - 1}\u00a0quiz à jouer`).waitFor();
        assert.equal(await page.getByText('Bravo, vous gagnez le badge').count(), 0);
        const progress = await api<{ challengeId: string }[]>(`/public/challenges/progress/${deviceId}`);
        assert.ok(!progress.some((p) => p.challengeId === challenge.id), `not completed after ${n + 1} quiz`);
        if (n === 0) {
          // The answers reviewed, each with the right one.
          await page.getByText('Revoir mes réponses').click();
          assert.equal(await page.locator('.review li').count(), serie.quizQuestions.length);
          await checkA11y('quiz result');
        }
      }
    }
    await page.getByText('Bravo, vous gagnez le badge').waitFor();
    assert.match(await page.locator('.earned').innerText(), new RegExp(challenge.badge!.name));
    await page.getByText(/Défi terminé\u00a0: 100\u00a0%/).waitFor();

    const progress = await api<{ challengeId: string; badge: { name: string } | null }[]>(`/public/challenges/progress/${deviceId}`);
    assert.ok(progress.some((p) => p.challengeId === challenge.id && p.badge?.name === challenge.badge!.name), 'the score is recorded');

    await page.getByRole('link', { name: 'Voir mes badges et défis' }).click();
    await page.getByRole('list', { name: 'Mes badges' }).getByText(challenge.badge!.name).waitFor();
    await shoot('challenges');
  });

  it('opens a blog post of the city group and shows its callouts styled', async () => {
    await page.getByRole('link', { name: 'Actus' }).click();
    await page.getByRole('link', { name: 'Tous les emballages se trient dans le bac jaune' }).click();
    const tip = page.locator('.callout-tip');
    await tip.waitFor();
    assert.match(await tip.innerText(), /bien les vider/);
    const style = await tip.evaluate((el) => {
      // Runs in the page (the test's own tsconfig has no DOM types).
      const s = (globalThis as unknown as { getComputedStyle: (e: unknown) => { backgroundColor: string; borderLeftWidth: string } }).getComputedStyle(el);
      return { background: s.backgroundColor, border: s.borderLeftWidth };
    });
    assert.notEqual(style.background, 'rgba(0, 0, 0, 0)', 'the callout has a background');
    assert.equal(style.border, '6px');
    await page.locator('.callout-warning').waitFor();
    await checkA11y('blog post');
    await shoot('blog-post');
  });

  it('asks the assistant when a bin is collected, and keeps the conversation across a reload', async () => {
    await page.getByRole('link', { name: 'Assistant' }).click();
    await page.getByLabel('Votre question').fill('Quand est collectée la poubelle jaune ?');
    await page.getByRole('button', { name: 'Envoyer' }).click();
    const answer = page.locator('.message.assistant').filter({ hasText: new RegExp(`\\d{1,2}(er)? (${MONTHS})`) });
    await answer.waitFor();
    await page.reload();
    await page.locator('.message.user').filter({ hasText: 'poubelle jaune' }).waitFor();
    await page.locator('.message.assistant').filter({ hasText: new RegExp(`\\d{1,2}(er)? (${MONTHS})`) }).waitFor();
    await checkA11y('assistant');
    await shoot('chat');
  });

  it("hands the conversation to an agent: the agent's reply shows by polling, the citizen's messages once", async () => {
    // Continues the conversation of the previous test.
    const input = page.getByLabel('Votre question');
    await input.fill('je veux parler à un agent');
    await page.getByRole('button', { name: 'Envoyer' }).click();
    await page.getByText('Un conseiller a été prévenu : sa réponse s\'affichera ici.').waitFor();

    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('collecte.conversation')!) as { id: string });
    const deviceId = await page.evaluate(() => JSON.parse(localStorage.getItem('collecte.deviceId')!) as string);
    const listing = await api<{ data: { id: string; cityGroupId: string; status: string }[] }>(`/public/chat/conversations/${deviceId}`);
    const conversation = listing.data.find((c) => c.id === saved.id)!;
    assert.equal(conversation.status, 'WAITING_AGENT');
    const token = await agentToken({ cityGroupIds: [conversation.cityGroupId] });
    const asAgent = (method: string, url: string, body: unknown) =>
      fetch(`${origin}/chat/conversations/${saved.id}${url}`, { method, headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify(body) });

    const reply = await asAgent('POST', '/reply', { content: 'Bonjour, je suis Awa, conseillère : que puis-je faire pour vous ?' });
    assert.equal(reply.status, 201);
    // No reload: the screen polls every 5 s while an agent holds the conversation.
    await page.locator('.message.agent').filter({ hasText: 'je suis Awa, conseillère' }).waitFor({ timeout: 12_000 });
    await page.getByText('Vous échangez avec un conseiller.').waitFor();

    // Answered 202 with the stored message: it replaces the pending one instead of showing twice.
    await input.fill('Mon bac jaune a été oublié');
    const posted = page.waitForResponse((r) => r.url().endsWith('/messages') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Envoyer' }).click();
    assert.equal((await posted).status(), 202);
    await page.getByText('… écrit une réponse').waitFor({ state: 'detached' });
    assert.equal(await page.locator('.message.user').filter({ hasText: 'Mon bac jaune a été oublié' }).count(), 1);
    assert.equal(await page.locator('.message.assistant').filter({ hasText: 'bac jaune a été oublié' }).count(), 0);
    await checkA11y('assistant with an agent');

    // Closed by the agent: the next message starts a new conversation instead of failing.
    assert.equal((await asAgent('PATCH', '/status', { status: 'CLOSED' })).status, 200);
    await input.fill('Quand est collectée la poubelle jaune ?');
    await page.getByRole('button', { name: 'Envoyer' }).click();
    // The new conversation starts afresh (the agent's message goes), and the assistant answers in it.
    await page.locator('.message.agent').first().waitFor({ state: 'detached' });
    await page.locator('.message.assistant').filter({ hasText: new RegExp(`\\d{1,2}(er)? (${MONTHS})`) }).waitFor();
    assert.equal(await page.getByRole('alert').count(), 0);
    const next = await page.evaluate(() => JSON.parse(localStorage.getItem('collecte.conversation')!) as { id: string });
    assert.notEqual(next.id, saved.id);
  });

  it("shows a CMS site's menus and published pages with ?site=slug", async () => {
    await page.goto(origin + '/?site=brest-dechets');
    const menu = page.getByRole('navigation', { name: 'Menu principal' });
    await menu.getByRole('link', { name: 'Consignes de tri' }).click();
    await page.getByRole('heading', { level: 1, name: 'Consignes de tri' }).waitFor();
    await page.locator('.callout-warning').waitFor();
    await page.getByRole('navigation', { name: 'Pied de page' }).getByRole('link', { name: 'Mentions légales' }).waitFor();
    await checkA11y('cms page');
    await shoot('cms-page', `${new URL(page.url()).pathname}?site=brest-dechets`);
  });

  it('shows the last calendar loaded when offline', async () => {
    await page.goto(origin + '/');
    await page.locator('.bin .next time').first().waitFor();
    await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
    // Once the worker controls the page, the shell and the calendar come from its caches.
    await page.reload();
    await page.locator('.bin .next time').first().waitFor();
    await phone.setOffline(true);
    try {
      await page.reload();
      await page.locator('.bin .next time').first().waitFor();
    } finally {
      await phone.setOffline(false);
    }
  });

  it('explains errors in French sentences: network down, too many requests, not found', async () => {
    const context = await newContext(PHONE, { serviceWorkers: 'block' });
    const errorPage = await context.newPage();
    await errorPage.goto(origin + '/actualites/00000000-0000-4000-8000-000000000000');
    await errorPage.getByRole('alert').getByText("Nous n'avons pas trouvé cette information").waitFor();

    // An unknown path answers 404 with the app's page, which shows its own not-found screen.
    const unknown = await errorPage.goto(origin + '/une-page-qui-n-existe-pas');
    assert.equal(unknown?.status(), 404);
    await errorPage.getByRole('heading', { level: 1, name: 'Page introuvable' }).waitFor();

    await errorPage.route('**/public/city-groups', (route) => route.fulfill({ status: 429, headers: { 'retry-after': '30' }, contentType: 'application/json', body: '{"statusCode":429,"message":"x","error":"Too Many Requests"}' }));
    await errorPage.goto(origin + '/communes');
    await errorPage.getByRole('alert').getByText('Trop de demandes en peu de temps : patientez environ 30 secondes').waitFor();

    await errorPage.unroute('**/public/city-groups');
    await errorPage.route('**/public/**', (route) => route.abort('internetdisconnected'));
    await errorPage.goto(origin + '/communes');
    await errorPage.getByRole('alert').getByText('Impossible de joindre le service').waitFor();
    // Retrying once the network is back works.
    await errorPage.unroute('**/public/**');
    await errorPage.getByRole('button', { name: 'Réessayer' }).click();
    await errorPage.getByLabel('Votre commune').fill('brest');
    await errorPage.getByRole('link', { name: /^Brest/ }).click();
    await errorPage.getByRole('link', { name: /./ }).filter({ has: errorPage.locator('strong') }).first().click();
    const next = await errorPage.locator('.bin .next time').first().getAttribute('datetime');

    // Without a service worker, the calendar kept on the device shows when the network drops, and says so.
    await errorPage.route('**/public/**', (route) => route.abort('internetdisconnected'));
    await errorPage.getByRole('link', { name: 'Changer de secteur' }).click();
    await errorPage.goBack();
    await errorPage.getByText('Vous êtes hors connexion : voici le calendrier enregistré le').waitFor();
    assert.equal(await errorPage.locator('.bin .next time').first().getAttribute('datetime'), next);
    await context.close();
  });

  it('ran without a Content-Security-Policy violation', () => {
    assert.deepEqual(cspViolations, []);
  });
});
