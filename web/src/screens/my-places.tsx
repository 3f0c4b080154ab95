// The citizen's saved places (home, parents'…) on the calendar: one tap to switch, a name to keep this one.
import { useState } from 'preact/hooks';
import { Link } from '../../shared/router.tsx';
import { forgetPlace, savePlace, savedPlaces, type SavedPlace } from '../store.ts';

const NBSP = '\u00a0';

/** The citizen's saved places (home, parents'…): one tap to switch, a name to keep this one. */
export function MyPlaces(current: { cityId: string; cityName: string; placeId: string; placeName: string }) {
  const [places, setPlaces] = useState<SavedPlace[]>(savedPlaces);
  const [label, setLabel] = useState('');
  const saved = places.find((p) => p.placeId === current.placeId);
  const others = places.filter((p) => p.placeId !== current.placeId);
  const keep = (event: Event) => {
    event.preventDefault();
    const name = label.trim() || (places.length === 0 ? 'Maison' : current.cityName);
    setPlaces(savePlace({ ...current, label: name }));
    setLabel('');
  };
  return (
    <div class="my-places screen-only">
      {others.length > 0 && (
        <nav aria-label="Mes adresses">
          <ul class="place-chips">
            {others.map((p) => (
              <li key={p.placeId}>
                <Link href={`/communes/${p.cityId}/${p.placeId}`}>
                  {p.label} <span class="muted">({p.cityName})</span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {saved ? (
        <p class="muted">
          Lieu enregistré sous «{NBSP}{saved.label}{NBSP}».{' '}
          <button type="button" class="link-button" onClick={() => setPlaces(forgetPlace(current.placeId))}>
            Retirer de mes adresses
          </button>
        </p>
      ) : (
        <form class="keep-place" onSubmit={keep}>
          <label for="place-label">Garder ce lieu dans mes adresses</label>
          <div class="inline">
            <input id="place-label" type="text" autocomplete="off" placeholder={places.length === 0 ? 'Maison' : 'Par exemple : Parents'} value={label} onInput={(e) => setLabel((e.target as HTMLInputElement).value)} />
            <button type="submit" class="button secondary">
              Enregistrer
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
