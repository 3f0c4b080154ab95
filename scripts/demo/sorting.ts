import { createRequire } from 'node:module';

/**
 * The sorting rules of the demo: five bins, as most French communes present them since the extension
 * of sorting instructions (every packaging in the yellow bin), with materials taken from ADEME's
 * "Que faire de mes déchets" products (vendored subset in ademe-products.json). What no bin takes
 * (déchèterie, textile bank, pharmacy) is in drop-off.ts.
 */

export interface AdemeProduct {
  id: number;
  name: string;
  code: string;
  synonyms: string[];
  whatToDo: string;
}

/** The five bins presented door to door (glass in banks). */
export type BinKey = 'ordures-menageres' | 'emballages' | 'verre' | 'biodechets' | 'dechets-verts';
/** What no bin takes: the recycling centre, the textile bank and the pharmacy (drop-off.ts). */
export type DropOffKey = 'decheterie' | 'textiles' | 'pharmacie';
export type StreamKey = BinKey | DropOffKey;

export interface Material {
  ademeId: number;
  material: string;
  description: string | null;
  instructions: string;
}

export interface Stream {
  key: StreamKey;
  name: string;
  description: string;
  instructions: string;
  color: string;
  colorLight: string;
  icon: string;
  materials: Material[];
}

export interface MaterialChoice {
  id: number;
  /** ADEME's text is national and from 2021: sentences that contradict the local rule are left out… */
  drop?: RegExp[];
  /** …and the local rule is said instead. */
  local?: string;
  /** Whole instruction, where ADEME's predates the extension of sorting instructions. */
  override?: string;
  /** Everyday names ADEME does not list ("ferraille"), said after its synonyms. */
  alsoKnownAs?: string[];
}

const NOT_IN_HOUSEHOLD_BIN = [/poubelle des ordures ménagères/];
const NATIONAL_CAVEATS = [/traitement biologique des ordures ménagères/, /poubelle des ordures ménagères/];
const BIO_LOCAL = 'Sinon : bac à biodéchets (couvercle marron), collecté chaque semaine.';
const GREEN_LOCAL = 'Dans votre commune : collecte des déchets verts (de mars à novembre) ou benne des déchets verts en déchèterie.';

const STREAM_DEFINITIONS: Array<Omit<Stream, 'materials'> & { choices: MaterialChoice[] }> = [
  {
    key: 'ordures-menageres',
    name: 'Ordures ménagères',
    description: 'Les déchets qui ne se recyclent pas et ne se compostent pas : ils sont incinérés avec récupération d’énergie.',
    instructions: 'Déposez vos déchets en sacs fermés dans le bac gris. Ni verre, ni emballages, ni déchets dangereux.',
    color: '#4B5563',
    colorLight: '#E5E7EB',
    icon: 'trash-can-outline',
    choices: [
      { id: 111 }, { id: 204 }, { id: 223 }, { id: 362 }, { id: 207 }, { id: 401 },
      // Broken crockery: the household bin, as ADEME says (the glass banks take none of it).
      { id: 355 },
      // ADEME's last sentence also names a door-to-door bulky-waste collection, which the demo communes do not have.
      { id: 194, drop: [/chargés? des encombrants/], local: 'Sinon, jetez-le dans la poubelle des ordures ménagères ; un gros jouet, ou beaucoup à la fois : en déchèterie.' },
    ],
  },
  {
    key: 'emballages',
    name: 'Emballages et papiers',
    description: 'Bac jaune : tous les emballages (plastique, métal, carton, briques) et tous les papiers se trient.',
    instructions:
      'Déposez-les en vrac dans le bac jaune, bien vidés, sans les laver ni les imbriquer. Pas de sac, pas de verre.',
    color: '#EAB308',
    colorLight: '#FEF9C3',
    icon: 'recycle',
    choices: [
      { id: 66 }, { id: 397 }, { id: 72 }, { id: 56 }, { id: 81 }, { id: 60 }, { id: 86 }, { id: 195 }, { id: 212 },
      {
        id: 280,
        override:
          'Tous les emballages en plastique se trient : déposez le pot bien vidé, sans le laver, dans le bac jaune.',
      },
      // ADEME lists « Carton à pizza » as a synonym already; a pizza box is packaging, greasy or not.
      { id: 54, override: 'Même salie, bien vidée des restes de nourriture : déposez-la dans le bac jaune, sans la laver.' },
      { id: 36 }, // Barquette en aluminium
      {
        id: 37, // Barquette en plastique (dont polystyrène): ADEME's « Exception » is the local rule.
        override: 'Tous les emballages en plastique se trient, polystyrène compris : déposez la barquette bien vidée, sans la laver, dans le bac jaune.',
      },
      // ADEME's text predates the extension of sorting instructions; the everyday singular names are said as synonyms.
      {
        id: 83,
        alsoKnownAs: ['Capsule de café', 'Dosette de café'],
        override:
          'Tous les emballages en aluminium et en plastique se trient : déposez les capsules, même avec le marc, dans le bac jaune. Les capsules en papier vont au bac à biodéchets.',
      },
    ],
  },
  {
    key: 'verre',
    name: 'Verre',
    description: 'Bouteilles, pots et bocaux en verre, recyclables à l’infini. Collectés en points d’apport volontaire.',
    instructions:
      'Déposez-les vides, sans bouchon ni couvercle, dans les colonnes à verre. Ni vaisselle ni verre à boire (ordures ménagères), ni vitres ni miroirs (déchèterie).',
    color: '#16A34A',
    colorLight: '#DCFCE7',
    icon: 'bottle-wine-outline',
    choices: [{ id: 69 }, { id: 45 }, { id: 159 }],
  },
  {
    key: 'biodechets',
    name: 'Biodéchets',
    description: 'Restes de repas et déchets de cuisine : ils deviennent du compost et du biogaz.',
    instructions:
      'Utilisez le bio-seau et les sacs kraft fournis, puis videz-les dans le bac à couvercle marron. Pas de sacs plastiques, même « compostables ».',
    color: '#92400E',
    colorLight: '#FDE9D3',
    icon: 'food-apple-outline',
    choices: [
      { id: 144, drop: NOT_IN_HOUSEHOLD_BIN, local: BIO_LOCAL },
      { id: 298, drop: NOT_IN_HOUSEHOLD_BIN, local: BIO_LOCAL },
      { id: 76, drop: NOT_IN_HOUSEHOLD_BIN, local: BIO_LOCAL },
      { id: 309, drop: NOT_IN_HOUSEHOLD_BIN, local: BIO_LOCAL },
      { id: 108, drop: NOT_IN_HOUSEHOLD_BIN, local: BIO_LOCAL },
      { id: 148, drop: NOT_IN_HOUSEHOLD_BIN, local: BIO_LOCAL },
    ],
  },
  {
    key: 'dechets-verts',
    name: 'Déchets verts',
    description: 'Tontes, tailles de haies, feuilles et petits branchages. Collecte de mars à novembre.',
    instructions:
      'Présentez-les dans le bac vert ou en fagots liés de moins d’un mètre. Pas de souches, de terre ni de cailloux.',
    color: '#65A30D',
    colorLight: '#ECFCCB',
    icon: 'leaf',
    choices: [
      { id: 127, drop: NATIONAL_CAVEATS, local: GREEN_LOCAL },
      { id: 185, drop: NATIONAL_CAVEATS, local: GREEN_LOCAL },
      { id: 153, drop: NATIONAL_CAVEATS, local: GREEN_LOCAL },
      { id: 71 },
      { id: 310 },
    ],
  },
];

/** Spelling faults of ADEME's text, corrected here so that the vendored file stays as published. */
const ADEME_CORRECTIONS: [RegExp, string][] = [
  [/\bPillule\b/g, 'Pilule'],
  [/Il n'existe par de/g, 'Il n’existe pas de'],
  [/\baccomodez\b/g, 'accommodez'],
  [/\bfabriquant\b/g, 'fabricant'],
  // « Chaussures »: « donnez-les, revendez-les, donnez-les ou déposez-les ».
  [/donnez-les, revendez-les, donnez-les\b/g, 'donnez-les, revendez-les'],
];

const corrected = (text: string) => ADEME_CORRECTIONS.reduce((out, [fault, fix]) => out.replace(fault, fix), text);

export function loadAdemeProducts(): Map<number, AdemeProduct> {
  const require = createRequire(import.meta.url);
  const file = require('./ademe-products.json') as { products: AdemeProduct[] };
  return new Map(
    file.products.map((p) => [
      p.id,
      { ...p, name: corrected(p.name), whatToDo: corrected(p.whatToDo), synonyms: p.synonyms.map(corrected) },
    ]),
  );
}

/** ADEME's HTML-ish text as plain paragraphs, without the sentences the local rule contradicts. */
function localInstructions(whatToDo: string, drop: RegExp[] = []): string {
  return whatToDo
    .split(/<br\s*\/?>/)
    .map((paragraph) =>
      paragraph
        .replace(/\s+/g, ' ')
        .trim()
        .split(/(?<=[.;])\s+/)
        .filter((sentence) => !drop.some((re) => re.test(sentence)))
        .join(' '),
    )
    .filter((paragraph) => paragraph !== '')
    .join('\n');
}

function toMaterial(product: AdemeProduct, choice: MaterialChoice): Material {
  let instructions = choice.override ?? localInstructions(product.whatToDo, choice.drop);
  if (choice.local) instructions = `${instructions}\n${choice.local}`;
  // ADEME lists spelling variants ("épluchure" for "Épluchures") that tell a citizen nothing.
  const synonyms = [
    ...product.synonyms.filter((s) => !product.name.toLowerCase().startsWith(s.toLowerCase())),
    ...(choice.alsoKnownAs ?? []),
  ];
  return {
    ademeId: product.id,
    material: product.name,
    description: synonyms.length ? `Aussi appelé : ${synonyms.join(', ')}.` : null,
    instructions,
  };
}

/** The materials of a stream, from ADEME's products as the choices adapt them. */
export function materialsOf(products: Map<number, AdemeProduct>, choices: MaterialChoice[]): Material[] {
  return choices.map((choice) => {
    const product = products.get(choice.id);
    if (!product) throw new Error(`ADEME product ${choice.id} is not in ademe-products.json`);
    return toMaterial(product, choice);
  });
}

/** The ADEME products the bins use (scripts/demo/vendor-ademe.ts keeps ademe-products.json to them and the others). */
export const binAdemeIds = (): number[] => STREAM_DEFINITIONS.flatMap((stream) => stream.choices.map((c) => c.id));

/** The five bins, the same in every city. */
export function loadStreams(): Stream[] {
  const products = loadAdemeProducts();
  return STREAM_DEFINITIONS.map(({ choices, ...stream }) => ({ ...stream, materials: materialsOf(products, choices) }));
}

export interface QuizItem {
  /** Stable name of the question, shared by every city. */
  key: string;
  ademeId: number;
  question: string;
  stream: StreamKey;
}

/** The shared quiz: one question per material, each answered by one of the city's streams. */
export const QUIZ: QuizItem[] = [
  { key: 'bouteille-plastique', ademeId: 66, stream: 'emballages', question: "Une bouteille d'eau en plastique vide, avec son bouchon : dans quel bac ?" },
  { key: 'bouteille-verre', ademeId: 69, stream: 'verre', question: 'Une bouteille de vin vide : où la déposer ?' },
  { key: 'epluchures', ademeId: 144, stream: 'biodechets', question: 'Où mettre les épluchures de légumes du dîner ?' },
  { key: 'couche', ademeId: 111, stream: 'ordures-menageres', question: 'Une couche de bébé usagée : dans quel bac ?' },
  { key: 'herbe', ademeId: 185, stream: 'dechets-verts', question: 'La tonte de votre pelouse : où va-t-elle ?' },
  { key: 'verre-a-boire', ademeId: 362, stream: 'ordures-menageres', question: 'Un verre à boire cassé va-t-il avec les bouteilles en verre ? Où le jeter ?' },
  { key: 'lingette', ademeId: 204, stream: 'ordures-menageres', question: 'Une lingette nettoyante usagée : où la jeter ?' },
  { key: 'pot-yaourt', ademeId: 280, stream: 'emballages', question: 'Un pot de yaourt en plastique, bien vidé : dans quel bac ?' },
  { key: 'megot', ademeId: 223, stream: 'ordures-menageres', question: 'Un mégot de cigarette éteint : où le jeter ?' },
  { key: 'coton', ademeId: 401, stream: 'ordures-menageres', question: 'Un coton démaquillant ou un coton-tige : dans quel bac ?' },
  { key: 'brique', ademeId: 72, stream: 'emballages', question: 'Une brique de lait vide : où la jeter ?' },
  { key: 'conserve', ademeId: 56, stream: 'emballages', question: 'Une boîte de conserve vide : dans quel bac ?' },
  { key: 'aerosol', ademeId: 60, stream: 'emballages', question: 'Une bombe de chantilly vide : où la déposer ?' },
  { key: 'canette', ademeId: 81, stream: 'emballages', question: 'Une canette de soda vide : dans quel bac ?' },
  { key: 'journal', ademeId: 195, stream: 'emballages', question: "Le journal d'hier, une fois lu : où le mettre ?" },
  { key: 'bocal', ademeId: 45, stream: 'verre', question: 'Un pot de confiture en verre, vide et sans couvercle : où le déposer ?' },
  { key: 'parfum', ademeId: 159, stream: 'verre', question: 'Un flacon de parfum en verre vide : où le jeter ?' },
  { key: 'magazine', ademeId: 212, stream: 'emballages', question: 'Un magazine avec ses agrafes : dans quel bac ?' },
  { key: 'marc-cafe', ademeId: 76, stream: 'biodechets', question: 'Le marc de café et son filtre en papier : où les jeter ?' },
  { key: 'coquilles', ademeId: 108, stream: 'biodechets', question: "Des coquilles d'œufs : dans quel bac ?" },
  { key: 'sachet-the', ademeId: 309, stream: 'biodechets', question: 'Un sachet de thé usagé : où le jeter ?' },
  { key: 'restes', ademeId: 298, stream: 'biodechets', question: 'Les restes du repas de midi : où vont-ils ?' },
  { key: 'branchages', ademeId: 71, stream: 'dechets-verts', question: 'De petits branchages après la taille de la haie : où les déposer ?' },
  { key: 'feuilles', ademeId: 153, stream: 'dechets-verts', question: 'Les feuilles mortes ramassées dans le jardin : où vont-elles ?' },
  { key: 'sapin', ademeId: 310, stream: 'dechets-verts', question: 'Votre sapin de Noël naturel, après les fêtes : où le déposer ?' },
  // What no bin takes: every city has these two streams (drop-off.ts).
  { key: 'piles', ademeId: 268, stream: 'decheterie', question: 'Des piles usagées de la télécommande : où les déposer ?' },
  { key: 'ampoule', ademeId: 12, stream: 'decheterie', question: 'Une ampoule basse consommation grillée : où la déposer ?' },
  { key: 'peinture', ademeId: 262, stream: 'decheterie', question: 'Un pot de peinture glycéro à moitié plein : où le jeter ?' },
  { key: 'frigo', ademeId: 295, stream: 'decheterie', question: 'Un vieux réfrigérateur qui ne marche plus : où l’apporter ?' },
  { key: 'medicaments', ademeId: 222, stream: 'pharmacie', question: 'Des médicaments périmés : où les rapporter ?' },
];
