import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { testDatabaseKinds } from '../helpers/database.ts';
import { ids } from '../helpers/city-fixtures.ts';
import { citiesAdminApp, inject } from '../helpers/admin-fixtures.ts';
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.ts';
import { boxAround } from '../../src/kernel/geo.ts';
import { locationsInBox, placesWithAreaBoxAt } from '../../src/cities/lookup-repository.ts';
import { loadAreaIndex, lookupPosition } from '../../src/cities/lookup.ts';

/**
 * GET /public/places/lookup (docs/api.md, from an address to a collection place), on Brest's fixture places given street rules, areas and attached
 * locations through the admin API, as a city's staff would: Centre-ville holds the odd side of Rue de Siam up to 99
 * and all of Place de la Liberté; Secteur Nord the even side and the odd numbers from 121, all of Rue Jean Jaurès and
 * Avenue Victor Le Gorgeu. Their areas are two squares sharing a border.
 */

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
const NBSP = '\u00a0';
const square = (lat: number) => ({
  type: 'Polygon',
  coordinates: [[[-4.5, lat], [-4.48, lat], [-4.48, lat + 0.02], [-4.5, lat + 0.02], [-4.5, lat]]],
});
/** A Rue de Siam location (the fixture's) is inside Centre-ville's square; Les Mouettes is north of both squares. */
const MOUETTES = { lat: 48.43, lon: -4.49 };

const STREETS: Record<string, { street: string; fromNumber?: number | null; toNumber?: number | null; side: string }[]> = {
  [ids.placeCentre]: [
    { street: 'Rue de Siam', fromNumber: 1, toNumber: 99, side: 'ODD' },
    { street: 'Place de la Liberté', side: 'ALL' },
  ],
  [ids.placeNord]: [
    { street: 'Rue de Siam', side: 'EVEN' },
    { street: 'Rue de Siam', fromNumber: 121, side: 'ODD' },
    { street: 'Rue Jean Jaurès', side: 'ALL' },
    { street: 'Avenue Victor Le Gorgeu', side: 'ALL' },
  ],
};

/** More streets, for the property: names with articles, dates, saints, doctors, hyphens; some shared by both places. */
const MORE_STREETS: Record<string, { street: string; fromNumber?: number | null; toNumber?: number | null; side: string }[]> = {
  [ids.placeCentre]: [
    { street: 'Rue de l’Église', side: 'ALL' },
    { street: 'Rue du 8 Mai 1945', side: 'ALL' },
    { street: 'Place du 19 Mars 1962', side: 'ALL' },
    { street: 'Rue Saint-Marc', toNumber: 40, side: 'ALL' },
    { street: 'Boulevard de l’Europe', side: 'ODD' },
    { street: 'Impasse des Tilleuls', side: 'ALL' },
    { street: 'Route de Brest', fromNumber: 1, toNumber: 200, side: 'ALL' },
    { street: 'Rue du Docteur Roux', side: 'ALL' },
    { street: 'Quai de la Douane', side: 'ALL' },
    { street: 'Chemin du Dellec', side: 'ALL' },
  ],
  [ids.placeNord]: [
    { street: 'Rue Saint-Marc', fromNumber: 41, side: 'ALL' },
    { street: 'Boulevard de l’Europe', side: 'EVEN' },
    { street: 'Route de Brest', fromNumber: 201, side: 'ALL' },
    { street: 'Rue Jean-Marie Le Bris', side: 'ALL' },
    { street: 'Allée d’Aulne', side: 'ALL' },
    { street: 'Chemin de Kerhuel', side: 'ALL' },
    { street: 'Rue Dumont d’Urville', side: 'ALL' },
    { street: 'Square Marc Sangnier', side: 'ALL' },
    { street: 'Rue du Dellec', side: 'ALL' },
  ],
};

/** How citizens write a street's type: in full, or abbreviated with or without its dot. */
const TYPE_SPELLINGS: Record<string, string[]> = {
  rue: ['rue', 'r', 'r.'],
  avenue: ['avenue', 'av', 'av.', 'ave'],
  place: ['place', 'pl', 'pl.'],
  boulevard: ['boulevard', 'bd', 'bd.', 'bvd'],
  impasse: ['impasse', 'imp', 'imp.'],
  allée: ['allée', 'all', 'all.'],
  chemin: ['chemin', 'ch', 'ch.'],
  route: ['route', 'rte', 'rte.'],
  square: ['square', 'sq'],
  quai: ['quai', 'qu'],
};

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
  describe(`GET /public/places/lookup (${kind})`, () => {
    let app: FastifyInstance;
    let database: Database;
    let asRoot: Awaited<ReturnType<typeof citiesAdminApp>>['asRoot'];
    const cleanups: (() => Promise<void>)[] = [];

    before(async () => {
      const setup = await citiesAdminApp({ after: (fn: () => Promise<void>) => void cleanups.push(fn) }, kind);
      app = setup.app;
      database = setup.database;
      asRoot = setup.asRoot;
      for (const [placeId, rules] of [...Object.entries(STREETS), ...Object.entries(MORE_STREETS)]) {
        for (const rule of rules) {
          const created = await inject(app, setup.asRoot, 'POST', `/admin/places/${placeId}/streets`, rule);
          assert.equal(created.statusCode, 201, created.body);
        }
      }
      for (const [placeId, lat] of [[ids.placeCentre, 48.38], [ids.placeNord, 48.4]] as const) {
        const patched = await inject(app, { ...setup.asRoot, 'if-match': '*' }, 'PATCH', `/admin/places/${placeId}`, { area: square(lat) });
        assert.equal(patched.statusCode, 200, patched.body);
      }
      const location = await inject(app, setup.asRoot, 'POST', `/admin/places/${ids.placeNord}/attached-locations`, {
        name: 'Résidence Les Mouettes', reference: 'RES-12', latitude: MOUETTES.lat, longitude: MOUETTES.lon,
      });
      assert.equal(location.statusCode, 201, location.body);
    });

    after(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    async function lookup(query: Record<string, string | number>): Promise<Candidate[]> {
      const response = await app.inject({ url: '/public/places/lookup', query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) });
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    }
    const byAddress = (address: string) => lookup({ cityId: ids.brest, address });
    const placesOf = (candidates: Candidate[]) => candidates.map((c) => c.placeId);

    it('finds the place whose rule holds the number and side, and labels the rule in French', async () => {
      assert.deepEqual(await byAddress('12 rue de Siam'), [
        {
          cityId: ids.brest,
          cityName: 'Brest',
          placeId: ids.placeNord,
          placeName: 'Secteur Nord',
          matchedBy: 'street',
          label: 'Rue de Siam, numéros pairs',
          distanceMeters: null,
        },
      ]);
      const odd = await byAddress('13 rue de Siam');
      assert.deepEqual(placesOf(odd), [ids.placeCentre]);
      assert.equal(odd[0].label, `Rue de Siam, numéros impairs de${NBSP}1 à${NBSP}99`);
      const farOdd = await byAddress('151 rue de Siam');
      assert.deepEqual(placesOf(farOdd), [ids.placeNord]);
      assert.equal(farOdd[0].label, `Rue de Siam, numéros impairs à partir de${NBSP}121`);
    });

    it('reads bis and ter, abbreviations, case, accents, hyphens, the postcode and the commune', async () => {
      for (const address of ['13 bis r. de siam', '13bis, Rue de Siam', '13 ter RUE DE SIAM 29200 Brest', 'Brest, 13 rue de Siam', 'rue de Siam, 13']) {
        assert.deepEqual(placesOf(await byAddress(address)), [ids.placeCentre], address);
      }
      assert.deepEqual(placesOf(await byAddress('4 av. victor-le-gorgeu')), [ids.placeNord]);
      assert.deepEqual(placesOf(await byAddress('2 PL DE LA LIBERTE')), [ids.placeCentre]);
      assert.deepEqual(placesOf(await byAddress('8 rue Jean Jaures 29200 BREST')), [ids.placeNord]);
    });

    it('without a number, or with one no rule holds, answers every place sharing the street with the numbers each serves', async () => {
      const expected = [
        { placeId: ids.placeCentre, label: `Rue de Siam, numéros impairs de${NBSP}1 à${NBSP}99` },
        { placeId: ids.placeNord, label: `Rue de Siam, numéros pairs et numéros impairs à partir de${NBSP}121` },
      ];
      for (const address of ['rue de Siam', '111 rue de Siam']) {
        const found = await byAddress(address);
        assert.deepEqual(found.map(({ placeId, label }) => ({ placeId, label })), expected, address);
        assert.ok(found.every((c) => c.matchedBy === 'street'));
      }
      const whole = await byAddress('Rue Jean Jaurès');
      assert.deepEqual(whole.map((c) => c.label), ['Rue Jean Jaurès, tous les numéros']);
    });

    it('still finds a street with a typo or two, one left without its type, and one begun (suggestions while typing)', async () => {
      assert.deepEqual(placesOf(await byAddress('12 rue de Sian')), [ids.placeNord]);
      assert.deepEqual(placesOf(await byAddress('8 rue jean jores')), [ids.placeNord]);
      assert.deepEqual(placesOf(await byAddress('13 siam')), [ids.placeCentre]);
      assert.deepEqual(placesOf(await byAddress('12 rue de si')), [ids.placeNord]);
      const begun = await byAddress('rue j');
      assert.deepEqual(begun, [], 'one letter of a name completes nothing');
      assert.deepEqual((await byAddress('rue je')).map((c) => c.label), ['Rue Jean Jaurès, tous les numéros', 'Rue Jean-Marie Le Bris, tous les numéros']);
      assert.deepEqual((await byAddress('rue jean j')).map((c) => c.label), ['Rue Jean Jaurès, tous les numéros']);
      // A typo in a name two streets share: the street of the type typed first, then the other.
      assert.deepEqual((await byAddress('12 rue du delec')).map((c) => c.label), ['Rue du Dellec, tous les numéros', 'Chemin du Dellec, tous les numéros']);
      assert.deepEqual((await byAddress('chemin du dell')).map((c) => c.label), ['Chemin du Dellec, tous les numéros', 'Rue du Dellec, tous les numéros']);
      // The same street beats a near one: `rue de siam` names no other street by a typo.
      assert.ok((await byAddress('rue de siam')).every((c) => c.label.startsWith('Rue de Siam')));
    });

    it('matches an attached location by its name, unless it names a street that has rules (the rules say which numbers go where)', async () => {
      const found = await byAddress('résidence les mouettes');
      assert.deepEqual(found.map(({ placeId, matchedBy, label, distanceMeters }) => ({ placeId, matchedBy, label, distanceMeters })), [
        { placeId: ids.placeNord, matchedBy: 'location', label: 'Résidence Les Mouettes', distanceMeters: null },
      ]);
      // The fixture's attached location « Rue de Siam » is Centre-ville's, yet number 12 is Secteur Nord's by the rules.
      const siam = await byAddress('12 rue de Siam');
      assert.equal(siam.length, 1);
      assert.deepEqual([siam[0].matchedBy, siam[0].placeId], ['street', ids.placeNord]);
    });

    it('finds the rule’s place first for any address built from a rule, whatever its case, accents, abbreviation or layout', async () => {
      const rules = [...Object.entries(STREETS), ...Object.entries(MORE_STREETS)].flatMap(([placeId, list]) => list.map((rule) => ({ placeId, ...rule })));
      const address = fc
        .constantFrom(...rules)
        .chain((rule) => {
          const from = rule.fromNumber ?? 1;
          const to = rule.toNumber ?? Math.min(from + 600, 9999);
          const numbers = fc.integer({ min: from, max: to }).filter((n) => rule.side === 'ALL' || (n % 2 === 1) === (rule.side === 'ODD'));
          const [type, ...name] = rule.street.split(' ');
          return fc.record({
            rule: fc.constant(rule),
            number: numbers,
            type: fc.constantFrom(...(TYPE_SPELLINGS[type.toLowerCase()] ?? [type])),
            name: fc.constant(name.join(' ')),
            suffix: fc.constantFrom('', ' bis', 'bis', ' ter', ' B'),
            layout: fc.constantFrom('number first', 'number after a comma', 'number then a comma'),
            tail: fc.constantFrom('', ' 29200 Brest', ', Brest', ' 29200', ' BREST'),
            letterCase: fc.constantFrom('as is', 'lower', 'upper'),
            accents: fc.boolean(),
            hyphens: fc.constantFrom('as is', 'hyphens as spaces', 'spaces as hyphens'),
            apostrophe: fc.constantFrom('’', '\'', ' '),
          });
        })
        .map((drawn) => {
          let name = drawn.name.replaceAll('’', drawn.apostrophe);
          if (drawn.hyphens === 'hyphens as spaces') name = name.replaceAll('-', ' ');
          if (drawn.hyphens === 'spaces as hyphens') name = name.replaceAll(' ', '-');
          const street = `${drawn.type} ${name}`;
          const number = `${drawn.number}${drawn.suffix}`;
          let text =
            drawn.layout === 'number first' ? `${number} ${street}` : drawn.layout === 'number then a comma' ? `${number}, ${street}` : `${street}, ${number}`;
          text += drawn.tail;
          if (!drawn.accents) text = text.normalize('NFD').replace(/\p{M}+/gu, '');
          if (drawn.letterCase === 'lower') text = text.toLowerCase();
          if (drawn.letterCase === 'upper') text = text.toUpperCase();
          return { text, rule: drawn.rule };
        });
      await fc.assert(
        fc.asyncProperty(address, async ({ text, rule }) => {
          const [first] = await byAddress(text);
          assert.ok(first, `nothing for ${text}`);
          assert.equal(first.placeId, rule.placeId, `${text}: ${first.label}`);
          assert.ok(first.label.startsWith(`${rule.street}, `), `${text}: ${first.label}`);
        }),
        { numRuns: 300 },
      );
    });

    it('answers [] when nothing matches', async () => {
      assert.deepEqual(await byAddress('12 boulevard des Inconnus'), []);
      assert.deepEqual(await byAddress('12'), []);
    });

    it('by position: the place whose area holds the point, both on a shared border, else locations within 300 m nearest first', async () => {
      const centre = await lookup({ lat: 48.39, lon: -4.49 });
      assert.deepEqual(centre.map(({ placeId, matchedBy, label, distanceMeters }) => ({ placeId, matchedBy, label, distanceMeters })), [
        { placeId: ids.placeCentre, matchedBy: 'area', label: `Zone de collecte «${NBSP}Centre-ville${NBSP}»`, distanceMeters: null },
      ]);
      assert.deepEqual(placesOf(await lookup({ lat: 48.41, lon: -4.49, cityId: ids.brest })), [ids.placeNord]);
      assert.deepEqual(new Set(placesOf(await lookup({ lat: 48.4, lon: -4.49 }))), new Set([ids.placeCentre, ids.placeNord]));

      const near = await lookup({ lat: MOUETTES.lat + 0.001, lon: MOUETTES.lon });
      assert.equal(near.length, 1);
      assert.equal(near[0].matchedBy, 'location');
      assert.equal(near[0].placeId, ids.placeNord);
      assert.equal(near[0].label, 'Résidence Les Mouettes');
      assert.ok(near[0].distanceMeters! >= 100 && near[0].distanceMeters! <= 120, String(near[0].distanceMeters));
      // 0.004° of latitude is about 445 m: too far.
      assert.deepEqual(await lookup({ lat: MOUETTES.lat + 0.004, lon: MOUETTES.lon }), []);
      assert.deepEqual(await lookup({ lat: 45.76, lon: 4.84 }), []);
      // Another city's id keeps Brest's places out.
      assert.deepEqual(await lookup({ lat: 48.39, lon: -4.49, cityId: ids.elorn }), []);
    });

    it('answers a position the same from the in-memory area index as from the GiST query, on a grid across both areas', async () => {
      const index = await loadAreaIndex(database.db);
      assert.equal(index.size, 2);
      let inSome = 0;
      // Every 0.005°: the squares' sides, their shared border and corners fall on the grid, with points on either side
      // of each; a finer grid only adds interior and exterior points, four times as many lookups through both paths
      // (a tenth of this folder's time on each database).
      const grid = (from: number, count: number) => Array.from({ length: count }, (_, i) => Number((from + i * 0.005).toFixed(4)));
      const lats = grid(48.365, 13);
      const lons = grid(-4.52, 13);
      const around = (side: number) => [side - 0.005, side, side + 0.005].map((v) => Number(v.toFixed(4)));
      for (const side of [48.38, 48.4, 48.42]) assert.ok(around(side).every((v) => lats.includes(v)), `latitude ${side} and either side on the grid`);
      for (const side of [-4.5, -4.48]) assert.ok(around(side).every((v) => lons.includes(v)), `longitude ${side} and either side on the grid`);
      for (const lat of lats) {
        for (const lon of lons) {
          for (const cityId of [null, ids.brest, ids.elorn]) {
            const at = { lat, lon };
            const fromIndex = await lookupPosition(database.db, index, at, cityId);
            assert.deepEqual(fromIndex, await lookupPosition(database.db, null, at, cityId), JSON.stringify({ at, cityId }));
            if (fromIndex.some((c) => c.matchedBy === 'area')) inSome++;
          }
        }
      }
      assert.ok(inSome > 50, `only ${inSome} positions fell in an area: the grid misses the squares`);
    });

    it('answers a position from an area the city’s staff just moved, at once, and then from the rebuilt index', async () => {
      const at = { lat: 48.39, lon: -4.49 };
      const inArea = (candidates: Candidate[]) => candidates.filter((c) => c.matchedBy === 'area').map((c) => c.placeId);
      for (let i = 0; i < 5; i++) assert.deepEqual(inArea(await lookup(at)), [ids.placeCentre]);
      // Centre-ville's square moves 0.06° south: the position is in no area any more (its Rue de Siam location, 200 m away, still answers), then in it again once moved back.
      const etag = String((await inject(app, asRoot, 'GET', `/admin/places/${ids.placeCentre}`)).headers.etag);
      const moved = await inject(app, { ...asRoot, 'if-match': etag }, 'PATCH', `/admin/places/${ids.placeCentre}`, { area: square(48.32) });
      assert.equal(moved.statusCode, 200, moved.body);
      for (let i = 0; i < 5; i++) assert.deepEqual(inArea(await lookup(at)), []);
      assert.deepEqual(inArea(await lookup({ lat: 48.33, lon: -4.49 })), [ids.placeCentre]);
      const back = await inject(app, { ...asRoot, 'if-match': String(moved.headers.etag) }, 'PATCH', `/admin/places/${ids.placeCentre}`, { area: square(48.38) });
      assert.equal(back.statusCode, 200, back.body);
      for (let i = 0; i < 5; i++) assert.deepEqual(inArea(await lookup(at)), [ids.placeCentre]);
    });

    it('finds positions through the GiST indexes of the area boxes and the locations’ points', async () => {
      // The plan, with sequential scans discouraged so that the few fixture rows do not hide a query no index serves.
      const plans = await database.db.transaction().execute(async (trx) => {
        await sql`SET LOCAL enable_seqscan = off`.execute(trx);
        const areas = await placesWithAreaBoxAt(trx, { lat: 48.39, lon: -4.49 }, null).explain();
        const locations = await locationsInBox(trx, boxAround({ lat: 48.43, lon: -4.49 }, 300), null).explain();
        return [areas, locations].map((rows) => rows.map((row) => Object.values(row).join(' ')).join('\n'));
      });
      assert.match(plans[0], /collection_place_area_box_idx/, plans[0]);
      assert.match(plans[1], /attached_location_position_idx/, plans[1]);
    });

    it('answers 400 in French naming the parameter for every malformed request, 404 for an unknown or NON_ACTIF city', async () => {
      const cases: [Record<string, string>, number, RegExp][] = [
        [{}, 400, /address.*cityId.*lat.*lon/],
        [{ cityId: ids.brest }, 400, /address/],
        [{ cityId: ids.brest, address: '12 rue de Siam', lat: '48.39', lon: '-4.49' }, 400, /address.*lat/],
        [{ address: '12 rue de Siam' }, 400, /«\u00a0cityId\u00a0» est obligatoire/],
        [{ lat: '48.39' }, 400, /«\u00a0lon\u00a0» est obligatoire/],
        [{ lon: '-4.49' }, 400, /«\u00a0lat\u00a0» est obligatoire/],
        [{ lat: 'nord', lon: '-4.49' }, 400, /lat/],
        [{ lat: '91', lon: '-4.49' }, 400, /lat/],
        [{ lat: '48.39', lon: '-181' }, 400, /lon/],
        [{ cityId: ids.brest, address: 'x'.repeat(201) }, 400, /address.*200/],
        [{ cityId: ids.brest, address: '   ' }, 400, /address/],
        [{ cityId: 'brest', address: '12 rue de Siam' }, 400, /cityId/],
        [{ cityId: UNKNOWN, address: '12 rue de Siam' }, 404, /^Ville introuvable$/],
        [{ cityId: ids.inactive, address: '12 rue de Siam' }, 404, /^Ville introuvable$/],
        [{ cityId: ids.inactive, lat: '48.39', lon: '-4.49' }, 404, /^Ville introuvable$/],
      ];
      for (const [query, status, message] of cases) {
        const response = await app.inject({ url: '/public/places/lookup', query });
        assert.equal(response.statusCode, status, `${JSON.stringify(query)}: ${response.body}`);
        const body = response.json();
        assert.equal(body.statusCode, status);
        assert.match(body.message, message, JSON.stringify(query));
      }
      const atLimit = await app.inject({ url: '/public/places/lookup', query: { cityId: ids.brest, address: `12 rue de Siam ${' '.repeat(200 - 15)}` } });
      assert.equal(atLimit.statusCode, 200, atLimit.body);
    });
  });
}
