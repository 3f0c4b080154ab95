// The citizens' web app, second pass: what residents hit, each fixed and checked in headless Chromium on
// the demo data. One server for the file (PGlite: the API is tested on both databases elsewhere), a fresh browser
// context per test so that no test leans on another's storage.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startDemoServer } from '../helpers/web-fixtures.ts';
import { CHROMIUM_SKIP, launchChromium } from '../helpers/browser.ts';
import { bumpDataVersion } from '../../src/db/data-version.ts';
import { checkA11y } from '../helpers/axe.ts';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const DAY_MS = 86_400_000;

interface City {
  id: string;
  name: string;
  cityGroup: { id: string; name: string } | null;
  wasteTypes: { id: string; name: string }[];
  wasteCollectionPlaces: { id: string; name: string; collectionDays: { wasteTypeId: string }[] }[];
}
interface Group {
  id: string;
  name: string;
  cities: { id: string; name: string }[];
}

/** Today's date in France, YYYY-MM-DD, at an instant. */
const dayInFrance = (at: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date(at));

describe('web app, second pass', { skip: CHROMIUM_SKIP, timeout: 300_000 }, () => {
  let origin: string;
  let server: Awaited<ReturnType<typeof startDemoServer>>;
  let browser: Browser;
  const closers: (() => Promise<void>)[] = [];

  const api = async <T,>(url: string): Promise<T> => {
    const res = await fetch(origin + url);
    assert.equal(res.status, 200, url);
    return (await res.json()) as T;
  };
  const cityNamed = async (name: string): Promise<City> => {
    const groups = await api<Group[]>('/public/city-groups');
    const id = groups.flatMap((g) => g.cities).find((c) => c.name === name)!.id;
    return api<City>(`/public/cities/${id}`);
  };

  before(async () => {
    server = await startDemoServer({ after: (fn) => closers.push(fn) });
    origin = server.origin;
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    for (const close of closers.reverse()) await close();
  });

  const tab = (page: Page, name: string) => page.getByRole('navigation', { name: 'Navigation principale' }).getByRole('link', { name, exact: true });

  async function open(viewport = PHONE, options: Parameters<Browser['newContext']>[0] = {}): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport, locale: 'fr-FR', timezoneId: 'Europe/Paris', ...options });
    closers.push(() => context.close().catch(() => undefined));
    return { context, page: await context.newPage() };
  }

  /** axe-core on the current screen: no serious or critical violation. */

  it('1. offline, five days later: no past date, the offline notice, the header icon, and Défis, Actus, Assistant degrade in French', async () => {
    const city = await cityNamed('Brest');
    const place = city.wasteCollectionPlaces[0];
    const { context, page } = await open();
    await page.goto(`${origin}/communes/${city.id}/${place.id}`);
    await page.locator('.bin .next time').first().waitFor();
    await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
    // Once the worker controls the page, the city and the news are kept by it.
    await page.reload();
    await page.locator('.bin .next time').first().waitFor();
    await tab(page, 'Actus').click();
    await page.locator('.posts li').first().waitFor();
    await tab(page, 'Collecte').click();
    await page.locator('.bin .next time').first().waitFor();

    const later = Date.now() + 5 * DAY_MS;
    await context.setOffline(true);
    await page.clock.install({ time: later });
    await page.reload();
    await page.getByText('Vous êtes hors connexion : voici le calendrier enregistré le').waitFor();
    const today = dayInFrance(later);
    const dates = await page.locator('.bins time[datetime], .agenda time[datetime]').evaluateAll((els) => els.map((e) => e.getAttribute('datetime')!));
    assert.ok(dates.length > 0, 'some dates are still shown');
    for (const date of dates) assert.ok(date >= today, `${date} is not before ${today}`);
    // The header icon comes from the worker's cache.
    assert.ok(await page.locator('.brand img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth > 0), 'the header icon shows');

    // Actus, read before: the kept copy, said to be one.
    await tab(page, 'Actus').click();
    await page.getByText('Vous êtes hors connexion : voici les actualités lues lors de votre dernière visite.').waitFor();
    await page.locator('.posts li').first().waitFor();
    // Défis, never opened: the screen itself opens, and says in French that the network is missing.
    await tab(page, 'Défis').click();
    await page.getByRole('heading', { level: 1, name: 'Défis du tri' }).waitFor();
    await page.getByRole('alert').getByText('Impossible de joindre le service : vérifiez votre connexion').waitFor();
    // Assistant, never opened: the same, with what it needs.
    await tab(page, 'Assistant').click();
    await page.getByText("Vous êtes hors connexion : l'assistant a besoin d'internet pour répondre.").waitFor();
    await checkA11y(page, 'assistant offline');
    await context.setOffline(false);
  });

  it('2. next-collection cards by date then name, under « Ce soir, sortez : … » the day before', async () => {
    const city = await cityNamed('Brest');
    const place = city.wasteCollectionPlaces[0];
    const today = dayInFrance(Date.now());
    const collections = await api<{ date: string; wasteTypeName: string }[]>(`/public/cities/${city.id}/places/${place.id}/collections?from=${today}`);
    const days = new Set(collections.map((c) => c.date));
    // A collection day whose eve has none, so that the first card on the eve is that day's (today may have one).
    const tomorrow = collections.map((c) => c.date).find((d) => d > today && !days.has(dayInFrance(new Date(`${d}T12:00:00Z`).getTime() - DAY_MS)))!;
    assert.ok(tomorrow, 'a collection day whose eve has none');
    const { page } = await open();
    // That eve, at 13:00 in France (noon UTC is the same day there).
    await page.clock.install({ time: new Date(`${tomorrow}T12:00:00Z`).getTime() - DAY_MS });
    await page.goto(`${origin}/communes/${city.id}/${place.id}`);
    await page.locator('.bin').first().waitFor();
    const names = collections.filter((c) => c.date === tomorrow).map((c) => c.wasteTypeName);
    const summary = await page.locator('.tonight').innerText();
    assert.match(summary, /^Ce soir, sortez\u00a0: /);
    for (const name of names) assert.ok(summary.includes(name), `${name} in « ${summary} »`);

    const cards = await page.locator('.bin').evaluateAll((els) =>
      els.map((e) => ({ date: e.querySelector('.next time')?.getAttribute('datetime') ?? '9999', name: e.querySelector('h3')!.textContent!.trim() })),
    );
    assert.equal(cards[0].date, tomorrow);
    for (let i = 1; i < cards.length; i++) {
      const [a, b] = [cards[i - 1], cards[i]];
      assert.ok(a.date < b.date || (a.date === b.date && a.name.localeCompare(b.name, 'fr') <= 0), `${JSON.stringify(a)} before ${JSON.stringify(b)}`);
    }
    await checkA11y(page, 'calendar with its summary');
  });

  it('3. a bin paused for the winter shows its real next date, months ahead, and why', async () => {
    const city = await cityNamed('Brest');
    const place = city.wasteCollectionPlaces[0];
    const green = city.wasteTypes.find((w) => /verts/i.test(w.name))!;
    // 10 December 2026, in the demo's green-waste pause (1 December to 28 February).
    const at = new Date('2026-12-10T09:00:00Z').getTime();
    const year = await api<{ date: string; wasteTypeId: string }[]>(`/public/cities/${city.id}/places/${place.id}/collections?from=2026-12-10&to=2027-12-10`);
    const next = year.find((c) => c.wasteTypeId === green.id)!.date;
    assert.ok(next >= '2027-03-01', `green waste resumes in March (${next})`);
    const { page } = await open();
    await page.clock.install({ time: at });
    await page.goto(`${origin}/communes/${city.id}/${place.id}`);
    const card = page.locator(`.bin[data-waste-type="${green.id}"]`);
    await card.locator('.next').waitFor();
    assert.equal(await card.locator('.next time').getAttribute('datetime'), next);
    assert.match(await card.locator('.next').innerText(), /^[A-Z][a-zé]+ \d{1,2}(er)? mars$/);
    assert.match(await card.innerText(), /Reprise de la collecte début mars/);
    assert.equal(await page.getByText('Pas de collecte prévue avant le').count(), 0);
  });

  it('4. a failed quiz earns no badge; feedback and « Question suivante » above the tab bar; right and wrong told in words; no hover border left', async () => {
    const city = await cityNamed('Brest');
    const challenges = await api<{ id: string; requiredChallengeId: string | null; passingScore: number; badge: { name: string } | null; series: { id: string; name: string; quizQuestions: { correctWasteTypeId: string }[] }[] }[]>(
      `/public/challenges/${city.id}`,
    );
    const challenge = challenges.find((c) => c.requiredChallengeId === null && c.badge)!;
    assert.equal(challenge.passingScore, 60);
    const { page } = await open();
    await page.goto(`${origin}/communes/${city.id}/${city.wasteCollectionPlaces[0].id}`);
    await page.locator('.bin').first().waitFor();
    const tabBarTop = async () => (await page.getByRole('navigation', { name: 'Navigation principale' }).boundingBox())!.y;
    // Every quiz of the challenge (its score is sent once all are played), every answer wrong.
    for (const [n, serie] of challenge.series.entries()) {
      await page.goto(`${origin}/defis/${challenge.id}/${serie.id}`);
      for (let i = 0; i < serie.quizQuestions.length; i++) {
        await page.getByText(`question ${i + 1} sur ${serie.quizQuestions.length}`).waitFor();
        // Always a wrong answer: 0 %.
        const wrong = page.locator('.options button').nth(0);
        const correct = city.wasteTypes.find((w) => w.id === serie.quizQuestions[i].correctWasteTypeId)!.name;
        const option = (await wrong.innerText()).includes(correct) ? page.locator('.options button').nth(1) : wrong;
        await option.click();
        const next = page.getByRole('button', { name: /Question suivante|Voir mon score/ });
        await next.waitFor();
        // Told in words and with an icon, not by colour alone.
        await page.getByRole('status').getByText(/^✗ Mauvaise réponse\u00a0: /).waitFor();
        assert.match(await option.innerText(), /Votre réponse/);
        assert.match(await page.locator('.option.right').innerText(), /Bonne réponse/);
        // The pointer still rests on the chosen option: its border stays red, not the hover green.
        assert.equal(await option.evaluate((el) => (globalThis as unknown as { getComputedStyle: (e: unknown) => { borderTopColor: string } }).getComputedStyle(el).borderTopColor), 'rgb(185, 28, 28)');
        const box = (await next.boundingBox())!;
        assert.ok(box.y + box.height <= (await tabBarTop()), `« ${await next.innerText()} » above the tab bar (${box.y + box.height} > ${await tabBarTop()})`);
        if (n === 0 && i === 0) await checkA11y(page, 'quiz answered');
        await next.click();
      }
      await page.getByRole('heading', { level: 1, name: 'Quiz terminé' }).waitFor();
    }
    await page.getByRole('heading', { level: 1, name: 'Quiz terminé' }).waitFor();
    await page.getByText(`Il faut au moins 60\u00a0% de bonnes réponses pour gagner le badge «\u00a0${challenge.badge!.name}\u00a0»`).waitFor();
    assert.equal(await page.getByText('Bravo, vous gagnez le badge').count(), 0);
    const deviceId = await page.evaluate(() => JSON.parse(localStorage.getItem('collecte.deviceId')!));
    const progress = await api<{ challengeId: string; score: number; badge: unknown }[]>(`/public/challenges/progress/${deviceId}`);
    assert.deepEqual(progress.map((p) => [p.challengeId, p.score, p.badge]), [[challenge.id, 0, null]]);
    await page.getByRole('link', { name: 'Voir mes badges et défis' }).click();
    await page.getByText('Pas encore de badge').waitFor();
    await page.getByText(`Il faut 60\u00a0% pour gagner le badge`).waitFor();
  });

  it('5. the latest chat reply shows above the input; the hand-off says when agents answer, with the group’s contact block; no assistant: the contact block', async () => {
    const brest = await cityNamed('Brest');
    const { page } = await open();
    await page.goto(`${origin}/communes/${brest.id}/${brest.wasteCollectionPlaces[0].id}`);
    await page.locator('.bin').first().waitFor();
    await page.goto(`${origin}/assistant`);
    const input = page.getByLabel('Votre question');
    const questions = ['Quand est collectée la poubelle jaune ?', 'Où jeter une pile ?', 'Où jeter un pot de yaourt ?', 'Quand passe le verre ?'];
    for (const [i, question] of questions.entries()) {
      await input.fill(question);
      await page.getByRole('button', { name: 'Envoyer' }).click();
      await page.locator('.message.assistant').nth(i).waitFor();
      await page.getByText('… écrit une réponse').waitFor({ state: 'detached' });
    }
    // The page is longer than the screen: the latest reply sits above the input bar, not behind it.
    const last = (await page.locator('.message').last().boundingBox())!;
    const composer = (await page.locator('.composer').boundingBox())!;
    assert.ok(last.y >= 0, 'the latest reply is on screen');
    assert.ok(last.y + last.height <= composer.y, `the latest reply (bottom ${last.y + last.height}) above the input bar (top ${composer.y})`);

    await input.fill('je veux parler à un agent');
    await page.getByRole('button', { name: 'Envoyer' }).click();
    await page.getByText('Un conseiller a été prévenu : sa réponse s\'affichera ici. Les conseillers répondent du lundi au vendredi, de 8\u00a0h\u00a030 à 17\u00a0h\u00a030.').waitFor();
    const contact = page.getByRole('region', { name: 'Contacter le service déchets' });
    assert.equal(await contact.getByRole('link', { name: '02 98 00 10 10' }).getAttribute('href'), 'tel:0298001010');
    assert.equal(await contact.getByRole('link', { name: 'proprete@brest-metropole.example' }).getAttribute('href'), 'mailto:proprete@brest-metropole.example');
    await checkA11y(page, 'assistant after a hand-off');

    // A commune of a group without the assistant: who to call instead.
    const plabennec = await cityNamed('Plabennec');
    await page.goto(`${origin}/communes/${plabennec.id}/${plabennec.wasteCollectionPlaces[0].id}`);
    await page.locator('.bin').first().waitFor();
    await page.goto(`${origin}/assistant`);
    await page.getByText("L'assistant n'est pas proposé dans votre commune.").waitFor();
    const abers = page.getByRole('region', { name: 'Contacter le service déchets' });
    await abers.getByRole('link', { name: '02 98 00 20 20' }).waitFor();
    assert.match(await abers.innerText(), /du lundi au vendredi, de 9\u00a0h à 12\u00a0h/);
    assert.match(await abers.innerText(), /29870 Lannilis/);
    await checkA11y(page, 'no assistant');
  });

  it('6. dead ends: a French not-found screen with a way back, never « Réessayer » for what cannot work; 404 for unknown paths, JSON when asked', async () => {
    const { page } = await open();
    const nope = await page.goto(`${origin}/communes/nope`);
    assert.equal(nope?.status(), 404);
    await page.getByRole('heading', { level: 1, name: 'Page introuvable' }).waitFor();
    await page.getByRole('link', { name: 'Choisir ma commune' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Réessayer' }).count(), 0);
    assert.equal(await page.getByText('UUID').count(), 0);
    // The same path reached inside the app (no request to the server for the page).
    await page.goto(`${origin}/communes`);
    await page.evaluate(`history.pushState(null, '', '/communes/nope'); dispatchEvent(new PopStateEvent('popstate'))`);
    await page.getByRole('heading', { level: 1, name: 'Page introuvable' }).waitFor();
    assert.equal(await page.getByText('UUID').count(), 0);
    await checkA11y(page, 'not found');

    // A commune that does not exist (a well-formed id): told so, with the way to choose one.
    await page.goto(`${origin}/communes/00000000-0000-4000-8000-000000000000`);
    await page.getByRole('alert').getByText("Nous n'avons pas trouvé cette information").waitFor();
    assert.equal(await page.getByRole('button', { name: 'Réessayer' }).count(), 0);
    await page.getByRole('alert').getByRole('link', { name: 'Choisir ma commune' }).click();
    await page.getByLabel('Votre commune').waitFor();

    // A sector removed since it was saved: back to the commune's sectors.
    const brest = await cityNamed('Brest');
    await page.goto(`${origin}/communes/${brest.id}/00000000-0000-4000-8000-000000000000`);
    await page.getByRole('alert').getByText("Ce secteur de collecte n'existe plus").waitFor();
    assert.equal(await page.getByRole('button', { name: 'Réessayer' }).count(), 0);
    await page.getByRole('alert').getByRole('link', { name: 'Choisir mon secteur' }).click();
    await page.getByRole('heading', { level: 1, name: 'Brest : votre secteur' }).waitFor();

    // Unknown paths: 404, the app's page for a browser, the contract's JSON error for an API client.
    const browserAnswer = await page.goto(`${origin}/nulle-part`);
    assert.equal(browserAnswer?.status(), 404);
    assert.match(String(browserAnswer?.headers()['content-type']), /^text\/html/);
    await page.getByRole('heading', { level: 1, name: 'Page introuvable' }).waitFor();
    const json = await fetch(`${origin}/nulle-part`, { headers: { accept: 'application/json' } });
    assert.equal(json.status, 404);
    assert.deepEqual(await json.json(), { statusCode: 404, message: 'Aucune route ne correspond à GET /nulle-part.', error: 'Not Found', code: 'routeNotFound', field: null });
  });

  it('7. French typography: « 1er décembre », news excerpts cut after a word with an ellipsis, a commune’s own name first', async () => {
    const { page } = await open();
    // « plab »: Plabennec, whose name starts so, before Kersaint-Plabennec.
    await page.goto(`${origin}/communes`);
    await page.getByLabel('Votre commune').fill('plab');
    const found = page.getByRole('list', { name: 'Communes trouvées' }).getByRole('link');
    await found.first().waitFor();
    const names = (await found.allInnerTexts()).map((t) => t.split('\n')[0].trim().split(/\s{2,}| (?=Brest|CC)/)[0]);
    assert.ok(names[0].startsWith('Plabennec'), names.join(' | '));
    assert.ok(names.some((n) => n.startsWith('Kersaint-Plabennec')), names.join(' | '));

    // The green-waste pause of the demo starts on the first of December, a Tuesday of collection there: the run of
    // collections it cancels is said from that day.
    const brest = await cityNamed('Brest');
    await page.clock.install({ time: new Date('2026-11-20T10:00:00Z').getTime() });
    await page.goto(`${origin}/communes/${brest.id}/${brest.wasteCollectionPlaces[0].id}`);
    await page.getByText(/^Pas de collecte du mardi 1er décembre au /).first().waitFor();
    assert.equal(await page.getByText(/(^|\D)1 décembre/).count(), 0);

    // A post whose first paragraph is long: its excerpt ends after a whole word, with an ellipsis.
    const group = (await api<Group[]>('/public/city-groups'))[0];
    const words = 'Les agents de collecte passent désormais plus tôt dans les rues étroites du centre afin de libérer la chaussée avant les heures de pointe et de limiter le bruit pour les riverains qui dorment encore';
    await server.database.db
      .insertInto('blog_post')
      .values({ id: '0f000000-0000-4000-8000-000000000021', title: 'Collecte plus matinale', content: `${words}.\n\nSuite de l’article.`, published: true, published_at: new Date(), city_group_id: group.id })
      .execute();
    await bumpDataVersion(server.database.db, new Date());
    await server.app.dataVersion.refresh();
    await page.goto(`${origin}/actualites`);
    const card = page.locator('.posts li').filter({ hasText: 'Collecte plus matinale' });
    const excerpt = await card.locator('p').last().innerText();
    assert.match(excerpt, /[a-zé]…$/, excerpt);
    const kept = excerpt.slice(0, -1);
    assert.ok(words.startsWith(`${kept} `), `« ${kept} » ends on a whole word`);
    assert.ok(kept.length <= 160);
  });

  it('8. phone layout: six one-line tabs whatever the commune, « Dans mon agenda » on the first screen; webcal has alternatives and says when it did nothing', async () => {
    const plabennec = await cityNamed('Plabennec');
    const brest = await cityNamed('Brest');
    for (const width of [320, 390]) {
      const { page } = await open({ width, height: 700 });
      const shape = async () => {
        const bar = page.getByRole('navigation', { name: 'Navigation principale' });
        const labels = await bar.getByRole('link').allInnerTexts();
        const heights = await bar.locator('span').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
        return { labels: labels.map((l) => l.trim()), oneLine: heights.every((h) => h < 22), height: (await bar.boundingBox())!.height };
      };
      await page.goto(`${origin}/`);
      await page.getByLabel('Votre commune').waitFor();
      const none = await shape();
      assert.deepEqual(none.labels, ['Collecte', 'Où jeter ?', 'Déchèteries', 'Défis', 'Actus', 'Assistant']);
      assert.ok(none.oneLine, `every label on one line at ${width} px`);
      for (const city of [plabennec, brest]) {
        await page.goto(`${origin}/communes/${city.id}/${city.wasteCollectionPlaces[0].id}`);
        await page.locator('.bin').first().waitFor();
        assert.deepEqual(await shape(), none, `the bar keeps its shape in ${city.name}`);
      }
    }

    // « Dans mon agenda » on the first screen of the calendar, on a phone.
    const { page } = await open();
    await page.goto(`${origin}/communes/${brest.id}/${brest.wasteCollectionPlaces[0].id}`);
    const button = page.getByRole('link', { name: 'Dans mon agenda' });
    await button.waitFor();
    const tabTop = (await page.getByRole('navigation', { name: 'Navigation principale' }).boundingBox())!.y;
    const box = (await button.boundingBox())!;
    assert.ok(box.y + box.height <= tabTop, 'reachable without scrolling');
    await button.click();
    await page.getByRole('link', { name: "S'abonner au calendrier" }).waitFor();
    const heading = (await page.getByRole('heading', { level: 2, name: 'Dans mon agenda' }).boundingBox())!;
    assert.ok(heading.y >= 0 && heading.y < tabTop, `the agenda section is in view (${heading.y}, ${tabTop}, ${page.url()})`);
    await checkA11y(page, 'calendar with its agenda actions');

    // Desktop Chromium has no agenda application: the page says so and offers the alternatives.
    const desktop = await open(DESKTOP);
    await desktop.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    const wide = desktop.page;
    await wide.goto(`${origin}/communes/${brest.id}/${brest.wasteCollectionPlaces[0].id}`);
    const feed = `${new URL(origin).host}/public/cities/${brest.id}/places/${brest.wasteCollectionPlaces[0].id}/calendar.ics`;
    assert.equal(
      await wide.getByRole('link', { name: 'Ajouter à Google Agenda' }).getAttribute('href'),
      `https://calendar.google.com/calendar/render?cid=${encodeURIComponent(`webcal://${feed}`)}`,
    );
    await wide.getByRole('button', { name: 'Copier le lien' }).click();
    const https = `${origin.split('//')[0]}//${feed}`;
    // Copied where the browser lets the page write the clipboard; else the link is shown to copy by hand.
    const said = wide.getByRole('status').filter({ hasText: /Lien copié|Copiez ce lien/ });
    await said.waitFor();
    if ((await said.innerText()).includes('Lien copié')) assert.equal(await wide.evaluate('navigator.clipboard.readText()'), https);
    else assert.ok((await said.innerText()).includes(https));
    // Last: once Chromium has tried the webcal: link, headless Chromium takes no more clicks on the page.
    await wide.getByRole('link', { name: "S'abonner au calendrier" }).click();
    await wide.getByRole('status').getByText("Rien ne s'est ouvert").waitFor();
  });

  it('9. prints the place’s calendar of the year ahead, without the app around it', async () => {
    const brest = await cityNamed('Brest');
    const place = brest.wasteCollectionPlaces[0];
    const { page } = await open(DESKTOP);
    await page.goto(`${origin}/communes/${brest.id}/${place.id}`);
    await page.locator('.bin').first().waitFor();
    await page.getByRole('button', { name: "Imprimer l'année" }).waitFor();
    assert.equal(await page.locator('.year-calendar').isVisible(), false, 'not on screen');
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.locator('.year-calendar').isVisible(), true);
    assert.equal(await page.getByRole('navigation', { name: 'Navigation principale' }).isVisible(), false);
    assert.equal(await page.locator('.subscribe').isVisible(), false);
    const today = await page.evaluate(`new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date())`);
    const to = new Date(Date.parse(`${today}T00:00:00Z`) + 365 * DAY_MS).toISOString().slice(0, 10);
    const year = await api<{ date: string }[]>(`/public/cities/${brest.id}/places/${place.id}/collections?from=${today}&to=${to}`);
    const printed = await page.locator('.year-calendar time').evaluateAll((els) => els.map((e) => e.getAttribute('datetime')));
    assert.deepEqual(printed, [...new Set(year.map((c) => c.date))]);
    assert.ok((await page.locator('.year-month').count()) >= 12);
    const pdf = await page.pdf({ format: 'A4' });
    assert.ok(pdf.length > 1000);
  });

  it('9. keeps several places under names of one’s own (home, parents’) and switches between them in one tap', async () => {
    const brest = await cityNamed('Brest');
    const plabennec = await cityNamed('Plabennec');
    const { page } = await open();
    await page.goto(`${origin}/communes/${brest.id}/${brest.wasteCollectionPlaces[0].id}`);
    await page.getByLabel('Garder ce lieu dans mes adresses').waitFor();
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('Lieu enregistré sous «\u00a0Maison\u00a0».').waitFor();
    await page.goto(`${origin}/communes/${plabennec.id}/${plabennec.wasteCollectionPlaces[0].id}`);
    await page.getByLabel('Garder ce lieu dans mes adresses').fill('Parents');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('Lieu enregistré sous «\u00a0Parents\u00a0».').waitFor();
    await checkA11y(page, 'calendar with saved places');

    await page.getByRole('navigation', { name: 'Mes adresses' }).getByRole('link', { name: /^Maison/ }).click();
    await page.getByRole('heading', { level: 1, name: /Collecte à Brest/ }).waitFor();
    await page.getByRole('navigation', { name: 'Mes adresses' }).getByRole('link', { name: /^Parents \(Plabennec\)/ }).waitFor();
    // Kept across visits; forgotten on request.
    await page.reload();
    await page.getByRole('button', { name: 'Retirer de mes adresses' }).click();
    await page.getByLabel('Garder ce lieu dans mes adresses').waitFor();
    const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('collecte.places')!) as { label: string }[]);
    assert.deepEqual(kept.map((p) => p.label), ['Parents']);
  });
});
