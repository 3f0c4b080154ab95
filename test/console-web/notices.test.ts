// A city group's « Avis aux habitants » screen (docs/api.md, service notices), in headless Chromium against a real
// server, as an agent holding CITIES uses it: a notice written for one secteur with « Prévenir les
// abonnés » checked, who will receive it counted from the reminder subscriptions (and following the scope), an end
// before the start refused by the API at the end's field, saved and listed « À venir », changed (until deleted), sent
// while its form is open (the 412's conflict, overwritten, and the form saying an edit goes no further), deleted.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { ReminderChannel, ReminderStatus } from '../../src/db/types.ts';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { CHROMIUM_SKIP, checkA11y, createAgent, logIn, newAgentContext, openBrowser, shoot, startConsoleServer, type ConsoleServer } from '../helpers/console-browser.ts';

/** A reminder subscription of a place, as the citizens' app leaves one (test/notices/audience.test.ts). */
async function subscribe(server: ConsoleServer, cityId: string, placeId: string, channel: ReminderChannel, status: ReminderStatus = 'ACTIVE') {
  const now = new Date();
  await server.database.db
    .insertInto('reminder_subscription')
    .values({
      id: randomUUID(), device_id: `device-${randomUUID()}`, city_id: cityId, place_id: placeId, waste_type_ids: '{}', time_of_day: '19:00', channel,
      endpoint: channel === 'WEB_PUSH' ? `https://push.example/${randomUUID()}` : null, p256dh: channel === 'WEB_PUSH' ? 'key' : null, auth: channel === 'WEB_PUSH' ? 'auth' : null,
      email: channel === 'EMAIL' ? `${randomUUID()}@example.org` : null, status, origin: 'https://collecte.example', planned_day: null,
      created_at: now, updated_at: now,
    })
    .execute();
}

const PARIS = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const parisWall = (t: number) => PARIS.format(new Date(t)).replace(', ', ' ');

/** The calendar day in Paris `days` days from now (YYYY-MM-DD). */
const parisDay = (days: number) => parisWall(Date.now() + days * 86_400_000).slice(0, 10);

/** The instant of `day` at `time` in Paris. */
function parisInstant(day: string, time: string): string {
  const asUtc = Date.parse(`${day}T${time}:00.000Z`);
  const instant = [1, 2].map((h) => asUtc - h * 3_600_000).find((t) => parisWall(t) === `${day} ${time}`);
  assert.ok(instant !== undefined, `${day} ${time} in Paris`);
  return new Date(instant).toISOString();
}

/** The sentence under the field labelled `label`, tied to it by aria-describedby, and the field marked invalid. */
async function errorAt(page: Page, label: string, text: RegExp): Promise<void> {
  const field = page.getByLabel(label, { exact: true });
  await page.locator('.field-error').filter({ hasText: text }).first().waitFor();
  assert.equal(await field.getAttribute('aria-invalid'), 'true', `${label} is marked invalid`);
  const ids = (await field.getAttribute('aria-describedby'))!.split(' ');
  assert.match(await page.locator(`[id="${ids.at(-1)}"]`).innerText(), text);
}

async function storedNotices(server: ConsoleServer) {
  return server.database.db
    .selectFrom('service_notice')
    .select(['id', 'title', 'severity', 'city_ids', 'place_ids', 'starts_at', 'ends_at', 'notify', 'notified_at'])
    .where('city_group_id', '=', server.groupId)
    .execute();
}

for (const kind of browserDatabaseKinds()) {
  describe(`console: service notices, in a browser (${kind})`, { skip: CHROMIUM_SKIP, timeout: 300_000 }, () => {
    it('writes a notice for one secteur with who will receive it, refuses an end before its start at its field, lists, changes and deletes it', async (t) => {
      const server = await startConsoleServer(t, kind);
      await createAgent(server, { email: 'avis@brest.fr', name: 'Nolwenn Kerbrat', permissions: ['CITIES'] });
      const brest = await server.database.db.selectFrom('city').select('id').where('name', '=', 'Brest').where('city_group_id', '=', server.groupId).executeTakeFirstOrThrow();
      const placeId = async (name: string) =>
        (await server.database.db.selectFrom('collection_place').select('id').where('city_id', '=', brest.id).where('name', '=', name).executeTakeFirstOrThrow()).id;
      const centre = await placeId('Centre-ville et Recouvrance');
      const lambezellec = await placeId('Lambézellec et Saint-Martin');
      // Centre-ville: two phones and a mailbox (a mailbox not yet confirmed is nobody yet); Lambézellec: a phone.
      await subscribe(server, brest.id, centre, 'WEB_PUSH');
      await subscribe(server, brest.id, centre, 'WEB_PUSH');
      await subscribe(server, brest.id, centre, 'EMAIL');
      await subscribe(server, brest.id, centre, 'EMAIL', 'PENDING');
      await subscribe(server, brest.id, lambezellec, 'WEB_PUSH');

      const browser = await openBrowser(t);
      const context = await newAgentContext(browser);
      const page = await context.newPage();
      page.on('dialog', (dialog) => void dialog.accept());
      await logIn(page, server.origin, 'avis@brest.fr');
      await page.getByRole('navigation', { name: 'Navigation de la console' }).getByRole('link', { name: 'Communes' }).click();
      await page.getByRole('link', { name: 'Avis aux habitants de Brest Métropole' }).click();
      await page.getByRole('heading', { level: 1, name: 'Avis aux habitants – Brest Métropole' }).waitFor();
      await page.getByText('Aucun avis pour l’instant.').waitFor();
      await checkA11y(page, 'notices, none yet');

      // A strike tomorrow evening in one secteur of Brest, important, to be sent to its subscribers.
      await page.getByRole('button', { name: 'Écrire un avis' }).click();
      const form = page.getByRole('form', { name: 'Nouvel avis' });
      await form.waitFor();
      const title = 'Grève des équipes de collecte';
      const text = 'Les bacs ne seront pas collectés demain soir. Sortez-les à la collecte suivante.';
      await form.getByLabel('Titre', { exact: true }).fill(title);
      await form.getByLabel('Texte de l’avis', { exact: true }).fill(text);
      await form.getByText(`${text.length}\u00a0caractères sur 1\u202f000.`).waitFor();
      await form.getByLabel('Important', { exact: true }).check();
      await form.getByLabel('Certains secteurs d’une commune', { exact: true }).check();
      await form.getByLabel('Commune des secteurs', { exact: true }).selectOption({ label: 'Brest' });
      await form.getByLabel('Centre-ville et Recouvrance', { exact: true }).check();
      const tomorrow = parisDay(1);
      await form.getByLabel('Jour de début', { exact: true }).fill(tomorrow);
      await form.getByLabel('Heure de début', { exact: true }).fill('18:00');
      await form.getByText(/^Début\u00a0: \S+ (1er|\d+) \S+( \d{4})? à 18\u00a0h\.$/).waitFor();
      await form.getByText('Heure de Paris.').first().waitFor();

      // Who will receive it: the secteur's active subscriptions, following the scope as it changes; when it goes.
      await form.getByLabel('Prévenir les abonnés', { exact: true }).check();
      const audience = form.locator('.audience[role="status"]');
      await audience.getByText('3\u00a0abonnés recevront cet avis\u00a0: 2 par notification, 1 par e-mail.').waitFor();
      await audience.getByText(/^Il sera envoyé à son début, le \S+ (1er|\d+) \S+( \d{4})? à 18\u00a0h\.$/).waitFor();
      await form.getByLabel('Lambézellec et Saint-Martin', { exact: true }).check();
      await audience.getByText('4\u00a0abonnés recevront cet avis\u00a0: 3 par notification, 1 par e-mail.').waitFor();
      await form.getByLabel('Lambézellec et Saint-Martin', { exact: true }).uncheck();
      await form.getByLabel('Saint-Marc et Bellevue', { exact: true }).check();
      await form.getByLabel('Centre-ville et Recouvrance', { exact: true }).uncheck();
      await audience.getByText('Aucun abonné pour l’instant.').waitFor();
      await form.getByLabel('Saint-Marc et Bellevue', { exact: true }).uncheck();
      await form.getByLabel('Centre-ville et Recouvrance', { exact: true }).check();
      await audience.getByText('3\u00a0abonnés recevront cet avis\u00a0: 2 par notification, 1 par e-mail.').waitFor();

      await shoot(page, 'notice-form', form.getByLabel('Certains secteurs d’une commune', { exact: true }));

      // An end before the start: said as it is typed, and the API's 400 names endsAt, shown at the end's day.
      await form.getByLabel('À une date', { exact: true }).check();
      await form.getByLabel('Jour de fin', { exact: true }).fill(tomorrow);
      await form.getByLabel('Heure de fin', { exact: true }).fill('08:00');
      await errorAt(page, 'Jour de fin', /^La fin doit suivre le début\.$/);
      const refusal = page.waitForResponse((r) => r.url().endsWith('/admin/notices') && r.request().method() === 'POST');
      await form.getByRole('button', { name: 'Enregistrer' }).click();
      const refused = await refusal;
      assert.deepEqual([refused.status(), (await refused.json()).field], [400, 'endsAt']);
      await errorAt(page, 'Jour de fin', /startsAt/);
      await checkA11y(page, 'notice form, end refused');
      await shoot(page, 'notice-form-refused', form.getByLabel('Jour de fin', { exact: true }));
      assert.deepEqual(await storedNotices(server), [], 'nothing stored');

      // The end the day after, at 8 h: saved, listed as to come, important, to be sent at its start.
      const after = parisDay(2);
      await form.getByLabel('Jour de fin', { exact: true }).fill(after);
      await page.locator('.field-error').filter({ hasText: 'startsAt' }).waitFor({ state: 'detached' });
      await form.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: `Avis «\u00a0${title}\u00a0» créé.` }).waitFor();
      const row = page.getByRole('row').filter({ hasText: title });
      await row.getByText('À venir', { exact: true }).waitFor();
      assert.match(await row.innerText(), /Important/);
      assert.match(await row.innerText(), /Centre-ville et Recouvrance \(Brest\)/);
      assert.match(await row.innerText(), /Du \S+ (1er|\d+) \S+( \d{4})? à 18\u00a0h au \S+ (1er|\d+) \S+( \d{4})? à 8\u00a0h/);
      assert.match(await row.innerText(), /Envoi à son début/);
      const [stored] = await storedNotices(server);
      assert.deepEqual(
        [stored.title, stored.severity, stored.city_ids, stored.place_ids, stored.starts_at.toISOString(), stored.ends_at?.toISOString(), stored.notify, stored.notified_at],
        [title, 'WARNING', [brest.id], [centre], parisInstant(tomorrow, '18:00'), parisInstant(after, '08:00'), true, null],
      );
      await checkA11y(page, 'notices list');
      await shoot(page, 'notices', row);

      // Changed: a new title, in force until deleted; its start stays as it was.
      await row.getByRole('button', { name: `Modifier l’avis ${title}` }).click();
      const edit = page.getByRole('form', { name: 'Modifier l’avis' });
      await edit.waitFor();
      assert.equal(await edit.getByLabel('Jour de début', { exact: true }).inputValue(), tomorrow);
      assert.equal(await edit.getByLabel('Heure de début', { exact: true }).inputValue(), '18:00');
      assert.ok(await edit.getByLabel('Centre-ville et Recouvrance', { exact: true }).isChecked());
      await edit.locator('.audience').getByText('3\u00a0abonnés recevront cet avis\u00a0: 2 par notification, 1 par e-mail.').waitFor();
      const renamed = 'Grève des équipes de collecte (reconduite)';
      await edit.getByLabel('Titre', { exact: true }).fill(renamed);
      await edit.getByLabel('Jusqu’à suppression', { exact: true }).check();
      await edit.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: `Avis «\u00a0${renamed}\u00a0» enregistré.` }).waitFor();
      const renamedRow = page.getByRole('row').filter({ hasText: renamed });
      assert.match(await renamedRow.innerText(), /À partir du \S+ (1er|\d+) \S+( \d{4})? à 18\u00a0h, jusqu’à suppression/);
      const [changed] = await storedNotices(server);
      assert.deepEqual([changed.title, changed.starts_at.toISOString(), changed.ends_at], [renamed, stored.starts_at.toISOString(), null]);

      // Sent while its form is open (as the worker marks it): the save answers 412, the conflict says no field of the
      // form changed, the agent's version overwrites it, and the form then says an edit is not sent again.
      await renamedRow.getByRole('button', { name: `Modifier l’avis ${renamed}` }).click();
      await edit.waitFor();
      await edit.getByLabel('Texte de l’avis', { exact: true }).fill(`${text} Merci de votre compréhension.`);
      await server.database.db.updateTable('service_notice').set({ notified_at: new Date(), updated_at: new Date() }).where('id', '=', stored.id).execute();
      await edit.getByRole('button', { name: 'Enregistrer' }).click();
      const conflict = page.getByRole('alert').filter({ hasText: 'Quelqu’un a modifié cet élément' });
      await conflict.getByText('Ses changements ne touchent aucun champ de ce formulaire.').waitFor();
      await checkA11y(page, 'notice conflict');
      await conflict.getByRole('button', { name: 'Écraser avec ma version' }).click();
      await page.getByRole('status').filter({ hasText: `Avis «\u00a0${renamed}\u00a0» enregistré.` }).waitFor();
      await renamedRow.getByText(/^Envoyé le /).waitFor();
      assert.equal((await storedNotices(server))[0].notified_at !== null, true);
      await renamedRow.getByRole('button', { name: `Modifier l’avis ${renamed}` }).click();
      await edit.getByText(/^Cet avis a été envoyé aux abonnés le .+\u00a0: une modification ne leur sera pas envoyée de nouveau\.$/).waitFor();
      assert.ok(await edit.getByLabel('Prévenir les abonnés', { exact: true }).isDisabled());
      await checkA11y(page, 'notice already sent');
      await edit.getByRole('button', { name: 'Annuler' }).click();
      await edit.waitFor({ state: 'detached' });

      // Deleted, with its ETag.
      await renamedRow.getByRole('button', { name: `Supprimer l’avis ${renamed}` }).click();
      await page.getByRole('status').filter({ hasText: `Avis «\u00a0${renamed}\u00a0» supprimé.` }).waitFor();
      await page.getByText('Aucun avis pour l’instant.').waitFor();
      assert.deepEqual(await storedNotices(server), []);
      assert.deepEqual(context.cspViolations, []);
    });
  });
}
