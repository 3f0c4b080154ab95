// The console's lists drawn from a field spec (web/console/src/crud/), in headless Chromium: a
// challenge's badge and series under its form, each created, changed and deleted with its ETag; a refusal shown at
// the field the API names; a 412 shown as the conflict and overwritten; the public challenges following each save.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { CHROMIUM_SKIP, PASSWORD, checkA11y, createAgent, logIn, newAgentContext, openBrowser, shoot, startConsoleServer } from '../helpers/console-browser.ts';

interface PublicChallenge {
  id: string;
  name: string;
  badge: { name: string } | null;
  series: { name: string; order: number; quizQuestions: { material: string }[] }[];
}

/** A public answer once `ready` says so (writes reach the public API within a second). */
async function publicUntil<T>(url: string, ready: (body: T) => boolean): Promise<T> {
  let body: T | undefined;
  for (let i = 0; i < 50; i++) {
    body = (await (await fetch(url)).json()) as T;
    if (ready(body)) return body;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`${url} never answered as expected: ${JSON.stringify(body).slice(0, 500)}`);
}

/** The API's sentence under the field labelled `label`, tied to it by aria-describedby. */
async function errorAt(page: Page, label: string, text: RegExp): Promise<void> {
  const field = page.getByLabel(label, { exact: true });
  await page.locator('.field-error').filter({ hasText: text }).first().waitFor();
  assert.equal(await field.getAttribute('aria-invalid'), 'true', `${label} is marked invalid`);
  const ids = (await field.getAttribute('aria-describedby'))!.split(' ');
  assert.match(await page.locator(`[id="${ids.at(-1)}"]`).innerText(), text);
}

for (const kind of browserDatabaseKinds()) {
  describe(`console lists drawn from a spec in a browser (${kind})`, { skip: CHROMIUM_SKIP, timeout: 240_000 }, () => {
    it('writes a challenge’s badge and series: a refusal at its field, a 412 overwritten, deletions with If-Match', async (t) => {
      const server = await startConsoleServer(t, kind);
      // CHALLENGES alone: the series offer the published commune's quiz questions.
      await createAgent(server, { email: 'defis@brest.fr', name: 'Maël Tanguy', permissions: ['CHALLENGES'] });
      const groups = (await (await fetch(`${server.origin}/public/city-groups`)).json()) as { cities: { id: string; name: string }[] }[];
      const cityId = groups.flatMap((g) => g.cities).find((c) => c.name === 'Brest')!.id;
      const challengesUrl = `${server.origin}/public/challenges/${cityId}`;
      const challenge = ((await (await fetch(challengesUrl)).json()) as PublicChallenge[]).find((c) => c.name === 'Les bases du tri')!;
      const publicChallenge = (list: PublicChallenge[]) => list.find((c) => c.id === challenge.id);

      const browser = await openBrowser(t);
      const context = await newAgentContext(browser);
      const page = await context.newPage();
      page.on('dialog', (dialog) => void dialog.accept());
      await logIn(page, server.origin, 'defis@brest.fr');
      await page.getByRole('navigation', { name: 'Navigation de la console' }).getByRole('link', { name: 'Défis' }).click();
      await page.getByLabel('Commune').selectOption({ label: 'Brest' });
      await page.getByRole('button', { name: 'Modifier Les bases du tri' }).click();
      await page.getByRole('heading', { level: 2, name: 'Modifier le défi' }).waitFor();

      // The badge: one at most, so no add button while it is there; renamed.
      const badge = page.getByRole('region', { name: 'Badge du défi' });
      await badge.getByRole('cell', { name: 'Apprenti trieur', exact: true }).waitFor();
      assert.equal(await badge.getByRole('button', { name: 'Donner un badge au défi' }).count(), 0);
      await badge.getByRole('button', { name: 'Modifier Apprenti trieur' }).click();
      const badgeForm = page.getByRole('form', { name: 'Modifier le badge' });
      await badgeForm.getByLabel('Nom du badge').fill('Apprenti trieur confirmé');
      await badgeForm.getByRole('button', { name: 'Enregistrer' }).click();
      await badge.getByRole('status').filter({ hasText: 'Badge « Apprenti trieur confirmé » enregistré.' }).waitFor();
      await publicUntil<PublicChallenge[]>(challengesUrl, (list) => publicChallenge(list)?.badge?.name === 'Apprenti trieur confirmé');

      // A serie: refused without its name (the API's sentence at the field), then created with two questions.
      const series = page.getByRole('region', { name: 'Séries du défi' });
      await series.getByRole('button', { name: 'Ajouter une série' }).click();
      const newSerie = page.getByRole('form', { name: 'Ajouter une série' });
      await newSerie.getByLabel('Verre à boire', { exact: true }).check();
      await newSerie.getByLabel('Mégot de cigarette', { exact: true }).check();
      await newSerie.getByRole('button', { name: 'Enregistrer' }).click();
      await errorAt(page, 'Nom de la série', /name/);
      await checkA11y(page, 'serie form with an error');
      await shoot(page, 'serie-form', newSerie);
      await newSerie.getByLabel('Nom de la série', { exact: true }).fill('Série de la console');
      await newSerie.getByRole('button', { name: 'Enregistrer' }).click();
      await series.getByRole('status').filter({ hasText: 'Série « Série de la console » créée.' }).waitFor();
      await series.getByRole('row').filter({ hasText: 'Série de la console' }).getByRole('cell', { name: '2', exact: true }).waitFor();
      const created = await publicUntil<PublicChallenge[]>(challengesUrl, (list) => publicChallenge(list)?.series.some((s) => s.name === 'Série de la console') ?? false);
      const serie = publicChallenge(created)!.series.find((s) => s.name === 'Série de la console')!;
      assert.deepEqual(serie.quizQuestions.map((q) => q.material).sort(), ['Mégot de cigarette', 'Verre à boire']);

      // Another agent renames it while this form is open: the save answers 412, the conflict names the field, and
      // this agent's version overwrites the other one.
      await series.getByRole('button', { name: 'Modifier Série de la console' }).click();
      const editSerie = page.getByRole('form', { name: 'Modifier la série' });
      await editSerie.getByLabel('Position de la série').fill('5');
      const login = await fetch(`${server.origin}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'defis@brest.fr', password: PASSWORD }),
      });
      const headers = { authorization: `Bearer ${((await login.json()) as { accessToken: string }).accessToken}` };
      const listed = (await (await fetch(`${server.origin}/admin/challenges/${challenge.id}/series`, { headers })).json()) as { data: { id: string; name: string }[] };
      const serieId = listed.data.find((s) => s.name === 'Série de la console')!.id;
      const current = await fetch(`${server.origin}/admin/series/${serieId}`, { headers });
      const renamed = await fetch(`${server.origin}/admin/series/${serieId}`, {
        method: 'PATCH',
        headers: { ...headers, 'content-type': 'application/json', 'if-match': current.headers.get('etag')! },
        body: JSON.stringify({ name: 'Série renommée' }),
      });
      assert.equal(renamed.status, 200);
      await editSerie.getByRole('button', { name: 'Enregistrer' }).click();
      const conflict = page.getByRole('alert').filter({ hasText: 'Quelqu’un a modifié cet élément' });
      await conflict.getByRole('row', { name: /^Nom de la série.*Série renommée.*Série de la console/ }).waitFor();
      await checkA11y(page, 'serie conflict');
      await conflict.getByRole('button', { name: 'Écraser avec ma version' }).click();
      await series.getByRole('status').filter({ hasText: 'Série « Série de la console » enregistrée.' }).waitFor();
      const saved = (await (await fetch(`${server.origin}/admin/series/${serieId}`, { headers })).json()) as { name: string; order: number };
      assert.deepEqual([saved.name, saved.order], ['Série de la console', 5]);

      // Deletions, each with the record's ETag: the serie, then the badge, whose add button comes back.
      await series.getByRole('button', { name: 'Supprimer Série de la console' }).click();
      await series.getByRole('status').filter({ hasText: 'Série « Série de la console » supprimée.' }).waitFor();
      await series.getByRole('cell', { name: 'Série de la console', exact: true }).waitFor({ state: 'detached' });
      await badge.getByRole('button', { name: 'Supprimer Apprenti trieur confirmé' }).click();
      await badge.getByRole('status').filter({ hasText: 'Badge « Apprenti trieur confirmé » supprimé.' }).waitFor();
      await badge.getByRole('button', { name: 'Donner un badge au défi' }).waitFor();
      const after = await publicUntil<PublicChallenge[]>(challengesUrl, (list) => publicChallenge(list)?.badge === null);
      assert.ok(!publicChallenge(after)!.series.some((s) => s.name === 'Série de la console'));
      assert.deepEqual(context.cspViolations, []);
    });
  });
}
