import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { testDatabaseKinds } from '../helpers/database.ts';
import { insertMenu, insertPage, insertSite } from '../helpers/cms-fixtures.ts';
import { compareFrench } from '../../src/kernel/french.ts';

/**
 * Sites and menus by name, and pages of one date by title, follow the one French rule of docs/api.md, conventions (the
 * kernel's compareFrench), on every page of a listing: accents, case, œ, apostrophes, hyphens, and numbers in their
 * natural order ("Site 2" before "Site 10", which an SQL ICU collation would put the other way round).
 */
const NAMES = ['Site 10', 'Site 2', 'site 3', 'Écoles', 'ecole', 'Œuvres', 'oeuvre', "l'Abbaye", 'Labbaye', 'Saint-Denis', 'Saint Denis', 'côte', 'cote'];
const IN_ORDER = [...NAMES].sort(compareFrench);

/** Every item of a listing, asked for three at a time. */
async function allPages(app: FastifyInstance, url: string): Promise<string[]> {
  const seen: string[] = [];
  for (let page = 1; ; page++) {
    const res = await app.inject(`${url}?page=${page}&pageSize=3`);
    assert.equal(res.statusCode, 200, res.body);
    const { data, meta } = res.json();
    seen.push(...data.map((item: { name?: string; title?: string }) => item.name ?? item.title));
    if (page >= meta.totalPages) return seen;
  }
}

for (const kind of testDatabaseKinds()) {
  describe(`CMS orders by the French rule (${kind})`, () => {
    it('sites and menus by name, pages of one date by title, numbers in natural order', async (t) => {
      const { app, database } = await buildTestApp(t, kind, { clock: fixedClock('2026-06-01T12:00:00.000Z') });
      assert.ok(IN_ORDER.indexOf('Site 2') < IN_ORDER.indexOf('Site 10'));
      for (const [i, name] of NAMES.entries()) await insertSite(database.db, { name, slug: `site-${i}` });
      const site = await insertSite(database.db, { name: 'Ville', slug: 'ville' });
      for (const title of NAMES) await insertPage(database.db, { siteId: site.id, title, publishedAt: '2026-05-01T00:00:00.000Z' });
      for (const [i, name] of NAMES.entries()) await insertMenu(database.db, { siteId: site.id, name, location: `zone-${i}` });

      assert.deepEqual(await allPages(app, '/public/cms/sites'), [...NAMES, 'Ville'].sort(compareFrench));
      assert.deepEqual(await allPages(app, '/public/cms/sites/ville/pages'), IN_ORDER);
      const menus = await app.inject('/public/cms/sites/ville/menus');
      assert.deepEqual(menus.json().map((m: { name: string }) => m.name), IN_ORDER);
    });
  });
}
