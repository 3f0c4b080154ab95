// A city group's « Jours fériés » screen and a commune's holiday calendar (docs/api.md, exceptions and holiday
// rules), in headless Chromium against a real server, as an agent holding CITIES uses them: a
// commune put on Alsace-Moselle's calendar, rules changed and added above the preview of the next twelve months
// (which follows each change), a rule the API refuses marked on its row, rules reordered, saved, found again after a
// reload, and saved over another agent's change through the conflict panel.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { CHROMIUM_SKIP, checkA11y, createAgent, logIn, newAgentContext, openBrowser, shoot, startConsoleServer, type ConsoleServer } from '../helpers/console-browser.ts';
import { settledFocus } from '../helpers/browser.ts';

/** The group's stored rules, in order, as `holiday wasteTypeName|* action`. */
async function storedRules(server: ConsoleServer): Promise<string[]> {
  const rows = await server.database.db
    .selectFrom('holiday_rule as r')
    .leftJoin('waste_type as w', 'w.id', 'r.waste_type_id')
    .select(['r.holiday', 'w.name', 'r.action'])
    .where('r.city_group_id', '=', server.groupId)
    .orderBy('r.position')
    .execute();
  return rows.map((r) => `${r.holiday} ${r.name ?? '*'} ${r.action}`);
}

/** The value of each select of rule `n`. */
const rule = async (page: Page, n: number) =>
  Promise.all([`Jour férié, règle ${n}`, `Type de déchets, règle ${n}`, `Ce jour-là, règle ${n}`].map((label) => page.getByLabel(label, { exact: true }).inputValue()));

const focusedText = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.textContent ?? '');

for (const kind of browserDatabaseKinds()) {
  describe(`console: holidays, in a browser (${kind})`, { skip: CHROMIUM_SKIP, timeout: 300_000 }, () => {
    it('edits a group’s holiday rules with what they do, marks a refused rule, saves them, finds them again; a commune on Alsace-Moselle’s calendar', async (t) => {
      const server = await startConsoleServer(t, kind);
      await createAgent(server, { email: 'collecte@brest.fr', name: 'Yann Le Gall', permissions: ['CITIES'] });
      const browser = await openBrowser(t);
      const page = await (await newAgentContext(browser)).newPage();
      await logIn(page, server.origin, 'collecte@brest.fr');
      await page.getByRole('navigation', { name: 'Navigation de la console' }).getByRole('link', { name: 'Communes' }).click();
      await page.getByRole('link', { name: 'Jours fériés de Brest Métropole' }).waitFor();

      // A commune of the group follows Alsace-Moselle's calendar (its form).
      await page.getByRole('link', { name: 'Guipavas', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Guipavas' }).waitFor();
      await page.getByRole('button', { name: 'Modifier la commune' }).click();
      await page.getByRole('heading', { level: 2, name: 'Modifier la commune' }).waitFor();
      await page.getByLabel('Calendrier des jours fériés').selectOption('FR-ALSACE-MOSELLE');
      await checkA11y(page, 'city form');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: 'Commune Guipavas enregistrée.' }).waitFor();
      await page.getByText('jours fériés d’Alsace-Moselle').waitFor();
      const guipavas = await server.database.db.selectFrom('city').select('holiday_calendar').where('name', '=', 'Guipavas').executeTakeFirstOrThrow();
      assert.equal(guipavas.holiday_calendar, 'FR-ALSACE-MOSELLE');

      // The group's holidays: its rule (every holiday to the next day), Alsace-Moselle's two holidays named for Guipavas.
      assert.deepEqual(await storedRules(server), ['* * NEXT_DAY']);
      await page.getByRole('link', { name: 'Jours fériés de la collectivité' }).click();
      await page.getByRole('heading', { level: 1, name: 'Jours fériés – Brest Métropole' }).waitFor();
      await page.getByLabel('Jour férié, règle 1', { exact: true }).waitFor();
      assert.deepEqual(await rule(page, 1), ['*', '', 'NEXT_DAY']);
      await page.locator('.holidays > li[data-holiday="vendredi-saint"]').filter({ hasText: 'Férié en Alsace-Moselle seulement\u00a0: Guipavas.' }).waitFor();
      await page.locator('.holidays > li[data-holiday="saint-etienne"]').waitFor();
      await page.getByRole('status').filter({ hasText: 'avec les règles enregistrées' }).waitFor();
      // A holiday on which collections are planned, moved to the next day by the rule.
      const moved = page.locator('.holidays > li').filter({ hasText: 'reportée au' }).first();
      const day = (await moved.getAttribute('data-date'))!;
      const holiday = page.locator(`.holidays > li[data-date="${day}"]`);
      await checkA11y(page, 'holidays');

      // Collections kept on every holiday: the preview follows before anything is saved.
      await page.getByLabel('Ce jour-là, règle 1', { exact: true }).selectOption({ label: 'Collecte maintenue' });
      await page.locator(`.holidays > li.changed[data-date="${day}"]`).waitFor();
      assert.match(await holiday.innerText(), /collecte maintenue/);
      assert.doesNotMatch(await holiday.innerText(), /reportée au/);
      await page.getByRole('status').filter({ hasText: 'avec vos modifications' }).waitFor();

      // Christmas: Brest's household waste cancelled.
      await page.getByRole('button', { name: 'Ajouter une règle' }).click();
      assert.equal(
        await settledFocus(page, () => document.activeElement?.getAttribute('aria-label'), 'Jour férié, règle 2'),
        'Jour férié, règle 2',
        'the focus goes to the new rule',
      );
      await page.getByLabel('Jour férié, règle 2', { exact: true }).selectOption({ label: 'Noël' });
      await page.getByLabel('Type de déchets, règle 2', { exact: true }).selectOption({ label: 'Ordures ménagères (Brest)' });
      await page.getByLabel('Ce jour-là, règle 2', { exact: true }).selectOption({ label: 'Collecte annulée' });
      // The same rule twice: the API's check marks the third row, as typed.
      await page.getByRole('button', { name: 'Ajouter une règle' }).click();
      await page.getByLabel('Jour férié, règle 3', { exact: true }).selectOption('noel');
      await page.getByLabel('Type de déchets, règle 3', { exact: true }).selectOption({ label: 'Ordures ménagères (Brest)' });
      const third = page.locator('tr[data-rule="2"].invalid');
      await third.waitFor();
      await page.locator('.rule-error').filter({ hasText: /^Règle 3\u00a0: .*holidayRules\[1\]/ }).waitFor();
      assert.equal(await page.getByLabel('Jour férié, règle 3', { exact: true }).getAttribute('aria-invalid'), 'true');
      assert.equal(await page.locator('tr.invalid').count(), 1, 'only that row');
      // Saved anyway: the API's 400 names the same rule.
      const refusal = page.waitForResponse((r) => r.request().method() === 'PATCH');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      const refused = await refusal;
      assert.deepEqual([refused.status(), (await refused.json()).field], [400, 'holidayRules[2]']);
      await third.waitFor();
      await checkA11y(page, 'refused rule');
      await shoot(page, 'holiday-rules-refused', third);
      assert.deepEqual(await storedRules(server), ['* * NEXT_DAY'], 'nothing stored');

      // The third removed, the second moved up (the focus following it), then saved.
      await page.getByRole('button', { name: 'Supprimer la règle 3' }).click();
      await third.waitFor({ state: 'detached' });
      await page.locator('.rule-error').waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Monter la règle 2' }).click();
      assert.deepEqual(await rule(page, 1), ['noel', (await page.getByLabel('Type de déchets, règle 1', { exact: true }).inputValue()), 'CANCEL']);
      assert.deepEqual(await rule(page, 2), ['*', '', 'KEEP']);
      assert.match(await focusedText(page), /^(Monter|Descendre) la règle 1$/);
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: 'Règles des jours fériés enregistrées.' }).waitFor();
      assert.deepEqual(await storedRules(server), ['noel Ordures ménagères CANCEL', '* * KEEP']);
      await page.getByRole('status').filter({ hasText: 'avec les règles enregistrées' }).waitFor();
      await shoot(page, 'holiday-rules');

      // Reloaded: the rules as stored.
      await page.reload();
      await page.getByLabel('Jour férié, règle 2', { exact: true }).waitFor();
      assert.equal((await rule(page, 1))[0], 'noel');
      assert.equal(await page.getByLabel('Type de déchets, règle 1', { exact: true }).locator('option:checked').innerText(), 'Ordures ménagères (Brest)');
      assert.deepEqual(await rule(page, 2), ['*', '', 'KEEP']);
      assert.match(await holiday.innerText(), /collecte maintenue/);

      // Another agent changes the rules meanwhile: the save answers 412, the conflict says so, and this one overwrites.
      await server.database.db.updateTable('holiday_rule').set({ action: 'NEXT_DAY' }).where('city_group_id', '=', server.groupId).where('position', '=', 1).execute();
      await page.getByLabel('Ce jour-là, règle 1', { exact: true }).selectOption('PREVIOUS_DAY');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      const conflict = page.getByRole('alert').filter({ hasText: 'Quelqu’un a modifié cet élément' });
      await conflict.getByRole('row', { name: /^Règles des jours fériés/ }).waitFor();
      assert.match(await conflict.getByRole('row', { name: /^Règles des jours fériés/ }).innerText(), /reportée au lendemain[\s\S]*collecte maintenue/i);
      await checkA11y(page, 'holiday rules conflict');
      await conflict.getByRole('button', { name: 'Écraser avec ma version' }).click();
      await page.getByRole('status').filter({ hasText: 'Règles des jours fériés enregistrées.' }).waitFor();
      assert.deepEqual(await storedRules(server), ['noel Ordures ménagères PREVIOUS_DAY', '* * KEEP']);
    });
  });
}
