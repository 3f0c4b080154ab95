// "Où jeter ?": the server's ranked search of the city's sorting guide (docs/api.md, what citizens search), as one types;
// offline, a plainer search on the device over the guide the app keeps (guide-offline.ts), said as such.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, get, getLive, getLiveOrKept } from '../api.ts';
import { searchGuideOnDevice } from '../guide-offline.ts';
import { Link } from '../../shared/router.tsx';
import { currentCityId } from '../store.ts';
import type { City, GuideResult, RecyclingPointStatus } from '../types.ts';
import { Loading, NeedCity, Problem, Swatch, Title, useResource } from '../ui.tsx';
import { pointsTaking } from '../links.ts';

const NBSP = '\u00a0';
/** Typing pauses this long before a search leaves (each search is counted by the city: no request per keystroke). */
const DEBOUNCE_MS = 250;
/** The server refuses longer queries. */
const MAX_QUERY = 200;

interface Answer {
  /** The text these results answer (trimmed): shown only while the box still holds it. */
  query: string;
  results: GuideResult[] | null;
  error: unknown;
  /** Found on the device, the server being out of reach. */
  offline?: boolean;
}

/** The city's recycling points as the service worker kept them (for the links of results found offline); none else. */
async function keptPoints(cityId: string): Promise<RecyclingPointStatus[]> {
  try {
    return (await getLiveOrKept<RecyclingPointStatus[]>(`/public/cities/${cityId}/recycling-points`)).data;
  } catch {
    return [];
  }
}

export function WhereDoesItGo() {
  const cityId = currentCityId();
  const city = useResource(cityId && `city:${cityId}`, () => get<City>(`/public/cities/${cityId}`));
  const [text, setText] = useState('');
  const [answer, setAnswer] = useState<Answer>({ query: '', results: null, error: null });
  const [attempt, setAttempt] = useState(0);
  const query = text.trim().slice(0, MAX_QUERY);
  // The guide the offline search reads: the city as last loaded (the service worker keeps it).
  const guide = useRef<City | null>(null);
  guide.current = city.data;

  useEffect(() => {
    if (!cityId || query === '') return;
    // Latest request wins: a new keystroke cancels the pending timer and aborts the request in flight.
    const controller = new AbortController();
    const timer = setTimeout(() => {
      getLive<GuideResult[]>(`/public/cities/${cityId}/sorting-guide?q=${encodeURIComponent(query)}`, controller.signal).then(
        (results) => setAnswer({ query, results, error: null }),
        async (error) => {
          if (controller.signal.aborted) return;
          const kept = guide.current;
          if (!(error instanceof ApiError && error.offline) || !kept) {
            setAnswer({ query, results: null, error });
            return;
          }
          const points = await keptPoints(cityId);
          if (!controller.signal.aborted) setAnswer({ query, results: searchGuideOnDevice(kept, points, query), error: null, offline: true });
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [cityId, query, attempt]);

  const current = query !== '' && answer.query === query;
  const found = current ? (answer.results ?? []) : [];
  const colors = new Map((city.data?.wasteTypes ?? []).map((w) => [w.id, w.color]));

  return (
    <section>
      <Title text="Où jeter ?">Où jeter ?</Title>
      {!cityId ? (
        <NeedCity what="les consignes de tri de votre commune" />
      ) : city.loading ? (
        <Loading what="des consignes de tri" />
      ) : city.error != null || !city.data ? (
        <Problem error={city.error} retry={city.reload} />
      ) : (
        <>
          <p class="lead">Les consignes de tri à {city.data.name}. Tapez un objet ou une matière.</p>
          <form role="search" onSubmit={(e) => e.preventDefault()}>
            <label for="material-query">Objet ou matière</label>
            <input
              id="material-query"
              type="search"
              autocomplete="off"
              maxLength={MAX_QUERY}
              placeholder={`Par exemple${NBSP}: pot de yaourt, pile, carton`}
              value={text}
              onInput={(e) => setText((e.target as HTMLInputElement).value)}
            />
          </form>
          <p class="visually-hidden" aria-live="polite">
            {current && answer.results ? `${found.length} résultat${found.length > 1 ? 's' : ''}` : ''}
          </p>
          {current && answer.offline && (
            <p class="notice" role="status">
              Hors ligne{NBSP}: résultats de la dernière version enregistrée du guide de tri.
            </p>
          )}
          {current && answer.error != null && <Problem error={answer.error} retry={() => setAttempt((n) => n + 1)} />}
          {current && answer.results && found.length === 0 && (
            <p class="card">
              Nous n'avons pas trouvé «{NBSP}{query}{NBSP}». Essayez un autre mot, ou en cas de doute, déposez-le en déchèterie.
            </p>
          )}
          <ul class="answers" aria-label="Où le jeter">
            {found.map((a) => (
              <li key={`${a.material}:${a.wasteTypeId}`} class="card answer" style={{ borderLeftColor: colors.get(a.wasteTypeId) ?? '#6b7280' }}>
                <h2>{a.material}</h2>
                <p class="verdict">
                  <Swatch color={colors.get(a.wasteTypeId) ?? null} /> <strong>{a.wasteTypeName}</strong>
                </p>
                {a.instructions && <p class="instructions">{a.instructions}</p>}
                {a.recyclingPointIds.length > 0 && (
                  <p>
                    <Link href={pointsTaking(a.wasteTypeId)}>
                      {a.recyclingPointIds.length > 1 ? `Les ${a.recyclingPointIds.length} points` : 'Le point'} qui l’acceptent
                      <span class="visually-hidden"> ({a.wasteTypeName})</span>
                    </Link>
                  </p>
                )}
              </li>
            ))}
          </ul>
          {query === '' && (
            <>
              <h2>Les bacs de {city.data.name}</h2>
              <ul class="answers">
                {city.data.wasteTypes.map((type) => (
                  <li key={type.id} class="card answer" style={{ borderLeftColor: type.color ?? '#6b7280' }}>
                    <h3>
                      <Swatch color={type.color} /> {type.name}
                    </h3>
                    {type.description && <p>{type.description}</p>}
                    {type.instructions && <p class="muted">{type.instructions}</p>}
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </section>
  );
}
