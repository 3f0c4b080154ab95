import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, fixedClock } from '../helpers/app.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';
import { importBundleFile } from '../../src/bundle/import.ts';
import type { Database } from '../../src/db/database.ts';

/**
 * GET /public/search/communes and GET /public/search/addresses (docs/api.md, finding one's commune or address without
 * choosing it first), on the demo's 21 communes of the Pays de Brest: what a resident types in the home screen's box.
 */

const DEMO = path.resolve(import.meta.dirname, '../../demo/bundle.json');
const NOW = '2026-11-20T10:00:00.000Z';

interface Commune {
  cityId: string;
  cityName: string;
  cityGroupName: string | null;
  postcodes: string[];
}
interface Candidate {
  cityId: string;
  cityName: string;
  placeId: string;
  placeName: string;
  matchedBy: string;
  label: string;
  distanceMeters: number | null;
}

for (const kind of testDatabaseKinds()) {
  describe(`searching a commune or an address without choosing a commune (${kind})`, () => {
    let app: FastifyInstance;
    let database: Database;
    let mediaDir: string;
    const cleanups: (() => Promise<void>)[] = [];
    const cityIds = new Map<string, string>();

    before(async () => {
      database = await createTestDatabase(kind);
      mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'collecte-search-media-'));
      await importBundleFile(database, DEMO, { mediaDir, now: new Date(NOW) });
      cleanups.push(async () => {
        await database.close();
        await fs.rm(mediaDir, { recursive: true, force: true });
      });
      ({ app } = await buildTestApp({ after: (fn: () => Promise<void>) => void cleanups.push(fn) }, kind, { database, clock: fixedClock(NOW) }));
      const groups = await get<{ cities: { id: string; name: string }[] }[]>('/public/city-groups');
      for (const city of groups.flatMap((g) => g.cities)) cityIds.set(city.name, city.id);
    });
    after(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    async function get<T>(url: string): Promise<T> {
      const res = await app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      return res.json() as T;
    }
    const communes = async (q: string) => (await get<Commune[]>(`/public/search/communes?q=${encodeURIComponent(q)}`)).map((c) => c.cityName);
    const addresses = (q: string) => get<Candidate[]>(`/public/search/addresses?q=${encodeURIComponent(q)}`);
    const lookup = (city: string, address: string) =>
      get<Candidate[]>(`/public/places/lookup?cityId=${cityIds.get(city)}&address=${encodeURIComponent(address)}`);

    it('finds a commune by its name, begun, or with a typo or two, the exact and begun names first', async () => {
      const table: [string, string[]][] = [
        ['Brest', ['Brest']],
        ['brest', ['Brest']],
        ['plouzane', ['Plouzané']],
        ['PLOUZANÉ', ['Plouzané']],
        ['plouzanne', ['Plouzané']],
        ['plozane', ['Plouzané']],
        ['brst', ['Brest']],
        ['brets', ['Brest']],
        ['bret', ['Brest']],
        ['plouz', ['Plouzané']],
        ['plouzn', ['Plouzané']],
        ['st pabu', ['Saint-Pabu']],
        ['Saint Pabu', ['Saint-Pabu']],
        ['st-pabu', ['Saint-Pabu']],
        ['relecq kerhuon', ['Le Relecq-Kerhuon']],
        ['le relecq-kerhuon', ['Le Relecq-Kerhuon']],
        ['kerhuon', ['Le Relecq-Kerhuon']],
        ['coat meal', ['Coat-Méal']],
        ['plougastel', ['Plougastel-Daoulas']],
        ['daoulas', ['Plougastel-Daoulas']],
        // The name itself, then the names it begins, before a later word of another name.
        ['plabennec', ['Plabennec', 'Kersaint-Plabennec']],
        ['guilers', ['Guilers']],
      ];
      for (const [q, first] of table) {
        const found = await communes(q);
        assert.deepEqual(found.slice(0, first.length), first, `« ${q} » → ${found.join(', ')}`);
      }
      // Every commune a name begins, by name.
      assert.deepEqual(await communes('plou'), ['Plougastel-Daoulas', 'Plouguerneau', 'Plouguin', 'Plouvien', 'Plouzané']);
      // A typo is no licence to find anything: three letters must be right, a far name finds nothing.
      assert.deepEqual(await communes('brx'), []);
      assert.deepEqual(await communes('xyzzy'), []);
      assert.deepEqual(await communes('paris'), []);
      // A NON_ACTIF commune is not offered.
      assert.deepEqual(await communes('loc brevalaire'), []);
    });

    it('finds communes by postcode, whole or begun, with their group and postcodes', async () => {
      const brest = await get<Commune[]>('/public/search/communes?q=29200');
      assert.deepEqual(brest, [{ cityId: cityIds.get('Brest'), cityName: 'Brest', cityGroupName: brest[0].cityGroupName, postcodes: ['29200'] }]);
      assert.ok(brest[0].cityGroupName, 'Brest belongs to a group');
      assert.deepEqual(await communes('29860'), ['Bourg-Blanc', 'Kersaint-Plabennec', 'Le Drennec', 'Plabennec', 'Plouvien']);
      assert.deepEqual(await communes('292'), ['Brest', 'Plouzané']);
      assert.deepEqual(await communes('29999'), []);
      // A postcode beside a name keeps the communes it belongs to.
      assert.deepEqual(await communes('29860 plabennec'), ['Plabennec', 'Kersaint-Plabennec']);
    });

    it('reads the commune from an address typed with it, a typo or a postcode aside, and matches the street there', async () => {
      const inBrest = await lookup('Brest', '12 rue jean jaures');
      assert.ok(inBrest.length > 0, 'Brest has a Rue Jean Jaurès');
      for (const text of [
        '12 rue jean jaures brest',
        '12 rue Jean-Jaurès, Brest',
        '12 rue jean jaures brst',
        '12 rue jean jaures brets',
        'Brest, 12 rue jean jaures',
        'brest 12 rue jean jaures',
        '12 rue jean jaures 29200',
        '12 rue jean jaures 29200 Brest',
      ]) {
        assert.deepEqual(await addresses(text), inBrest, text);
      }
      // Le Relecq-Kerhuon has its own Rue Jean Jaurès.
      const relecq = await addresses('rue jean jaures le relecq kerhuon');
      assert.ok(relecq.length > 0);
      assert.ok(relecq.every((c) => c.cityName === 'Le Relecq-Kerhuon'), JSON.stringify(relecq));
      const plouzane = await addresses('route du conquet plouzanne');
      assert.ok(plouzane.length > 0);
      assert.ok(plouzane.every((c) => c.cityName === 'Plouzané' && c.label.startsWith('Route du Conquet')), JSON.stringify(plouzane));
      assert.deepEqual(await addresses('rue de paris, guipavas'), await lookup('Guipavas', 'rue de paris'));
    });

    it('without a commune in the text, searches the streets of every commune, each candidate naming its commune', async () => {
      const found = await addresses('12 rue jean jaures');
      const names = new Set(found.map((c) => c.cityName));
      assert.deepEqual([...names].sort(), ['Brest', 'Le Relecq-Kerhuon']);
      for (const c of found) {
        assert.equal(c.cityId, cityIds.get(c.cityName));
        assert.equal(c.matchedBy, 'street');
        assert.match(c.label, /^Rue Jean Jaurès/);
      }
      // By commune within one tier: Brest's places first.
      assert.equal(found[0].cityName, 'Brest');
      // `Rue de Brest` is a street of several communes, not Brest.
      const rueDeBrest = await addresses('rue de brest');
      assert.deepEqual(
        [...new Set(rueDeBrest.map((c) => c.cityName))],
        ['Bohars', 'Bourg-Blanc', 'Gouesnou', 'Guilers', 'Guipavas', 'Plouzané'],
      );
      assert.ok(rueDeBrest.every((c) => c.label.startsWith('Rue de Brest')));
      // A typo in the street, no commune.
      const siam = await addresses('rue de siame');
      assert.ok(siam.length > 0 && siam.every((c) => c.cityName === 'Brest' && c.label.startsWith('Rue de Siam')));
      // A commune named whose streets hold nothing like it: every commune is searched.
      assert.deepEqual(await addresses('rue de siam guipavas'), await addresses('rue de siam'));
      assert.deepEqual(await addresses('rue qui n existe nulle part'), []);
      assert.deepEqual(await addresses('12'), []);
    });

    it('refuses a missing, blank or too long text with 400 naming q', async () => {
      for (const route of ['/public/search/communes', '/public/search/addresses']) {
        for (const query of ['', '?q=', '?q=%20%20', `?q=${'a'.repeat(201)}`]) {
          const res = await app.inject({ method: 'GET', url: route + query });
          assert.equal(res.statusCode, 400, route + query);
          const body = res.json();
          assert.equal(body.error, 'Bad Request');
          assert.match(body.message, /q/);
          assert.equal(body.field, 'q', route + query);
        }
      }
    });
  });
}
