import { createRequire } from 'node:module';

/**
 * The two real intercommunalités of the demo, read from @etalab/decoupage-administratif (names, SIREN,
 * populations), plus what that data set lacks: approximate centres of the communes and believable sector
 * and street names for their collection places.
 */

interface EtalabMember {
  code: string;
  siren: string;
  nom: string;
  populationMunicipale: number;
}

interface EtalabEpci {
  code: string;
  nom: string;
  type: string;
  membres: EtalabMember[];
}

export interface Commune {
  /** INSEE code, the stable name of the city in the demo's ids. */
  insee: string;
  name: string;
  population: number;
  postcode: string;
  lat: number;
  lon: number;
  active: boolean;
  /** Collection places: a sector name and its streets. */
  sectors: Sector[];
}

export interface Sector {
  name: string;
  /** The streets of its attached locations (all of them among its street rules, streets.ts). */
  streets: string[];
  /**
   * Where the sector lies from the commune's centre, in degrees counter-clockwise from east, when known (Brest's
   * quarters); else a stable invented direction. The first sector is on the centre.
   */
  bearing?: number;
}

export interface Territory {
  /** The EPCI `code`, which is its SIREN. */
  siren: string;
  name: string;
  /** Readable French label of the EPCI type. */
  type: string;
  code: string;
  chatEnabled: boolean;
  /** The group's contact block (invented, see DEMO_EPCIS). */
  contact: { contactPhone: string; contactEmail: string; contactHours: string; contactAddress: string };
  communes: Commune[];
}

const EPCI_TYPE_LABELS: Record<string, string> = {
  METRO: 'Métropole',
  CU: 'Communauté urbaine',
  CA: "Communauté d'agglomération",
  CC: 'Communauté de communes',
};

/** Approximate centres (not exact, believable) and postcodes of the communes the demo uses. */
const COMMUNE_PLACES: Record<string, { lat: number; lon: number; postcode: string; sectors: Sector[] }> = {
  // Brest Métropole
  '29019': {
    lat: 48.3904, lon: -4.4861, postcode: '29200',
    sectors: [
      { name: 'Centre-ville et Recouvrance', streets: ['Rue de Siam', 'Rue Jean Jaurès', 'Rue de la Porte', 'Place Guérin'] },
      { name: 'Lambézellec et Saint-Martin', bearing: 95, streets: ['Rue Anatole France', "Rue de l'Harteloire", 'Rue Robespierre'] },
      { name: 'Saint-Marc et Bellevue', bearing: 10, streets: ['Rue du Commandant Drogou', 'Avenue Victor Le Gorgeu', 'Rue Saint-Marc'] },
    ],
  },
  '29075': {
    lat: 48.4353, lon: -4.3997, postcode: '29490',
    sectors: [
      { name: 'Centre-bourg', streets: ['Rue de Paris', 'Place Saint-Éloi', 'Rue Victor Hugo'] },
      { name: 'Coataudon', streets: ['Rue de Coataudon', 'Rue de Kerlaurent'] },
      { name: 'Kéradrien et Lavallot', streets: ['Route de Lavallot', 'Rue de Kéradrien'] },
    ],
  },
  '29189': {
    lat: 48.3725, lon: -4.3706, postcode: '29470',
    sectors: [
      { name: 'Bourg', streets: ['Rue de la Fontaine Blanche', 'Place du Calvaire', 'Rue Jean Moulin'] },
      { name: 'Le Passage', streets: ['Route du Passage', 'Rue du Passage'] },
      { name: "Kerdeniel et Lauberlac'h", streets: ['Route de Kerdeniel', "Rue de Lauberlac'h"] },
    ],
  },
  '29212': {
    lat: 48.3817, lon: -4.6194, postcode: '29280',
    sectors: [
      { name: 'Bourg', streets: ['Rue de la Mairie', "Rue Jean-Marie Le Bris", 'Place Saint-Yves'] },
      { name: 'Le Dellec', streets: ['Route du Dellec', 'Rue de Trégana'] },
      { name: 'Technopôle et Kerbader', streets: ["Rue Dumont d'Urville", 'Rue de Kerbader'] },
    ],
  },
  '29235': {
    lat: 48.4075, lon: -4.3969, postcode: '29480',
    sectors: [
      { name: 'Centre', streets: ['Rue Vincent Jézéquel', 'Place de la Libération', 'Rue Jean Jaurès'] },
      { name: "Kerhuon et bords de l'Elorn", streets: ['Rue du Passage', 'Rue de la Gare'] },
      { name: 'Camfrout', streets: ['Rue de Camfrout', 'Rue de Kerscao'] },
    ],
  },
  '29069': {
    lat: 48.4253, lon: -4.5586, postcode: '29820',
    sectors: [
      { name: 'Bourg', streets: ['Rue Charles de Gaulle', 'Place de la Libération', 'Rue de Milizac'] },
      { name: 'Kerampennec et Keroual', streets: ['Route de Keroual', 'Rue de Kerampennec'] },
    ],
  },
  '29061': {
    lat: 48.4528, lon: -4.4642, postcode: '29850',
    sectors: [
      { name: 'Bourg', streets: ['Rue de Brest', 'Place des Fusillés', 'Rue Saint-Goueznou'] },
      { name: 'Kergaradec et Penhoat', streets: ['Rue de Kergaradec', 'Rue de Penhoat'] },
    ],
  },
  '29011': {
    lat: 48.4289, lon: -4.5136, postcode: '29820',
    sectors: [{ name: 'Bourg', streets: ['Rue de Brest', 'Rue de Kerguestoc', 'Place de la Mairie'] }],
  },
  // CC du Pays des Abers
  '29160': {
    lat: 48.5019, lon: -4.4261, postcode: '29860',
    sectors: [
      { name: 'Bourg', streets: ['Rue Maréchal Leclerc', 'Place du Champ de Foire', 'Rue de la Mairie'] },
      { name: 'Hameaux et écarts', streets: ['Route de Kersaint', 'Route de Lesneven'] },
    ],
  },
  '29195': {
    lat: 48.605, lon: -4.505, postcode: '29880',
    sectors: [
      { name: 'Bourg', streets: ['Rue du Verger', "Place de l'Europe", 'Rue de la Mairie'] },
      { name: 'Lilia et Korejou', streets: ['Route de Lilia', 'Rue du Korejou'] },
    ],
  },
  '29117': {
    lat: 48.5706, lon: -4.5208, postcode: '29870',
    sectors: [
      { name: 'Bourg', streets: ['Rue Jean-Baptiste de la Salle', "Place de l'Église", 'Rue de la Gare'] },
      { name: 'Paluden', streets: ['Route de Paluden', 'Rue du Port'] },
    ],
  },
  '29209': { lat: 48.5347, lon: -4.4497, postcode: '29860', sectors: [{ name: 'Bourg et campagne', streets: ['Rue de la Libération', 'Route de Plabennec'] }] },
  '29101': { lat: 48.5869, lon: -4.5711, postcode: '29870', sectors: [{ name: "Bourg et L'Aber-Wrac'h", streets: ["Route de l'Aber-Wrac'h", 'Rue du Bourg', 'Rue des Anges'] }] },
  '29015': { lat: 48.4989, lon: -4.5039, postcode: '29860', sectors: [{ name: 'Bourg et lac', streets: ['Rue de Brest', 'Rue du Lac', 'Place de la Mairie'] }] },
  '29196': { lat: 48.5256, lon: -4.6008, postcode: '29830', sectors: [{ name: 'Bourg', streets: ['Rue de la Mairie', 'Route de Tréglonou'] }] },
  '29257': { lat: 48.5678, lon: -4.6081, postcode: '29830', sectors: [{ name: 'Bourg et littoral', streets: ['Rue de la Mairie', 'Route de Corn ar Gazel', 'Rue des Dunes'] }] },
  '29047': { lat: 48.535, lon: -4.3739, postcode: '29860', sectors: [{ name: 'Bourg', streets: ['Rue de la Mairie', 'Route de Plouvien'] }] },
  '29095': { lat: 48.4733, lon: -4.37, postcode: '29860', sectors: [{ name: 'Bourg', streets: ['Rue de la Mairie', 'Route de Guipavas'] }] },
  '29035': { lat: 48.5097, lon: -4.54, postcode: '29870', sectors: [{ name: 'Bourg', streets: ["Rue de l'Église", 'Route de Bourg-Blanc'] }] },
  '29290': { lat: 48.5522, lon: -4.5456, postcode: '29870', sectors: [{ name: 'Bourg', streets: ['Rue du Pont', 'Route de Lannilis'] }] },
  '29126': { lat: 48.545, lon: -4.4008, postcode: '29260', sectors: [{ name: 'Bourg', streets: ['Rue de la Mairie'] }] },
};

/** Loc-Brévalaire (210 inhabitants) has not joined the service yet: it shows the NON_ACTIF state. */
const INACTIVE_COMMUNES = new Set(['29126']);

/**
 * The groups' contact blocks are INVENTED (numbers in the 02 98 00 xx xx range, `.example` addresses): believable,
 * not the services' real telephone, e-mail, hours or address.
 */
const DEMO_EPCIS = [
  {
    siren: '242900314',
    code: 'BM',
    chatEnabled: true,
    contact: {
      contactPhone: '02 98 00 10 10',
      contactEmail: 'proprete@brest-metropole.example',
      contactHours: 'du lundi au vendredi, de 8\u00a0h\u00a030 à 17\u00a0h\u00a030',
      contactAddress: 'Service propreté et déchets, 24 rue Coat-ar-Guéven, 29200 Brest',
    },
  },
  {
    siren: '242900553',
    code: 'CCPA',
    chatEnabled: false,
    contact: {
      contactPhone: '02 98 00 20 20',
      contactEmail: 'dechets@pays-des-abers.example',
      contactHours: 'du lundi au vendredi, de 9\u00a0h à 12\u00a0h et de 14\u00a0h à 17\u00a0h',
      contactAddress: 'Service déchets, 58 avenue Waldeck-Rousseau, 29870 Lannilis',
    },
  },
];

export function loadTerritories(): Territory[] {
  const require = createRequire(import.meta.url);
  const epcis = require('@etalab/decoupage-administratif/data/epci.json') as EtalabEpci[];
  return DEMO_EPCIS.map(({ siren, code, chatEnabled, contact }) => {
    const epci = epcis.find((e) => e.code === siren);
    if (!epci) throw new Error(`EPCI ${siren} not found in @etalab/decoupage-administratif`);
    const type = EPCI_TYPE_LABELS[epci.type];
    if (!type) throw new Error(`no label for EPCI type ${epci.type}`);
    const communes = epci.membres.map((m): Commune => {
      const place = COMMUNE_PLACES[m.code];
      if (!place) throw new Error(`no centre known for commune ${m.code} ${m.nom}`);
      return {
        insee: m.code,
        name: m.nom,
        population: m.populationMunicipale,
        postcode: place.postcode,
        lat: place.lat,
        lon: place.lon,
        active: !INACTIVE_COMMUNES.has(m.code),
        sectors: place.sectors,
      };
    });
    return { siren: epci.code, name: epci.nom, type, code, chatEnabled, contact, communes };
  });
}
