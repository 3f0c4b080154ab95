// The report form's map, only where the operator set a tile server (MAP_TILE_URL, told by GET /public/requests/config):
// a few 256 px tiles drawn as <img> in a positioned grid, no map library. A tap or a click puts the pin; the arrow keys
// move it while the map has the focus, each new position said in a live region. A pin put near the edge brings the
// map along, so that taps and keys can walk it further.
import { useEffect, useRef, useState } from 'preact/hooks';
import { project, tilesOfView, unproject, viewOrigin, type LatLon, type WorldPoint } from '../map-tiles.ts';
import type { City, RequestMap } from '../types.ts';

const NBSP = '\u00a0';
/** Pixels an arrow key moves the pin: about 6 m at zoom 17 in France; with Shift, eight times as far. */
const KEY_STEP = 8;
const SHIFT_STEPS = 8;
/** A pin put nearer an edge than this (in pixels) centres the map on it. */
const EDGE = 32;
const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** « 48,39320 », « −4,49036 »: a coordinate as French writes it, to five decimals (about a metre). */
const degrees = (value: number) => value.toLocaleString('fr-FR', { minimumFractionDigits: 5, maximumFractionDigits: 5 }).replace('-', '−');

function middle(points: { latitude: number | null; longitude: number | null }[]): LatLon | null {
  const known = points.filter((p): p is LatLon => p.latitude !== null && p.longitude !== null);
  if (known.length === 0) return null;
  const mean = (pick: (p: LatLon) => number) => known.reduce((sum, p) => sum + pick(p), 0) / known.length;
  return { latitude: mean((p) => p.latitude), longitude: mean((p) => p.longitude) };
}

/** Where the map opens when the device's position is not known: the chosen point, else the place, else the commune. */
export function whereToLook(city: City, placeId: string, pointId: string): LatLon | null {
  const point = city.recyclingPoints.find((p) => p.id === pointId);
  const place = city.wasteCollectionPlaces.find((p) => p.id === placeId);
  return (
    (point && middle([point])) ??
    (place && middle(place.attachedLocations)) ??
    middle([...city.wasteCollectionPlaces.flatMap((p) => p.attachedLocations), ...city.recyclingPoints])
  );
}

/**
 * The map, centred on `focus` (and again each time it changes: the device's position found, another place chosen),
 * else on the pin. `pin` is the position chosen, whoever chose it; `onPin` receives the one chosen here.
 */
export function PositionMap(props: { map: RequestMap; focus: LatLon | null; pin: LatLon | null; onPin: (position: LatLon) => void }) {
  const { map, focus, pin, onPin } = props;
  const box = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  const [centre, setCentre] = useState<WorldPoint | null>(() => {
    const first = focus ?? pin;
    return first && project(first);
  });
  const [said, setSaid] = useState('');

  // No tile is asked for before the map's size is known: only those it shows.
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setSize({ width: element.clientWidth, height: element.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const focusKey = focus && `${focus.latitude},${focus.longitude}`;
  useEffect(() => {
    if (focus) setCentre(project(focus));
  }, [focusKey]);

  const ready = centre !== null && size.width > 0 && size.height > 0;
  const origin = centre && viewOrigin(centre, size.width, size.height);
  const pinPoint = pin && origin && project(pin);

  const put = (point: WorldPoint) => {
    const position = unproject(point);
    onPin(position);
    setSaid(`Position choisie${NBSP}: ${degrees(position.latitude)}, ${degrees(position.longitude)}`);
    if (!origin) return;
    const [x, y] = [point.x - origin.x, point.y - origin.y];
    if (x < EDGE || y < EDGE || x > size.width - EDGE || y > size.height - EDGE) setCentre(point);
  };

  const onClick = (event: MouseEvent) => {
    const element = box.current;
    if (!element || !origin) return;
    const rect = element.getBoundingClientRect();
    put({ x: origin.x + event.clientX - rect.left - element.clientLeft, y: origin.y + event.clientY - rect.top - element.clientTop });
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const arrow = ARROWS[event.key];
    if (!arrow || !centre || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    const step = KEY_STEP * (event.shiftKey ? SHIFT_STEPS : 1);
    const from = pin ? project(pin) : centre;
    put({ x: from.x + arrow[0] * step, y: from.y + arrow[1] * step });
  };

  return (
    <div class="map-field">
      <p id="report-map-hint" class="hint muted">
        Touchez la carte à l’endroit du problème, ou déplacez le repère avec les flèches du clavier (Maj{NBSP}: plus loin).
      </p>
      <div ref={box} class="map" tabIndex={0} role="application" aria-label="Carte" aria-describedby="report-map-hint" onClick={onClick} onKeyDown={onKeyDown}>
        {ready &&
          tilesOfView(map.tileUrl, centre, size.width, size.height).map((tile) => (
            // The tile server gets this site's origin as Referer, which tile servers such as OpenStreetMap's require.
            <img
              key={tile.key}
              class="map-tile"
              src={tile.url}
              alt=""
              width={256}
              height={256}
              draggable={false}
              referrerpolicy="strict-origin"
              style={{ left: `${tile.left}px`, top: `${tile.top}px` }}
            />
          ))}
        {ready && pinPoint && origin && (
          <span class="map-pin" aria-hidden="true" style={{ left: `${pinPoint.x - origin.x}px`, top: `${pinPoint.y - origin.y}px` }} />
        )}
      </div>
      <p class="map-credit">{map.attribution}</p>
      <p class="visually-hidden" aria-live="polite">
        {said}
      </p>
    </div>
  );
}
