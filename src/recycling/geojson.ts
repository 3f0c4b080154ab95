import { osmMaterialsOf } from './osm-materials.ts';
import type { StoredPoint } from './repository.ts';

/** OSM's `recycling_type` for each kind; a take-back shop is a shop, not a recycling facility, so it has none. */
const RECYCLING_TYPE = { CENTRE: 'centre', CONTAINER: 'container', SHOP: null } as const;

export interface PointFeature {
  type: 'Feature';
  id: string;
  geometry: { type: 'Point'; coordinates: [number, number] };
  properties: Record<string, string>;
}

/**
 * The city's points as an RFC 7946 FeatureCollection whose properties are OpenStreetMap tags, as a portal or an OSM
 * contributor reads them. Like OSM, a tag without a value is left out rather than set to null. A point without a
 * position cannot be a Point feature and is left out.
 */
export function pointsFeatureCollection(points: StoredPoint[]): { type: 'FeatureCollection'; features: PointFeature[] } {
  const features: PointFeature[] = [];
  for (const p of points) {
    if (p.latitude === null || p.longitude === null) continue;
    const tags: Record<string, string> = { amenity: 'recycling' };
    const recyclingType = p.kind ? RECYCLING_TYPE[p.kind] : null;
    if (recyclingType) tags.recycling_type = recyclingType;
    tags.name = p.name;
    if (p.address) tags['addr:full'] = p.address;
    if (p.openingHoursSpec) tags.opening_hours = p.openingHoursSpec;
    // From each waste type's name and from the materials its details name (a shop taking « Apport en déchèterie »
    // whose details list « Piles et batteries » takes batteries).
    const materials = new Set(p.materials.flatMap((m) => [m.name, ...m.details].flatMap(osmMaterialsOf)));
    for (const material of [...materials].sort()) tags[`recycling:${material}`] = 'yes';
    tags['collecte:id'] = p.id;
    if (p.kind) tags['collecte:kind'] = p.kind;
    features.push({ type: 'Feature', id: p.id, geometry: { type: 'Point', coordinates: [p.longitude, p.latitude] }, properties: tags });
  }
  return { type: 'FeatureCollection', features };
}
