// The console's « Demandes » screens (docs/console.md, Demandes) in headless Chromium, against a real server:
// requests filed through the public API (one with a photo and a position) listed oldest first with the
// overdue flag, filtered in the address, counted in the navigation; a request handled (planned for a day, a public
// reply and an internal note, a 412 conflict overwritten, rejected with its reason at its field, given to another agent
// of the group chosen from those who may have it, then to oneself), its photo and its position shown, then erased; a
// request of a commune hidden from residents naming its recycling point and waste type; a request type with a list
// question added in the catalogue and found in the public catalogue; a request filed while the queue is open appearing
// in it live; keyboard only on the main path; a phone's width.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { fixedClock } from '../helpers/app.ts';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { CHROMIUM_SKIP, checkA11y, createAgent, logIn, newAgentContext, openBrowser, PASSWORD, PHONE, shoot, startConsoleServer, type ConsoleServer } from '../helpers/console-browser.ts';

const HOUR = 3_600_000;
const json = { 'content-type': 'application/json' };

/** A photo as a phone sends it, uploaded through the public API; its id. */
async function uploadPhoto(origin: string): Promise<string> {
  const bytes = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#7a9a3b' } }).jpeg().toBuffer();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'photo.jpg');
  const answer = await fetch(`${origin}/public/requests/photos`, { method: 'POST', body: form });
  assert.equal(answer.status, 201, await answer.clone().text());
  return ((await answer.json()) as { id: string }).id;
}

/** POST /public/requests, as the citizens' app files one. */
async function fileRequest(origin: string, body: Record<string, unknown>): Promise<{ id: string; reference: string }> {
  const answer = await fetch(`${origin}/public/requests`, { method: 'POST', headers: json, body: JSON.stringify(body) });
  assert.equal(answer.status, 201, await answer.clone().text());
  return (await answer.json()) as { id: string; reference: string };
}

/** The agent's token, for reading and changing requests beside the browser. */
async function tokenOf(origin: string, email: string): Promise<Record<string, string>> {
  const login = await fetch(`${origin}/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ email, password: PASSWORD }) });
  return { authorization: `Bearer ${((await login.json()) as { accessToken: string }).accessToken}` };
}

async function readRequest(origin: string, auth: Record<string, string>, id: string) {
  const answer = await fetch(`${origin}/admin/requests/${id}`, { headers: auth });
  return { status: answer.status, etag: answer.headers.get('etag'), body: (answer.status === 200 ? await answer.json() : null) as Record<string, any> };
}

/** Presses Tab until the focused element answers `wanted` (at most 60 times): the keyboard alone reaches it. */
async function tabTo(page: Page, wanted: (element: { tag: string; text: string; label: string }) => boolean, what: string): Promise<void> {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const e = document.activeElement as HTMLElement | null;
      return { tag: e?.tagName.toLowerCase() ?? '', text: (e?.innerText ?? '').trim(), label: e?.id ? (document.querySelector(`label[for="${e.id}"]`)?.textContent ?? '') : '' };
    });
    if (wanted(focused)) return;
  }
  assert.fail(`the keyboard does not reach ${what}`);
}

/** The demo group's first commune and its first place, with a waste type. */
async function brest(server: ConsoleServer) {
  const db = server.database.db;
  const city = await db.selectFrom('city').select(['id', 'name']).where('city_group_id', '=', server.groupId).where('name', '=', 'Brest').executeTakeFirstOrThrow();
  const place = await db.selectFrom('collection_place').select(['id', 'name']).where('city_id', '=', city.id).orderBy('name').executeTakeFirstOrThrow();
  return { city, place };
}

for (const kind of browserDatabaseKinds()) {
  describe(`console: residents' requests, in a browser (${kind})`, { skip: CHROMIUM_SKIP, timeout: 360_000 }, () => {
    it('lists, filters, counts, handles and erases requests, and adds a request type to the catalogue', async (t) => {
      // The server's clock stands still at the test's start: three requests filed 80, 3 and 1 hours before it.
      const start = Date.now();
      const clock = fixedClock(new Date(start - 80 * HOUR).toISOString());
      const server = await startConsoleServer(t, kind, { clock });
      const { origin } = server;
      await createAgent(server, { email: 'lena@brest.fr', name: 'Léna Caradec', permissions: ['REQUESTS', 'CITIES', 'CHAT_CONVERSATIONS'] });
      // Another agent of the group who may be given its requests, and one who may not (no REQUESTS).
      const yann = await createAgent(server, { email: 'yann@brest.fr', name: 'Yann Le Gall', permissions: ['REQUESTS'] });
      await createAgent(server, { email: 'awa@brest.fr', name: 'Awa Diallo', permissions: ['CITIES'] });
      const { city, place } = await brest(server);

      const photoId = await uploadPhoto(origin);
      // Illegal dumping, 80 hours ago: past its 72 hours, overdue.
      const dumping = await fileRequest(origin, {
        deviceId: 'device-console-1', cityId: city.id, typeCode: 'depot-sauvage', latitude: 48.3905, longitude: -4.4861,
        description: 'Un canapé et des sacs abandonnés au pied du talus.', email: 'habitant@example.org', photoIds: [photoId],
      });
      clock.set(new Date(start - 3 * HOUR).toISOString());
      const broken = await fileRequest(origin, {
        deviceId: 'device-console-2', cityId: city.id, typeCode: 'bac-endommage', placeId: place.id,
        description: 'La roue du bac gris est cassée.', attributes: { partie: 'roues' },
      });
      clock.set(new Date(start - 1 * HOUR).toISOString());
      const newBin = await fileRequest(origin, {
        deviceId: 'device-console-3', cityId: city.id, typeCode: 'demande-bac', placeId: place.id,
        description: 'Nous venons d’emménager.', attributes: { motif: 'nouvel-arrivant', foyer: 4 },
      });
      clock.set(new Date(start).toISOString());
      const auth = await tokenOf(origin, 'lena@brest.fr');
      const canned = await fetch(`${origin}/admin/city-groups/${server.groupId}/canned-replies`, {
        method: 'POST', headers: { ...auth, ...json }, body: JSON.stringify({ title: 'Passage prévu', content: 'Une équipe passera dans la semaine.' }),
      });
      assert.equal(canned.status, 201, await canned.clone().text());

      const browser = await openBrowser(t);
      const context = await newAgentContext(browser);
      const page = await context.newPage();
      page.on('dialog', (dialog) => void dialog.accept());
      await logIn(page, origin, 'lena@brest.fr');
      const nav = page.getByRole('navigation', { name: 'Navigation de la console' });

      // The navigation counts what was received and what is overdue.
      const queueLink = nav.getByRole('link', { name: /^Demandes/ });
      await nav.getByRole('link', { name: 'Demandes 3\u00a0reçues 1\u00a0en retard' }).waitFor();

      // The queue, oldest first, the overdue one flagged.
      await queueLink.click();
      await page.getByRole('heading', { level: 1, name: 'Demandes des habitants' }).waitFor();
      const table = page.getByRole('table', { name: 'Demandes des habitants, la plus ancienne d’abord' });
      await table.waitFor();
      const rows = table.locator('tbody tr');
      assert.equal(await rows.count(), 3);
      const texts = await rows.allInnerTexts();
      assert.match(texts[0], new RegExp(`${dumping.reference}[\\s\\S]*Dépôt sauvage[\\s\\S]*il y a 3\u00a0jours[\\s\\S]*Reçue[\\s\\S]*En retard`));
      assert.match(texts[1], new RegExp(`${broken.reference}[\\s\\S]*Bac endommagé[\\s\\S]*Brest, secteur «\u00a0${place.name}\u00a0»[\\s\\S]*il y a 3\u00a0h`));
      assert.doesNotMatch(texts[1], /En retard/);
      assert.match(texts[2], new RegExp(`${newBin.reference}[\\s\\S]*Demande de bac[\\s\\S]*il y a 1\u00a0h`));
      await checkA11y(page, 'requests queue');
      await shoot(page, 'requests-queue');

      // Filters, kept in the address.
      await page.getByLabel('En retard seulement').check();
      await page.waitForURL(/[?&]retard=1/);
      // The overdue request is in the unfiltered list too: wait for the list to have been read again, one row long.
      await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 1);
      assert.match(await rows.first().innerText(), new RegExp(dumping.reference));
      await page.getByLabel('En retard seulement').uncheck();
      await page.getByLabel('Type', { exact: true }).selectOption({ label: 'Bac endommagé' });
      await page.waitForURL(/[?&]type=bac-endommage/);
      await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 1);
      assert.match(await rows.first().innerText(), new RegExp(broken.reference));
      await page.getByLabel('Attribuée à', { exact: true }).selectOption({ label: 'Moi' });
      await page.getByText('Aucune demande pour ces filtres.').waitFor();
      await page.reload();
      await page.getByText('Aucune demande pour ces filtres.').waitFor();
      // The type's choices come with the catalogue, read after the queue: the select shows its value once they are there.
      await page.getByLabel('Type', { exact: true }).locator('option[value="bac-endommage"]').waitFor({ state: 'attached' });
      assert.equal(await page.getByLabel('Type', { exact: true }).inputValue(), 'bac-endommage', 'the filters come back from the address');
      await page.getByLabel('Attribuée à', { exact: true }).selectOption({ label: 'Tout le monde' });
      await page.getByLabel('Commune').selectOption({ label: 'Guipavas' });
      await page.getByText('Aucune demande pour ces filtres.').waitFor();
      await page.getByLabel('Commune').selectOption({ label: 'Brest' });
      await table.locator('tbody tr').filter({ hasText: broken.reference }).waitFor();

      // The illegal dumping: its photo, its position on the plan and in OpenStreetMap, its e-mail.
      await page.goto(`${origin}/console/demandes`);
      await page.getByRole('link', { name: new RegExp(`^${dumping.reference}\\s?, Dépôt sauvage$`) }).click();
      await page.getByRole('heading', { level: 1, name: `Demande ${dumping.reference}\u00a0: Dépôt sauvage` }).waitFor();
      await page.getByText(/Reçue le (lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche) (1er|\d+) \S+( \d{4})? à \d+\sh/).waitFor();
      const photo = page.getByRole('img', { name: `Photo jointe par l’habitant à la demande ${dumping.reference}` });
      await photo.waitFor();
      assert.match(String(await photo.getAttribute('src')), /^data:image\/jpeg;base64,/);
      assert.ok(await photo.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth === 320), 'the photo is drawn');
      await page.getByRole('img', { name: new RegExp(`^Position de la demande ${dumping.reference} sur le plan de Brest`) }).waitFor();
      assert.equal(
        await page.getByRole('link', { name: /Ouvrir dans OpenStreetMap/ }).getAttribute('href'),
        'https://www.openstreetmap.org/?mlat=48.3905&mlon=-4.4861#map=18/48.3905/-4.4861',
      );
      await page.getByRole('link', { name: 'habitant@example.org' }).waitFor();
      await checkA11y(page, 'request with a photo');
      await shoot(page, 'request-photo');

      // The broken bin: its answer named from its type's question; planned for a day.
      await page.goto(`${origin}/console/demandes/${broken.id}`);
      await page.getByRole('heading', { level: 1, name: `Demande ${broken.reference}\u00a0: Bac endommagé` }).waitFor();
      const facts = page.locator('.request-facts');
      await facts.getByText('Partie abîmée').waitFor();
      assert.match(await facts.innerText(), /Partie abîmée\s+Roues/);
      assert.match(await facts.innerText(), new RegExp(`Secteur\\s+${place.name}`));
      const statusForm = page.getByRole('form', { name: 'Changer le statut' });
      await statusForm.getByLabel('Nouveau statut').selectOption({ label: 'Planifiée' });
      // No day: the API's refusal at the day's field.
      await statusForm.getByRole('button', { name: 'Enregistrer' }).click();
      await statusForm.locator('.field-error').first().waitFor();
      assert.equal(await statusForm.getByLabel('Jour prévu').getAttribute('aria-invalid'), 'true');
      const day = new Date(start + 2 * 24 * HOUR).toISOString().slice(0, 10);
      await statusForm.getByLabel('Jour prévu').fill(day);
      await statusForm.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: /^Statut enregistré\u00a0: Planifiée, le / }).waitFor();
      let stored = await readRequest(origin, auth, broken.id);
      assert.deepEqual([stored.body.status, stored.body.plannedFor], ['PLANIFIEE', day]);
      // The navigation follows: two received now.
      await nav.getByRole('link', { name: 'Demandes 2\u00a0reçues 1\u00a0en retard' }).waitFor();

      // A public reply with a canned reply inserted, then an internal note.
      const reply = page.getByRole('form', { name: 'Répondre' });
      await reply.getByLabel('Réponses types').selectOption({ label: 'Passage prévu' });
      assert.equal(await reply.getByLabel('Message').inputValue(), 'Une équipe passera dans la semaine.');
      await reply.getByRole('button', { name: 'Envoyer la réponse' }).click();
      await page.getByRole('status').filter({ hasText: 'Réponse envoyée à l’habitant.' }).waitFor();
      await reply.getByLabel('Note interne').check();
      await reply.getByLabel('Message').fill('Bac de 240 litres à prévoir.');
      await reply.getByRole('button', { name: 'Ajouter la note' }).click();
      await page.getByRole('status').filter({ hasText: 'Note interne ajoutée.' }).waitFor();
      await page.locator('.timeline li.note').filter({ hasText: 'Bac de 240 litres à prévoir.' }).waitFor();
      stored = await readRequest(origin, auth, broken.id);
      assert.ok(stored.body.updates.some((u: { message: string | null }) => u.message === 'Une équipe passera dans la semaine.'), 'the public reply is an update');
      assert.ok(!stored.body.updates.some((u: { message: string | null }) => u.message === 'Bac de 240 litres à prévoir.'), 'the note is not an update');
      assert.deepEqual(stored.body.notes.map((n: { message: string; author: { name: string } }) => [n.message, n.author.name]), [['Bac de 240 litres à prévoir.', 'Léna Caradec']]);
      await checkA11y(page, 'request handled');
      await shoot(page, 'request');

      // Another agent changes it while the form is being filled: the 412's conflict, overwritten.
      await statusForm.getByLabel('Nouveau statut').selectOption({ label: 'En cours' });
      const other = await fetch(`${origin}/admin/requests/${broken.id}`, {
        method: 'PATCH', headers: { ...auth, ...json, 'if-match': String(stored.etag) }, body: JSON.stringify({ status: 'RESOLUE' }),
      });
      assert.equal(other.status, 200, await other.clone().text());
      await statusForm.getByRole('button', { name: 'Enregistrer' }).click();
      const conflict = page.getByRole('alert').filter({ hasText: 'Quelqu’un a modifié cet élément pendant que vous le modifiiez' });
      await conflict.waitFor();
      assert.match(await conflict.getByRole('row').filter({ hasText: 'Statut' }).innerText(), /Statut\s+.+\s+Résolue\s+En cours/);
      await checkA11y(page, 'request conflict');
      await conflict.getByRole('button', { name: 'Écraser avec ma version' }).click();
      await page.getByRole('status').filter({ hasText: 'Statut enregistré\u00a0: En cours.' }).waitFor();
      assert.equal((await readRequest(origin, auth, broken.id)).body.status, 'EN_COURS');

      // Rejected: the reason is required, at its field, then told to the resident.
      await statusForm.getByLabel('Nouveau statut').selectOption({ label: 'Rejetée' });
      await statusForm.getByRole('button', { name: 'Enregistrer' }).click();
      const reason = statusForm.getByLabel('Motif du rejet');
      await statusForm.locator('.field-error').first().waitFor();
      assert.equal(await reason.getAttribute('aria-invalid'), 'true');
      await reason.fill('Ce bac appartient à un bailleur : adressez-vous à lui.');
      await statusForm.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: 'Statut enregistré\u00a0: Rejetée.' }).waitFor();
      stored = await readRequest(origin, auth, broken.id);
      assert.equal(stored.body.status, 'REJETEE');
      // (The server's clock stands still: every update has the same instant, so they are looked for, not counted from the end.)
      assert.deepEqual(
        stored.body.updates.filter((u: { status: string | null }) => u.status === 'REJETEE').map((u: { message: string | null }) => u.message),
        ['Ce bac appartient à un bailleur : adressez-vous à lui.'],
      );

      // Assigned to another agent of the group, though Léna does not read the accounts (USERS): the agents who may be
      // given the group's requests are offered, « Moi » first; then to herself: the queue's « moi ».
      const assignee = page.getByRole('form', { name: 'Attribuer la demande' });
      // The agents and the agent's own name are read apart: wait for both before reading the list.
      await assignee.locator('option', { hasText: 'Yann Le Gall' }).waitFor({ state: 'attached' });
      await assignee.locator('option', { hasText: 'Moi (Léna Caradec)' }).waitFor({ state: 'attached' });
      assert.deepEqual(await assignee.getByLabel('Attribuée à').locator('option').allInnerTexts(), ['Personne', 'Moi (Léna Caradec)', 'Yann Le Gall']);
      await assignee.getByLabel('Attribuée à').selectOption({ label: 'Yann Le Gall' });
      await assignee.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: 'La demande est attribuée à Yann Le Gall.' }).waitFor();
      stored = await readRequest(origin, auth, broken.id);
      assert.deepEqual([stored.body.assignedTo, stored.body.assignedToName], [yann.id, 'Yann Le Gall']);
      await facts.locator('dd', { hasText: 'Yann Le Gall' }).waitFor();
      await assignee.getByLabel('Attribuée à').selectOption({ label: 'Moi (Léna Caradec)' });
      await assignee.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: 'La demande vous est attribuée.' }).waitFor();

      // Erased for a resident who asks to be forgotten.
      await page.getByRole('button', { name: 'Effacer la demande' }).click();
      await page.getByRole('status').filter({ hasText: `Demande ${broken.reference} effacée` }).waitFor();
      assert.equal((await readRequest(origin, auth, broken.id)).status, 404);

      // A full recycling point of a commune since hidden from residents (NON_ACTIF): its point and waste type are still
      // named, from the request itself.
      const db = server.database.db;
      const guipavas = await db.selectFrom('city').select('id').where('city_group_id', '=', server.groupId).where('name', '=', 'Guipavas').executeTakeFirstOrThrow();
      const point = await db.selectFrom('recycling_point').select(['id', 'name']).where('city_id', '=', guipavas.id).orderBy('name').executeTakeFirstOrThrow();
      const wasteType = await db.selectFrom('waste_type').select(['id', 'name']).where('city_id', '=', guipavas.id).orderBy('name').executeTakeFirstOrThrow();
      const full = await fileRequest(origin, {
        deviceId: 'device-console-4', cityId: guipavas.id, typeCode: 'point-apport-plein', recyclingPointId: point.id, wasteTypeId: wasteType.id,
        description: 'La borne déborde.',
      });
      await db.updateTable('city').set({ status: 'NON_ACTIF' }).where('id', '=', guipavas.id).execute();
      assert.equal((await fetch(`${origin}/public/cities/${guipavas.id}`)).status, 404, 'the commune is hidden from residents');
      await page.goto(`${origin}/console/demandes/${full.id}`);
      await page.getByRole('heading', { level: 1, name: `Demande ${full.reference}\u00a0: Point d’apport plein` }).waitFor();
      await facts.getByText('La borne déborde.').waitFor();
      const named = await facts.evaluate((dl) => Object.fromEntries([...dl.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent])));
      assert.deepEqual([named['Commune'], named['Type de déchets'], named['Point d’apport']], ['Guipavas', wasteType.name, point.name]);

      // The catalogue: a type with a list question, found in the public catalogue.
      await nav.getByRole('link', { name: 'Communes' }).click();
      await page.getByRole('link', { name: 'Types de demandes de Brest Métropole' }).click();
      await page.getByRole('heading', { level: 1, name: 'Types de demandes – Brest Métropole' }).waitFor();
      await page.getByRole('cell', { name: 'Dépôt sauvage', exact: true }).waitFor();
      await checkA11y(page, 'request types');
      await page.getByRole('button', { name: 'Ajouter un type de demande' }).click();
      const typeForm = page.getByRole('form', { name: 'Ajouter un type de demande' });
      await typeForm.getByLabel('Nom', { exact: true }).fill('Nid de frelons');
      await typeForm.getByLabel('Code', { exact: true }).fill('nid-frelons');
      await typeForm.getByLabel('Catégorie').selectOption({ label: 'Propreté' });
      await typeForm.getByLabel('Position ou adresse').selectOption({ label: 'Obligatoire' });
      await typeForm.getByLabel('Secteur').selectOption({ label: 'Non demandé' });
      await typeForm.getByLabel('Délai cible (heures)').fill('48');
      await checkA11y(page, 'request type form');
      await typeForm.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: 'Type de demande «\u00a0Nid de frelons\u00a0» créé.' }).waitFor();
      await page.getByRole('button', { name: 'Aucune · modifier les questions de Nid de frelons' }).click();
      const questions = page.getByRole('form', { name: 'Questions du type «\u00a0Nid de frelons\u00a0»' });
      await questions.waitFor();
      await questions.getByRole('button', { name: 'Ajouter une question' }).click();
      await questions.getByLabel('Libellé de la question 1').fill('Où est le nid ?');
      assert.equal(await questions.getByLabel('Code de la question 1').inputValue(), 'ou-est-le-nid');
      await questions.getByLabel('Réponse attendue à la question 1').selectOption({ label: 'Liste (un choix)' });
      await questions.getByLabel('Réponse obligatoire à la question 1').check();
      // A list without a choice: the API's refusal on the question.
      await questions.getByRole('button', { name: 'Enregistrer' }).click();
      await questions.locator('.field-rows li.invalid .field-error').waitFor();
      await questions.getByRole('button', { name: 'Ajouter un choix à la question 1' }).click();
      await questions.getByLabel('Nom du choix 1').fill('Dans un arbre');
      await questions.getByRole('button', { name: 'Ajouter un choix à la question 1' }).click();
      await questions.getByLabel('Nom du choix 2').fill('Sous un toit');
      await checkA11y(page, 'request type questions');
      await shoot(page, 'request-type-questions', questions);
      await questions.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: 'Questions du type «\u00a0Nid de frelons\u00a0» enregistrées.' }).waitFor();
      await page.getByRole('button', { name: '1\u00a0question · modifier les questions de Nid de frelons' }).waitFor();
      const published = (await (await fetch(`${origin}/public/city-groups/${server.groupId}/request-types`)).json()) as { code: string; position: string; targetHours: number; fields: unknown[] }[];
      const hornets = published.find((type) => type.code === 'nid-frelons');
      assert.ok(hornets, 'the new type is public');
      assert.deepEqual([hornets.position, hornets.targetHours], ['REQUIRED', 48]);
      assert.deepEqual(hornets.fields, [
        { code: 'ou-est-le-nid', label: 'Où est le nid ?', datatype: 'singlevaluelist', required: true, values: [{ key: 'dans-un-arbre', name: 'Dans un arbre' }, { key: 'sous-un-toit', name: 'Sous un toit' }] },
      ]);
      assert.deepEqual(context.cspViolations, []);
    });

    it('keeps what the agent chose while the request is read again after another agent’s change', async (t) => {
      const server = await startConsoleServer(t, kind);
      const { origin } = server;
      await createAgent(server, { email: 'lena@brest.fr', name: 'Léna Caradec', permissions: ['REQUESTS'] });
      await createAgent(server, { email: 'yann@brest.fr', name: 'Yann Le Gall', permissions: ['REQUESTS'] });
      const { city, place } = await brest(server);
      const filed = await fileRequest(origin, {
        deviceId: 'device-console-9', cityId: city.id, typeCode: 'bac-endommage', placeId: place.id,
        description: 'Le couvercle du bac jaune est fendu.', attributes: { partie: 'roues' },
      });
      const page = await (await newAgentContext(await openBrowser(t))).newPage();
      await logIn(page, origin, 'lena@brest.fr');
      const isReading = (r: { method(): string; url(): string }) => r.method() === 'GET' && new URL(r.url()).pathname === `/admin/requests/${filed.id}`;
      // The screen reads the request once, for its view and both forms, which start from that reading. The live queue,
      // once connected, may make the screen read it once more to catch up: the first readings are counted once they
      // have stopped coming, so that none of them is taken for a reading of the change below.
      /** Waits (10 s at most) for a count to reach one and to stay put. */
      const settles = async (count: () => number) => {
        let seen = -1;
        let stableSince = Date.now();
        for (let i = 0; i < 200; i++) {
          const now = count();
          if (now !== seen) [seen, stableSince] = [now, Date.now()];
          if (seen >= 1 && Date.now() - stableSince >= 750) return;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      let firstReadings = 0;
      const countFirst = (r: { method(): string; url(): string }) => void (isReading(r) && firstReadings++);
      page.on('requestfinished', countFirst);
      await page.goto(`${origin}/console/demandes/${filed.id}`);
      const assignee = page.getByRole('form', { name: 'Attribuer la demande' });
      await assignee.locator('option', { hasText: 'Yann Le Gall' }).waitFor({ state: 'attached' });
      await settles(() => firstReadings);
      page.off('requestfinished', countFirst);
      assert.ok(firstReadings >= 1 && firstReadings <= 2, `the screen reads the request once for its view and its forms, and at most once more to catch up (${firstReadings})`);

      // The screen's next reading of the request is held until the agent has chosen: it lands after the choice.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route((url) => url.pathname === `/admin/requests/${filed.id}`, async (route) => {
        if (route.request().method() === 'GET') await held;
        await route.continue();
      });
      let readings = 0;
      page.on('request', (r) => void (isReading(r) && readings++));
      // Yann changes the request's status: the live queue tells the screen, which reads the request again.
      const yann = await tokenOf(origin, 'yann@brest.fr');
      const before = await readRequest(origin, yann, filed.id);
      const changed = await fetch(`${origin}/admin/requests/${filed.id}`, {
        method: 'PATCH', headers: { ...yann, ...json, 'if-match': String(before.etag) }, body: JSON.stringify({ status: 'EN_COURS' }),
      });
      assert.equal(changed.status, 200, await changed.clone().text());
      // The screen reads it again, once: its two forms follow that reading.
      await settles(() => readings);
      assert.equal(readings, 1, 'the screen reads the request again once, for its view and its forms');
      const select = assignee.getByLabel('Attribuée à');
      await select.selectOption({ label: 'Yann Le Gall' });
      const read = page.waitForResponse((r) => isReading(r.request()));
      release();
      await read;
      // The reading is shown, or not, in the next frame: the choice still stands after it.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      assert.equal(await select.evaluate((e) => (e as HTMLSelectElement).selectedOptions[0]?.textContent), 'Yann Le Gall');
      // The status form, untouched, follows the reading: it shows Yann's status.
      const statusSelect = page.getByRole('form', { name: 'Changer le statut' }).getByLabel('Nouveau statut');
      await page.waitForFunction((e) => (e as HTMLSelectElement).selectedOptions[0]?.textContent === 'En cours', await statusSelect.elementHandle());

      // Saved on the version it was chosen on: Yann's change meets it as the conflict, and the agent's choice wins.
      await assignee.getByRole('button', { name: 'Enregistrer' }).click();
      const conflict = page.getByRole('alert').filter({ hasText: 'Quelqu’un a modifié cet élément pendant que vous le modifiiez' });
      await conflict.getByRole('button', { name: 'Écraser avec ma version' }).click();
      await page.getByRole('status').filter({ hasText: 'La demande est attribuée à Yann Le Gall.' }).waitFor();
      const after = await readRequest(origin, yann, filed.id);
      assert.deepEqual([after.body.status, after.body.assignedToName], ['EN_COURS', 'Yann Le Gall']);
    });

    it('goes through the queue to a request and answers it with the keyboard alone, and fits a phone', async (t) => {
      const server = await startConsoleServer(t, kind);
      const { origin } = server;
      await createAgent(server, { email: 'lena@brest.fr', name: 'Léna Caradec', permissions: ['REQUESTS'] });
      const { city, place } = await brest(server);
      const filed = await fileRequest(origin, { deviceId: 'device-console-9', cityId: city.id, typeCode: 'bac-vole', placeId: place.id, description: 'Le bac jaune a disparu.' });

      const browser = await openBrowser(t);
      const page = await (await newAgentContext(browser)).newPage();
      await logIn(page, origin, 'lena@brest.fr');
      await tabTo(page, (e) => e.tag === 'a' && e.text.startsWith('Demandes'), 'the queue’s link');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Demandes des habitants' }).waitFor();
      await page.getByText('mise à jour en direct').waitFor();
      await page.evaluate('window.__notReloaded = true');
      // A request filed meanwhile appears at the end of the queue, and in the navigation's count, without a reload.
      const later = await fileRequest(origin, { deviceId: 'device-console-10', cityId: city.id, typeCode: 'autre', description: 'Une question sur le compost.' });
      await page.getByRole('row').filter({ hasText: later.reference }).waitFor();
      await page.getByRole('navigation', { name: 'Navigation de la console' }).getByRole('link', { name: 'Demandes 2 reçues' }).waitFor();
      assert.equal(await page.evaluate('window.__notReloaded'), true, 'the queue updated itself');
      assert.match(await page.locator('tbody tr').last().innerText(), new RegExp(later.reference));
      await tabTo(page, (e) => e.tag === 'a' && e.text.startsWith(filed.reference), 'the request’s link');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: `Demande ${filed.reference}\u00a0: Bac volé ou disparu` }).waitFor();
      await tabTo(page, (e) => e.tag === 'textarea' && e.label === 'Message', 'the reply');
      await page.keyboard.type('Un nouveau bac vous sera livré.');
      await tabTo(page, (e) => e.tag === 'button' && e.text === 'Envoyer la réponse', 'the reply’s button');
      await page.keyboard.press('Enter');
      await page.getByRole('status').filter({ hasText: 'Réponse envoyée à l’habitant.' }).waitFor();
      const auth = await tokenOf(origin, 'lena@brest.fr');
      assert.equal((await readRequest(origin, auth, filed.id)).body.updates.at(-1).message, 'Un nouveau bac vous sera livré.');

      // A phone: nothing wider than the screen, the table scrolls in its own frame.
      await page.setViewportSize(PHONE);
      for (const path of ['/console/demandes', `/console/demandes/${filed.id}`]) {
        await page.goto(origin + path);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.locator('.loading').waitFor({ state: 'detached' });
        assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), `${path} fits 390 px`);
        await checkA11y(page, `${path} on a phone`);
      }
    });
  });
}
