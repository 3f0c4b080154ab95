import type { BundleBlogPost } from '../../src/bundle/schema.ts';
import { parisTime } from './dates.ts';
import { demoId } from './ids.ts';
import { mediaUrl } from './media.ts';

/**
 * Blog posts in MDX (CONTRACT section 5): headings, lists, links and the `:::tip` / `:::warning` /
 * `:::info` callouts clients render. No `{`, `<` or HTML comments, which MDX would read as code.
 */

interface PostDefinition {
  key: string;
  group: 'BM' | 'CCPA';
  title: string;
  /** Paris wall-clock publication; null: a draft. */
  published: { day: string; time: string } | null;
  content: string;
}

const POSTS: PostDefinition[] = [
  {
    key: 'extension-consignes',
    group: 'BM',
    title: 'Tous les emballages se trient dans le bac jaune',
    published: { day: '2026-03-16', time: '09:00' },
    content: `# Tous les emballages se trient

Depuis l'extension des consignes de tri, **plus besoin de se poser de questions** : tous les emballages
et tous les papiers vont dans le bac jaune.

![Les cinq bacs de tri](${mediaUrl('banniere')})

## Ce qui change

- les pots de yaourt, barquettes et films plastiques rejoignent le bac jaune ;
- les bouteilles, flacons, briques, boîtes de conserve et canettes y restent ;
- les papiers, journaux, magazines et enveloppes aussi.

:::tip
Inutile de laver les emballages : il suffit de **bien les vider**. Déposez-les en vrac, sans sac
et sans les imbriquer les uns dans les autres.
:::

:::warning
Le verre ne va jamais dans le bac jaune : déposez bouteilles, pots et bocaux dans les colonnes à verre.
:::

Retrouvez toutes les consignes dans le [guide du tri](${mediaUrl('guide-du-tri')}).
`,
  },
  {
    key: 'biodechets',
    group: 'BM',
    title: 'Biodéchets : le bac marron arrive dans votre quartier',
    published: { day: '2026-06-02', time: '10:30' },
    content: `# Le bac marron arrive dans votre quartier

Un tiers de notre poubelle grise est fait de **déchets de cuisine**. Triés à part, ils deviennent du
compost pour les agriculteurs du Finistère et du biogaz.

## Comment ça marche

1. Vous recevez un bio-seau et des sacs kraft.
2. Vous y mettez épluchures, restes de repas, marc de café, sachets de thé et coquilles d'œufs.
3. Vous videz le bio-seau dans le bac à couvercle marron, collecté chaque semaine.

:::tip
Glissez une feuille de papier journal au fond du bio-seau : elle absorbe l'humidité et limite les odeurs.
:::

:::info
Vous avez un jardin ? Le compostage à domicile reste la meilleure solution. Des composteurs sont
proposés à prix réduit par Brest Métropole.
:::
`,
  },
  {
    key: 'fetes-de-fin-annee',
    group: 'BM',
    title: 'Fêtes de fin d’année : les collectes de Noël et du jour de l’an',
    published: { day: '2026-11-18', time: '08:00' },
    content: `# Collectes pendant les fêtes

Le **vendredi 25 décembre** et le **vendredi 1er janvier**, il n'y a pas de collecte. Les tournées de
ces jours-là sont reportées au **samedi** qui suit.

## Les bons réflexes

- le verre des réveillons va dans les colonnes à verre, en journée ;
- les papiers cadeaux non plastifiés et les cartons pliés vont dans le bac jaune ;
- les rubans, le bolduc et les papiers métallisés vont dans le bac gris.

:::tip
Après les fêtes, déposez votre sapin naturel en déchèterie, sans sac, sans neige artificielle et
sans décorations : il sera broyé et composté.
:::

:::warning
Les déchèteries sont fermées le 25 décembre et le 1er janvier.
:::
`,
  },
  {
    key: 'encombrants-brouillon',
    group: 'BM',
    title: 'Brouillon : nouvelle collecte des encombrants sur rendez-vous',
    published: null,
    content: `# Encombrants sur rendez-vous

Texte en préparation : dates et modalités à confirmer avec le service propreté.

:::info
Ne pas publier avant la validation du calendrier 2027.
:::
`,
  },
  {
    key: 'abers-decheteries',
    group: 'CCPA',
    title: 'Déchèteries du Pays des Abers : les horaires d’hiver',
    published: { day: '2026-10-26', time: '09:00' },
    content: `# Les horaires d'hiver des déchèteries

Du **1er novembre au 28 février**, les déchèteries de Plabennec, Plouguerneau et Lannilis ferment à
**17 h 30** au lieu de 18 h.

## Ce que vous pouvez y déposer

- déchets verts, bois, ferraille et cartons volumineux ;
- meubles, matelas et appareils électriques ;
- peintures, solvants et autres produits dangereux, dans leur emballage d'origine.

:::tip
Venez en milieu de semaine et en début d'après-midi : c'est là que l'attente est la plus courte.
:::

Plus d'informations sur le [site de la communauté de communes](https://www.pays-des-abers.fr).
`,
  },
  {
    key: 'abers-compostage',
    group: 'CCPA',
    title: 'Compostage : des composteurs à prix réduit',
    published: { day: '2026-04-08', time: '14:00' },
    content: `# Compostez au jardin

Près de la moitié du contenu de notre poubelle peut être compostée. La communauté de communes propose
des **composteurs en bois** de 400 litres à prix réduit.

![Les bacs de collecte du Pays des Abers](${mediaUrl('bacs')})

## Les bons dosages

- **matières vertes** : épluchures, restes de repas, tontes fraîches ;
- **matières brunes** : feuilles mortes, petits branchages broyés, carton brun.

:::tip
Alternez une couche de matières vertes et une couche de matières brunes, et mélangez une fois par mois.
:::

:::warning
Pas de viande ni de poisson en grande quantité dans un composteur de jardin : ils attirent les nuisibles.
:::
`,
  },
];

export function blogPosts(groupIds: Record<'BM' | 'CCPA', string>): BundleBlogPost[] {
  return POSTS.map((post) => {
    const publishedAt = post.published ? parisTime(post.published.day, post.published.time) : null;
    const createdAt = publishedAt ?? '2026-11-16T14:12:00.000Z';
    return {
      id: demoId(`blog:${post.key}`),
      title: post.title,
      content: post.content,
      published: post.published !== null,
      publishedAt,
      cityGroupId: groupIds[post.group],
      createdAt,
      updatedAt: createdAt,
    };
  });
}
