import type { Database } from '../../src/db/database.ts';
import type { Bundle } from '../../src/bundle/schema.ts';
import { BUNDLE_IDS, importValidBundle, validBundle } from './bundle-fixtures.ts';

/**
 * The valid bundle with recycling points of every kind (docs/api.md, recycling points and open data): a déchèterie with a lunch break,
 * Saturday hours and `PH off`; a glass bank open `24/7`; a take-back shop; a point without hours or position.
 * Plus a NON_ACTIF city of the same group with a point of its own, which no answer may show.
 */
export const POINT_IDS = {
  centre: BUNDLE_IDS.recyclingPoint,
  glass: '50000000-0000-4000-8000-000000000002',
  shop: '50000000-0000-4000-8000-000000000003',
  unlocated: '50000000-0000-4000-8000-000000000004',
  wasteTypeGlass: '30000000-0000-4000-8000-000000000003',
  wasteTypeTextiles: '30000000-0000-4000-8000-000000000004',
  wasteTypeGreen: '30000000-0000-4000-8000-000000000005',
  inactiveCity: '20000000-0000-4000-8000-000000000002',
  inactivePoint: '50000000-0000-4000-8000-000000000009',
} as const;

export const CENTRE_SPEC = 'Mo-Fr 09:00-12:00,14:00-18:00; Sa 09:00-18:00; PH off';
/** Place du Marché, about 1.1 km north-west of the déchèterie (45.76, 4.86). */
export const GLASS_POSITION = { lat: 45.7665, lon: 4.8505 } as const;

export function recyclingBundle(): Bundle {
  const bundle = validBundle();
  const city = bundle.cities![0];
  city.wasteTypes!.push(
    { id: POINT_IDS.wasteTypeGlass, name: 'Verre', color: '#16A34A' },
    { id: POINT_IDS.wasteTypeTextiles, name: 'Textiles' },
    { id: POINT_IDS.wasteTypeGreen, name: 'Déchets verts' },
  );
  const centre = city.recyclingPoints![0];
  centre.openingHoursSpec = CENTRE_SPEC;
  centre.materials = [BUNDLE_IDS.wasteTypePackaging, POINT_IDS.wasteTypeGlass, POINT_IDS.wasteTypeGreen, POINT_IDS.wasteTypeTextiles];
  city.recyclingPoints!.push(
    {
      id: POINT_IDS.glass,
      name: 'Borne à verre, place du Marché',
      address: 'Place du Marché, 69000 Testville',
      latitude: GLASS_POSITION.lat,
      longitude: GLASS_POSITION.lon,
      openingHours: 'Tous les jours, à toute heure',
      openingHoursSpec: '24/7',
      kind: 'CONTAINER',
      materials: [POINT_IDS.wasteTypeGlass],
    },
    {
      id: POINT_IDS.shop,
      name: 'Atelier "Seconde Main"',
      address: '12 bis avenue des Lilas, 69000 Testville',
      latitude: 45.7,
      longitude: 4.9,
      openingHours: 'Du mardi au samedi, 10 h – 19 h',
      openingHoursSpec: 'Tu-Sa 10:00-19:00',
      kind: 'SHOP',
      materials: [POINT_IDS.wasteTypeTextiles],
    },
    { id: POINT_IDS.unlocated, name: 'Collecte solidaire, mairie' },
  );
  bundle.cities!.push({
    id: POINT_IDS.inactiveCity,
    name: 'Ancienneville',
    country: 'France',
    status: 'NON_ACTIF',
    cityGroupId: BUNDLE_IDS.cityGroup,
    recyclingPoints: [{ id: POINT_IDS.inactivePoint, name: 'Déchèterie fermée', latitude: 45.8, longitude: 4.8, kind: 'CENTRE' }],
  });
  return bundle;
}

export async function importRecyclingBundle(t: { after: (fn: () => Promise<void>) => void }, database: Database, bundle = recyclingBundle()) {
  return importValidBundle(t, database, { bundle });
}
