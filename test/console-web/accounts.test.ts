// The agents' accounts screen in headless Chromium: hidden without USERS, the accounts of the agent's groups (all of
// them for a super admin), creating one (the API's refusal shown at its field), changing its permissions, deactivating it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { OPERATOR, listUsers } from '../../src/auth/users.ts';
import { CHROMIUM_SKIP, checkA11y, createAgent, logIn, newAgentContext, openBrowser, shoot, startConsoleServer } from '../helpers/console-browser.ts';

const NEW_PASSWORD = 'une phrase de passe assez longue';

for (const kind of browserDatabaseKinds()) {
  describe(`console accounts in a browser (${kind})`, { skip: CHROMIUM_SKIP, timeout: 180_000 }, () => {
    it('creates, changes and deactivates an account of the agent’s group; hidden from agents without USERS', async (t) => {
      const server = await startConsoleServer(t, kind);
      await createAgent(server, { email: 'rh@brest.fr', name: 'Nolwenn Kerjean', permissions: ['USERS', 'CITIES'] });
      await createAgent(server, { email: 'collecte@brest.fr', name: 'Yann Le Gall', permissions: ['CITIES'] });
      await createAgent(server, { email: 'admin@collecte.fr', name: 'Super Admin', superAdmin: true });
      const browser = await openBrowser(t);

      // Without USERS: no link, and the screen refused when typed.
      const other = await (await newAgentContext(browser)).newPage();
      await logIn(other, server.origin, 'collecte@brest.fr');
      const otherNav = other.getByRole('navigation', { name: 'Navigation de la console' });
      await otherNav.getByRole('link', { name: 'Communes' }).waitFor();
      assert.equal(await otherNav.getByRole('link', { name: 'Comptes des agents' }).count(), 0);
      await other.goto(server.origin + '/console/comptes');
      await other.getByRole('heading', { level: 1, name: 'Accès refusé' }).waitFor();

      const context = await newAgentContext(browser);
      const page = await context.newPage();
      page.on('dialog', (dialog) => void dialog.accept());
      await logIn(page, server.origin, 'rh@brest.fr');
      await page.getByRole('navigation', { name: 'Navigation de la console' }).getByRole('link', { name: 'Comptes des agents' }).click();
      await page.getByRole('heading', { level: 1, name: 'Comptes des agents' }).waitFor();
      await page.getByRole('cell', { name: 'Yann Le Gall', exact: true }).waitFor();
      // The super admin's account is not of the agent's group.
      assert.equal(await page.getByRole('cell', { name: 'Super Admin', exact: true }).count(), 0);
      await checkA11y(page, 'accounts');

      // A password too short: the API's sentence at the password field, nothing created.
      await page.getByRole('button', { name: 'Créer un compte' }).click();
      await page.getByRole('heading', { level: 2, name: 'Nouveau compte' }).waitFor();
      await page.getByLabel('Adresse e-mail').fill('tri@brest.fr');
      await page.getByLabel('Nom', { exact: true }).fill('Gwenaëlle Abgrall');
      const password = page.getByLabel('Mot de passe initial');
      await password.fill('court');
      // Only the permissions the agent holds may be given, and only a super admin names super admins.
      assert.equal(await page.getByRole('checkbox', { name: /Super administrateur/ }).count(), 0);
      assert.equal(await page.getByRole('checkbox', { name: 'Actualités' }).isDisabled(), true);
      await page.getByRole('checkbox', { name: 'Données de collecte' }).check();
      // The agent's one group is ticked already.
      assert.equal(await page.getByRole('group', { name: 'Collectivités' }).getByRole('checkbox').first().isChecked(), true);
      // The draft keeps the form through an expired session, but never the password typed.
      const drafts = await page.evaluate(() => JSON.stringify(Object.entries(sessionStorage)));
      assert.match(drafts, /tri@brest\.fr/);
      assert.doesNotMatch(drafts, /court/);
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.locator('.field-error').filter({ hasText: 'au moins 12' }).waitFor();
      assert.equal(await password.getAttribute('aria-invalid'), 'true');
      assert.match(await page.locator(`#${await password.getAttribute('aria-describedby').then((ids) => ids!.split(' ').at(-1))}`).innerText(), /password.*au moins 12/);
      await checkA11y(page, 'account form with an error');
      await shoot(page, 'account-form', password);

      await password.fill(NEW_PASSWORD);
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: 'Compte de Gwenaëlle Abgrall créé.' }).waitFor();
      await page.getByRole('cell', { name: 'Gwenaëlle Abgrall', exact: true }).waitFor();
      const created = (await listUsers(server.database.db, OPERATOR, { page: 1, pageSize: 100 })).data.find((u) => u.email === 'tri@brest.fr');
      assert.deepEqual(created && { permissions: created.permissions, cityGroupIds: created.cityGroupIds, active: created.active }, {
        permissions: ['CITIES'],
        cityGroupIds: [server.groupId],
        active: true,
      });

      // The new agent logs in with the password given.
      const newcomer = await (await newAgentContext(browser)).newPage();
      await logIn(newcomer, server.origin, 'tri@brest.fr', NEW_PASSWORD);
      await newcomer.getByRole('heading', { level: 1, name: 'Bonjour Gwenaëlle Abgrall' }).waitFor();

      // Its permissions changed: USERS added.
      await page.getByRole('button', { name: 'Modifier le compte de Gwenaëlle Abgrall' }).click();
      await page.getByRole('heading', { level: 2, name: 'Modifier le compte de Gwenaëlle Abgrall' }).waitFor();
      await page.getByRole('checkbox', { name: 'Comptes des agents' }).check();
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: 'Compte de Gwenaëlle Abgrall enregistré.' }).waitFor();
      await page.getByRole('row').filter({ hasText: 'Gwenaëlle Abgrall' }).getByRole('cell', { name: 'Données de collecte, Comptes des agents' }).waitFor();

      // Deactivated: the row says so, and the account can no longer log in.
      await page.getByRole('button', { name: 'Désactiver le compte de Gwenaëlle Abgrall' }).click();
      await page.getByRole('status').filter({ hasText: 'Compte de Gwenaëlle Abgrall désactivé.' }).waitFor();
      await page.getByRole('row').filter({ hasText: 'Gwenaëlle Abgrall' }).getByRole('cell', { name: 'Désactivé', exact: true }).waitFor();
      const after = (await listUsers(server.database.db, OPERATOR, { page: 1, pageSize: 100 })).data.find((u) => u.email === 'tri@brest.fr');
      assert.deepEqual(after && { permissions: after.permissions, active: after.active }, { permissions: ['CITIES', 'USERS'], active: false });
      const refused = await fetch(`${server.origin}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'tri@brest.fr', password: NEW_PASSWORD }),
      });
      assert.equal(refused.status, 401);

      // A super admin sees every account, its own included.
      const admin = await (await newAgentContext(browser)).newPage();
      await logIn(admin, server.origin, 'admin@collecte.fr', undefined, '/console/comptes');
      await admin.getByRole('cell', { name: 'Super Admin', exact: true }).waitFor();
      await admin.getByRole('cell', { name: 'Nolwenn Kerjean', exact: true }).waitFor();
      await admin.getByRole('button', { name: 'Modifier le compte de Nolwenn Kerjean' }).click();
      await admin.getByRole('checkbox', { name: /Super administrateur/ }).check();
      await admin.getByRole('button', { name: 'Enregistrer' }).click();
      await admin.getByRole('status').filter({ hasText: 'Compte de Nolwenn Kerjean enregistré.' }).waitFor();
      await admin.getByRole('row').filter({ hasText: 'Nolwenn Kerjean' }).getByRole('cell', { name: 'Super administrateur', exact: true }).waitFor();
      assert.deepEqual(context.cspViolations, []);
    });
  });
}
