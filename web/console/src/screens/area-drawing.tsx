// Drawing a place's area by clicking: a plain longitude/latitude projection fitted to the city's other areas and
// attached locations (no map tiles, nothing fetched but the city's places), one click a vertex, undo the last one,
// close the ring. Gives the GeoJSON Polygon the paste field holds (which stays, for the keyboard and for GIS exports).
// The plan itself (its projection and the city's places drawn on it) also shows where a resident's request is
// (requests/request-position.tsx).
import { useEffect, useMemo, useState } from 'preact/hooks';
import { getAll } from '../api.ts';
import type { Area, Place } from '../types.ts';
import { useResource } from '../ui.tsx';

export type Position = [number, number];

export const WIDTH = 640;
export const HEIGHT = 420;
const MARGIN = 24;

/** Every outer ring of an area (a Polygon's first ring, each of a MultiPolygon's). */
function outerRings(area: Area): Position[][] {
  if (!area || !Array.isArray(area.coordinates)) return [];
  const polygons = area.type === 'MultiPolygon' ? (area.coordinates as Position[][][]) : area.type === 'Polygon' ? [area.coordinates as Position[][]] : [];
  return polygons.map((rings) => rings[0]).filter((ring) => Array.isArray(ring) && ring.every((p) => Array.isArray(p) && p.length >= 2));
}

/** The drawing of a Polygon area: its ring without the closing position; null for anything else. */
export function drawnRing(area: Area): Position[] | null {
  if (!area || area.type !== 'Polygon') return null;
  const ring = outerRings(area)[0];
  return ring && ring.length >= 4 ? ring.slice(0, -1).map(([lon, lat]) => [lon, lat]) : null;
}

/** A projection fitting `positions` in the drawing, x scaled by cos(latitude) so that shapes keep their proportions. */
export function projection(positions: Position[]) {
  const lons = positions.map((p) => p[0]);
  const lats = positions.map((p) => p[1]);
  // Nothing to fit to: roughly mainland France, where the agent will zoom by drawing.
  let [west, east, south, north] = positions.length ? [Math.min(...lons), Math.max(...lons), Math.min(...lats), Math.max(...lats)] : [-5, 8, 42, 51];
  const pad = Math.max(east - west, north - south, 0.01) * 0.1;
  [west, east, south, north] = [west - pad, east + pad, south - pad, north + pad];
  const squash = Math.cos((((south + north) / 2) * Math.PI) / 180);
  const scale = Math.min((WIDTH - 2 * MARGIN) / ((east - west) * squash), (HEIGHT - 2 * MARGIN) / (north - south));
  const x0 = (WIDTH - (east - west) * squash * scale) / 2;
  const y0 = (HEIGHT - (north - south) * scale) / 2;
  return {
    toPoint: ([lon, lat]: Position): [number, number] => [x0 + (lon - west) * squash * scale, y0 + (north - lat) * scale],
    // Six decimals: about 10 cm, more than a click can mean.
    toPosition: (x: number, y: number): Position => [round(west + (x - x0) / (squash * scale)), round(north - (y - y0) / scale)],
  };
}

export type Frame = ReturnType<typeof projection>;

const round = (n: number) => Math.round(n * 1e6) / 1e6;
const path = (points: [number, number][]) => points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');

/** Every position of the places' areas and attached locations: what a plan of the city is fitted to. */
export const placesPositions = (places: Place[]): Position[] =>
  places.flatMap((p) => [...outerRings(p.area).flat(), ...p.attachedLocations.map((l): Position => [l.longitude, l.latitude])]);

/** The places' areas (grey, each named by its title) and attached locations (dots) on a plan. */
export function PlacesLayer({ places, frame }: { places: Place[]; frame: Frame }) {
  return (
    <>
      {places.flatMap((p) =>
        outerRings(p.area).map((ring, i) => (
          <polygon key={`${p.id}-${i}`} class="other-area" points={path(ring.map(frame.toPoint))}>
            <title>{p.name}</title>
          </polygon>
        )),
      )}
      {places.flatMap((p) =>
        p.attachedLocations.map((l, i) => {
          const [x, y] = frame.toPoint([l.longitude, l.latitude]);
          return (
            <circle key={`${p.id}-l${i}`} class="other-location" cx={x} cy={y} r={3}>
              <title>{`${l.name} (${p.name})`}</title>
            </circle>
          );
        }),
      )}
    </>
  );
}

export function AreaDrawing({ cityId, placeId, area, onChange }: { cityId: string; placeId: string; area: Area; onChange: (geojson: string) => void }) {
  const places = useResource(`places:${cityId}`, () => getAll<Place>(`/admin/cities/${cityId}/places`));
  const [points, setPoints] = useState<Position[]>(() => drawnRing(area) ?? []);
  const [closed, setClosed] = useState(() => drawnRing(area) !== null);
  const others = (places.data ?? []).filter((p) => p.id !== placeId);
  // The frame is fitted once, to what is there when the drawing opens: it does not move under the agent's clicks.
  const frame = useMemo(() => {
    if (!places.data) return null;
    return projection([...placesPositions(others), ...points]);
  }, [places.data]);

  // A polygon pasted in the GeoJSON field (or restored with a draft) is drawn as it is; a closed drawing that wrote
  // the field is already the same ring, and nothing changes.
  const pasted = JSON.stringify(drawnRing(area));
  useEffect(() => {
    const ring = drawnRing(area);
    if (ring && JSON.stringify(ring) !== JSON.stringify(points)) {
      setPoints(ring);
      setClosed(true);
    }
  }, [pasted]);

  const publish = (ring: Position[]) => onChange(JSON.stringify({ type: 'Polygon', coordinates: [[...ring, ring[0]]] }));

  const add = (event: MouseEvent) => {
    if (!frame || closed) return;
    const svg = event.currentTarget as SVGSVGElement;
    const matrix = svg.getScreenCTM();
    if (!matrix) return;
    const at = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    setPoints([...points, frame.toPosition(at.x, at.y)]);
  };

  const status = closed
    ? `Polygone fermé de ${points.length} sommets\u00a0: il remplit le champ GeoJSON ci-dessous.`
    : points.length === 0
      ? 'Cliquez sur le plan pour placer le premier sommet.'
      : `${points.length} sommet${points.length > 1 ? 's' : ''} placé${points.length > 1 ? 's' : ''}${points.length < 3 ? '\u00a0: il en faut au moins 3.' : '.'}`;

  return (
    <div class="area-drawing">
      <p class="hint" id="area-drawing-hint">
        Cliquez sur le plan pour placer les sommets de la zone, puis fermez le polygone. En gris, les zones des autres secteurs&nbsp;; les points, leurs lieux rattachés.
      </p>
      {frame ? (
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          role="img"
          aria-label="Plan de la commune pour dessiner la zone"
          aria-describedby="area-drawing-hint"
          class={closed ? 'closed' : 'drawing'}
          onClick={add}
        >
          <PlacesLayer places={others} frame={frame} />
          {closed ? <polygon class="drawn" points={path(points.map(frame.toPoint))} /> : <polyline class="drawn" points={path(points.map(frame.toPoint))} />}
          {points.map((p, i) => {
            const [x, y] = frame.toPoint(p);
            return <circle key={i} class="vertex" cx={x} cy={y} r={5} />;
          })}
        </svg>
      ) : (
        <p class="muted">Chargement du plan…</p>
      )}
      <p role="status" class="muted">
        {status}
      </p>
      <div class="actions">
        <button type="button" class="button secondary" disabled={closed || points.length < 3} onClick={() => (setClosed(true), publish(points))}>
          Fermer le polygone
        </button>
        <button
          type="button"
          class="button secondary"
          disabled={points.length === 0}
          onClick={() => (closed ? setClosed(false) : setPoints(points.slice(0, -1)))}
        >
          {closed ? 'Rouvrir le polygone' : 'Annuler le dernier point'}
        </button>
        <button type="button" class="button secondary" disabled={points.length === 0} onClick={() => (setPoints([]), setClosed(false))}>
          Effacer le dessin
        </button>
      </div>
    </div>
  );
}
