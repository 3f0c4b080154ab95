import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { Database } from '../../src/db/database.ts';
import { importBundle, type ImportSummary } from '../../src/bundle/import.ts';
import type { Bundle } from '../../src/bundle/schema.ts';

/**
 * A small, complete and valid import bundle with fixed ids, for the bundle tests and for any
 * area's route tests: one group (chat enabled), one ACTIF city with two waste types, a place with
 * days, an exception and a location, a recycling point, quiz questions, two challenges (the second
 * requires the first), a published blog post, a SITE and an APP with pages and menus, one PNG.
 */
export const BUNDLE_IDS = {
  cityGroup: '10000000-0000-4000-8000-000000000001',
  city: '20000000-0000-4000-8000-000000000001',
  wasteTypeHousehold: '30000000-0000-4000-8000-000000000001',
  wasteTypePackaging: '30000000-0000-4000-8000-000000000002',
  detailHousehold: '31000000-0000-4000-8000-000000000001',
  detailPackaging: '31000000-0000-4000-8000-000000000002',
  place: '40000000-0000-4000-8000-000000000001',
  dayHousehold: '41000000-0000-4000-8000-000000000001',
  dayPackaging: '41000000-0000-4000-8000-000000000002',
  exception: '42000000-0000-4000-8000-000000000001',
  location: '43000000-0000-4000-8000-000000000001',
  recyclingPoint: '50000000-0000-4000-8000-000000000001',
  quizBottle: '60000000-0000-4000-8000-000000000001',
  quizDiaper: '60000000-0000-4000-8000-000000000002',
  challengeBeginner: '70000000-0000-4000-8000-000000000001',
  challengeExpert: '70000000-0000-4000-8000-000000000002',
  badgeBeginner: '71000000-0000-4000-8000-000000000001',
  serieBeginner: '72000000-0000-4000-8000-000000000001',
  serieExpert: '72000000-0000-4000-8000-000000000002',
  blogPost: '80000000-0000-4000-8000-000000000001',
  site: '90000000-0000-4000-8000-000000000001',
  app: '90000000-0000-4000-8000-000000000002',
  pageHome: '91000000-0000-4000-8000-000000000001',
  pageDraft: '91000000-0000-4000-8000-000000000002',
  pageAppHome: '91000000-0000-4000-8000-000000000003',
  menuHeader: '92000000-0000-4000-8000-000000000001',
  menuApp: '92000000-0000-4000-8000-000000000002',
  itemHome: '93000000-0000-4000-8000-000000000001',
  itemMore: '93000000-0000-4000-8000-000000000002',
  itemExternal: '93000000-0000-4000-8000-000000000003',
  itemDraft: '93000000-0000-4000-8000-000000000004',
  itemAppHome: '93000000-0000-4000-8000-000000000005',
  media: 'a0000000-0000-4000-8000-000000000001',
} as const;

export const BUNDLE_SITE_SLUG = 'collecte-demo';
export const BUNDLE_APP_SLUG = 'collecte-app';
/** The media file, relative to the bundle file. */
export const BUNDLE_MEDIA_PATH = 'media/logo.png';
export const BUNDLE_MEDIA_SIZE = { width: 64, height: 48 } as const;

const ids = BUNDLE_IDS;

/** A fresh copy each call: tests may change it freely. */
export function validBundle(): Bundle {
  return {
    cityGroups: [
      {
        id: ids.cityGroup,
        name: 'Communauté de communes du Val Test',
        type: 'Communauté de communes',
        code: 'CCVT',
        siren: '200000001',
        chatEnabled: true,
      },
    ],
    cities: [
      {
        id: ids.city,
        name: 'Testville',
        country: 'France',
        population: 12345,
        status: 'ACTIF',
        timeZone: 'Europe/Paris',
        outOfTheBins: 'Sortez vos bacs la veille au soir après 19 h.',
        presentationOfBins: 'Poignées tournées vers la rue.',
        returnOfBins: 'Rentrez vos bacs le jour de la collecte.',
        respectOfCalendar: 'Respectez le calendrier de collecte.',
        holidays: 'Les jours fériés, la collecte est décalée au lendemain.',
        cityGroupId: ids.cityGroup,
        wasteTypes: [
          {
            id: ids.wasteTypeHousehold,
            name: 'Ordures ménagères',
            description: 'Déchets non recyclables',
            instructions: 'En sacs fermés',
            color: '#4B5563',
            colorLight: '#E5E7EB',
            icon: 'trash',
            imageUrl: null,
            details: [{ id: ids.detailHousehold, material: 'Couches', description: null, instructions: 'Dans un sac fermé' }],
          },
          {
            id: ids.wasteTypePackaging,
            name: 'Emballages et papiers',
            color: '#FACC15',
            details: [{ id: ids.detailPackaging, material: 'Bouteille en plastique', instructions: 'Vide, bouchon vissé' }],
          },
        ],
        wasteCollectionPlaces: [
          {
            id: ids.place,
            name: 'Centre-ville',
            collectionDays: [
              { id: ids.dayHousehold, name: 'mardi', wasteTypeId: ids.wasteTypeHousehold },
              {
                id: ids.dayPackaging,
                name: 'jeudi',
                wasteTypeId: ids.wasteTypePackaging,
                description: 'Une semaine sur deux',
                biweekly: true,
                startDate: '2026-01-05T00:00:00.000Z',
              },
            ],
            exceptions: [
              {
                id: ids.exception,
                dateFrom: '2026-12-25T00:00:00.000Z',
                dateTo: null,
                wasteTypeId: ids.wasteTypeHousehold,
                name: 'Noël',
                description: 'Collecte reportée au lendemain.',
              },
            ],
            attachedLocations: [
              { id: ids.location, name: 'Place de la Mairie', reference: 'CV-01', latitude: 45.75, longitude: 4.85 },
            ],
          },
        ],
        recyclingPoints: [
          {
            id: ids.recyclingPoint,
            name: 'Déchèterie de Testville',
            address: '1 rue du Tri, 69000 Testville',
            latitude: 45.76,
            longitude: 4.86,
            openingHours: 'Du lundi au samedi, 9 h – 18 h',
            openingHoursSpec: 'Mo-Sa 09:00-18:00; PH off',
            kind: 'CENTRE',
            materials: [ids.wasteTypePackaging],
          },
        ],
        quizQuestions: [
          {
            id: ids.quizBottle,
            material: 'Bouteille en plastique',
            question: 'Où jeter une bouteille en plastique ?',
            correctWasteTypeId: ids.wasteTypePackaging,
            order: 1,
          },
          {
            id: ids.quizDiaper,
            material: 'Couche',
            question: 'Où jeter une couche ?',
            correctWasteTypeId: ids.wasteTypeHousehold,
            order: 2,
          },
        ],
        challenges: [
          {
            id: ids.challengeBeginner,
            name: 'Débutant du tri',
            description: 'Les bases du tri',
            enabled: true,
            order: 1,
            requiredChallengeId: null,
            badge: { id: ids.badgeBeginner, name: 'Trieur débutant', icon: 'star' },
            series: [{ id: ids.serieBeginner, name: 'Série 1', order: 1, quizQuestionIds: [ids.quizBottle, ids.quizDiaper] }],
          },
          {
            id: ids.challengeExpert,
            name: 'Expert du tri',
            enabled: true,
            startDate: '2026-01-01T00:00:00.000Z',
            endDate: null,
            order: 2,
            requiredChallengeId: ids.challengeBeginner,
            badge: null,
            series: [{ id: ids.serieExpert, name: 'Série experte', order: 1, quizQuestionIds: [] }],
          },
        ],
      },
    ],
    blogPosts: [
      {
        id: ids.blogPost,
        title: 'Bien trier ses emballages',
        content: '# Bien trier\n\nTous les emballages se trient.\n\n:::tip\nVidez vos emballages, inutile de les laver.\n:::\n',
        published: true,
        publishedAt: '2026-01-15T08:00:00.000Z',
        cityGroupId: ids.cityGroup,
        createdAt: '2026-01-10T08:00:00.000Z',
        updatedAt: '2026-01-15T08:00:00.000Z',
      },
    ],
    sites: [
      {
        id: ids.site,
        name: 'Site du Val Test',
        slug: BUNDLE_SITE_SLUG,
        type: 'SITE',
        domain: 'www.valtest.example',
        settings: { locale: 'fr-FR' },
        cityGroupId: ids.cityGroup,
        pages: [
          {
            id: ids.pageHome,
            title: 'Accueil',
            slug: 'accueil',
            content: '# Bienvenue',
            seoTitle: 'Accueil – Val Test',
            seoDescription: 'La collecte des déchets au Val Test',
            publishedAt: '2026-01-10T00:00:00.000Z',
          },
          { id: ids.pageDraft, title: 'Brouillon', slug: 'brouillon', content: 'À venir', publishedAt: null },
        ],
        menus: [
          {
            id: ids.menuHeader,
            name: 'Menu principal',
            location: 'header',
            items: [
              { id: ids.itemHome, label: 'Accueil', linkType: 'PAGE', pageId: ids.pageHome, order: 1 },
              {
                id: ids.itemMore,
                label: 'En savoir plus',
                linkType: 'NONE',
                order: 2,
                children: [
                  { id: ids.itemExternal, label: 'ADEME', linkType: 'EXTERNAL', externalUrl: 'https://www.ademe.fr', order: 1 },
                  { id: ids.itemDraft, label: 'Brouillon', linkType: 'PAGE', pageId: ids.pageDraft, order: 2 },
                ],
              },
            ],
          },
        ],
      },
      {
        id: ids.app,
        name: 'Appli Val Test',
        slug: BUNDLE_APP_SLUG,
        type: 'APP',
        theme: { primaryColor: '#0E7490' },
        cityGroupId: ids.cityGroup,
        pages: [
          { id: ids.pageAppHome, title: 'Accueil appli', slug: 'accueil', content: 'Bonjour', publishedAt: '2026-01-10T00:00:00.000Z' },
        ],
        menus: [
          {
            id: ids.menuApp,
            name: 'Menu appli',
            location: 'tabbar',
            items: [{ id: ids.itemAppHome, label: 'Accueil', linkType: 'PAGE', pageId: ids.pageAppHome, order: 1 }],
          },
        ],
      },
    ],
    media: [
      {
        id: ids.media,
        filename: 'logo.png',
        mimeType: 'image/png',
        public: true,
        alt: 'Logo du Val Test',
        cityGroupId: ids.cityGroup,
        path: BUNDLE_MEDIA_PATH,
      },
    ],
  };
}

/** A PNG of BUNDLE_MEDIA_SIZE, generated with sharp. */
export async function bundlePng(): Promise<Buffer> {
  return sharp({
    create: { ...BUNDLE_MEDIA_SIZE, channels: 3, background: { r: 14, g: 116, b: 144 } },
  })
    .png()
    .toBuffer();
}

export interface BundleDir {
  /** The bundle's folder (with media/logo.png). */
  dir: string;
  /** bundle.json in that folder. */
  file: string;
  /** An empty folder to use as MEDIA_DIR. */
  mediaDir: string;
  bundle: Bundle;
}

/**
 * Writes a bundle (the valid one by default) and its PNG into a new temporary folder, removed when
 * the test ends (when `t` is given).
 */
export async function writeBundleDir(
  t?: { after: (fn: () => Promise<void>) => void },
  bundle: unknown = validBundle(),
): Promise<BundleDir> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'collecte-bundle-'));
  t?.after(() => fs.rm(root, { recursive: true, force: true }));
  const dir = path.join(root, 'bundle');
  const mediaDir = path.join(root, 'media-store');
  await fs.mkdir(path.join(dir, path.dirname(BUNDLE_MEDIA_PATH)), { recursive: true });
  await fs.mkdir(mediaDir, { recursive: true });
  await fs.writeFile(path.join(dir, BUNDLE_MEDIA_PATH), await bundlePng());
  const file = path.join(dir, 'bundle.json');
  await fs.writeFile(file, JSON.stringify(bundle, null, 2));
  return { dir, file, mediaDir, bundle: bundle as Bundle };
}

/**
 * Imports the valid bundle into a database (for route tests): answers the folders and the summary.
 * `now` defaults to 2026-02-01T00:00:00.000Z.
 */
export async function importValidBundle(
  t: { after: (fn: () => Promise<void>) => void },
  database: Database,
  options: { bundle?: Bundle; now?: Date } = {},
): Promise<BundleDir & { summary: ImportSummary }> {
  const written = await writeBundleDir(t, options.bundle ?? validBundle());
  const summary = await importBundle(database, written.bundle, {
    baseDir: written.dir,
    mediaDir: written.mediaDir,
    now: options.now ?? new Date('2026-02-01T00:00:00.000Z'),
  });
  return { ...written, summary };
}
