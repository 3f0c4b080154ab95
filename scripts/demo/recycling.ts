import type { BundleRecyclingPoint } from '../../src/bundle/schema.ts';
import type { WasteTypeIds } from '../build-demo.ts';
import { demoId, slug, stableFraction } from './ids.ts';
import type { Commune } from './territory.ts';

/** Recycling centres of the two territories: believable names, addresses and positions (not exact). */
interface RecyclingCentre {
  key: string;
  name: string;
  address: string;
  lat: number;
  lon: number;
  /** The INSEE code of the commune it is in. */
  insee: string;
}

const CENTRES: RecyclingCentre[] = [
  { key: 'spernot', name: 'Déchèterie du Spernot', address: 'Route du Spernot, 29200 Brest', lat: 48.4012, lon: -4.5228, insee: '29019' },
  { key: 'vern', name: 'Déchèterie du Vern', address: 'Rue du Vern, 29200 Brest', lat: 48.4183, lon: -4.4611, insee: '29019' },
  { key: 'lavallot', name: 'Déchèterie de Lavallot', address: 'Zone de Lavallot, 29490 Guipavas', lat: 48.4318, lon: -4.3741, insee: '29075' },
  { key: 'toul-ar-rannig', name: 'Déchèterie de Toul ar Rannig', address: 'Route de Toul ar Rannig, 29280 Plouzané', lat: 48.3949, lon: -4.5903, insee: '29212' },
  { key: 'mescouezel', name: 'Déchèterie de Mescouezel', address: 'Mescouezel, 29470 Plougastel-Daoulas', lat: 48.3768, lon: -4.3912, insee: '29189' },
  { key: 'plabennec', name: 'Déchèterie de Plabennec', address: 'Zone artisanale de Callac, 29860 Plabennec', lat: 48.4941, lon: -4.4132, insee: '29160' },
  { key: 'plouguerneau', name: 'Déchèterie de Plouguerneau', address: 'Route de Lannilis, 29880 Plouguerneau', lat: 48.5921, lon: -4.5139, insee: '29195' },
  { key: 'lannilis', name: 'Déchèterie de Lannilis', address: 'Zone de Mespeler, 29870 Lannilis', lat: 48.5652, lon: -4.5087, insee: '29117' },
];

// French typography: a no-break space (\u00a0) inside `9 h` and before `:`, a narrow one (\u202f) before `;`.
const CENTRE_HOURS =
  'Du lundi au vendredi\u00a0: 9\u00a0h – 12\u00a0h et 14\u00a0h – 18\u00a0h\u202f; le samedi\u00a0: 9\u00a0h – 18\u00a0h sans interruption. ' +
  'De novembre à février, fermeture à 17\u00a0h\u00a030. Fermée le dimanche et les jours fériés. ' +
  'Dernier accès 15\u00a0minutes avant la fermeture.';
/** The same hours in OpenStreetMap's syntax; the later rules (winter) override the earlier ones on their months. */
const CENTRE_SPEC =
  'Mo-Fr 09:00-12:00,14:00-18:00; Sa 09:00-18:00; Nov-Feb Mo-Fr 09:00-12:00,14:00-17:30; Nov-Feb Sa 09:00-17:30; PH off';

const GLASS_HOURS = 'Accessible tous les jours de 7\u00a0h à 22\u00a0h, par respect pour le voisinage.';
const GLASS_SPEC = 'Mo-Su 07:00-22:00';

const TEXTILE_HOURS = 'Accessible tous les jours, à toute heure.';
const TEXTILE_SPEC = '24/7';

function distance(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const dLon = (a.lon - b.lon) * Math.cos((a.lat * Math.PI) / 180);
  return Math.hypot(a.lat - b.lat, dLon);
}

function nearby(commune: Commune, key: string, scale = 0.004): { latitude: number; longitude: number } {
  return {
    latitude: Number((commune.lat + (stableFraction(`${key}:lat`) - 0.5) * scale).toFixed(5)),
    longitude: Number((commune.lon + (stableFraction(`${key}:lon`) - 0.5) * scale * 1.5).toFixed(5)),
  };
}

/** Communes over 5,000 inhabitants have a textile bank (at the supermarket); the others use the déchèterie's. */
export function hasTextileBank(commune: Commune): boolean {
  return commune.population > 5000;
}

/**
 * A commune's recycling centre (its own, or the nearest one), glass banks, and a textile bank in towns, with the
 * commune's waste types each takes. The centre takes what no bin takes, green waste, glass, large cardboard (with
 * the packaging) and, where the commune has no textile bank, textiles (as déchèterie materials there).
 */
export function recyclingPoints(commune: Commune, wasteTypes: WasteTypeIds): BundleRecyclingPoint[] {
  const base = `city:${commune.insee}/recycling`;
  const own = CENTRES.filter((c) => c.insee === commune.insee);
  const centres = own.length ? own : [[...CENTRES].sort((a, b) => distance(commune, a) - distance(commune, b))[0]];
  const points: BundleRecyclingPoint[] = centres.map((c) => ({
    id: demoId(`${base}:${c.key}`),
    name: c.name,
    address: c.address,
    latitude: c.lat,
    longitude: c.lon,
    openingHours: CENTRE_HOURS,
    openingHoursSpec: CENTRE_SPEC,
    kind: 'CENTRE',
    materials: [wasteTypes.decheterie, wasteTypes['dechets-verts'], wasteTypes.verre, wasteTypes.emballages, wasteTypes.textiles].filter(
      (id): id is string => id !== undefined,
    ),
  }));
  // Glass banks stand on a street of the commune's sectors: one, or two in communes over 3,000 inhabitants.
  const streets = commune.sectors.flatMap((s) => s.streets);
  const glassStreets = [streets[0], commune.sectors[1]?.streets[0] ?? streets[1]].slice(0, commune.population > 3000 ? 2 : 1);
  for (const street of glassStreets.filter((s) => s !== undefined)) {
    const key = `${base}:verre-${slug(street)}`;
    points.push({
      id: demoId(key),
      name: `Point d'apport volontaire verre – ${street}`,
      address: `${street}, ${commune.postcode} ${commune.name}`,
      ...nearby(commune, key),
      openingHours: GLASS_HOURS,
      openingHoursSpec: GLASS_SPEC,
      kind: 'CONTAINER',
      materials: [wasteTypes.verre],
    });
  }
  if (hasTextileBank(commune)) {
    points.push({
      id: demoId(`${base}:textile`),
      name: 'Borne textile – supermarché',
      address: `Rue du Commerce, ${commune.postcode} ${commune.name}`,
      ...nearby(commune, `${base}:textile`, 0.008),
      openingHours: TEXTILE_HOURS,
      openingHoursSpec: TEXTILE_SPEC,
      kind: 'CONTAINER',
      materials: [wasteTypes.textiles!],
    });
  }
  return points;
}
