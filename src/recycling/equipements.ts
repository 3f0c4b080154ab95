import type { CsvValue } from '../http/csv.ts';
import type { GroupPoints, StoredPoint } from './repository.ts';

/**
 * The SCDL `equipements` schema (schema.data.gouv.fr/scdl/equipements, version 0.1.5): its columns, in its order.
 */
export const EQUIPEMENTS_COLUMNS = [
  'COLL_NOM',
  'COLL_SIRET',
  'EQUIP_UID',
  'EQUIP_THEME',
  'EQUIP_CODE',
  'EQUIP_TYPE',
  'EQUIP_NOM',
  'ADR_NUMERO',
  'ADR_NOMVOIE',
  'ADR_CODEPOSTAL',
  'ADR_COMMUNE',
  'ADR_CLE_INTEROP',
  'ERP_ID',
  'ERP_TYPE',
  'ERP_CATEGORIE',
  'EQUIP_LAT',
  'EQUIP_LONG',
  'EQUIP_OUVERTURE',
  'EQUIP_TEL',
  'EQUIP_EMAIL',
  'EQUIP_WEB',
] as const;

/** The schema's family for what is none of its named ones (administration, health, sport…). */
const THEME = 'Autre équipement';

const EQUIP_TYPE = { CENTRE: 'Déchèterie', CONTAINER: "Point d'apport volontaire", SHOP: 'Point de reprise' } as const;

export interface ParsedAddress {
  number: string | null;
  street: string;
  postcode: string | null;
  commune: string | null;
}

/**
 * A French address written on one line (`12 bis rue de Siam, 29200 Brest`, `Zone de Lavallot, 29490 Guipavas`) split
 * into the schema's parts; a line that does not read so is the street, whole.
 */
export function parseFrenchAddress(address: string): ParsedAddress {
  const match = /^\s*(?:(\d+(?:\s?(?:bis|ter|quater|[a-z]))?)\b[\s,]+)?(.+?),?\s+(\d{5})\s+(.+?)\s*$/i.exec(address);
  if (!match) return { number: null, street: address.trim(), postcode: null, commune: null };
  return { number: match[1]?.toLowerCase() ?? null, street: match[2].replace(/,\s*$/, '').trim(), postcode: match[3], commune: match[4] };
}

function row(group: GroupPoints['group'], cityName: string, p: StoredPoint): CsvValue[] {
  const address = p.address ? parseFrenchAddress(p.address) : null;
  return [
    group.name,
    group.siret ?? group.siren,
    // The schema's UID is built on the commune's INSEE code, which Collecte does not hold: the point's own stable id.
    p.id,
    THEME,
    // The national nomenclature's code is not Collecte's to guess.
    null,
    p.kind ? EQUIP_TYPE[p.kind] : 'Point de collecte des déchets',
    p.name,
    // The schema's value for a way or place without numbers.
    address ? (address.number ?? (address.postcode ? '99999' : null)) : null,
    address?.street ?? null,
    address?.postcode ?? null,
    address?.commune ?? cityName,
    null,
    null,
    null,
    null,
    // The two numeric columns: numbers, which the CSV writer leaves as they are (`-4.48`), where it neutralises text.
    p.latitude,
    p.longitude,
    p.openingHoursSpec,
    null,
    null,
    null,
  ];
}

/** One row per point of the group's ACTIF cities, cities by name, points by name. */
export function equipementsRows(data: GroupPoints): CsvValue[][] {
  return data.cities.flatMap(({ city, points }) => points.map((p) => row(data.group, city.name, p)));
}
