// The console's login, session and navigation in headless Chromium, against a real server.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { browserDatabaseKinds } from '../helpers/database.ts';
import { CHROMIUM_SKIP, checkA11y, createAgent, logIn, newAgentContext, openBrowser, shoot, startConsoleServer } from '../helpers/console-browser.ts';

for (const kind of browserDatabaseKinds()) {
  describe(`console login in a browser (${kind})`, { skip: CHROMIUM_SKIP, timeout: 180_000 }, () => {
    it('logs in, stays logged in on reload through the refresh cookie, and logs out', async (t) => {
      const server = await startConsoleServer(t, kind);
      await createAgent(server, { email: 'awa@brest.fr', name: 'Awa Diallo', permissions: ['CITIES'] });
      const browser = await openBrowser(t);
      const context = await newAgentContext(browser);
      const page = await context.newPage();

      await page.goto(server.origin + '/console');
      await page.getByRole('heading', { level: 1, name: 'Console Collecte' }).waitFor();
      await checkA11y(page, 'login');
      await shoot(page, 'login');

      // A wrong password: the server's sentence, and still the login screen.
      await page.getByLabel('Adresse e-mail').fill('awa@brest.fr');
      await page.getByLabel('Mot de passe').fill('not the password at all');
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await page.getByRole('alert').filter({ hasText: /mot de passe/i }).waitFor();

      await logIn(page, server.origin, 'awa@brest.fr');
      await page.getByRole('heading', { level: 1, name: 'Bonjour Awa Diallo' }).waitFor();
      assert.match(await page.locator('header').innerText(), /Awa Diallo/);
      const nav = page.getByRole('navigation', { name: 'Navigation de la console' });
      await nav.getByRole('link', { name: 'Communes' }).waitFor();
      await checkA11y(page, 'home');

      // The refresh cookie is HttpOnly: the page's scripts never see it, and the token is not stored anywhere.
      assert.equal(await page.evaluate('document.cookie'), '');
      assert.equal(await page.evaluate(() => localStorage.length + sessionStorage.length), 0);
      const cookies = await context.cookies();
      const refresh = cookies.find((c) => c.name === 'collecte_refresh');
      assert.ok(refresh, 'the refresh cookie is set');
      assert.equal(refresh.httpOnly, true);
      assert.equal(refresh.path, '/auth');

      // The city groups' screen, then a reload: still logged in, on the same screen.
      await nav.getByRole('link', { name: 'Communes' }).click();
      await page.getByRole('heading', { level: 1, name: 'Communes' }).waitFor();
      await page.getByRole('link', { name: 'Brest', exact: true }).waitFor();
      await checkA11y(page, 'cities');
      await shoot(page, 'cities');
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Communes' }).waitFor();
      assert.equal(new URL(page.url()).pathname, '/console/communes');

      // The skip link is the first stop of the keyboard and leads to the content.
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate('document.activeElement?.textContent'), 'Aller au contenu');

      await page.getByRole('button', { name: 'Se déconnecter' }).click();
      await page.getByRole('button', { name: 'Se connecter' }).waitFor();
      await page.reload();
      await page.getByRole('button', { name: 'Se connecter' }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Se déconnecter' }).count(), 0);
      assert.deepEqual(context.cspViolations, []);
    });

    it('hides the screens an agent’s permissions do not allow, and refuses them when typed', async (t) => {
      const server = await startConsoleServer(t, kind);
      await createAgent(server, { email: 'redaction@brest.fr', name: 'Léa Martin', permissions: ['BLOG_POSTS'] });
      const browser = await openBrowser(t);
      const page = await (await newAgentContext(browser)).newPage();
      await logIn(page, server.origin, 'redaction@brest.fr');
      const nav = page.getByRole('navigation', { name: 'Navigation de la console' });
      await nav.getByRole('link', { name: 'Accueil' }).waitFor();
      assert.equal(await nav.getByRole('link', { name: 'Communes' }).count(), 0);

      await page.goto(server.origin + '/console/communes');
      await page.getByRole('heading', { level: 1, name: 'Accès refusé' }).waitFor();
      await checkA11y(page, 'refused');
      await page.goto(server.origin + '/console/nulle-part');
      await page.getByRole('heading', { level: 1, name: 'Page introuvable' }).waitFor();
    });
  });
}
