import { loadAdemeProducts, materialsOf, type MaterialChoice, type Stream } from './sorting.ts';

/**
 * What no bin takes, as a city's guide lists it: the recycling centre (« Déchèterie »), the pharmacy for
 * medicines and needles, and, where the commune has a textile bank, « Textiles ». None of them is collected
 * door to door: these waste types have no collection day, and the assistant points to the drop-off points
 * named after them (recycling points whose name holds "Déchèterie" or "textile").
 *
 * The materials are ADEME's products whose text sends them to a déchèterie (most have `recyclingCentre`;
 * batteries, lamps and electrical appliances do not, as shops take them back too, but their text names the
 * déchèterie) or to a pharmacy (`pharmacy`). National sentences that contradict the local rule (a door-to-door
 * collection of bulky waste, which the demo communes do not have) are left out and the local rule is said.
 */

const NO_BULKY_COLLECTION = [/chargés? des encombrants/];
const TEXT_ERRATUM = [/ancien radiateur/];

const DECHETERIE_CHOICES: MaterialChoice[] = [
  { id: 268 }, // Pile jetable
  { id: 269 }, // Pile rechargeable
  { id: 39 }, // Batterie (accumulateur)
  { id: 40, alsoKnownAs: ['Batterie de voiture'] }, // Batterie automobile
  { id: 410 }, // Ampoule
  { id: 12 }, // Ampoule basse consommation
  { id: 352 }, // Tube fluorescent (néon)
  { id: 265 }, // Petit électroménager
  { id: 226 }, // Micro-ondes
  { id: 180 }, // Gros électroménager
  { id: 295 }, // Réfrigérateur
  { id: 211 }, // Machine à laver
  {
    id: 335, // Téléviseur: ADEME's text speaks of a radiator in its last sentence.
    alsoKnownAs: ['Télé'],
    drop: TEXT_ERRATUM,
    local: 'Dans le cadre de l’achat d’un téléviseur neuf, rapportez l’ancien à votre revendeur ou faites-le reprendre gratuitement en cas de livraison.',
  },
  { id: 225 }, // Meuble
  { id: 80 }, // Canapé
  {
    id: 216, // Matelas
    drop: NO_BULKY_COLLECTION,
    local: 'Dans votre commune : pas de collecte des encombrants en porte-à-porte ; apportez-le à la déchèterie, benne « mobilier ».',
  },
  { id: 178 }, // Gravats
  { id: 187 }, // Huile de vidange
  { id: 186 }, // Huile de friture
  { id: 262 }, // Peinture synthétique
  { id: 259 }, // Peinture à l'eau
  { id: 285 }, // Produit chimique
  { id: 275 }, // Pneu
  { id: 233, alsoKnownAs: ['Ferraille'], local: 'À la déchèterie : benne « ferraille et métaux ».' }, // Morceaux de métal
  {
    id: 232, // Morceaux de bois
    drop: NO_BULKY_COLLECTION,
    local: 'À la déchèterie : benne « bois ».',
  },
  { id: 227 }, // Miroir
  { id: 366 }, // Vitre
  { id: 87 }, // Carton d'emballage de grande taille
  { id: 240 }, // Ordinateur fixe
  { id: 241 }, // Ordinateur portable
  { id: 89 }, // Cartouche d'impression (à jet d'encre, laser): its text names the déchèterie among the collection points
];

/** Clothes, household linen and shoes: ADEME's products of the textile stream. */
const TEXTILE_IDS = [364, 339, 96, 203];
const TEXTILE_BANK_LOCAL = 'Dans votre commune : borne textile du supermarché, rue du Commerce, ou conteneur textile de la déchèterie.';
const TEXTILE_CENTRE_LOCAL = 'Dans votre commune : conteneur textile de la déchèterie.';

const PHARMACIE_CHOICES: MaterialChoice[] = [
  { id: 222 }, // Médicaments
  { id: 313 }, // Seringue avec aiguille
  { id: 5 }, // Aiguille usagée (médicale)
  {
    id: 293, // Radiographie: ADEME names a déchèterie « if a specific bin exists » (none in the demo's), then pharmacies.
    override: 'Rapportez-les à une pharmacie ou à un cabinet de radiologie qui les accepte : l’argent qu’elles contiennent est récupéré.',
  },
];

const DECHETERIE: Omit<Stream, 'materials'> = {
  key: 'decheterie',
  name: 'Déchèterie',
  description:
    'Ce qui ne va dans aucune poubelle : encombrants, électroménager, piles et ampoules, déchets dangereux, gravats, bois et métaux. ' +
    'Pas de collecte en porte-à-porte : apportez-les en déchèterie.',
  instructions:
    'Triez vos apports avant de venir et déposez-les dans les bennes et bornes indiquées par l’agent d’accueil. ' +
    'Produits dangereux (peintures, solvants, produits chimiques) dans leur emballage d’origine, fermé : jamais dans une poubelle ni dans l’évier. ' +
    'Accès gratuit pour les particuliers, sur présentation d’un justificatif de domicile.',
  color: '#6B7A8F',
  colorLight: '#E5E9EF',
  icon: 'warehouse',
};

const TEXTILES: Omit<Stream, 'materials'> = {
  key: 'textiles',
  name: 'Textiles',
  description: 'Vêtements, linge de maison et chaussures, même usés ou déchirés : ils sont triés pour être portés à nouveau ou recyclés.',
  instructions:
    'Déposez-les propres et secs, en sacs fermés, dans la borne textile ; les chaussures liées par paires. Textiles mouillés ou souillés : ordures ménagères.',
  color: '#7C3AED',
  colorLight: '#EDE9FE',
  icon: 'tshirt-crew-outline',
};

const PHARMACIE: Omit<Stream, 'materials'> = {
  key: 'pharmacie',
  name: 'Pharmacie',
  description: 'Médicaments non utilisés, périmés ou non, et déchets de soins piquants : les pharmacies les reprennent gratuitement.',
  instructions:
    'Rapportez les médicaments, sans leur boîte en carton ni leur notice (elles se trient avec les emballages et papiers), dans n’importe quelle pharmacie. ' +
    'Aiguilles et seringues : dans la boîte à aiguilles remise par la pharmacie, à rapporter pleine.',
  color: '#047857',
  colorLight: '#D1FAE5',
  icon: 'pill',
};

/** The ADEME products the drop-off streams use (scripts/demo/vendor-ademe.ts). */
export const dropOffAdemeIds = (): number[] => [...DECHETERIE_CHOICES, ...PHARMACIE_CHOICES].map((c) => c.id).concat(TEXTILE_IDS);

/** A city's streams beyond the bins: textiles are a stream of their own where the commune has a textile bank. */
export function dropOffStreams(textileBank: boolean): Stream[] {
  const products = loadAdemeProducts();
  const textiles = materialsOf(
    products,
    TEXTILE_IDS.map((id) => ({ id, local: textileBank ? TEXTILE_BANK_LOCAL : TEXTILE_CENTRE_LOCAL })),
  );
  const decheterie = materialsOf(products, DECHETERIE_CHOICES);
  const pharmacie = materialsOf(products, PHARMACIE_CHOICES);
  return textileBank
    ? [{ ...DECHETERIE, materials: decheterie }, { ...TEXTILES, materials: textiles }, { ...PHARMACIE, materials: pharmacie }]
    : [{ ...DECHETERIE, materials: [...decheterie, ...textiles] }, { ...PHARMACIE, materials: pharmacie }];
}
