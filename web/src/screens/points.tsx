// Recycling points of the city (docs/api.md, recycling points and open data): open now or not, what they take, nearest first once the
// citizen shares a position, each with a directions link.
import { useEffect, useRef, useState } from 'preact/hooks';
import { get, getLiveOrKept, type KeptOrLive } from '../api.ts';
import { WASTE_TYPE_PARAM } from '../links.ts';
import { Link } from '../../shared/router.tsx';
import { FULL_POINT, reportPath } from '../requests.ts';
import { canLocate, currentPosition, wasDenied } from '../position.ts';
import { currentCityId } from '../store.ts';
import { dateAndTime, distanceLabel, openingLabel } from '../text.ts';
import { openingStateOnDevice } from '../opening-hours.ts';
import type { City, RecyclingPointStatus } from '../types.ts';
import { Loading, NeedCity, Problem, Title, useResource } from '../ui.tsx';

const NBSP = '\u00a0';

const KIND_ORDER = { CENTRE: 0, CONTAINER: 1, SHOP: 2 } as const;
const KIND_LABEL = { CENTRE: 'Déchèterie', CONTAINER: 'Point d’apport volontaire', SHOP: 'Reprise en magasin' } as const;

const byName = (a: RecyclingPointStatus, b: RecyclingPointStatus) => a.name.localeCompare(b.name, 'fr');
/** Without a position: déchèteries, then bins, then shops (a point of no said kind last), each by name. */
function byKindThenName(a: RecyclingPointStatus, b: RecyclingPointStatus): number {
  const rank = (p: RecyclingPointStatus) => (p.kind === null ? 3 : KIND_ORDER[p.kind]);
  return rank(a) - rank(b) || byName(a, b);
}

/**
 * Directions on OpenStreetMap's own site (`/directions?from=&to=`), not a `geo:` link: `geo:` opens a maps app on
 * Android only (desktop browsers and iOS Safari do nothing with it), while this page works in every browser, needs no
 * account or key, and is the map the open-data export's tags are made for. With the shared position as the start;
 * without it the citizen types theirs there.
 */
export function directionsUrl(to: { lat: number; lon: number }, from: { lat: number; lon: number } | null): string {
  const params = new URLSearchParams();
  if (from) params.set('from', `${from.lat.toFixed(5)},${from.lon.toFixed(5)}`);
  params.set('to', `${to.lat},${to.lon}`);
  return `https://www.openstreetmap.org/directions?${params}`;
}

type Located = { step: 'idle' } | { step: 'locating' } | { step: 'found'; lat: number; lon: number } | { step: 'failed'; message: string };

const DENIED = `Vous n'avez pas autorisé la localisation${NBSP}: les points restent classés par type, puis par nom.`;
const UNAVAILABLE = `Votre position n'a pas pu être déterminée${NBSP}: les points restent classés par type, puis par nom.`;

/** Open now or not, and until when; `unchecked` when a kept copy's spec cannot be read on the device. */
type Opening = { openNow: boolean | null; nextChange: string | null } | 'unchecked';

/**
 * The state the server computed, or, for the copy kept offline (computed when it was saved, not now), the state at
 * `now` from the point's spec, computed here.
 */
function openingOf(p: RecyclingPointStatus, kept: boolean, now: Date): Opening {
  if (!kept || p.openingHoursSpec === null) return { openNow: p.openNow, nextChange: p.nextChange };
  return openingStateOnDevice(p.openingHoursSpec, now) ?? 'unchecked';
}

function initialWasteType(): string {
  return new URLSearchParams(location.search).get(WASTE_TYPE_PARAM) ?? '';
}

export function RecyclingPoints() {
  const cityId = currentCityId();
  const city = useResource(cityId && `city:${cityId}`, () => get<City>(`/public/cities/${cityId}`));
  const [located, setLocated] = useState<Located>({ step: 'idle' });
  const [wasteTypeId, setWasteTypeId] = useState(initialWasteType);
  const live = useRef(true);
  useEffect(
    () => () => {
      live.current = false;
    },
    [],
  );
  const position = located.step === 'found' ? { lat: located.lat, lon: located.lon } : null;
  const near = position ? `?lat=${position.lat.toFixed(5)}&lon=${position.lon.toFixed(5)}` : '';
  // Opening states change with the hour: asked each time the screen opens, the server's max-age keeps it cheap.
  const points = useResource(cityId && `points:${cityId}${near}`, () =>
    getLiveOrKept<RecyclingPointStatus[]>(`/public/cities/${cityId}/recycling-points${near}`),
  );

  const locate = async () => {
    setLocated({ step: 'locating' });
    try {
      const { coords } = await currentPosition();
      if (live.current) setLocated({ step: 'found', lat: coords.latitude, lon: coords.longitude });
    } catch (err) {
      if (live.current) setLocated({ step: 'failed', message: wasDenied(err) ? DENIED : UNAVAILABLE });
    }
  };

  const choose = (id: string) => {
    setWasteTypeId(id);
    const url = new URL(location.href);
    if (id) url.searchParams.set(WASTE_TYPE_PARAM, id);
    else url.searchParams.delete(WASTE_TYPE_PARAM);
    history.replaceState(null, '', url);
  };

  // While the nearest-first answer comes, the list already shown stays (and the button keeps the focus).
  const shownBefore = useRef<KeptOrLive<RecyclingPointStatus[]> | null>(null);
  if (points.data) shownBefore.current = points.data;
  const answer = points.data ?? (points.error == null ? shownBefore.current : null);
  const data = answer?.data ?? null;
  const kept = answer?.kept ?? false;
  const byDistance = position !== null && points.data !== null;
  const all = data ?? [];
  const taken = new Set(all.flatMap((p) => p.materials));
  const wasteTypes = (city.data?.wasteTypes ?? []).filter((w) => taken.has(w.id));
  const filter = wasteTypes.some((w) => w.id === wasteTypeId) ? wasteTypeId : '';
  const chosenType = wasteTypes.find((w) => w.id === filter) ?? null;
  const shown = all.filter((p) => filter === '' || p.materials.includes(filter));
  // The server answers nearest first with a position; without one, by kind then name here.
  const ordered = byDistance ? shown : [...shown].sort(byKindThenName);
  const typeName = new Map((city.data?.wasteTypes ?? []).map((w) => [w.id, w.name]));
  const now = new Date();

  return (
    <section>
      <Title text="Déchèteries et points d'apport">Déchèteries et points d'apport</Title>
      {!cityId ? (
        <NeedCity what="les déchèteries proches de chez vous" />
      ) : city.loading || (points.loading && !data) ? (
        <Loading what="des déchèteries" />
      ) : city.error != null || !city.data ? (
        <Problem error={city.error} retry={city.reload} />
      ) : points.error != null || !data ? (
        <Problem error={points.error} retry={points.reload} />
      ) : all.length === 0 ? (
        <p class="card">Aucun point d'apport n'est publié pour {city.data.name}.</p>
      ) : (
        <>
          <p class="lead">À {city.data.name} et aux alentours.</p>
          {kept && (
            <p class="notice" role="status">
              Hors ligne{NBSP}: voici les horaires enregistrés{answer?.sentAt ? ` le ${dateAndTime(answer.sentAt)}` : ''}. L'ouverture
              en ce moment est calculée sur votre appareil d'après ces horaires.
            </p>
          )}
          <div class="card point-tools">
            {wasteTypes.length > 0 && (
              <div>
                <label for="point-material">Ce que vous déposez</label>
                <select id="point-material" value={filter} onChange={(e) => choose((e.target as HTMLSelectElement).value)}>
                  <option value="">Tous les points</option>
                  {wasteTypes.map((w) => (
                    <option key={w.id} value={w.id}>
                      {w.name}
                    </option>
                  ))}
                </select>
              </div>
            )}
            {canLocate() && (
              <div class="locate">
                <button type="button" class="button secondary" onClick={locate} disabled={located.step === 'locating'}>
                  Me localiser
                </button>
                {located.step === 'locating' && (
                  <p class="loading" role="status">
                    <span class="spinner" aria-hidden="true" /> Recherche de votre position…
                  </p>
                )}
                {located.step === 'failed' && (
                  <p class="notice" role="alert">
                    {located.message}
                  </p>
                )}
              </div>
            )}
          </div>
          <p role="status" class="muted">
            {shown.length} point{shown.length > 1 ? 's' : ''}
            {chosenType ? ` qui acceptent « ${chosenType.name} »` : ''}
            {byDistance ? ', du plus proche au plus éloigné.' : ', par type puis par nom.'}
          </p>
          <ul class="points" aria-label="Points de collecte">
            {ordered.map((p) => {
              const opening = openingOf(p, kept, now);
              const state = opening === 'unchecked' ? null : openingLabel(opening.openNow, opening.nextChange, now);
              return (
                <li key={p.id} class="card point">
                  <h2>{p.name}</h2>
                  {p.kind && <p class="kind muted">{KIND_LABEL[p.kind]}</p>}
                  {state && opening !== 'unchecked' && <p class={opening.openNow ? 'opening open' : 'opening closed'}>{state}</p>}
                  {opening === 'unchecked' && <p class="opening muted">Hors ligne{NBSP}: ouverture en ce moment non vérifiée</p>}
                  {p.address && (
                    <p class="address">
                      {p.address}
                      {p.distanceMeters !== null && <span class="distance"> · {distanceLabel(p.distanceMeters)}</span>}
                    </p>
                  )}
                  {p.openingHours && (
                    <p class="hours">
                      <strong>Horaires{NBSP}: </strong>
                      {p.openingHours}
                    </p>
                  )}
                  {p.materials.length > 0 && (
                    <p class="takes">
                      <strong>Accepte{NBSP}: </strong>
                      {p.materials.map((id) => typeName.get(id)).filter(Boolean).join(', ')}
                    </p>
                  )}
                  <p class="point-links">
                    {p.latitude !== null && p.longitude !== null && (
                      <a href={directionsUrl({ lat: p.latitude, lon: p.longitude }, position)} rel="noopener">
                        Itinéraire<span class="visually-hidden"> vers {p.name}</span>
                      </a>
                    )}
                    <Link href={reportPath({ type: FULL_POINT, cityId: cityId!, recyclingPointId: p.id })}>
                      Point plein{NBSP}?<span class="visually-hidden"> Signaler {p.name}</span>
                    </Link>
                  </p>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}
