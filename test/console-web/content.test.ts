// The console's content screens in headless Chromium, against a real server: an image uploaded to
// the media library and a blog post written, previewed, checked at its faulty line and scheduled, then seen by the
// citizens' app once its time has come; a page published; a menu reordered and the public menu following.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { fixedClock } from '../helpers/app.ts';
import { browserDatabaseKinds } from '../helpers/database.ts';
import {
  CHROMIUM_SKIP,
  PASSWORD,
  checkA11y,
  createAgent,
  logIn,
  newAgentContext,
  openBrowser,
  shoot,
  startConsoleServer,
  type ConsoleServer,
} from '../helpers/console-browser.ts';
import { settledFocus } from '../helpers/browser.ts';

const IMAGE = path.resolve(import.meta.dirname, '../../demo/media/bacs-pays-des-abers.png');

interface PublicPost {
  id: string;
  title: string;
  content: string;
}
interface PublicMenuItem {
  label: string;
  children: PublicMenuItem[];
}
interface PublicApp {
  pages: { title: string }[];
  menus: { id: string; name: string; items: PublicMenuItem[] }[];
}

async function json<T>(server: ConsoleServer, url: string): Promise<T> {
  const res = await fetch(server.origin + url);
  assert.equal(res.status, 200, url);
  return (await res.json()) as T;
}

/** Public answers follow a write within a second: asks until `ok` holds (at most five seconds), answers the last. */
async function until<T>(server: ConsoleServer, url: string, ok: (answer: T) => boolean): Promise<T> {
  let answer = await json<T>(server, url);
  for (let i = 0; i < 50 && !ok(answer); i++) {
    await new Promise((r) => setTimeout(r, 100));
    answer = await json<T>(server, url);
  }
  return answer;
}

/** The computed look of an element, compared between the console's preview and the citizens' app. */
function look(page: Page, selector: string) {
  return page.locator(selector).first().evaluate((el) => {
    const s = (globalThis as unknown as { getComputedStyle: (e: unknown) => Record<string, string> }).getComputedStyle(el);
    return { background: s.backgroundColor, border: s.borderLeftWidth, borderColor: s.borderLeftColor, color: s.color };
  });
}

/** `YYYY-MM-DDTHH:mm` of a day `days` ahead at 9 h, as `<input type="datetime-local">` takes it. */
function nineAm(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T09:00`;
}

for (const kind of browserDatabaseKinds()) {
  describe(`console content screens in a browser (${kind})`, { skip: CHROMIUM_SKIP, timeout: 240_000 }, () => {
    it('uploads an image with its progress, writes and previews a post, shows an MDX fault at its line, schedules it, and the citizens see it in time', async (t) => {
      const clock = fixedClock(new Date().toISOString());
      // 40 kB at most per media: the demo's banner (63 kB) is too large, its bins picture (21 kB) fits.
      const server = await startConsoleServer(t, kind, { clock, env: { MEDIA_MAX_BYTES: '40000' } });
      await createAgent(server, { email: 'contenus@brest.fr', name: 'Nolwenn Kerjean', permissions: ['BLOG_POSTS', 'CMS'] });
      const browser = await openBrowser(t);
      const context = await newAgentContext(browser);
      const page = await context.newPage();
      await logIn(page, server.origin, 'contenus@brest.fr');
      const nav = page.getByRole('navigation', { name: 'Navigation de la console' });

      // The media library: a refused file in French, then an image uploaded with its progress bar reaching 100 %.
      await nav.getByRole('link', { name: 'Médiathèque' }).click();
      await page.getByRole('heading', { level: 1, name: 'Médiathèque' }).waitFor();
      // The demo's media belong to no group (a super admin's): this agent's library starts empty.
      await page.getByText('La médiathèque est vide.').waitFor();
      await checkA11y(page, 'media library');
      await page.getByLabel(/^Fichier/).setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('pas une image') });
      await page.getByRole('button', { name: 'Envoyer' }).click();
      await page.getByRole('alert').filter({ hasText: 'Ce type de fichier n’est pas accepté' }).waitFor();

      await page.getByLabel(/^Fichier/).setInputFiles(path.resolve(IMAGE, '../banniere-tri-brest.jpg'));
      await page.getByRole('button', { name: 'Envoyer' }).click();
      await page.getByRole('alert').filter({ hasText: /trop lourd/ }).waitFor();

      await page.getByLabel(/^Fichier/).setInputFiles(IMAGE);
      await page.getByLabel('Texte alternatif').fill('Un bac jaune plein d’emballages');
      assert.equal(await page.getByLabel(/^Publique/).isChecked(), true);
      await page.getByRole('button', { name: 'Envoyer' }).click();
      await page.getByRole('status').filter({ hasText: 'Fichier « bacs-pays-des-abers.png » ajouté à la médiathèque.' }).waitFor();
      const progress = page.getByRole('progressbar', { name: 'Envoi du fichier : 100 %' });
      assert.equal(await progress.getAttribute('value'), '100');
      const card = page.locator('.media-card').filter({ hasText: 'Un bac jaune plein d’emballages' });
      await card.locator('img.thumb').waitFor();
      assert.match((await card.locator('img.thumb').getAttribute('src')) ?? '', /^data:image\//);
      await checkA11y(page, 'media uploaded');
      await shoot(page, 'media');
      // Its alt text changed in place (under If-Match).
      await card.getByRole('button', { name: 'Modifier bacs-pays-des-abers.png' }).click();
      const alt = page.getByRole('form', { name: 'Modifier « bacs-pays-des-abers.png »' }).getByLabel('Texte alternatif');
      await alt.fill('Un bac jaune plein d’emballages, couvercle ouvert');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: 'Média « bacs-pays-des-abers.png » enregistré.' }).waitFor();
      await page.locator('.media-card').filter({ hasText: 'couvercle ouvert' }).waitFor();

      // Frequently asked questions: the demo's five listed; once they are gone, the empty list said so, one refused at
      // its field, then two written, the second moved first; the residents of the group's communes read them in that order.
      await nav.getByRole('link', { name: 'Questions fréquentes' }).click();
      await page.getByRole('heading', { level: 1, name: 'Questions fréquentes' }).waitFor();
      await page.getByRole('cell', { name: /^Quand sortir mon bac/ }).waitFor();
      await server.database.db.deleteFrom('faq').where('city_group_id', '=', server.groupId).execute();
      await page.reload();
      await page.getByText('Aucune question fréquente pour l’instant.').waitFor();
      const addQuestion = async (question: string, answer: string, position: string) => {
        await page.getByRole('button', { name: 'Ajouter une question' }).click();
        await page.getByLabel('Question', { exact: true }).fill(question);
        await page.getByLabel('Réponse', { exact: true }).fill(answer);
        await page.getByLabel('Position').fill(position);
        await page.getByRole('button', { name: 'Enregistrer' }).click();
      };
      await addQuestion('Faut-il laver les bocaux ?', 'Non : videz-les bien, c’est suffisant.', '-3');
      await page.getByText(/position.+doit être supérieur ou égal à 0/).waitFor();
      assert.equal(await page.getByLabel('Position').getAttribute('aria-invalid'), 'true', 'refused at its field');
      await page.getByLabel('Position').fill('1');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: 'Question « Faut-il laver les bocaux ? » créée.' }).waitFor();
      await addQuestion('Où jeter un vieux canapé ?', 'Prenez rendez-vous pour un enlèvement des encombrants.', '0');
      await page.getByRole('status').filter({ hasText: 'Question « Où jeter un vieux canapé ? » créée.' }).waitFor();
      await page.getByRole('cell', { name: 'Où jeter un vieux canapé ?', exact: true }).waitFor();
      await checkA11y(page, 'frequently asked questions');
      const city = await server.database.db.selectFrom('city').select('id')
        .where('city_group_id', '=', server.groupId).where('status', '=', 'ACTIF').orderBy('id').executeTakeFirstOrThrow();
      const faq = await until<{ question: string }[]>(server, `/public/cities/${city.id}/faq`, (list) => list.length === 2);
      assert.deepEqual(faq.map((q) => q.question), ['Où jeter un vieux canapé ?', 'Faut-il laver les bocaux ?']);

      // A new post: a callout previewed as the citizens' app draws it, a fault shown at its line.
      await nav.getByRole('link', { name: 'Actualités' }).click();
      await page.getByRole('heading', { level: 1, name: 'Actualités' }).waitFor();
      await page.getByRole('cell', { name: /Brouillon : nouvelle collecte des encombrants/ }).waitFor();
      await checkA11y(page, 'posts');
      await shoot(page, 'posts');
      await page.getByRole('link', { name: 'Écrire un article' }).click();
      await page.getByRole('heading', { level: 1, name: 'Nouvel article' }).waitFor();
      await page.getByLabel('Titre', { exact: true }).fill('Le bac jaune accepte tous les emballages');
      const content = page.getByLabel('Contenu', { exact: true });
      await content.fill('# Tous les emballages\n\nLe bac jaune {oops\n');
      const fault = page.locator('.mdx-fault');
      await fault.filter({ hasText: /^Ligne 3, colonne \d+\s: le contenu n’est pas du MDX valide/ }).waitFor();
      await page.locator('.mdx-gutter .error-line').filter({ hasText: '3' }).waitFor();
      assert.equal(await content.getAttribute('aria-invalid'), 'true');
      await checkA11y(page, 'post with a fault');
      await shoot(page, 'post-fault');
      await page.getByRole('button', { name: 'Aller à la ligne 3' }).click();
      assert.equal(await content.evaluate((el) => (el as unknown as { selectionStart: number }).selectionStart > 20), true);

      await content.fill(
        '# Tous les emballages\n\nDepuis janvier, **tous les emballages** vont dans le bac jaune.\n\n:::tip\nInutile de les laver : videz-les bien.\n:::\n',
      );
      await page.getByText('Contenu valide.').waitFor();
      assert.equal(await fault.count(), 0);
      const preview = page.locator('.preview-page');
      await preview.locator('aside.callout-tip').filter({ hasText: 'Inutile de les laver' }).waitFor();
      assert.equal(await preview.locator('.callout-tip .callout-title').innerText(), 'Astuce');
      const previewTip = await preview.locator('aside.callout-tip').evaluate((el) => el.outerHTML);
      const previewLook = await look(page, '.preview-page .callout-tip');

      // The image, inserted at the end from the media library.
      await content.press('Control+End');
      await page.getByRole('button', { name: 'Insérer une image' }).click();
      // Named by what it shows, its file name beside.
      await page.getByRole('button', { name: /^Un bac jaune plein d’emballages, couvercle ouvert\s*bacs-pays-des-abers\.png/ }).click();
      const text = await content.inputValue();
      const inserted = text.match(/!\[Un bac jaune plein d’emballages, couvercle ouvert\]\(\/public\/cms\/media\/([0-9a-f-]{36})\/file\)/);
      assert.ok(inserted, text);
      await preview.locator(`img[src="/public/cms/media/${inserted[1]}/file"]`).waitFor();

      // Scheduled for the day after tomorrow at 9 h: not public yet.
      await page.getByLabel('Programmer à une date').check();
      await page.getByLabel('Date et heure de publication').fill(nineAm(2));
      await checkA11y(page, 'post editor');
      await shoot(page, 'post-editor');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.waitForURL(/\/console\/actualites\/[0-9a-f-]{36}/);
      await page.getByText(/^État\s: Programmé pour le \d+/).waitFor();
      const postId = page.url().match(/actualites\/([0-9a-f-]{36})/)![1];
      assert.ok(!(await json<PublicPost[]>(server, '/public/blog-posts')).some((p) => p.id === postId), 'not public before its time');
      await page.getByRole('navigation', { name: 'Fil d’Ariane' }).getByRole('link', { name: 'Actualités' }).click();
      await page.getByRole('row', { name: /Le bac jaune accepte tous les emballages.*Programmé pour le/ }).waitFor();

      // Three days later the post is public, and the citizens' app draws its callout as the preview did.
      clock.set(new Date(Date.now() + 3 * 86_400_000).toISOString());
      const posts = await until<PublicPost[]>(server, '/public/blog-posts', (list) => list.some((p) => p.id === postId));
      const published = posts.find((p) => p.id === postId);
      assert.ok(published, 'public once its date has come');
      assert.match(published.content, /:::tip/);
      assert.match(published.content, new RegExp(`/public/cms/media/${inserted[1]}/file`));
      const image = await fetch(`${server.origin}/public/cms/media/${inserted[1]}/file`);
      assert.equal(image.status, 200);
      assert.equal(image.headers.get('content-type'), 'image/png');

      const citizen = await (await newAgentContext(browser)).newPage();
      await citizen.goto(`${server.origin}/actualites/${postId}`);
      await citizen.locator('aside.callout-tip').waitFor();
      assert.equal(await citizen.locator('aside.callout-tip').evaluate((el) => el.outerHTML), previewTip);
      assert.deepEqual(await look(citizen, '.callout-tip'), previewLook);
      assert.deepEqual(context.cspViolations, []);
    });

    it('offers a super admin the images of the post’s own group alone, named by their alternative text', async (t) => {
      const server = await startConsoleServer(t, kind);
      await createAgent(server, { email: 'admin@collecte.fr', name: 'Super Admin', superAdmin: true });
      const other = await server.database.db.selectFrom('city_group').select(['id']).where('id', '<>', server.groupId).orderBy('name').executeTakeFirstOrThrow();
      const login = (await (
        await fetch(`${server.origin}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@collecte.fr', password: PASSWORD }) })
      ).json()) as { accessToken: string };
      const bytes = await (await import('node:fs/promises')).readFile(IMAGE);
      for (const [groupId, alt] of [[server.groupId, 'Bac jaune de la métropole'], [other.id, 'Bac jaune d’une autre collectivité']]) {
        const form = new FormData();
        form.append('alt', alt);
        form.append('public', 'true');
        form.append('cityGroupId', groupId);
        form.append('file', new Blob([bytes], { type: 'image/png' }), 'IMG_20261104_093512.png');
        const res = await fetch(`${server.origin}/admin/media`, { method: 'POST', headers: { authorization: `Bearer ${login.accessToken}` }, body: form });
        assert.equal(res.status, 201, await res.text());
      }
      const browser = await openBrowser(t);
      const page = await (await newAgentContext(browser)).newPage();
      await logIn(page, server.origin, 'admin@collecte.fr');
      await page.goto(`${server.origin}/console/actualites/nouvel-article?groupe=${server.groupId}`);
      await page.getByRole('heading', { level: 1, name: 'Nouvel article' }).waitFor();
      await page.getByRole('button', { name: 'Insérer une image' }).click();
      const picker = page.getByRole('group', { name: 'Insérer une image de la médiathèque' });
      await picker.getByRole('button', { name: /^Bac jaune de la métropole/ }).waitFor();
      assert.deepEqual(
        (await picker.getByRole('listitem').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim()),
        ['Bac jaune de la métropole IMG_20261104_093512.png'],
      );
      await checkA11y(page, 'media picker');
    });

    it('publishes a page, and reorders a menu whose public version follows', async (t) => {
      const server = await startConsoleServer(t, kind);
      await createAgent(server, { email: 'site@brest.fr', name: 'Erwan Morvan', permissions: ['CMS'] });
      const before = await json<PublicApp>(server, '/public/cms/apps/collecte-brest-app');
      assert.ok(!before.pages.some((p) => p.title === 'Les défis 2027'));
      const menu = before.menus.find((m) => m.name === 'Menu de l’application')!;
      assert.deepEqual(menu.items.slice(0, 2).map((i) => i.label), ['Accueil', 'Aide']);

      const browser = await openBrowser(t);
      const context = await newAgentContext(browser);
      const page = await context.newPage();
      await logIn(page, server.origin, 'site@brest.fr');
      await page.getByRole('navigation', { name: 'Navigation de la console' }).getByRole('link', { name: 'Sites et pages' }).click();
      await page.getByRole('heading', { level: 1, name: 'Sites et pages' }).waitFor();
      await checkA11y(page, 'sites');
      await page.getByRole('link', { name: 'Collecte Brest' }).click();
      await page.getByRole('heading', { level: 1, name: 'Collecte Brest' }).waitFor();
      await page.getByRole('row', { name: /Les défis 2027.*Brouillon/ }).waitFor();
      await checkA11y(page, 'site');
      await shoot(page, 'site');

      await page.getByRole('link', { name: 'Les défis 2027' }).click();
      await page.getByRole('heading', { level: 1, name: 'Modifier la page' }).waitFor();
      await page.getByText('État : Brouillon').waitFor();
      await page.locator('.preview-page').waitFor();
      await checkA11y(page, 'page editor');
      await shoot(page, 'page-editor');
      await page.getByLabel('Publier maintenant').check();
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: /^Page enregistrée\s: publié le/ }).waitFor();
      const after = await until<PublicApp>(server, '/public/cms/apps/collecte-brest-app', (app) => app.pages.some((p) => p.title === 'Les défis 2027'));
      assert.ok(after.pages.some((p) => p.title === 'Les défis 2027'), 'the page is public');

      await page.getByRole('navigation', { name: 'Fil d’Ariane' }).getByRole('link', { name: 'Collecte Brest' }).click();
      await page.getByRole('link', { name: 'Menu de l’application' }).click();
      await page.getByRole('heading', { level: 1, name: 'Menu de l’application' }).waitFor();
      await checkA11y(page, 'menu');
      await shoot(page, 'menu');
      await page.getByRole('button', { name: 'Descendre Accueil' }).click();
      await page.getByRole('status').filter({ hasText: '« Accueil » est maintenant en position 2.' }).waitFor();
      const rows = page.locator('.menu-tree > li > .menu-row strong');
      // The tree is read again after the move: wait for it.
      await page.locator('.card > .menu-tree > li').first().locator('.menu-row strong').filter({ hasText: 'Aide' }).waitFor();
      assert.deepEqual((await rows.allInnerTexts()).slice(0, 2), ['Aide', 'Accueil']);
      // The focus follows the moved item: its « Descendre » button, still usable from the keyboard.
      assert.equal(await settledFocus(page, () => document.activeElement?.textContent, 'Descendre Accueil'), 'Descendre Accueil');
      const publicMenu = await until<{ items: PublicMenuItem[] }>(
        server,
        `/public/cms/apps/collecte-brest-app/menus/by-id/${menu.id}`,
        (m) => m.items[0]?.label === 'Aide',
      );
      assert.deepEqual(publicMenu.items.slice(0, 2).map((i) => i.label), ['Aide', 'Accueil']);

      // An item added at the end, linking to an address.
      await page.getByRole('button', { name: 'Ajouter un élément' }).click();
      await page.getByLabel('Libellé').fill('Nous contacter');
      await page.getByLabel('Lien', { exact: true }).selectOption('EXTERNAL');
      await page.getByLabel('Adresse', { exact: true }).fill('https://www.brest.fr/contact');
      await checkA11y(page, 'menu item form');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByRole('status').filter({ hasText: 'Élément « Nous contacter » ajouté.' }).waitFor();
      const withItem = await until<{ items: PublicMenuItem[] }>(
        server,
        `/public/cms/apps/collecte-brest-app/menus/by-id/${menu.id}`,
        (m) => m.items.at(-1)?.label === 'Nous contacter',
      );
      assert.equal(withItem.items.at(-1)?.label, 'Nous contacter');
      assert.deepEqual(context.cspViolations, []);
    });

    it('shows the conflict (412) when someone else changed the page meanwhile, then overwrites with the agent’s version', async (t) => {
      const server = await startConsoleServer(t, kind);
      await createAgent(server, { email: 'a@brest.fr', name: 'Agent A', permissions: ['CMS'] });
      await createAgent(server, { email: 'b@brest.fr', name: 'Agent B', permissions: ['CMS'] });
      const browser = await openBrowser(t);
      const page = await (await newAgentContext(browser)).newPage();
      await logIn(page, server.origin, 'a@brest.fr');
      await page.getByRole('navigation', { name: 'Navigation de la console' }).getByRole('link', { name: 'Sites et pages' }).click();
      await page.getByRole('link', { name: 'Collecte Brest' }).click();
      await page.getByRole('link', { name: 'Aide', exact: true }).click();
      const title = page.getByLabel('Titre', { exact: true });
      await title.waitFor();
      assert.equal(await title.inputValue(), 'Aide');
      const pageId = page.url().match(/pages\/([0-9a-f-]{36})/)![1];

      // Agent B renames the page through the API while A's form is open.
      const login = await fetch(`${server.origin}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'b@brest.fr', password: PASSWORD }),
      });
      const { accessToken } = (await login.json()) as { accessToken: string };
      const headers = { authorization: `Bearer ${accessToken}` };
      const current = await fetch(`${server.origin}/admin/pages/${pageId}`, { headers });
      const renamed = await fetch(`${server.origin}/admin/pages/${pageId}`, {
        method: 'PATCH',
        headers: { ...headers, 'content-type': 'application/json', 'if-match': current.headers.get('etag')! },
        body: JSON.stringify({ title: 'Aide et contact' }),
      });
      assert.equal(renamed.status, 200);

      await page.getByLabel('Contenu', { exact: true }).fill('## Besoin d’aide ?\n\n:::info\nÉcrivez-nous depuis l’assistant.\n:::\n');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      const conflict = page.getByRole('alert').filter({ hasText: 'Quelqu’un a modifié cet élément' });
      await conflict.getByRole('row', { name: /^Titre.*Aide et contact/ }).waitFor();
      await checkA11y(page, 'page conflict');
      await shoot(page, 'page-conflict');
      await conflict.getByRole('button', { name: 'Écraser avec ma version' }).click();
      await page.getByRole('status').filter({ hasText: /^Page enregistrée/ }).waitFor();
      const saved = (await (await fetch(`${server.origin}/admin/pages/${pageId}`, { headers })).json()) as { title: string; content: string };
      assert.equal(saved.title, 'Aide');
      assert.match(saved.content, /:::info/);
    });
  });
}
