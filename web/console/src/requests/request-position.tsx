// Where a request is: its position on the city's plan, drawn as the area editor draws a place's area (the same
// projection and layer of the city's places, screens/area-drawing.tsx), with a link to OpenStreetMap. The plan needs
// the city's places (CITIES); without it, the coordinates and the link alone.
import { useMemo } from 'preact/hooks';
import { currentUser, getAll, holds } from '../api.ts';
import type { AdminRequest, Place } from '../types.ts';
import { useResource } from '../ui.tsx';
import { HEIGHT, PlacesLayer, WIDTH, placesPositions, projection } from '../screens/area-drawing.tsx';
import { osmLink } from './request-text.ts';

const french = (n: number) => n.toLocaleString('fr-FR', { maximumFractionDigits: 6 });

export function RequestPosition({ request }: { request: Pick<AdminRequest, 'cityId' | 'cityName' | 'placeId' | 'latitude' | 'longitude' | 'reference'> }) {
  const { latitude, longitude } = request;
  const mayReadPlaces = holds(currentUser(), 'CITIES');
  const places = useResource(mayReadPlaces ? `places:${request.cityId}` : null, () => getAll<Place>(`/admin/cities/${request.cityId}/places`));
  const frame = useMemo(
    () => (places.data && latitude !== null && longitude !== null ? projection([...placesPositions(places.data), [longitude, latitude]]) : null),
    [places.data, latitude, longitude],
  );
  if (latitude === null || longitude === null) return null;
  const spot = frame?.toPoint([longitude, latitude]);
  const own = places.data?.find((p) => p.id === request.placeId);
  return (
    <div class="request-position">
      <p>
        Latitude {french(latitude)}, longitude {french(longitude)} ·{' '}
        <a href={osmLink(latitude, longitude)} target="_blank" rel="noopener noreferrer">
          Ouvrir dans OpenStreetMap<span class="visually-hidden"> (nouvel onglet)</span>
        </a>
      </p>
      {frame && spot && places.data && (
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`Position de la demande ${request.reference} sur le plan de ${request.cityName}${own ? `, dans le secteur ${own.name}` : ''}`}>
          <PlacesLayer places={places.data} frame={frame} />
          <circle class="spot" cx={spot[0]} cy={spot[1]} r={8}>
            <title>{`Demande ${request.reference}`}</title>
          </circle>
        </svg>
      )}
    </div>
  );
}
