import type { BundleMenuItem, BundlePage, BundleSite } from '../../src/bundle/schema.ts';
import { parisTime } from './dates.ts';
import { demoId } from './ids.ts';
import { mediaId, mediaUrl } from './media.ts';

/**
 * One SITE (the public website) and one APP (the citizen app) of Brest Métropole, with pages in every
 * publication state and menus nesting PAGE, EXTERNAL and NONE items.
 */

interface PageDefinition {
  slug: string;
  title: string;
  seoDescription: string;
  /** Paris day of publication; null: never published (a draft). */
  publishedDay: string | null;
  content: string;
}

function page(siteKey: string, p: PageDefinition): BundlePage {
  const publishedAt = p.publishedDay ? parisTime(p.publishedDay, '09:00') : null;
  const createdAt = parisTime(p.publishedDay && p.publishedDay < '2026-11-01' ? p.publishedDay : '2026-11-02', '08:00');
  return {
    id: demoId(`${siteKey}/page:${p.slug}`),
    title: p.title,
    slug: p.slug,
    content: p.content,
    seoTitle: `${p.title} | Brest Métropole`,
    seoDescription: p.seoDescription,
    publishedAt,
    createdAt,
    updatedAt: createdAt,
  };
}

const SITE_KEY = 'site:brest-dechets';
/** A reserved example domain: the demo must not point at anyone's real site. */
const SITE_DOMAIN = 'dechets.brest-metropole.example';
const APP_KEY = 'site:collecte-brest-app';

const SITE_PAGES: PageDefinition[] = [
  {
    slug: 'accueil',
    title: 'Accueil',
    seoDescription: 'Collecte des déchets, tri et déchèteries à Brest Métropole.',
    publishedDay: '2026-09-14',
    content: `# Bienvenue sur le site du tri et de la collecte

![Les cinq bacs de tri devant la rade](${mediaUrl('banniere')})

Jours de collecte de votre rue, consignes de tri, déchèteries : tout est ici.

:::tip
Téléchargez le [guide du tri](${mediaUrl('guide-du-tri')}) et affichez-le près de vos poubelles.
:::
`,
  },
  {
    slug: 'consignes-de-tri',
    title: 'Consignes de tri',
    seoDescription: 'Ce qui va dans chaque bac : gris, jaune, marron, vert et colonnes à verre.',
    publishedDay: '2026-09-14',
    content: `# Consignes de tri

- **Bac jaune** : tous les emballages et tous les papiers ;
- **Colonnes à verre** : bouteilles, pots et bocaux ;
- **Bac marron** : déchets de cuisine ;
- **Bac vert** : déchets du jardin, de mars à novembre ;
- **Bac gris** : tout le reste.

:::warning
Les piles, ampoules, peintures et appareils électriques ne vont dans aucun bac : apportez-les en déchèterie
ou chez un distributeur.
:::
`,
  },
  {
    slug: 'calendrier-de-collecte',
    title: 'Calendrier de collecte',
    seoDescription: 'Les jours de collecte de votre secteur et les reports des jours fériés.',
    publishedDay: '2026-09-14',
    content: `# Calendrier de collecte

Choisissez votre commune puis votre secteur dans l'application pour connaître vos jours de collecte.

:::info
Quand un jour de collecte tombe un jour férié, la collecte est reportée au lendemain.
:::
`,
  },
  {
    slug: 'decheteries',
    title: 'Déchèteries',
    seoDescription: 'Adresses et horaires des déchèteries de Brest Métropole.',
    publishedDay: '2026-09-21',
    content: `# Déchèteries

Six déchèteries accueillent les particuliers du lundi au samedi, de 9 h à 12 h et de 14 h à 18 h.

## Ce qui est accepté

- déchets verts, bois, ferraille, gravats ;
- meubles, matelas, appareils électriques ;
- produits dangereux dans leur emballage d'origine.
`,
  },
  {
    slug: 'mentions-legales',
    title: 'Mentions légales',
    seoDescription: 'Éditeur du site et protection des données.',
    publishedDay: '2026-09-14',
    content: `# Mentions légales

Site de démonstration du projet libre Collecte. Les consignes de tri s'appuient sur les données
« Que faire de mes déchets » de l'ADEME.
`,
  },
  {
    slug: 'calendrier-2027',
    title: 'Nouveau calendrier 2027',
    seoDescription: 'Les nouvelles tournées de collecte à partir de janvier 2027.',
    publishedDay: '2027-01-04',
    content: `# Le calendrier 2027

Les tournées changent le 4 janvier 2027 dans plusieurs secteurs. Vérifiez vos nouveaux jours.
`,
  },
  {
    slug: 'encombrants',
    title: 'Collecte des encombrants',
    seoDescription: 'Brouillon.',
    publishedDay: null,
    content: `# Collecte des encombrants

Page en préparation.
`,
  },
];

const APP_PAGES: PageDefinition[] = [
  {
    slug: 'bienvenue',
    title: 'Bienvenue',
    seoDescription: 'Découvrir l’application Collecte Brest.',
    publishedDay: '2026-09-14',
    content: `# Bienvenue

Choisissez votre commune et votre secteur : l'application vous rappelle quel bac sortir, et quand.
`,
  },
  {
    slug: 'aide',
    title: 'Aide',
    seoDescription: 'Questions fréquentes sur l’application.',
    publishedDay: '2026-09-14',
    content: `# Aide

## Je ne trouve pas ma rue

Choisissez le secteur le plus proche, puis écrivez-nous depuis l'assistant.

:::tip
L'assistant répond aussi aux questions de tri : « Où jeter une brique de lait ? »
:::
`,
  },
  {
    slug: 'a-propos',
    title: 'À propos',
    seoDescription: 'L’application de la collecte des déchets de Brest Métropole.',
    publishedDay: '2026-10-05',
    content: `# À propos

Application de démonstration du projet libre Collecte.
`,
  },
  {
    slug: 'defis-2027',
    title: 'Les défis 2027',
    seoDescription: 'Brouillon.',
    publishedDay: null,
    content: `# Les défis 2027

Page en préparation.
`,
  },
];

function item(
  siteKey: string,
  key: string,
  label: string,
  link: { page: string } | { url: string } | null,
  order: number,
  children: BundleMenuItem[] = [],
): BundleMenuItem {
  return {
    id: demoId(`${siteKey}/menu-item:${key}`),
    label,
    linkType: link === null ? 'NONE' : 'page' in link ? 'PAGE' : 'EXTERNAL',
    pageId: link && 'page' in link ? demoId(`${siteKey}/page:${link.page}`) : null,
    externalUrl: link && 'url' in link ? link.url : null,
    order,
    children,
  };
}

function brestSite(groupId: string): BundleSite {
  const k = SITE_KEY;
  return {
    id: demoId(k),
    name: 'Brest Métropole – Tri et collecte',
    slug: 'brest-dechets',
    type: 'SITE',
    domain: SITE_DOMAIN,
    settings: {
      locale: 'fr-FR',
      logoMediaId: mediaId('logo'),
      bannerMediaId: mediaId('banniere'),
      contactEmail: 'dechets@brest-metropole.example',
    },
    theme: null,
    cityGroupId: groupId,
    createdAt: '2026-09-14T07:00:00.000Z',
    updatedAt: '2026-11-02T07:00:00.000Z',
    pages: SITE_PAGES.map((p) => page(k, p)),
    menus: [
      {
        id: demoId(`${k}/menu:header`),
        name: 'Menu principal',
        location: 'header',
        items: [
          item(k, 'accueil', 'Accueil', { page: 'accueil' }, 1),
          item(k, 'trier', 'Trier ses déchets', null, 2, [
            item(k, 'consignes', 'Consignes de tri', { page: 'consignes-de-tri' }, 1),
            item(k, 'calendrier', 'Calendrier de collecte', { page: 'calendrier-de-collecte' }, 2),
            item(k, 'calendrier-2027', 'Calendrier 2027', { page: 'calendrier-2027' }, 3),
            // Menu links must be absolute: the site's own domain serves the API's media paths.
            item(k, 'guide', 'Guide du tri (PDF)', { url: `https://${SITE_DOMAIN}${mediaUrl('guide-du-tri')}` }, 4),
          ]),
          item(k, 'decheteries', 'Déchèteries', { page: 'decheteries' }, 3),
        ],
      },
      {
        id: demoId(`${k}/menu:footer`),
        name: 'Pied de page',
        location: 'footer',
        items: [
          item(k, 'mentions', 'Mentions légales', { page: 'mentions-legales' }, 1),
          item(k, 'ademe', 'Que faire de mes déchets (ADEME)', { url: 'https://quefairedemesdechets.ademe.fr' }, 2),
          item(k, 'brest', 'Site de Brest Métropole', { url: 'https://www.brest.fr' }, 3),
        ],
      },
    ],
  };
}

function brestApp(groupId: string): BundleSite {
  const k = APP_KEY;
  return {
    id: demoId(k),
    name: 'Collecte Brest',
    slug: 'collecte-brest-app',
    type: 'APP',
    domain: null,
    settings: { locale: 'fr-FR', defaultCityName: 'Brest', notifications: true },
    theme: {
      primaryColor: '#0B4F7C',
      secondaryColor: '#EAB308',
      backgroundColor: '#F8FAFC',
      textColor: '#0F172A',
      fontFamily: 'Marianne, system-ui, sans-serif',
      logoMediaId: mediaId('logo'),
      logoUrl: mediaUrl('logo'),
    },
    cityGroupId: groupId,
    createdAt: '2026-09-14T07:00:00.000Z',
    updatedAt: '2026-10-05T07:00:00.000Z',
    pages: APP_PAGES.map((p) => page(k, p)),
    menus: [
      {
        id: demoId(`${k}/menu:main`),
        name: 'Menu de l’application',
        location: 'main',
        items: [
          item(k, 'bienvenue', 'Accueil', { page: 'bienvenue' }, 1),
          item(k, 'aide', 'Aide', { page: 'aide' }, 2),
          item(k, 'plus', 'Plus', null, 3, [
            item(k, 'a-propos', 'À propos', { page: 'a-propos' }, 1),
            item(k, 'defis-2027', 'Les défis 2027', { page: 'defis-2027' }, 2),
            item(k, 'site', 'Le site du tri', { url: `https://${SITE_DOMAIN}` }, 3),
          ]),
        ],
      },
    ],
  };
}

export function sites(brestGroupId: string): BundleSite[] {
  return [brestSite(brestGroupId), brestApp(brestGroupId)];
}
