import type { BundleFaqEntry } from '../../src/bundle/schema.ts';
import { demoId } from './ids.ts';
import type { Territory } from './territory.ts';

/**
 * A group's frequently asked questions (docs/api.md, frequently asked questions): what residents ask again and again,
 * answered with what the demo's other texts say (guidance.ts, the sites' pages), so that nothing here contradicts them.
 */
export function frequentlyAskedQuestions(territory: Territory, createdAt: string): BundleFaqEntry[] {
  const urban = territory.code === 'BM';
  const entries: [question: string, answer: string][] = [
    [
      'Quand sortir mon bac\u00a0?',
      urban
        ? 'La veille au soir du jour de collecte, après 19\u00a0h, ou le jour même avant 5\u00a0h\u00a030. Vos jours sont dans le calendrier de votre secteur.'
        : 'La veille au soir du jour de collecte\u00a0: les tournées commencent à 5\u00a0h\u00a030. Dans les hameaux, déposez-le au point de regroupement le plus proche.',
    ],
    [
      'Un jour férié tombe un jour de collecte\u00a0: que se passe-t-il\u00a0?',
      'La collecte est reportée au lendemain, samedi compris. Le calendrier de votre secteur montre le nouveau jour, et l’application vous prévient la veille si vous avez activé les rappels.',
    ],
    [
      'Mon bac n’a pas été vidé\u00a0: que faire\u00a0?',
      'Signalez-le depuis la page de votre secteur, avec «\u00a0Collecte non effectuée\u00a0?\u00a0». Vous suivez la réponse du service dans «\u00a0Mes demandes\u00a0», sur le même appareil.',
    ],
    [
      'Où déposer les piles, les ampoules et les produits dangereux\u00a0?',
      'Les piles et les ampoules dans les bacs de collecte des magasins qui en vendent, ou à la déchèterie. Les produits dangereux à la déchèterie seulement, dans leur emballage d’origine.',
    ],
    [
      'Pourquoi mon bac jaune n’a-t-il pas été vidé\u00a0?',
      'Le bac jaune est collecté une semaine sur deux\u00a0: vérifiez la semaine dans le calendrier de votre secteur. Les emballages y vont en vrac, jamais dans un sac.',
    ],
  ];
  return entries.map(([question, answer], i) => ({
    id: demoId(`${territory.siren}/faq:${i}`),
    question,
    answer,
    position: (i + 1) * 10,
    createdAt,
    updatedAt: createdAt,
  }));
}
