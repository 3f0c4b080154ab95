import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { testDatabaseKinds } from '../helpers/database.ts';
import { demoGuideApp } from '../helpers/guide-fixtures.ts';

/**
 * GET /public/cities/:cityId/sorting-guide (docs/api.md, what citizens search) on the demo data: everyday queries as citizens type
 * them (plurals, missing accents, typos, two-word objects, synonyms, word starts), each with the waste type that
 * must come FIRST in Brest.
 */

const NOW = '2026-11-24T10:00:00.000Z';

const OM = 'Ordures ménagères';
const EMB = 'Emballages et papiers';
const VERRE = 'Verre';
const BIO = 'Biodéchets';
const VERTS = 'Déchets verts';
const DECH = 'Déchèterie';
const TEXT = 'Textiles';
const PHARMA = 'Pharmacie';

const QUERIES: [query: string, wasteType: string][] = [
  // Plurals and missing accents
  ['piles', DECH], ['pile', DECH], ['canape', DECH], ['canapés', DECH], ['médicaments', PHARMA], ['medicament', PHARMA],
  ['couches', OM], ['couche', OM], ['journaux', EMB], ['magazines', EMB], ['épluchures', BIO], ['epluchure', BIO],
  ['ampoule', DECH], ['ampoules', DECH], ['gravats', DECH], ['pneus', DECH], ['canettes', EMB], ['bocaux', VERRE],
  ['vetements', TEXT], ['chaussures', TEXT], ['mégots', OM], ['lingettes', OM], ['branchages', VERTS], ['feuilles mortes', VERTS],
  ['matelas', DECH], ['meubles', DECH], ['seringues', PHARMA], ['litiere', OM],
  // Typos
  ['pille', DECH], ['bouteile plastique', EMB], ['medicamant', PHARMA], ['refrigirateur', DECH], ['televison', DECH],
  ['chausures', TEXT], ['cannette', EMB], ['epluchurs', BIO], ['lingete', OM], ['magasine', EMB],
  // Two-word objects, any order, linking words or not
  ['pot de yaourt', EMB], ['pots de yaourt', EMB], ['yaourt pot', EMB], ['bouteille de vin', VERRE], ['bouteille en verre', VERRE],
  ['bouteille plastique', EMB], ['boite de conserve', EMB], ['huile de vidange', DECH], ['huile de friture', DECH],
  ['capsule de café', EMB], ['capsule café', EMB], ['carton à pizza', EMB], ['restes de repas', BIO], ['sachet de thé', BIO],
  ['coquilles d\'oeufs', BIO], ['marc de café', BIO], ['machine à laver', DECH], ['micro onde', DECH], ['sapin de noel', VERTS],
  ['batterie de voiture', DECH], ['flacon de parfum', VERRE], ['brique de lait', EMB], ['coton tige', OM], ['linge de maison', TEXT],
  // Synonyms
  ['frigo', DECH], ['télé', DECH], ['tv', DECH], ['congélateur', DECH], ['lave linge', DECH], ['néon', DECH], ['sopalin', BIO],
  ['tonte de pelouse', VERTS], ['branches', VERTS], ['revues', EMB], ['ferraille', DECH], ['bouilloire', DECH], ['grille pain', DECH],
  ['medocs', PHARMA], ['baskets', TEXT], ['rideaux', TEXT], ['chaise', DECH], ['filtre à café', BIO], ['conserve', EMB],
  ['accumulateur', DECH], ['dosette', EMB],
  // One word for the object, the start of a word, the waste type itself
  ['pizza', EMB], ['gazon', VERTS], ['herbe', VERTS], ['peinture', DECH], ['huile', DECH], ['aerosol', EMB], ['parfum', VERRE],
  ['frig', DECH], ['verre', VERRE], ['textile', TEXT], ['déchets verts', VERTS], ['biodechets', BIO], ['seringue', PHARMA],
  ['papier', EMB], ['cartons', EMB], ['aspirateur', DECH], ['bouchons', EMB], ['lit', DECH], ['dechetterie', DECH], ['ampoul', DECH],
  // Whole sentences, brand-like words, objects the city does not name as such
  ['où jeter les piles', DECH], ['je jette mes couches', OM], ['frigidaire', DECH], ['nespresso', EMB], ['boite de pizza', EMB],
  ['ecran plat', DECH], ['vieux vêtements', TEXT], ['bouteille de lait', EMB],
];

for (const kind of testDatabaseKinds()) {
  describe(`sorting guide search (${kind})`, () => {
    let app: FastifyInstance;
    let brestId: string;
    let inactiveId: string;
    const cleanups: (() => Promise<void>)[] = [];

    before(async () => {
      const built = await demoGuideApp(cleanups, kind, NOW);
      app = built.app;
      brestId = built.cityIds.get('Brest')!;
      inactiveId = built.cityIds.get('Loc-Brévalaire')!;
    });
    after(async () => {
      for (const fn of cleanups.reverse()) await fn();
    });

    const search = (q: string, cityId = brestId) =>
      app.inject({ method: 'GET', url: `/public/cities/${cityId}/sorting-guide?q=${encodeURIComponent(q)}` });

    it(`finds the right waste type first for at least 90 % of ${QUERIES.length} everyday queries`, async (t) => {
      assert.ok(QUERIES.length >= 60);
      const misses: string[] = [];
      for (const [q, expected] of QUERIES) {
        const res = await search(q);
        assert.equal(res.statusCode, 200, res.body);
        const results = res.json() as { material: string; wasteTypeName: string }[];
        const first = results[0];
        if (first?.wasteTypeName !== expected) {
          misses.push(`${q} → ${first ? `${first.material} (${first.wasteTypeName})` : 'nothing'}, expected ${expected}`);
        }
      }
      const rate = (QUERIES.length - misses.length) / QUERIES.length;
      t.diagnostic(`hit rate ${(rate * 100).toFixed(1)} % (${QUERIES.length - misses.length}/${QUERIES.length})`);
      for (const miss of misses) t.diagnostic(`miss: ${miss}`);
      assert.ok(rate >= 0.9, `hit rate ${rate}: ${misses.join('; ')}`);
    });

    it('ranks the exact name first, then exact synonyms, then names holding the words', async () => {
      const piles = (await search('Piles')).json();
      assert.deepEqual(piles.slice(0, 2).map((r: { material: string }) => r.material).sort(), ['Pile jetable', 'Pile rechargeable']);
      assert.equal((await search('canape')).json()[0].material, 'Canapé');
      // « Sous-couche » is a synonym of a chemical product: the nappies come first.
      assert.equal((await search('couche')).json()[0].material, 'Couche-culotte (lange)');
      // The synonym « Frigo » answers its material.
      assert.equal((await search('FRIGO')).json()[0].material, 'Réfrigérateur');
      // A waste type found by its name answers with its name as the material.
      const verre = (await search('verre')).json()[0];
      assert.equal(verre.material, 'Verre');
      assert.equal(verre.wasteTypeName, 'Verre');
    });

    it('answers the material\'s instructions, else its waste type\'s, and the points taking that waste type', async () => {
      const [journal] = (await search('journal')).json();
      assert.equal(journal.material, 'Journal');
      assert.match(journal.instructions, /^Jetez-le dans le bac/);
      const types = (await search('Emballages et papiers')).json();
      assert.equal(types[0].material, 'Emballages et papiers');
      assert.match(types[0].instructions, /bac jaune/);
      // Brest's two déchèteries take packaging; its glass banks and its textile bank do not.
      const points = (await app.inject(`/public/cities/${brestId}/recycling-points`)).json() as { id: string; name: string; materials: string[] }[];
      const taking = points.filter((p) => p.materials.includes(journal.wasteTypeId)).map((p) => p.id);
      assert.equal(taking.length, 2);
      assert.deepEqual([...journal.recyclingPointIds].sort(), [...taking].sort());
      const [glass] = (await search('bocal')).json();
      assert.equal(glass.recyclingPointIds.length, 4);
    });

    it('answers at most 10 results, one per material and waste type', async () => {
      const results = (await search('bouteille')).json() as { material: string; wasteTypeId: string }[];
      assert.ok(results.length >= 2 && results.length <= 10);
      const keys = results.map((r) => `${r.material}|${r.wasteTypeId}`);
      assert.equal(new Set(keys).size, keys.length);
      const many = (await search('e')).json();
      assert.ok(many.length <= 10);
      // « Textiles » is a material and the waste type's name: one result.
      const textiles = (await search('textiles')).json().filter((r: { material: string }) => r.material === 'Textiles');
      assert.equal(textiles.length, 1);
    });

    it('answers [] when nothing matches', async () => {
      const res = await search('xylophone quantique');
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), []);
    });

    it('answers 400 naming q when it is missing, blank or over 200 characters', async () => {
      for (const url of [
        `/public/cities/${brestId}/sorting-guide`,
        `/public/cities/${brestId}/sorting-guide?q=`,
        `/public/cities/${brestId}/sorting-guide?q=%20%20%20`,
        `/public/cities/${brestId}/sorting-guide?q=${'a'.repeat(201)}`,
      ]) {
        const res = await app.inject(url);
        assert.equal(res.statusCode, 400, url);
        assert.equal(res.json().error, 'Bad Request');
        assert.match(res.json().message, /^Le paramètre «\s?q\s?» (est obligatoire|ne doit pas être vide|doit contenir au plus 200 caractères)/u, url);
      }
      assert.equal((await search('a'.repeat(200))).statusCode, 200);
    });

    it('answers 404 for an unknown or NON_ACTIF city', async () => {
      for (const cityId of ['00000000-0000-4000-8000-000000000000', inactiveId]) {
        const res = await search('piles', cityId);
        assert.equal(res.statusCode, 404);
        assert.equal(res.json().message, 'Ville introuvable');
      }
    });

    it('sees a material added by the admin at the next data version', async () => {
      assert.deepEqual((await search('trottinette')).json(), []);
      const [type] = (await search('Déchèterie')).json();
      await app.db
        .insertInto('waste_type_detail')
        .values({ id: crypto.randomUUID(), waste_type_id: type.wasteTypeId, material: 'Trottinette électrique', description: null, instructions: null, image_url: null })
        .execute();
      await app.dataChanged();
      assert.equal((await search('trottinettes')).json()[0].material, 'Trottinette électrique');
    });
  });
}
