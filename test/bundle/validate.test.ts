import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { importBundle } from '../../src/bundle/import.ts';
import { BundleValidationError, type BundleFault } from '../../src/bundle/faults.ts';
import type { Bundle } from '../../src/bundle/schema.ts';
import type { Database } from '../../src/db/database.ts';
import { BUNDLE_IDS as ids, importValidBundle, validBundle, writeBundleDir } from '../helpers/bundle-fixtures.ts';
import { dumpBundleTables, listDir } from '../helpers/bundle-tables.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';

const OTHER_CITY = '20000000-0000-4000-8000-0000000000ff';
const OTHER_WASTE_TYPE = '30000000-0000-4000-8000-0000000000ff';
const OTHER_QUESTION = '60000000-0000-4000-8000-0000000000ff';
const UNKNOWN = 'ffffffff-0000-4000-8000-000000000000';

/** A valid bundle that also changes things, so that a partial write would show in the dump. */
function changedBundle(): Bundle {
  const bundle = validBundle();
  bundle.cities![0].name = 'Testville-Renommée';
  bundle.cityGroups!.push({ id: '10000000-0000-4000-8000-0000000000aa', name: 'Nouveau groupe', type: 'Métropole', code: 'NG', siren: '200000099' });
  bundle.cities!.push({
    id: OTHER_CITY,
    name: 'Autreville',
    country: 'France',
    status: 'ACTIF',
    wasteTypes: [{ id: OTHER_WASTE_TYPE, name: 'Verre' }],
    quizQuestions: [{ id: OTHER_QUESTION, material: 'Bocal', question: 'Où jeter un bocal ?', correctWasteTypeId: OTHER_WASTE_TYPE }],
  });
  return bundle;
}

const city = (b: Bundle) => b.cities![0];
const place = (b: Bundle) => city(b).wasteCollectionPlaces![0];
const headerItems = (b: Bundle) => b.sites![0].menus![0].items!;

interface FaultCase {
  name: string;
  change: (bundle: Bundle, dir: string) => unknown;
  path: string;
  message?: RegExp;
}

const cases: FaultCase[] = [
  {
    name: 'a value of the wrong type',
    change: (b) => ((city(b) as any).population = 'beaucoup'),
    path: 'cities[0].population',
    message: /nombre entier/,
  },
  {
    name: 'a missing required field',
    change: (b) => delete (city(b).wasteTypes![1] as any).name,
    path: 'cities[0].wasteTypes[1].name',
    message: /obligatoire/,
  },
  { name: 'a malformed id', change: (b) => (place(b).id = 'not-a-uuid'), path: 'cities[0].wasteCollectionPlaces[0].id', message: /UUID/ },
  {
    name: 'a duplicate id',
    change: (b) => (city(b).wasteTypes![1].id = ids.wasteTypeHousehold),
    path: 'cities[0].wasteTypes[1].id',
    message: /déjà utilisé par cities\[0\]\.wasteTypes\[0\]/,
  },
  {
    name: 'a weekday that is not a lowercase French name',
    change: (b) => ((place(b).collectionDays![0] as any).name = 'Mardi'),
    path: 'cities[0].wasteCollectionPlaces[0].collectionDays[0].name',
  },
  {
    name: 'a biweekly day without startDate',
    change: (b) => (place(b).collectionDays![1].startDate = null),
    path: 'cities[0].wasteCollectionPlaces[0].collectionDays[1].startDate',
  },
  {
    name: 'an exception ending before it starts',
    change: (b) => (place(b).exceptions![0].dateTo = '2026-12-24T00:00:00.000Z'),
    path: 'cities[0].wasteCollectionPlaces[0].exceptions[0].dateTo',
  },
  { name: 'a colour that is not hex', change: (b) => (city(b).wasteTypes![0].color = 'gris'), path: 'cities[0].wasteTypes[0].color', message: /hexadécimale/ },
  { name: 'an unknown time zone', change: (b) => (city(b).timeZone = 'Mars/Olympus'), path: 'cities[0].timeZone' },
  {
    name: 'a collection day naming a waste type of another city',
    change: (b) => (place(b).collectionDays![0].wasteTypeId = OTHER_WASTE_TYPE),
    path: 'cities[0].wasteCollectionPlaces[0].collectionDays[0].wasteTypeId',
  },
  {
    name: 'an exception naming an unknown waste type',
    change: (b) => (place(b).exceptions![0].wasteTypeId = UNKNOWN),
    path: 'cities[0].wasteCollectionPlaces[0].exceptions[0].wasteTypeId',
  },
  {
    name: 'a quiz answer of another city',
    change: (b) => (city(b).quizQuestions![1].correctWasteTypeId = OTHER_WASTE_TYPE),
    path: 'cities[0].quizQuestions[1].correctWasteTypeId',
  },
  {
    name: 'a serie holding a quiz question of another city',
    change: (b) => city(b).challenges![0].series![0].quizQuestionIds!.push(OTHER_QUESTION),
    path: 'cities[0].challenges[0].series[0].quizQuestionIds[2]',
  },
  {
    name: 'an unknown required challenge',
    change: (b) => (city(b).challenges![1].requiredChallengeId = UNKNOWN),
    path: 'cities[0].challenges[1].requiredChallengeId',
  },
  {
    name: 'a cycle of required challenges',
    change: (b) => (city(b).challenges![0].requiredChallengeId = ids.challengeExpert),
    path: 'cities[0].challenges[0].requiredChallengeId',
    message: /cycle/,
  },
  {
    name: 'a menu item linking to a page of another site',
    change: (b) => (headerItems(b)[0].pageId = ids.pageAppHome),
    path: 'sites[0].menus[0].items[0].pageId',
  },
  {
    name: 'a nested menu item linking to an unknown page',
    change: (b) => (headerItems(b)[1].children![1].pageId = UNKNOWN),
    path: 'sites[0].menus[0].items[1].children[1].pageId',
  },
  {
    name: 'a PAGE menu item without pageId',
    change: (b) => (headerItems(b)[0].pageId = null),
    path: 'sites[0].menus[0].items[0].pageId',
  },
  {
    name: 'an EXTERNAL menu item without externalUrl',
    change: (b) => delete headerItems(b)[1].children![0].externalUrl,
    path: 'sites[0].menus[0].items[1].children[0].externalUrl',
  },
  { name: 'an unknown city group', change: (b) => (city(b).cityGroupId = UNKNOWN), path: 'cities[0].cityGroupId' },
  { name: 'a blog post of an unknown city group', change: (b) => (b.blogPosts![0].cityGroupId = UNKNOWN), path: 'blogPosts[0].cityGroupId' },
  { name: 'two sites with one slug', change: (b) => (b.sites![1].slug = b.sites![0].slug), path: 'sites[1].slug' },
  {
    name: 'blog content that does not compile as MDX',
    change: (b) => (b.blogPosts![0].content = '# Titre\n\n<Callout>non fermé\n'),
    path: 'blogPosts[0].content',
    message: /MDX/,
  },
  { name: 'a missing media file', change: (b) => (b.media![0].path = 'media/absent.png'), path: 'media[0].path', message: /introuvable/ },
  {
    name: 'a media path that leaves the bundle folder',
    change: async (b, dir) => {
      await fs.copyFile(path.join(dir, 'media/logo.png'), path.join(dir, '..', 'outside.png'));
      b.media![0].path = '../outside.png';
    },
    path: 'media[0].path',
    message: /sortir du dossier/,
  },
  {
    name: 'a media path that leaves the bundle folder through a symbolic link',
    change: async (b, dir) => {
      await fs.copyFile(path.join(dir, 'media/logo.png'), path.join(dir, '..', 'outside.png'));
      await fs.symlink(path.join(dir, '..', 'outside.png'), path.join(dir, 'media', 'link.png'));
      b.media![0].path = 'media/link.png';
    },
    path: 'media[0].path',
    message: /sortir du dossier/,
  },
  { name: 'a media type that does not match the file', change: (b) => (b.media![0].mimeType = 'image/jpeg'), path: 'media[0].mimeType' },
  {
    name: 'an opening-hours spec that does not parse',
    change: (b) => (city(b).recyclingPoints![0].openingHoursSpec = 'Du lundi au samedi, 9 h – 18 h'),
    path: 'cities[0].recyclingPoints[0].openingHoursSpec',
    message: /opening_hours/,
  },
  {
    name: 'an opening-hours spec with an hour past midnight',
    change: (b) => (city(b).recyclingPoints![0].openingHoursSpec = 'Mo-Fr 09:00-12:00; Sa 25:00-26:00'),
    path: 'cities[0].recyclingPoints[0].openingHoursSpec',
  },
  {
    name: 'a recycling point taking a waste type of another city',
    change: (b) => city(b).recyclingPoints![0].materials!.push(OTHER_WASTE_TYPE),
    path: 'cities[0].recyclingPoints[0].materials[1]',
    message: /aucun type de déchet de cette ville/,
  },
  {
    name: 'a recycling point taking an unknown waste type',
    change: (b) => (city(b).recyclingPoints![0].materials = [UNKNOWN]),
    path: 'cities[0].recyclingPoints[0].materials[0]',
  },
  {
    name: 'a recycling point taking a waste type twice',
    change: (b) => city(b).recyclingPoints![0].materials!.push(ids.wasteTypePackaging),
    path: 'cities[0].recyclingPoints[0].materials[1]',
    message: /déjà/,
  },
  {
    name: 'a recycling point kind outside the list',
    change: (b) => ((city(b).recyclingPoints![0] as any).kind = 'DECHETERIE'),
    path: 'cities[0].recyclingPoints[0].kind',
  },
  { name: 'a SIRET that is not 14 digits', change: (b) => (b.cityGroups![0].siret = '2000000010001'), path: 'cityGroups[0].siret', message: /14 chiffres/ },
  {
    name: 'a SIRET of another SIREN',
    change: (b) => (b.cityGroups![0].siret = '99999999900011'),
    path: 'cityGroups[0].siret',
    message: /SIREN/,
  },
];

for (const kind of testDatabaseKinds()) {
  describe(`import bundle validation (${kind})`, () => {
    let database: Database;
    let mediaDir: string;
    const cleanups: (() => Promise<void>)[] = [];
    const suite = { after: (fn: () => Promise<void>) => cleanups.push(fn) };

    before(async () => {
      database = await createTestDatabase(kind);
      ({ mediaDir } = await importValidBundle(suite, database));
    });
    after(async () => {
      for (const fn of cleanups) await fn();
      await database.close();
    });

    async function rejectAndWriteNothing(bundle: Bundle, change?: FaultCase['change']): Promise<BundleFault[]> {
      const written = await writeBundleDir(suite, bundle);
      if (change) await change(written.bundle, written.dir);
      const before = await dumpBundleTables(database.db);
      const filesBefore = await listDir(mediaDir);
      const error = await importBundle(database, written.bundle, { baseDir: written.dir, mediaDir, now: new Date('2026-03-01T00:00:00.000Z') }).then(
        () => assert.fail('the import should have been rejected'),
        (err: unknown) => err,
      );
      assert.ok(error instanceof BundleValidationError, `expected a BundleValidationError, got ${String(error)}`);
      assert.deepEqual(await dumpBundleTables(database.db), before, 'nothing is written');
      assert.deepEqual(await listDir(mediaDir), filesBefore, 'no media file is copied');
      return error.faults;
    }

    it('accepts the changed bundle these cases start from', async (t) => {
      // Guards the cases below: each is rejected for its own fault, not for one in the base bundle.
      const written = await writeBundleDir(t, changedBundle());
      const other = await createTestDatabase(kind);
      t.after(() => other.close());
      const summary = await importBundle(other, written.bundle, { baseDir: written.dir, mediaDir: written.mediaDir, now: new Date() });
      assert.equal(summary.counts.cities, 2);
    });

    for (const c of cases) {
      it(`rejects ${c.name} at ${c.path}`, async () => {
        const faults = await rejectAndWriteNothing(changedBundle(), c.change);
        const fault = faults.find((f) => f.path === c.path);
        assert.ok(fault, `expected a fault at ${c.path}, got ${JSON.stringify(faults)}`);
        if (c.message) assert.match(fault.message, c.message);
      });
    }

    it('reports every fault of a bundle at once', async () => {
      const bundle = changedBundle();
      place(bundle).collectionDays![0].wasteTypeId = UNKNOWN;
      headerItems(bundle)[0].pageId = UNKNOWN;
      bundle.blogPosts![0].content = '<div>';
      city(bundle).challenges![1].requiredChallengeId = UNKNOWN;
      const faults = await rejectAndWriteNothing(bundle, (b) => (b.media![0].path = 'nope.png'));
      assert.deepEqual(
        faults.map((f) => f.path).sort(),
        [
          'blogPosts[0].content',
          'cities[0].challenges[1].requiredChallengeId',
          'cities[0].wasteCollectionPlaces[0].collectionDays[0].wasteTypeId',
          'media[0].path',
          'sites[0].menus[0].items[0].pageId',
        ],
      );
    });

    it('reports every schema fault at once with its JSON path', async () => {
      const bundle = changedBundle() as any;
      bundle.cities[0].status = 'ACTIVE';
      bundle.cities[0].wasteCollectionPlaces[0].attachedLocations[0].latitude = 91;
      bundle.sites[0].menus[0].items[1].children[0].linkType = 'URL';
      bundle.cityGroups[0].siren = 'SIREN';
      const faults = await rejectAndWriteNothing(bundle);
      const byPath = new Map(faults.map((f) => [f.path, f.message]));
      assert.match(byPath.get('cities[0].status') ?? '', /"ACTIF", "NON_ACTIF"/);
      assert.match(byPath.get('cities[0].wasteCollectionPlaces[0].attachedLocations[0].latitude') ?? '', /90/);
      assert.match(byPath.get('sites[0].menus[0].items[1].children[0].linkType') ?? '', /"PAGE", "EXTERNAL", "NONE"/);
      assert.match(byPath.get('cityGroups[0].siren') ?? '', /chiffres/);
      assert.equal(faults.length, 4, JSON.stringify(faults));
    });

    it('rejects a bundle that is not an object', async () => {
      const faults = await rejectAndWriteNothing([] as unknown as Bundle);
      assert.deepEqual(faults, [{ path: '', message: 'doit être un objet JSON' }]);
    });

    it('rejects a site slug already used by another site of the database', async () => {
      await database.db
        .insertInto('site')
        .values({ id: '90000000-0000-4000-8000-0000000000ee', name: 'Autre', slug: 'deja-pris', type: 'SITE', settings: '{}', theme: null })
        .execute();
      try {
        const faults = await rejectAndWriteNothing(changedBundle(), (b) => (b.sites![1].slug = 'deja-pris'));
        assert.ok(faults.some((f) => f.path === 'sites[1].slug'), JSON.stringify(faults));
      } finally {
        await database.db.deleteFrom('site').where('slug', '=', 'deja-pris').execute();
      }
    });

    it('rejects an id that the database holds under another parent', async () => {
      // The recycling point of Testville cannot move to Autreville.
      const faults = await rejectAndWriteNothing(changedBundle(), (b) => {
        b.cities![1].recyclingPoints = [{ id: ids.recyclingPoint, name: 'Déchèterie' }];
        b.cities![0].recyclingPoints = [];
      });
      assert.ok(faults.some((f) => f.path === 'cities[1].recyclingPoints[0].id' && /appartient déjà/.test(f.message)), JSON.stringify(faults));
    });

    it('accepts a requirement on a challenge already in the database, and rejects a cycle through it', async () => {
      const bundle: Bundle = {
        cities: [
          {
            id: OTHER_CITY,
            name: 'Autreville',
            country: 'France',
            status: 'ACTIF',
            challenges: [{ id: '70000000-0000-4000-8000-0000000000ff', name: 'Suite', requiredChallengeId: ids.challengeExpert }],
          },
        ],
      };
      const written = await writeBundleDir(suite, bundle);
      const summary = await importBundle(database, bundle, { baseDir: written.dir, mediaDir, now: new Date() });
      assert.equal(summary.counts.challenges, 1);
      // Now make Beginner (in the database, of Testville) require the new one: Beginner → Suite → Expert → Beginner.
      const cyclic = validBundle();
      city(cyclic).challenges![0].requiredChallengeId = '70000000-0000-4000-8000-0000000000ff';
      const faults = await rejectAndWriteNothing(cyclic);
      assert.ok(faults.some((f) => f.path === 'cities[0].challenges[0].requiredChallengeId' && /cycle/.test(f.message)), JSON.stringify(faults));
    });
  });
}
