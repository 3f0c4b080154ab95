import type { BundleChallenge, BundleQuizQuestion } from '../../src/bundle/schema.ts';
import { addDays, parisMidnight } from './dates.ts';
import { demoId } from './ids.ts';
import { QUIZ, type Stream, type StreamKey } from './sorting.ts';

/** The shared quiz, with ids of its own in each city (a quiz question belongs to one city). */
export function quizQuestions(cityName: string, wasteTypeIds: Partial<Record<StreamKey, string>>, streams: Stream[]): BundleQuizQuestion[] {
  return QUIZ.map((item, index) => {
    const stream = streams.find((s) => s.key === item.stream);
    const material = stream?.materials.find((m) => m.ademeId === item.ademeId)?.material;
    const correctWasteTypeId = wasteTypeIds[item.stream];
    if (!material || !correctWasteTypeId) throw new Error(`quiz question ${item.key}: ADEME product ${item.ademeId} is not a material of ${item.stream}`);
    return {
      id: demoId(`${cityName}/quiz:${item.key}`),
      material,
      question: item.question,
      correctWasteTypeId,
      order: index + 1,
    };
  });
}

/** The last millisecond of a day in Europe/Paris, for challenge windows that end "on" a day. */
function endOfDay(day: string): string {
  return new Date(Date.parse(parisMidnight(addDays(day, 1))) - 1).toISOString();
}

interface SerieDefinition {
  key: string;
  name: string;
  description: string;
  questions: string[];
}

interface ChallengeDefinition {
  key: string;
  name: string;
  description: string;
  startDay: string;
  /** null: open-ended. */
  endDay: string | null;
  requires: string | null;
  badge: { name: string; description: string; icon: string };
  series: SerieDefinition[];
}

/**
 * Three challenges, available in November 2026: an open-ended one to start with, a second that needs
 * the first, and a seasonal one.
 */
const CHALLENGES: ChallengeDefinition[] = [
  {
    key: 'bases-du-tri',
    name: 'Les bases du tri',
    description: 'Cinq bacs, cinq réflexes, et ce qui ne va dans aucun bac : vérifiez que vous savez où va chaque déchet du quotidien.',
    startDay: '2026-01-05',
    endDay: null,
    requires: null,
    badge: { name: 'Apprenti trieur', description: 'A réussi le défi « Les bases du tri ».', icon: 'medal-outline' },
    series: [
      { key: 'cinq-bacs', name: 'Les cinq bacs', description: 'Un déchet pour chaque bac.', questions: ['bouteille-plastique', 'bouteille-verre', 'epluchures', 'couche', 'herbe'] },
      { key: 'pieges', name: 'Les pièges courants', description: 'Ils ont l’air recyclables… ou pas.', questions: ['verre-a-boire', 'lingette', 'pot-yaourt', 'megot', 'coton'] },
      { key: 'hors-des-bacs', name: 'Ni bac ni poubelle', description: 'Piles, ampoules, peinture, électroménager, médicaments : déchèterie ou pharmacie ?', questions: ['piles', 'ampoule', 'peinture', 'frigo', 'medicaments'] },
    ],
  },
  {
    key: 'expert-bac-jaune',
    name: 'Expert du bac jaune',
    description: 'Emballages, papiers et verre : passez au niveau supérieur. Réservé à ceux qui ont réussi « Les bases du tri ».',
    startDay: '2026-09-01',
    endDay: '2027-06-30',
    requires: 'bases-du-tri',
    badge: { name: 'Expert du bac jaune', description: 'Connaît tous les emballages qui se recyclent.', icon: 'trophy-outline' },
    series: [
      { key: 'plastique-metal', name: 'Plastique et métal', description: 'Bouteilles, briques, boîtes et canettes.', questions: ['brique', 'conserve', 'aerosol', 'canette'] },
      { key: 'papiers-verre', name: 'Papiers et verre', description: 'Ce qui se lit et ce qui se boit.', questions: ['journal', 'bocal', 'parfum', 'magazine'] },
    ],
  },
  {
    key: 'cuisine-jardin',
    name: 'Cuisine et jardin',
    description: 'Biodéchets et déchets verts : le défi de l’hiver, du marc de café au sapin de Noël.',
    startDay: '2026-10-01',
    endDay: '2027-03-31',
    requires: null,
    badge: { name: 'Main verte', description: 'Sait valoriser les déchets de cuisine et de jardin.', icon: 'sprout-outline' },
    series: [
      { key: 'cuisine', name: 'En cuisine', description: 'Ce qui part au compost.', questions: ['marc-cafe', 'coquilles', 'sachet-the', 'restes'] },
      { key: 'jardin', name: 'Au jardin', description: 'Tailles, feuilles et sapin.', questions: ['branchages', 'feuilles', 'sapin'] },
    ],
  },
];

export function challenges(cityName: string): BundleChallenge[] {
  const idOf = (key: string) => demoId(`${cityName}/challenge:${key}`);
  return CHALLENGES.map((c, index) => ({
    id: idOf(c.key),
    name: c.name,
    description: c.description,
    enabled: true,
    startDate: parisMidnight(c.startDay),
    endDate: c.endDay ? endOfDay(c.endDay) : null,
    order: index + 1,
    requiredChallengeId: c.requires ? idOf(c.requires) : null,
    badge: { id: demoId(`${cityName}/challenge:${c.key}/badge`), ...c.badge, imageUrl: null },
    series: c.series.map((s, serieIndex) => ({
      id: demoId(`${cityName}/challenge:${c.key}/serie:${s.key}`),
      name: s.name,
      description: s.description,
      order: serieIndex + 1,
      quizQuestionIds: s.questions.map((q) => {
        if (!QUIZ.some((item) => item.key === q)) throw new Error(`serie ${s.key}: unknown quiz question ${q}`);
        return demoId(`${cityName}/quiz:${q}`);
      }),
    })),
  }));
}
