// A city group's « Widgets » screen (docs/widgets.md, docs/console.md) in headless Chromium, against a real server,
// as an agent holding CITIES uses it: two sites allowed (one typed in upper case with a trailing
// slash, stored normalised, and the embed pages' frame-ancestors following), an http:// site refused at its row with
// the API's sentence and nothing stored, sites removed (the focus following) and saved, a save over another agent's
// change through the conflict panel; the code of a « calendrier » widget with a sector and a colour, copied to the
// clipboard, and its preview loading the widget; a site added and saved with the keyboard alone; a phone's width; an
// agent without CITIES refused the screen; axe-core on each step.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { CHROMIUM_SKIP, checkA11y, createAgent, logIn, newAgentContext, openBrowser, PASSWORD, PHONE, shoot, startConsoleServer, type ConsoleServer } from '../helpers/console-browser.ts';
import { clipboardText, settledFocus } from '../helpers/browser.ts';

const json = { 'content-type': 'application/json' };

/** The agent's token, for reading and changing the group beside the browser. */
async function tokenOf(origin: string, email: string): Promise<Record<string, string>> {
  const login = await fetch(`${origin}/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ email, password: PASSWORD }) });
  return { authorization: `Bearer ${((await login.json()) as { accessToken: string }).accessToken}` };
}

/** The group's sites as the admin API holds them, and its ETag. */
async function readSites(server: ConsoleServer, auth: Record<string, string>): Promise<{ embedOrigins: string[]; etag: string }> {
  const answer = await fetch(`${server.origin}/admin/city-groups/${server.groupId}`, { headers: auth });
  assert.equal(answer.status, 200);
  return { embedOrigins: ((await answer.json()) as { embedOrigins: string[] }).embedOrigins, etag: answer.headers.get('etag')! };
}

/** Brest and its first sector, by name. */
async function brest(server: ConsoleServer) {
  const db = server.database.db;
  const city = await db.selectFrom('city').select(['id', 'name']).where('city_group_id', '=', server.groupId).where('name', '=', 'Brest').executeTakeFirstOrThrow();
  const place = await db.selectFrom('collection_place').select(['id', 'name']).where('city_id', '=', city.id).orderBy('name').executeTakeFirstOrThrow();
  return { city, place };
}

/** The sites listed on the screen, in order. */
const listedSites = (page: Page) => page.locator('.sites li code').allInnerTexts();

/** The focused element's text as a screen reader says it (its visually hidden part too). */
const focused = (page: Page) => page.evaluate(() => (document.activeElement?.textContent ?? '').replace(/\s+/g, ' ').trim());

/** Presses Tab until the focused element answers `wanted` (at most 60 times): the keyboard alone reaches it. */
async function tabTo(page: Page, wanted: (element: { tag: string; text: string; label: string }) => boolean, what: string): Promise<void> {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    const element = await page.evaluate(() => {
      const e = document.activeElement as HTMLElement | null;
      return { tag: e?.tagName.toLowerCase() ?? '', text: (e?.textContent ?? '').replace(/\s+/g, ' ').trim(), label: e?.id ? (document.querySelector(`label[for="${e.id}"]`)?.textContent ?? '') : '' };
    });
    if (wanted(element)) return;
  }
  assert.fail(`the keyboard does not reach ${what}`);
}

for (const kind of browserDatabaseKinds()) {
  describe(`console: widgets, in a browser (${kind})`, { skip: CHROMIUM_SKIP, timeout: 300_000 }, () => {
    it('allows sites (stored normalised, an http one refused at its row), removes them, and writes a widget’s code with its preview', async (t) => {
      const server = await startConsoleServer(t, kind);
      const { origin } = server;
      await createAgent(server, { email: 'lena@brest.fr', name: 'Léna Caradec', permissions: ['CITIES'] });
      await createAgent(server, { email: 'erwan@brest.fr', name: 'Erwan Kerouac', permissions: ['CITIES'] });
      const auth = await tokenOf(origin, 'lena@brest.fr');
      const { city, place } = await brest(server);
      assert.deepEqual((await readSites(server, auth)).embedOrigins, []);

      const browser = await openBrowser(t);
      const context = await newAgentContext(browser);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
      const page = await context.newPage();
      await logIn(page, origin, 'lena@brest.fr');
      await page.getByRole('navigation', { name: 'Navigation de la console' }).getByRole('link', { name: 'Communes' }).click();
      await page.getByRole('link', { name: 'Widgets de Brest Métropole' }).click();
      await page.getByRole('heading', { level: 1, name: 'Widgets – Brest Métropole' }).waitFor();
      await page.getByText('Seuls les sites en https de cette liste peuvent afficher les widgets des communes de Brest Métropole').waitFor();
      await page.getByText('Aucun site autorisé').waitFor();
      await checkA11y(page, 'widgets, no site');

      // Two sites, the second typed in upper case with a trailing slash and spaces: trimmed here, normalised by the API.
      const form = page.getByRole('form', { name: 'Sites autorisés' });
      const input = form.getByLabel('Ajouter un site');
      await input.fill('https://www.brest.fr');
      await form.getByRole('button', { name: 'Ajouter', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Site https://www.brest.fr ajouté à la liste\u00a0: enregistrez pour l’autoriser.' }).waitFor();
      assert.equal(await input.inputValue(), '', 'the input is emptied for the next site');
      await input.fill('  HTTPS://Mairie.Guipavas.FR/ ');
      await input.press('Enter');
      assert.deepEqual(await listedSites(page), ['https://www.brest.fr', 'HTTPS://Mairie.Guipavas.FR/']);
      assert.deepEqual((await readSites(server, auth)).embedOrigins, [], 'nothing stored before « Enregistrer »');
      await form.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: 'Sites autorisés enregistrés.' }).waitFor();
      assert.deepEqual((await readSites(server, auth)).embedOrigins, ['https://www.brest.fr', 'https://mairie.guipavas.fr']);
      assert.deepEqual(await listedSites(page), ['https://www.brest.fr', 'https://mairie.guipavas.fr'], 'the list as stored');
      // The widgets' pages may now be framed by those two sites.
      const embed = await fetch(`${origin}/embed/calendrier?city=${city.id}`);
      assert.match(String(embed.headers.get('content-security-policy')), /frame-ancestors 'self' https:\/\/www\.brest\.fr https:\/\/mairie\.guipavas\.fr(;|$)/);

      // A plain http:// site: the API's 400 names it, its sentence is shown at its row, nothing is stored.
      await input.fill('http://www.plouzane.fr');
      await form.getByRole('button', { name: 'Ajouter', exact: true }).click();
      const refusal = page.waitForResponse((r) => r.request().method() === 'PATCH');
      await form.getByRole('button', { name: 'Enregistrer' }).click();
      const refused = await refusal;
      const body = (await refused.json()) as { field: string; message: string };
      assert.deepEqual([refused.status(), body.field], [400, 'embedOrigins[2]']);
      const third = form.locator('.sites li[data-site="2"].invalid');
      await third.waitFor();
      assert.equal(await third.locator('.field-error').innerText(), body.message);
      assert.match(body.message, /https/);
      assert.equal(await form.locator('.field-error').count(), 1, 'only that row');
      assert.equal(await form.locator('.problem').count(), 0, 'not above the buttons too');
      const errorId = await third.locator('.field-error').getAttribute('id');
      assert.equal(await third.getByRole('button', { name: 'Retirer http://www.plouzane.fr' }).getAttribute('aria-describedby'), errorId);
      assert.deepEqual((await readSites(server, auth)).embedOrigins, ['https://www.brest.fr', 'https://mairie.guipavas.fr'], 'nothing stored');
      await checkA11y(page, 'refused site');
      await shoot(page, 'widgets-refused-site', third);

      // The refused site removed (its sentence goes with it, the focus to the site now last), then Brest's, and saved.
      await third.getByRole('button', { name: 'Retirer http://www.plouzane.fr' }).click();
      await third.waitFor({ state: 'detached' });
      assert.equal(await form.locator('.field-error').count(), 0);
      assert.equal(await settledFocus(page, () => (document.activeElement?.textContent ?? '').replace(/\s+/g, ' ').trim(), 'Retirer https://mairie.guipavas.fr'), 'Retirer https://mairie.guipavas.fr');
      await form.getByRole('button', { name: 'Retirer https://www.brest.fr' }).click();
      assert.equal(await settledFocus(page, () => (document.activeElement?.textContent ?? '').replace(/\s+/g, ' ').trim(), 'Retirer https://mairie.guipavas.fr'), 'Retirer https://mairie.guipavas.fr');
      await form.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: 'Sites autorisés enregistrés.' }).waitFor();
      assert.deepEqual((await readSites(server, auth)).embedOrigins, ['https://mairie.guipavas.fr']);

      // Another agent adds a site meanwhile: the save answers 412, the conflict shows both lists, this one overwrites.
      const other = await tokenOf(origin, 'erwan@brest.fr');
      const before = await readSites(server, other);
      const patched = await fetch(`${origin}/admin/city-groups/${server.groupId}`, {
        method: 'PATCH',
        headers: { ...json, ...other, 'if-match': before.etag },
        body: JSON.stringify({ embedOrigins: [...before.embedOrigins, 'https://www.plouzane.fr'] }),
      });
      assert.equal(patched.status, 200);
      await input.fill('https://www.bohars.fr');
      await input.press('Enter');
      await form.getByRole('button', { name: 'Enregistrer' }).click();
      const conflict = page.getByRole('alert').filter({ hasText: 'Quelqu’un a modifié cet élément' });
      const changed = conflict.getByRole('row', { name: /^Sites autorisés/ });
      await changed.waitFor();
      assert.match(await changed.innerText(), /https:\/\/mairie\.guipavas\.fr, https:\/\/www\.plouzane\.fr\s+https:\/\/mairie\.guipavas\.fr, https:\/\/www\.bohars\.fr/);
      await checkA11y(page, 'sites conflict');
      await conflict.getByRole('button', { name: 'Écraser avec ma version' }).click();
      await page.getByRole('status').filter({ hasText: 'Sites autorisés enregistrés.' }).waitFor();
      assert.deepEqual((await readSites(server, auth)).embedOrigins, ['https://mairie.guipavas.fr', 'https://www.bohars.fr']);

      // A « calendrier » widget of Brest for one sector, in the commune's colour: the code to paste, exactly.
      await page.getByRole('heading', { level: 2, name: 'Intégrer un widget' }).waitFor();
      await page.getByRole('radio', { name: 'Jours de collecte' }).check();
      await page.getByLabel('Commune', { exact: true }).selectOption({ label: 'Brest' });
      await page.getByLabel('Secteur (facultatif)').selectOption({ label: place.name });
      await page.getByLabel('Couleur d’accent (facultatif) (code)').fill('#0055A4');
      const expected =
        `<div data-collecte="calendrier" data-city="${city.id}" data-place="${place.id}" data-color="#0055a4"></div>\n` +
        `<script src="${origin}/widget.js" async></script>`;
      const snippet = page.locator('pre.snippet code');
      assert.equal(await snippet.textContent(), expected);
      assert.equal(await page.getByLabel('Couleur d’accent (facultatif)', { exact: true }).inputValue(), '#0055a4', 'the palette follows the code');

      // Copied to the clipboard.
      await page.getByRole('button', { name: 'Copier le code' }).click();
      await page.getByRole('status').filter({ hasText: 'Code copié' }).waitFor();
      const copied = await clipboardText(page);
      if (copied !== null) assert.equal(copied, expected);

      // The preview: the widget itself, framed from this origin, its height the one its page posts.
      const preview = page.locator('iframe.widget-preview');
      assert.equal(await preview.getAttribute('title'), 'Aperçu du widget «\u00a0Jours de collecte\u00a0»');
      assert.equal(await preview.getAttribute('src'), `/embed/calendrier?city=${city.id}&place=${place.id}&color=%230055a4`);
      const framed = page.frameLocator('iframe.widget-preview');
      await framed.getByRole('heading', { name: 'Prochaines collectes' }).waitFor();
      await framed.getByRole('heading', { level: 1, name: `Collecte à Brest Secteur ${place.name}` }).waitFor();
      await page.waitForFunction(() => (document.querySelector('iframe.widget-preview') as HTMLIFrameElement | null)?.style.height.endsWith('px'));
      await checkA11y(page, 'widget code and preview');
      await shoot(page, 'widgets-code', snippet);

      // Another kind: no sector, a new code and a new frame; a colour that is not one is said, and left out of the code.
      await page.getByRole('radio', { name: 'Où jeter\u202f?' }).check();
      assert.equal(await page.getByLabel('Secteur (facultatif)').count(), 0);
      await page.getByLabel('Couleur d’accent (facultatif) (code)').fill('bleu');
      await page.getByText('Une couleur s’écrit #RRGGBB ou #RGB').waitFor();
      assert.equal(await snippet.textContent(), `<div data-collecte="tri" data-city="${city.id}"></div>\n<script src="${origin}/widget.js" async></script>`);
      assert.equal(await preview.getAttribute('src'), `/embed/tri?city=${city.id}`);
      assert.equal(await preview.getAttribute('title'), 'Aperçu du widget «\u00a0Où jeter\u202f?\u00a0»');
      assert.equal(await page.getByRole('status').filter({ hasText: 'Code copié' }).count(), 0, 'the copy spoke of the former code');
      assert.deepEqual(context.cspViolations, []);
    });

    it('adds a site and saves it with the keyboard alone, fits a phone, and is refused to an agent without CITIES', async (t) => {
      const server = await startConsoleServer(t, kind);
      const { origin } = server;
      await createAgent(server, { email: 'lena@brest.fr', name: 'Léna Caradec', permissions: ['CITIES'] });
      await createAgent(server, { email: 'yann@brest.fr', name: 'Yann Le Gall', permissions: ['REQUESTS'] });
      const auth = await tokenOf(origin, 'lena@brest.fr');
      const screen = `${origin}/console/collectivites/${server.groupId}/widgets`;

      const browser = await openBrowser(t);
      const page = await (await newAgentContext(browser)).newPage();
      await logIn(page, origin, 'lena@brest.fr');
      await tabTo(page, (e) => e.tag === 'a' && e.text === 'Communes', 'the communes’ link');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Communes' }).waitFor();
      await tabTo(page, (e) => e.tag === 'a' && e.text === 'Widgets de Brest Métropole', 'the widgets’ link');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Widgets – Brest Métropole' }).waitFor();
      // The preview's first commune has one sector: its page goes straight to the calendar, whose title takes the
      // focus inside the frame; the console gives it back to the agent's place, its screen's title.
      await page.frameLocator('iframe.widget-preview').getByRole('heading', { level: 1, name: /^Collecte à Bohars/ }).waitFor();
      await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
      assert.equal(await focused(page), 'Widgets – Brest Métropole');
      await tabTo(page, (e) => e.tag === 'input' && e.label === 'Ajouter un site', 'the site’s input');
      await page.keyboard.type('https://www.plouzane.fr');
      await page.keyboard.press('Enter');
      await page.getByRole('status').filter({ hasText: 'Site https://www.plouzane.fr ajouté' }).waitFor();
      await tabTo(page, (e) => e.tag === 'button' && e.text === 'Enregistrer', 'the save button');
      await page.keyboard.press('Enter');
      await page.getByRole('status').filter({ hasText: 'Sites autorisés enregistrés.' }).waitFor();
      assert.deepEqual((await readSites(server, auth)).embedOrigins, ['https://www.plouzane.fr']);

      // A phone: nothing wider than the screen, the code wrapped.
      await page.setViewportSize(PHONE);
      await page.goto(screen);
      await page.getByRole('heading', { level: 1, name: 'Widgets – Brest Métropole' }).waitFor();
      await page.locator('pre.snippet').waitFor();
      await page.locator('.loading').waitFor({ state: 'detached' });
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'the screen fits 390 px');
      await checkA11y(page, 'widgets on a phone');

      // An agent without CITIES: the screen refused, the group's sites out of reach.
      const refused = await (await newAgentContext(browser)).newPage();
      await logIn(refused, origin, 'yann@brest.fr');
      assert.equal(await refused.getByRole('navigation', { name: 'Navigation de la console' }).getByRole('link', { name: 'Communes' }).count(), 0);
      await refused.goto(screen);
      await refused.getByRole('heading', { level: 1, name: 'Accès refusé' }).waitFor();
      assert.equal(await refused.getByRole('heading', { name: /^Widgets/ }).count(), 0);
      const yann = await tokenOf(origin, 'yann@brest.fr');
      const patch = await fetch(`${origin}/admin/city-groups/${server.groupId}`, {
        method: 'PATCH',
        headers: { ...json, ...yann, 'if-match': (await readSites(server, auth)).etag },
        body: JSON.stringify({ embedOrigins: [] }),
      });
      assert.equal(patch.status, 403);
      assert.deepEqual((await readSites(server, auth)).embedOrigins, ['https://www.plouzane.fr']);
    });
  });
}
