import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/types.ts';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { insertMenu, insertMenuItem, insertPage, insertSite } from '../helpers/cms-fixtures.ts';

const NOW = '2026-06-01T12:00:00.000Z';

/**
 * A header menu whose items are inserted out of order:
 *   Accueil (order 0, published page)
 *   Collecte (order 1, no link)
 *     Calendrier (order 0, published page)
 *       Jours fériés (external)
 *     Nouveau service (order 1, page published tomorrow) — hidden, with its child
 *       Détails (external)
 *   Contact (order 2, external)
 *   Ancienne page (order 3, PAGE with its page deleted) — hidden
 */
async function seedMenu(db: Kysely<DB>) {
  const site = await insertSite(db, { slug: 'ville' });
  const home = await insertPage(db, { siteId: site.id, title: 'Accueil' });
  const calendar = await insertPage(db, { siteId: site.id, title: 'Calendrier' });
  const upcoming = await insertPage(db, { siteId: site.id, title: 'Nouveau', publishedAt: '2026-06-02T00:00:00.000Z' });
  const header = await insertMenu(db, { siteId: site.id, name: 'Menu principal', location: 'header' });
  const footer = await insertMenu(db, { siteId: site.id, name: 'Bas de page', location: 'footer' });

  const contact = await insertMenuItem(db, { menuId: header.id, label: 'Contact', externalUrl: 'https://ville.fr/contact', order: 2 });
  const collecte = await insertMenuItem(db, { menuId: header.id, label: 'Collecte', order: 1 });
  const news = await insertMenuItem(db, { menuId: header.id, parentId: collecte.id, label: 'Nouveau service', pageId: upcoming.id, order: 1 });
  await insertMenuItem(db, { menuId: header.id, parentId: news.id, label: 'Détails', externalUrl: 'https://ville.fr/d', order: 0 });
  const cal = await insertMenuItem(db, { menuId: header.id, parentId: collecte.id, label: 'Calendrier', pageId: calendar.id, order: 0 });
  const holidays = await insertMenuItem(db, { menuId: header.id, parentId: cal.id, label: 'Jours fériés', externalUrl: 'https://ville.fr/f' });
  const accueil = await insertMenuItem(db, { menuId: header.id, label: 'Accueil', pageId: home.id, order: 0 });
  await insertMenuItem(db, { menuId: header.id, label: 'Ancienne page', linkType: 'PAGE', pageId: null, order: 3 });
  const legal = await insertMenuItem(db, { menuId: footer.id, label: 'Mentions légales', externalUrl: 'https://ville.fr/ml' });

  return { site, home, calendar, upcoming, header, footer, contact, collecte, news, cal, holidays, accueil, legal };
}

for (const kind of testDatabaseKinds()) {
  describe(`CMS menus (${kind})`, () => {
    it('answers the menu at a location as a tree ordered by order, leaving out items of unpublished pages with their children', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { clock: fixedClock(NOW) });
      const f = await seedMenu(database.db);

      const res = await app.inject('/public/cms/sites/ville/menus/header');
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), {
        id: f.header.id,
        name: 'Menu principal',
        location: 'header',
        items: [
          { id: f.accueil.id, label: 'Accueil', linkType: 'PAGE', pageId: f.home.id, externalUrl: null, children: [] },
          {
            id: f.collecte.id,
            label: 'Collecte',
            linkType: 'NONE',
            pageId: null,
            externalUrl: null,
            children: [
              {
                id: f.cal.id,
                label: 'Calendrier',
                linkType: 'PAGE',
                pageId: f.calendar.id,
                externalUrl: null,
                children: [
                  { id: f.holidays.id, label: 'Jours fériés', linkType: 'EXTERNAL', pageId: null, externalUrl: 'https://ville.fr/f', children: [] },
                ],
              },
            ],
          },
          { id: f.contact.id, label: 'Contact', linkType: 'EXTERNAL', pageId: null, externalUrl: 'https://ville.fr/contact', children: [] },
        ],
      });
    });

    it('shows an item again, with its children, once its page is published', async (t) => {
      const clock = fixedClock(NOW);
      const { app, database } = await buildTestApp(t, kind, { clock });
      const f = await seedMenu(database.db);
      clock.set('2026-06-02T00:00:00.000Z');

      const res = await app.inject('/public/cms/sites/ville/menus/header');
      const collecte = res.json().items.find((i: { id: string }) => i.id === f.collecte.id);
      assert.deepEqual(
        collecte.children.map((i: { label: string }) => i.label),
        ['Calendrier', 'Nouveau service'],
      );
      assert.deepEqual(
        collecte.children[1].children.map((i: { label: string }) => i.label),
        ['Détails'],
      );
    });

    it('lists the menus of a site as a bare array, by name; an unknown location is 404', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { clock: fixedClock(NOW) });
      const f = await seedMenu(database.db);

      const res = await app.inject('/public/cms/sites/ville/menus');
      assert.equal(res.statusCode, 200);
      const menus = res.json();
      assert.ok(Array.isArray(menus));
      assert.deepEqual(
        menus.map((m: { id: string }) => m.id),
        [f.footer.id, f.header.id],
      );
      assert.deepEqual(menus[0].items, [
        { id: f.legal.id, label: 'Mentions légales', linkType: 'EXTERNAL', pageId: null, externalUrl: 'https://ville.fr/ml', children: [] },
      ]);
      assert.deepEqual(
        menus[1].items.map((i: { label: string }) => i.label),
        ['Accueil', 'Collecte', 'Contact'],
      );

      const missing = await app.inject('/public/cms/sites/ville/menus/sidebar');
      assert.equal(missing.statusCode, 404);
      assert.deepEqual(missing.json(), { statusCode: 404, message: 'Menu introuvable', error: 'Not Found', code: 'menuNotFound', field: null });

      const empty = await insertSite(database.db, { slug: 'vide' });
      assert.deepEqual((await app.inject(`/public/cms/sites/${empty.slug}/menus`)).json(), []);
    });
  });
}
