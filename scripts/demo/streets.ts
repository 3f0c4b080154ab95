import type { StreetSide } from '../../src/kernel/street-rules.ts';

/**
 * The streets each collection place serves (CONTRACT section 11), by INSEE code and sector name. Street names are
 * real streets of the communes or, in the small ones, names typical of a Breton bourg; which sector serves which
 * street, the number ranges and the sides are invented (believable, not the real rounds). A street named by one
 * sector only is served wholly by it; a street shared by several sectors is split by numbers and/or sides without
 * gaps, so every number of it has one place. Every street of a sector's attached locations is one of its rules
 * (collection.ts checks it).
 */

export interface StreetRuleSpec {
  street: string;
  /** Inclusive; null: open end. */
  fromNumber: number | null;
  toNumber: number | null;
  side: StreetSide;
}

/** A street split between sectors: the part this sector serves. */
function part(street: string, fromNumber: number | null, toNumber: number | null, side: StreetSide = 'ALL'): StreetRuleSpec {
  return { street, fromNumber, toNumber, side };
}

/** A whole street, or a part of one. */
export type StreetEntry = string | StreetRuleSpec;

export function ruleOf(entry: StreetEntry): StreetRuleSpec {
  return typeof entry === 'string' ? part(entry, null, null) : entry;
}

export const SECTOR_STREETS: Record<string, Record<string, StreetEntry[]>> = {
  // Brest: Rue Jean Jaurès climbs from the centre to Saint-Martin (split by numbers); Rue Général Paulet and
  // Place de Strasbourg sit between Lambézellec and Saint-Marc (split by sides).
  '29019': {
    'Centre-ville et Recouvrance': [
      'Rue de Siam', part('Rue Jean Jaurès', 1, 99), 'Rue de la Porte', 'Place Guérin', 'Rue Louis Pasteur',
      'Rue Algésiras', 'Rue de Lyon', 'Place de la Liberté', 'Cours Dajot', 'Rue Émile Zola', 'Rue Saint-Malo',
      'Rue de Glasgow',
    ],
    'Lambézellec et Saint-Martin': [
      'Rue Anatole France', "Rue de l'Harteloire", 'Rue Robespierre', part('Rue Jean Jaurès', 100, null),
      'Rue Auguste Kervern', 'Rue Mirabeau', 'Rue Massillon', 'Rue Danton', 'Rue Jules Lesven', 'Rue de Kerinou',
      part('Rue Général Paulet', null, null, 'ODD'), part('Place de Strasbourg', null, null, 'ODD'),
    ],
    'Saint-Marc et Bellevue': [
      'Rue du Commandant Drogou', 'Avenue Victor Le Gorgeu', 'Rue Saint-Marc', 'Rue de Verdun',
      "Boulevard de l'Europe", 'Rue de Quimper', 'Rue du Vieux Saint-Marc', 'Rue de Tourbian',
      part('Rue Général Paulet', null, null, 'EVEN'), part('Place de Strasbourg', null, null, 'EVEN'),
    ],
  },
  // Guipavas: Rue de Paris is the bourg's up to 99, then its odd side goes to Kéradrien and its even side to
  // Coataudon; Rue de Brest leaves the bourg towards Coataudon.
  '29075': {
    'Centre-bourg': [
      part('Rue de Paris', 1, 99), 'Place Saint-Éloi', 'Rue Victor Hugo', 'Rue Amiral Troude', part('Rue de Brest', 1, 149),
      "Rue de l'Église",
    ],
    Coataudon: ['Rue de Coataudon', 'Rue de Kerlaurent', part('Rue de Brest', 150, null), 'Rue du Vizac', part('Rue de Paris', 100, null, 'EVEN')],
    'Kéradrien et Lavallot': ['Route de Lavallot', 'Rue de Kéradrien', 'Route de Gouesnou', part('Rue de Paris', 100, null, 'ODD')],
  },
  '29189': {
    Bourg: ['Rue de la Fontaine Blanche', 'Place du Calvaire', 'Rue Jean Moulin', 'Rue de la République', 'Rue des Écoles'],
    'Le Passage': ['Route du Passage', 'Rue du Passage', 'Rue de la Grève', 'Impasse du Port'],
    "Kerdeniel et Lauberlac'h": ['Route de Kerdeniel', "Rue de Lauberlac'h", 'Route de Keramenez'],
  },
  // Plouzané: Route du Conquet runs between the bourg (odd side) and the technopôle (even side).
  '29212': {
    Bourg: ['Rue de la Mairie', 'Rue Jean-Marie Le Bris', 'Place Saint-Yves', 'Rue de Brest', part('Route du Conquet', null, null, 'ODD')],
    'Le Dellec': ['Route du Dellec', 'Rue de Trégana', 'Route de la Trinité', 'Rue du Minou'],
    'Technopôle et Kerbader': ["Rue Dumont d'Urville", 'Rue de Kerbader', 'Rue Alain Colas', part('Route du Conquet', null, null, 'EVEN')],
  },
  // Le Relecq-Kerhuon: Rue Vincent Jézéquel goes down from the centre to Kerhuon.
  '29235': {
    Centre: [part('Rue Vincent Jézéquel', 1, 79), 'Place de la Libération', 'Rue Jean Jaurès', 'Rue Victor Hugo', 'Rue Anatole France'],
    "Kerhuon et bords de l'Elorn": ['Rue du Passage', 'Rue de la Gare', part('Rue Vincent Jézéquel', 80, null), 'Rue de Kerhuon'],
    Camfrout: ['Rue de Camfrout', 'Rue de Kerscao', 'Rue de Kergaradec', 'Rue Laënnec'],
  },
  '29069': {
    Bourg: ['Rue Charles de Gaulle', 'Place de la Libération', 'Rue de Milizac', 'Rue de Brest', 'Rue des Écoles'],
    'Kerampennec et Keroual': ['Route de Keroual', 'Rue de Kerampennec', 'Route de Bohars', 'Rue de Kerhallet'],
  },
  '29061': {
    Bourg: ['Rue de Brest', 'Place des Fusillés', 'Rue Saint-Goueznou', 'Rue de Bohars', 'Rue de Kerveguen'],
    'Kergaradec et Penhoat': ['Rue de Kergaradec', 'Rue de Penhoat', 'Rue Jean Monnet', 'Rue de Kerhuel'],
  },
  '29011': { Bourg: ['Rue de Brest', 'Rue de Kerguestoc', 'Place de la Mairie', 'Rue de Guilers', 'Rue du Stade'] },
  // Plabennec: Rue Maréchal Leclerc leaves the bourg for the hamlets.
  '29160': {
    Bourg: [part('Rue Maréchal Leclerc', 1, 99), 'Place du Champ de Foire', 'Rue de la Mairie', "Rue de l'Aber", 'Rue Pierre Jestin'],
    'Hameaux et écarts': ['Route de Kersaint', 'Route de Lesneven', part('Rue Maréchal Leclerc', 100, null), 'Route de Bourg-Blanc'],
  },
  '29195': {
    Bourg: ['Rue du Verger', "Place de l'Europe", 'Rue de la Mairie', "Rue de l'Église", 'Rue de Lannilis'],
    'Lilia et Korejou': ['Route de Lilia', 'Rue du Korejou', 'Route du Phare', 'Rue des Goémoniers'],
  },
  // Lannilis: Route de Paluden leaves the bourg for the port.
  '29117': {
    Bourg: ['Rue Jean-Baptiste de la Salle', "Place de l'Église", 'Rue de la Gare', part('Route de Paluden', 1, 49), 'Rue de Landéda'],
    Paluden: [part('Route de Paluden', 50, null), 'Rue du Port', 'Chemin du Passage', 'Rue des Abers'],
  },
  '29209': { 'Bourg et campagne': ['Rue de la Libération', 'Route de Plabennec', "Rue de l'Église", 'Rue des Écoles'] },
  '29101': { "Bourg et L'Aber-Wrac'h": ["Route de l'Aber-Wrac'h", 'Rue du Bourg', 'Rue des Anges', 'Rue du Port', 'Route de Sainte-Marguerite'] },
  '29015': { 'Bourg et lac': ['Rue de Brest', 'Rue du Lac', 'Place de la Mairie', 'Rue de Plabennec'] },
  '29196': { Bourg: ['Rue de la Mairie', 'Route de Tréglonou', "Rue de l'Église", 'Rue des Écoles'] },
  '29257': { 'Bourg et littoral': ['Rue de la Mairie', 'Route de Corn ar Gazel', 'Rue des Dunes', 'Rue de la Plage'] },
  '29047': { Bourg: ['Rue de la Mairie', 'Route de Plouvien', "Rue de l'Église", 'Rue du Stade'] },
  '29095': { Bourg: ['Rue de la Mairie', 'Route de Guipavas', "Rue de l'Église", 'Rue des Écoles'] },
  '29035': { Bourg: ["Rue de l'Église", 'Route de Bourg-Blanc', 'Rue de la Mairie', 'Rue du Stade'] },
  '29290': { Bourg: ['Rue du Pont', 'Route de Lannilis', "Rue de l'Église", 'Rue de la Mairie'] },
};
