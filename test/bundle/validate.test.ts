import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { importBundle } from '../../src/bundle/import.ts';
import { BundleValidationError } from '../../src/bundle/faults.ts';
import type { RecordFault } from '../../src/domain/rules/faults.ts';
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
  /** A pattern, or the message verbatim. */
  message?: RegExp | string;
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
    message: 'doit valoir "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"',
  },
  {
    name: 'a biweekly day without startDate',
    change: (b) => (place(b).collectionDays![1].startDate = null),
    path: 'cities[0].wasteCollectionPlaces[0].collectionDays[1].startDate',
    message: 'est obligatoire pour une collecte une semaine sur deux (biweekly)',
  },
  {
    name: 'an exception ending before it starts',
    change: (b) => (place(b).exceptions![0].dateTo = '2026-12-24T00:00:00.000Z'),
    path: 'cities[0].wasteCollectionPlaces[0].exceptions[0].dateTo',
    message: 'doit être une date égale ou postérieure à dateFrom',
  },
  { name: 'a colour that is not hex', change: (b) => (city(b).wasteTypes![0].color = 'gris'), path: 'cities[0].wasteTypes[0].color', message: /hexadécimale/ },
  { name: 'an unknown time zone', change: (b) => (city(b).timeZone = 'Mars/Olympus'), path: 'cities[0].timeZone', message: 'n’est pas un fuseau horaire IANA connu (par exemple Europe/Paris)' },
  {
    name: 'a collection day naming a waste type of another city',
    change: (b) => (place(b).collectionDays![0].wasteTypeId = OTHER_WASTE_TYPE),
    path: 'cities[0].wasteCollectionPlaces[0].collectionDays[0].wasteTypeId',
    message: `ne désigne aucun type de déchet de cette ville (${OTHER_WASTE_TYPE})`,
  },
  {
    name: 'an exception naming an unknown waste type',
    change: (b) => (place(b).exceptions![0].wasteTypeId = UNKNOWN),
    path: 'cities[0].wasteCollectionPlaces[0].exceptions[0].wasteTypeId',
    message: `ne désigne aucun type de déchet de cette ville (${UNKNOWN})`,
  },
  {
    name: 'a quiz answer of another city',
    change: (b) => (city(b).quizQuestions![1].correctWasteTypeId = OTHER_WASTE_TYPE),
    path: 'cities[0].quizQuestions[1].correctWasteTypeId',
    message: `ne désigne aucun type de déchet de cette ville (${OTHER_WASTE_TYPE})`,
  },
  {
    name: 'a serie holding a quiz question of another city',
    change: (b) => city(b).challenges![0].series![0].quizQuestionIds!.push(OTHER_QUESTION),
    path: 'cities[0].challenges[0].series[0].quizQuestionIds[2]',
    message: `ne désigne aucune question de quiz de cette ville (${OTHER_QUESTION})`,
  },
  {
    name: 'a serie holding a quiz question twice',
    change: (b) => city(b).challenges![0].series![0].quizQuestionIds!.push(ids.quizBottle),
    path: 'cities[0].challenges[0].series[0].quizQuestionIds[2]',
    message: `la question ${ids.quizBottle} figure déjà dans cette série`,
  },
  {
    name: 'a pass mark over 100',
    change: (b) => (city(b).challenges![0].passingScore = 101),
    path: 'cities[0].challenges[0].passingScore',
    message: /100/,
  },
  {
    name: 'a pass mark that is not a whole number',
    change: (b) => (city(b).challenges![0].passingScore = 59.5),
    path: 'cities[0].challenges[0].passingScore',
  },
  {
    name: 'a contact phone that is not a number',
    change: (b) => (b.cityGroups![0].contactPhone = 'appelez la mairie'),
    path: 'cityGroups[0].contactPhone',
    message: 'doit être un numéro de téléphone, par exemple 02 98 33 50 50',
  },
  {
    name: 'a contact e-mail that is not an address',
    change: (b) => (b.cityGroups![0].contactEmail = 'mairie'),
    path: 'cityGroups[0].contactEmail',
  },
  {
    name: 'a challenge ending before it starts',
    change: (b) => (city(b).challenges![1].endDate = '2025-12-31T00:00:00.000Z'),
    path: 'cities[0].challenges[1].endDate',
    message: 'doit être une date égale ou postérieure à startDate',
  },
  {
    name: 'a challenge requiring itself',
    change: (b) => (city(b).challenges![1].requiredChallengeId = ids.challengeExpert),
    path: 'cities[0].challenges[1].requiredChallengeId',
    message: 'un défi ne peut pas se requérir lui-même',
  },
  {
    name: 'an unknown required challenge',
    change: (b) => (city(b).challenges![1].requiredChallengeId = UNKNOWN),
    path: 'cities[0].challenges[1].requiredChallengeId',
    message: `ne désigne aucun défi du lot ni de la base (${UNKNOWN})`,
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
    message: `ne désigne aucune page de ce site (${ids.pageAppHome})`,
  },
  {
    name: 'a nested menu item linking to an unknown page',
    change: (b) => (headerItems(b)[1].children![1].pageId = UNKNOWN),
    path: 'sites[0].menus[0].items[1].children[1].pageId',
    message: `ne désigne aucune page de ce site (${UNKNOWN})`,
  },
  {
    name: 'a PAGE menu item without pageId',
    change: (b) => (headerItems(b)[0].pageId = null),
    path: 'sites[0].menus[0].items[0].pageId',
    message: 'est obligatoire quand linkType vaut PAGE',
  },
  {
    name: 'an EXTERNAL menu item without externalUrl',
    change: (b) => delete headerItems(b)[1].children![0].externalUrl,
    path: 'sites[0].menus[0].items[1].children[0].externalUrl',
    message: 'est obligatoire quand linkType vaut EXTERNAL',
  },
  {
    name: 'an unknown city group',
    change: (b) => (city(b).cityGroupId = UNKNOWN),
    path: 'cities[0].cityGroupId',
    message: `ne désigne aucun groupe de villes du lot ni de la base (${UNKNOWN})`,
  },
  {
    name: 'a blog post of an unknown city group',
    change: (b) => (b.blogPosts![0].cityGroupId = UNKNOWN),
    path: 'blogPosts[0].cityGroupId',
    message: `ne désigne aucun groupe de villes du lot ni de la base (${UNKNOWN})`,
  },
  {
    name: 'a site of an unknown city group',
    change: (b) => (b.sites![1].cityGroupId = UNKNOWN),
    path: 'sites[1].cityGroupId',
    message: `ne désigne aucun groupe de villes du lot ni de la base (${UNKNOWN})`,
  },
  {
    name: 'a media of an unknown city group',
    change: (b) => (b.media![0].cityGroupId = UNKNOWN),
    path: 'media[0].cityGroupId',
    message: `ne désigne aucun groupe de villes du lot ni de la base (${UNKNOWN})`,
  },
  {
    name: 'two sites with one slug',
    change: (b) => (b.sites![1].slug = b.sites![0].slug),
    path: 'sites[1].slug',
    message: 'le slug « collecte-demo » est déjà celui de sites[0]',
  },
  {
    name: 'two pages of a site with one slug',
    change: (b) => (b.sites![0].pages![1].slug = 'accueil'),
    path: 'sites[0].pages[1].slug',
    message: 'le slug « accueil » est déjà celui de sites[0].pages[0]',
  },
  {
    name: 'two menus of a site at one location',
    change: (b) => b.sites![0].menus!.push({ id: '92000000-0000-4000-8000-0000000000ff', name: 'Pied de page', location: 'header' }),
    path: 'sites[0].menus[1].location',
    message: 'l’emplacement « header » est déjà celui de sites[0].menus[0]',
  },
  {
    name: 'a NONE menu item with a pageId',
    change: (b) => (headerItems(b)[1].pageId = ids.pageHome),
    path: 'sites[0].menus[0].items[1].pageId',
    message: 'doit être null quand linkType ne vaut pas PAGE',
  },
  {
    name: 'a PAGE menu item with an externalUrl',
    change: (b) => (headerItems(b)[0].externalUrl = 'https://www.ademe.fr'),
    path: 'sites[0].menus[0].items[0].externalUrl',
    message: 'doit être null quand linkType ne vaut pas EXTERNAL',
  },
  {
    name: 'an EXTERNAL menu item whose URL is not absolute',
    change: (b) => (headerItems(b)[1].children![0].externalUrl = 'www.ademe.fr'),
    path: 'sites[0].menus[0].items[1].children[0].externalUrl',
    message: 'doit être une URL absolue (https://…)',
  },
  {
    name: 'blog content that does not compile as MDX',
    change: (b) => (b.blogPosts![0].content = '# Titre\n\n<Callout>non fermé\n'),
    path: 'blogPosts[0].content',
    message: /MDX/,
  },
  {
    name: 'blog content whose MDX fault has a position',
    change: (b) => (b.blogPosts![0].content = '# Titre\n\n<Callout>non fermé\n'),
    path: 'blogPosts[0].content',
    message: /^n’est pas du MDX valide \(ligne 3, colonne 1\)\u00a0: Expected a closing tag for `<Callout>`/,
  },
  {
    name: 'page content that does not compile as MDX',
    change: (b) => (b.sites![0].pages![0].content = 'Bonjour\n\n{ouvert\n'),
    path: 'sites[0].pages[0].content',
    message: /^n’est pas du MDX valide \(ligne 4, colonne 1\)/,
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
  {
    name: 'a media type that does not match the file',
    change: (b) => (b.media![0].mimeType = 'image/jpeg'),
    path: 'media[0].mimeType',
    message: 'ne correspond pas au fichier, qui est de type image/png',
  },
  { name: 'an absolute media path', change: (b) => (b.media![0].path = '/etc/hostname'), path: 'media[0].path', message: 'doit être un chemin relatif au fichier du lot' },
  { name: 'a media path naming a folder', change: (b) => (b.media![0].path = 'media'), path: 'media[0].path', message: 'ne désigne pas un fichier' },
  {
    name: 'a file that is not an image, without its type',
    change: async (b, dir) => {
      await fs.writeFile(path.join(dir, 'media/notice.txt'), 'Bonjour');
      b.media![0] = { ...b.media![0], path: 'media/notice.txt', mimeType: null };
    },
    path: 'media[0].mimeType',
    message: 'est obligatoire pour un fichier qui n’est pas une image',
  },
  {
    name: 'a file that is not an image, said to be one',
    change: async (b, dir) => {
      await fs.writeFile(path.join(dir, 'media/notice.txt'), 'Bonjour');
      b.media![0].path = 'media/notice.txt';
    },
    path: 'media[0].path',
    message: 'le fichier n’est pas une image lisible de type image/png',
  },
  { name: 'a media type that is not one', change: (b) => (b.media![0].mimeType = 'PNG'), path: 'media[0].mimeType', message: 'doit être un type MIME' },
  {
    name: 'a timestamp that is not ISO 8601',
    change: (b) => (b.blogPosts![0].publishedAt = 'hier'),
    path: 'blogPosts[0].publishedAt',
    message: 'doit être un horodatage ISO 8601 (par exemple 2026-11-21T09:30:00.000Z)',
  },
  { name: 'an empty required text', change: (b) => (b.sites![0].name = ''), path: 'sites[0].name', message: 'ne doit pas être vide' },
  { name: 'a negative population', change: (b) => (city(b).population = -1), path: 'cities[0].population', message: 'doit être supérieur ou égal à 0' },
  {
    name: 'an opening-hours spec that does not parse',
    change: (b) => (city(b).recyclingPoints![0].openingHoursSpec = 'Du lundi au samedi, 9 h – 18 h'),
    path: 'cities[0].recyclingPoints[0].openingHoursSpec',
    message: /opening_hours/,
  },
  {
    name: 'an opening-hours spec the OSM library reads only with warnings (French day names, « h »)',
    change: (b) => (city(b).recyclingPoints![0].openingHoursSpec = 'Lu-Ve 9h-18h'),
    path: 'cities[0].recyclingPoints[0].openingHoursSpec',
    message: 'n’est lu qu’approximativement par les outils OpenStreetMap\u00a0: écrivez «\u00a0Mo-Fr 09:00-18:00\u00a0» (jours Mo Tu We Th Fr Sa Su, heures 09:00-18:00)',
  },
  {
    name: 'an opening-hours spec with an hour past midnight',
    change: (b) => (city(b).recyclingPoints![0].openingHoursSpec = 'Mo-Fr 09:00-12:00; Sa 25:00-26:00'),
    path: 'cities[0].recyclingPoints[0].openingHoursSpec',
    message: /opening_hours/,
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
    message: `ne désigne aucun type de déchet de cette ville (${UNKNOWN})`,
  },
  {
    name: 'a recycling point taking a waste type twice',
    change: (b) => city(b).recyclingPoints![0].materials!.push(ids.wasteTypePackaging),
    path: 'cities[0].recyclingPoints[0].materials[1]',
    message: /déjà/,
  },
  {
    name: 'an empty opening-hours spec',
    change: (b) => (city(b).recyclingPoints![0].openingHoursSpec = ' '),
    path: 'cities[0].recyclingPoints[0].openingHoursSpec',
    message: 'ne doit pas être vide (null quand les horaires ne sont pas connus)',
  },
  {
    name: 'a recycling point kind outside the list',
    change: (b) => ((city(b).recyclingPoints![0] as any).kind = 'DECHETERIE'),
    path: 'cities[0].recyclingPoints[0].kind',
    message: 'doit valoir "CENTRE", "CONTAINER", "SHOP"',
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

    async function rejectAndWriteNothing(bundle: Bundle, change?: FaultCase['change']): Promise<RecordFault[]> {
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
        if (typeof c.message === 'string') assert.equal(fault.message, c.message);
        else if (c.message) assert.match(fault.message, c.message);
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

    it('reports faults in the order of the bundle, the checks against the database last', async () => {
      const bundle = changedBundle();
      bundle.cityGroups![0].siret = '99999999900011';
      city(bundle).timeZone = 'Mars/Olympus';
      city(bundle).cityGroupId = UNKNOWN;
      place(bundle).collectionDays![0].wasteTypeId = UNKNOWN;
      city(bundle).recyclingPoints![0].materials!.push(UNKNOWN, UNKNOWN);
      city(bundle).challenges![1].requiredChallengeId = UNKNOWN;
      city(bundle).challenges![1].endDate = '2025-12-31T00:00:00.000Z';
      bundle.cities![1].wasteTypes![0].id = ids.wasteTypeHousehold;
      bundle.sites![0].pages![1].slug = 'accueil';
      headerItems(bundle)[0].pageId = UNKNOWN;
      bundle.sites![1].cityGroupId = UNKNOWN;
      const faults = await rejectAndWriteNothing(bundle);
      assert.deepEqual(
        faults.map((f) => f.path),
        [
          'cityGroups[0].siret',
          'cities[0].timeZone',
          'cities[0].wasteCollectionPlaces[0].collectionDays[0].wasteTypeId',
          'cities[0].recyclingPoints[0].materials[1]',
          'cities[0].recyclingPoints[0].materials[2]',
          'cities[0].challenges[1].endDate',
          'cities[1].wasteTypes[0].id',
          'cities[1].quizQuestions[0].correctWasteTypeId',
          'sites[0].pages[1].slug',
          'sites[0].menus[0].items[0].pageId',
          'cities[0].cityGroupId',
          'sites[1].cityGroupId',
          'cities[1].wasteTypes[0].id',
          'cities[0].challenges[1].requiredChallengeId',
        ],
        JSON.stringify(faults),
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
        assert.deepEqual(
          faults.find((f) => f.path === 'sites[1].slug'),
          { path: 'sites[1].slug', message: 'est déjà pris par le site 90000000-0000-4000-8000-0000000000ee (« deja-pris »)' },
        );
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
      assert.deepEqual(faults.find((f) => f.path === 'cities[1].recyclingPoints[0].id'), {
        path: 'cities[1].recyclingPoints[0].id',
        message: `l’identifiant ${ids.recyclingPoint} appartient déjà à la ville ${ids.city} dans la base ; un élément ne change pas de parent`,
      });
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
      assert.equal(
        faults.find((f) => f.path === 'cities[0].challenges[0].requiredChallengeId')?.message,
        `forme un cycle de défis requis (${ids.challengeBeginner} → 70000000-0000-4000-8000-0000000000ff → ${ids.challengeExpert} → ${ids.challengeBeginner})`,
      );
    });
  });
}
