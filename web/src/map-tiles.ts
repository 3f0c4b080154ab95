// The arithmetic of a small slippy map without a map library: Web Mercator ("XYZ") tiles of 256 px, as every
// OpenStreetMap-style tile server serves them (https://wiki.openstreetmap.org/wiki/Slippy_map_tilenames).

export const TILE_SIZE = 256;
/** Street level: a tile is about 200 m across in France, enough to tell one side of a street from the other. */
export const MAP_ZOOM = 17;
/** Web Mercator stops here: the square world's top and bottom edges. */
const MAX_LATITUDE = 85.05112878;

export interface LatLon {
  latitude: number;
  longitude: number;
}

/** A point in pixels of the whole world's image at a zoom (0, 0 at its top left corner). */
export interface WorldPoint {
  x: number;
  y: number;
}

const worldSize = (zoom: number) => TILE_SIZE * 2 ** zoom;

export function project({ latitude, longitude }: LatLon, zoom = MAP_ZOOM): WorldPoint {
  const size = worldSize(zoom);
  const phi = (Math.min(MAX_LATITUDE, Math.max(-MAX_LATITUDE, latitude)) * Math.PI) / 180;
  return {
    x: ((longitude + 180) / 360) * size,
    y: ((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * size,
  };
}

/** The position of a world pixel, rounded to a millionth of a degree (about 10 cm, far below what a tap can tell). */
export function unproject({ x, y }: WorldPoint, zoom = MAP_ZOOM): LatLon {
  const size = worldSize(zoom);
  const round = (degrees: number) => Math.round(degrees * 1e6) / 1e6;
  // Past the antimeridian, the same longitudes again.
  const longitude = ((((x / size) * 360) % 360) + 360) % 360 - 180;
  const latitude = (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / size))) * 180) / Math.PI;
  return { latitude: round(latitude), longitude: round(longitude) };
}

/** One tile of a view: its image's URL and where it goes in the view, in CSS pixels from the view's top left. */
export interface PlacedTile {
  key: string;
  url: string;
  left: number;
  top: number;
}

/** The top left corner of a view of `width` × `height` centred on `centre`, on whole pixels (no blurred seams). */
export function viewOrigin(centre: WorldPoint, width: number, height: number): WorldPoint {
  return { x: Math.round(centre.x - width / 2), y: Math.round(centre.y - height / 2) };
}

/** The tiles that cover a view: a few, 2 × 3 on a phone. Columns wrap around the antimeridian; rows stop at the poles. */
export function tilesOfView(template: string, centre: WorldPoint, width: number, height: number, zoom = MAP_ZOOM): PlacedTile[] {
  const origin = viewOrigin(centre, width, height);
  const count = 2 ** zoom;
  const tiles: PlacedTile[] = [];
  for (let row = Math.floor(origin.y / TILE_SIZE); row <= Math.floor((origin.y + height - 1) / TILE_SIZE); row++) {
    if (row < 0 || row >= count) continue;
    for (let column = Math.floor(origin.x / TILE_SIZE); column <= Math.floor((origin.x + width - 1) / TILE_SIZE); column++) {
      const x = ((column % count) + count) % count;
      tiles.push({
        key: `${column}/${row}`,
        url: template.replace(/\{z\}/g, String(zoom)).replace(/\{x\}/g, String(x)).replace(/\{y\}/g, String(row)),
        left: column * TILE_SIZE - origin.x,
        top: row * TILE_SIZE - origin.y,
      });
    }
  }
  return tiles;
}
