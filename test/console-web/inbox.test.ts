// The console's chat inbox and history screens in headless Chromium, against a real server: a
// citizen asks for a person in the citizens' web app, the agent sees it arrive live, answers with a canned reply that
// reaches the citizen; the usage chart, the analytics tables and a record's history show what the server holds.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { fixedClock } from '../helpers/app.ts';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { CHROMIUM_SKIP, checkA11y, createAgent, logIn, newAgentContext, openBrowser, PASSWORD, PHONE, shoot, startConsoleServer } from '../helpers/console-browser.ts';

const CANNED = 'Bonjour, je suis votre conseillère : je regarde votre demande.';

for (const kind of browserDatabaseKinds()) {
  describe(`console chat inbox and history in a browser (${kind})`, { skip: CHROMIUM_SKIP, timeout: 240_000 }, () => {
    it('shows a citizen’s request live, assigns it, answers with a canned reply that reaches the citizen’s app', async (t) => {
      const server = await startConsoleServer(t, kind);
      await createAgent(server, { email: 'awa@brest.fr', name: 'Awa Diallo', permissions: ['CHAT_CONVERSATIONS', 'CITIES'] });
      const db = server.database.db;
      const city = await db.selectFrom('city').innerJoin('collection_place', 'collection_place.city_id', 'city.id')
        .select(['city.id as cityId', 'collection_place.id as placeId', 'collection_place.name as placeName', 'city.name as cityName'])
        .where('city.city_group_id', '=', server.groupId).where('city.status', '=', 'ACTIF').orderBy('city.name').orderBy('collection_place.name').executeTakeFirstOrThrow();
      const browser = await openBrowser(t);
      const context = await newAgentContext(browser);
      const page = await context.newPage();
      await logIn(page, server.origin, 'awa@brest.fr');
      const nav = page.getByRole('navigation', { name: 'Navigation de la console' });

      // A canned reply of the group, written in the console.
      await nav.getByRole('link', { name: 'Réponses types' }).click();
      await page.getByRole('heading', { level: 1, name: 'Réponses types' }).waitFor();
      await page.getByRole('button', { name: 'Ajouter une réponse type' }).click();
      await page.getByLabel('Titre').fill('Prise en charge');
      await page.getByLabel('Réponse', { exact: true }).fill(CANNED);
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: 'Réponse type « Prise en charge » créée.' }).waitFor();
      await page.getByRole('cell', { name: 'Prise en charge', exact: true }).waitFor();
      await checkA11y(page, 'canned replies');
      await shoot(page, 'canned-replies');

      await nav.getByRole('link', { name: 'Boîte de réception' }).click();
      await page.getByRole('heading', { level: 1, name: 'Conversations' }).waitFor();
      await page.getByText('Aucune conversation pour ces filtres.').waitFor();
      await page.evaluate('window.__notReloaded = true');

      // The citizen, in the citizens' web app, asks for a person.
      const citizenContext = await newAgentContext(browser, PHONE);
      const citizen = await citizenContext.newPage();
      // The commune as the app remembers a citizen's choice (its own key), then the assistant's tab.
      await citizen.goto(`${server.origin}/`);
      await citizen.evaluate(`localStorage.setItem('collecte.city', ${JSON.stringify(JSON.stringify(city.cityId))})`);
      await citizen.goto(`${server.origin}/tri`);
      await citizen.getByRole('link', { name: 'Assistant' }).click();
      await citizen.getByLabel('Votre question').fill('je veux parler à un agent');
      await citizen.getByRole('button', { name: 'Envoyer' }).click();
      await citizen.getByText('Un conseiller a été prévenu : sa réponse s\'affichera ici.').waitFor();

      // It appears in the inbox without a reload, waiting for an agent.
      const row = page.getByRole('row').filter({ hasText: 'Attend un agent' });
      await row.waitFor();
      assert.equal(await page.evaluate('window.__notReloaded'), true, 'the inbox updated itself');
      await checkA11y(page, 'inbox');
      await shoot(page, 'inbox');

      await row.getByRole('link', { name: /^Appareil [0-9A-F]{6}$/ }).click();
      await page.getByRole('heading', { level: 1, name: /^Conversation avec Appareil/ }).waitFor();
      await page.locator('.messages li.user').filter({ hasText: 'je veux parler à un agent' }).waitFor();
      assert.match(await page.locator('main').innerText(), new RegExp(`${city.cityName}, secteur «\\s${city.placeName}\\s»`));
      await page.getByRole('button', { name: 'M’attribuer la conversation' }).click();
      await page.getByText('La conversation vous est attribuée.').waitFor();
      await page.getByText(/Attribuée à\s: moi/).waitFor();
      await page.getByLabel('Réponse type').selectOption({ label: 'Prise en charge' });
      assert.equal(await page.getByLabel('Votre réponse').inputValue(), CANNED);
      await page.getByRole('button', { name: 'Envoyer' }).click();
      await page.getByText('Réponse envoyée.').waitFor();
      await page.locator('.messages li.agent').filter({ hasText: CANNED }).waitFor();

      // The reply reaches the citizen's app (it polls while an agent holds the conversation).
      await citizen.locator('.message.agent').filter({ hasText: CANNED }).waitFor({ timeout: 15_000 });
      // The citizen's next message appears in the open conversation, live.
      await citizen.getByLabel('Votre question').fill('Merci, mon bac jaune a été oublié');
      await citizen.getByRole('button', { name: 'Envoyer' }).click();
      await page.locator('.messages li.user').filter({ hasText: 'mon bac jaune a été oublié' }).waitFor();
      await checkA11y(page, 'conversation');
      await shoot(page, 'conversation');

      // A ticket and a status change.
      await page.getByLabel('Objet du ticket').fill('Bac oublié');
      await page.getByLabel('Description du ticket').fill('Rue de Siam, bac jaune non collecté.');
      await page.getByRole('button', { name: 'Créer le ticket' }).click();
      await page.getByText('Ticket créé.').waitFor();
      await page.getByText(/Bac oublié \(ouvert/).waitFor();
      await page.getByLabel('Nouveau statut').selectOption('CLOSED');
      await page.getByRole('button', { name: 'Changer le statut' }).click();
      await page.getByText('Statut modifié.').waitFor();
      await page.getByText('Cette conversation est close : rouvrez-la pour répondre.').waitFor();
      assert.deepEqual(context.cspViolations, []);
    });

    it('keeps the inbox live when the token expires under the stream: a new token, then Last-Event-ID', async (t) => {
      // The server's clock decides when a token ends: the stream opens 3 seconds before the end of the agent's token.
      const start = new Date();
      const clock = fixedClock(start.toISOString());
      const server = await startConsoleServer(t, kind, { clock });
      await createAgent(server, { email: 'awa@brest.fr', name: 'Awa Diallo', permissions: ['CHAT_CONVERSATIONS'] });
      const browser = await openBrowser(t);
      const page = await (await newAgentContext(browser)).newPage();
      await logIn(page, server.origin, 'awa@brest.fr');
      clock.set(new Date(start.getTime() + 15 * 60_000 - 3_000).toISOString());
      const streams: (string | undefined)[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/chat/events') streams.push(request.headers()['last-event-id']);
      });
      const resumed = page.waitForRequest((r) => new URL(r.url()).pathname === '/chat/events' && r.headers()['last-event-id'] !== undefined, { timeout: 20_000 });
      await page.getByRole('navigation', { name: 'Navigation de la console' }).getByRole('link', { name: 'Boîte de réception' }).click();
      await page.getByText('Aucune conversation pour ces filtres.').waitFor();
      await resumed;
      assert.equal(streams[0], undefined, 'the first stream starts afresh');
      assert.match(String(streams.at(-1)), /^\d+$/, 'the next one resumes after the last event');

      // A citizen asks for a person after the reconnection: the inbox still shows it without a reload.
      const city = await server.database.db.selectFrom('city').select('id').where('city_group_id', '=', server.groupId).where('status', '=', 'ACTIF').orderBy('name').executeTakeFirstOrThrow();
      const json = { 'content-type': 'application/json' };
      const created = await fetch(`${server.origin}/public/chat/conversations`, { method: 'POST', headers: json, body: JSON.stringify({ deviceId: `web-${'ab'.repeat(16)}`, cityId: city.id }) });
      assert.equal(created.status, 201, await created.clone().text());
      const { id } = (await created.json()) as { id: string };
      const asked = await fetch(`${server.origin}/public/chat/conversations/${id}/messages`, { method: 'POST', headers: json, body: JSON.stringify({ content: 'je veux parler à un agent' }) });
      assert.equal(asked.status, 201);
      await page.getByRole('row').filter({ hasText: 'Attend un agent' }).waitFor();
      await page.getByRole('button', { name: 'Se déconnecter' }).waitFor();
    });

    it('draws the usage chart and the analytics tables from the server’s data, and a record’s history with its diff', async (t) => {
      const server = await startConsoleServer(t, kind);
      await createAgent(server, { email: 'awa@brest.fr', name: 'Awa Diallo', permissions: ['CHAT_CONVERSATIONS', 'CITIES'] });
      const db = server.database.db;
      const now = Date.now();
      await db.insertInto('llm_usage').values([
        { id: randomUUID(), conversation_id: null, city_group_id: server.groupId, model: 'test', prompt_tokens: 1200, completion_tokens: 300, created_at: new Date(now - 60_000) },
        { id: randomUUID(), conversation_id: null, city_group_id: server.groupId, model: 'test', prompt_tokens: 800, completion_tokens: 200, created_at: new Date(now - 60_000) },
        { id: randomUUID(), conversation_id: null, city_group_id: server.groupId, model: 'test', prompt_tokens: 100, completion_tokens: 50, created_at: new Date(now - 3 * 86_400_000) },
      ]).execute();
      const city = await db.selectFrom('city').select(['id']).where('city_group_id', '=', server.groupId).where('status', '=', 'ACTIF').orderBy('name').executeTakeFirstOrThrow();
      for (const q of ['piles', 'piles', 'zzqqxx introuvable', 'Capsule de café', 'capsule de cafe', 'capsule de café']) {
        assert.equal((await fetch(`${server.origin}/public/cities/${city.id}/sorting-guide?q=${encodeURIComponent(q)}`)).status, 200);
      }

      const browser = await openBrowser(t);
      const context = await newAgentContext(browser);
      const page = await context.newPage();
      await logIn(page, server.origin, 'awa@brest.fr');
      const nav = page.getByRole('navigation', { name: 'Navigation de la console' });

      await nav.getByRole('link', { name: 'Consommation de l’assistant' }).click();
      await page.getByRole('img', { name: /Requêtes par jour/ }).waitFor();
      await page.getByRole('img', { name: /Jetons par jour/ }).waitFor();
      assert.match(await page.getByRole('img', { name: /Requêtes par jour/ }).textContent() ?? '', /total 3 requêtes, maximum 2 requêtes/);
      assert.match(await page.getByRole('img', { name: /Jetons par jour/ }).textContent() ?? '', /total 2\u202f650 jetons, maximum 2\u202f500 jetons/);
      await checkA11y(page, 'usage');
      await shoot(page, 'usage');

      await nav.getByRole('link', { name: 'Analyses' }).click();
      await page.getByRole('heading', { level: 2, name: 'Mots les plus recherchés' }).waitFor();
      const searched = page.getByRole('table', { name: 'Mots les plus recherchés' });
      await searched.getByRole('row').filter({ hasText: 'piles' }).waitFor();
      assert.match(await searched.getByRole('row').filter({ hasText: 'piles' }).innerText(), /piles\s+2/);
      await page.getByRole('table', { name: 'Recherches sans résultat' }).getByRole('row').filter({ hasText: 'zzqqxx introuvable' }).waitFor();
      // A search reads as citizens typed it, accents kept, counted with its unaccented spellings; the chart shows it whole.
      assert.match(await searched.getByRole('row').filter({ hasText: 'capsule' }).innerText(), /^capsule de café\s+3$/);
      const ranked = page.getByRole('figure', { name: 'Mots les plus recherchés' }).getByRole('listitem');
      assert.deepEqual((await ranked.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim()).slice(0, 2), ['capsule de café 3 recherches', 'piles 2 recherches']);
      await page.getByText('Aucun sujet relevé pour l’instant.').waitFor();
      await checkA11y(page, 'analytics');
      await shoot(page, 'analytics');

      // An edit of a waste type, then its history from the waste types' list.
      const type = await db.selectFrom('waste_type').select(['id', 'name', 'description']).where('city_id', '=', city.id).orderBy('name').executeTakeFirstOrThrow();
      const login = await (await fetch(`${server.origin}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'awa@brest.fr', password: PASSWORD }) })).json() as { accessToken: string };
      const auth = { authorization: `Bearer ${login.accessToken}` };
      const read = await fetch(`${server.origin}/admin/waste-types/${type.id}`, { headers: auth });
      const edited = await fetch(`${server.origin}/admin/waste-types/${type.id}`, {
        method: 'PATCH', headers: { ...auth, 'content-type': 'application/json', 'if-match': String(read.headers.get('etag')) }, body: JSON.stringify({ description: 'Nouvelle description' }),
      });
      assert.equal(edited.status, 200, await edited.clone().text());
      await page.goto(`${server.origin}/console/communes/${city.id}/types-de-dechets`);
      await page.getByRole('link', { name: `Historique ${type.name}` }).click();
      await page.getByRole('heading', { level: 1, name: `Historique de « ${type.name} »` }).waitFor();
      await page.getByRole('heading', { level: 2, name: /^Modification par Awa Diallo, le / }).waitFor();
      const diff = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'description' }) });
      assert.deepEqual(await diff.locator('td').allInnerTexts(), [type.description ?? 'vide', 'Nouvelle description']);
      await checkA11y(page, 'history');
      await shoot(page, 'history');
      assert.deepEqual(context.cspViolations, []);
    });
  });
}
