// Choosing a commune (search as you type, accents ignored) and, where there are several, a collection place.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { get, getLive } from '../api.ts';
import { Link, navigate } from '../../shared/router.tsx';
import { chooseCity, write } from '../store.ts';
import { fold } from '../text.ts';
import type { City, CityGroup, CommuneCandidate } from '../types.ts';
import { Loading, Problem, Title, useResource } from '../ui.tsx';
import { CityFaq } from './city-faq.tsx';
import { FindMyPlace } from './address.tsx';
import { CityNotices } from '../notices.tsx';

const NBSP = '\u00a0';

interface CityEntry {
  id: string;
  name: string;
  group: string;
  key: string;
}

/** Typing pauses this long before the server is asked for communes spelled otherwise. */
const SUGGEST_DEBOUNCE_MS = 250;
/** The least text worth asking the server's typo-tolerant search about. */
const SUGGEST_MIN_CHARS = 3;

/** The server's answer for a text: communes it may have meant (typo, postcode), empty when it failed or found none. */
interface Suggestions {
  query: string;
  communes: CityEntry[];
}

/** Every active commune with its group, from the small city-groups listing (not the full cities). */
async function cityIndex(): Promise<CityEntry[]> {
  const groups = await get<CityGroup[]>('/public/city-groups');
  return groups
    .flatMap((g) => g.cities.map((c) => ({ id: c.id, name: c.name, group: g.name, key: fold(c.name) })))
    .sort((a, b) => a.name.localeCompare(b.name, 'fr'));
}

export function CitySearch() {
  const index = useResource('cities', cityIndex);
  const [query, setQuery] = useState('');
  const results = useMemo(() => {
    const q = fold(query);
    if (!index.data || !q) return [];
    // The name itself, then names that start with the query, then a later word of the name, then anywhere in it.
    const rank = (key: string) =>
      key === q ? 0 : key.startsWith(q) ? 1 : key.split(' ').some((w) => w.startsWith(q)) ? 2 : key.includes(q) ? 3 : -1;
    return index.data
      .map((c) => ({ c, r: rank(c.key) }))
      .filter((x) => x.r >= 0)
      .sort((a, b) => a.r - b.r || a.c.name.localeCompare(b.c.name, 'fr'))
      .map((x) => x.c)
      .slice(0, 12);
  }, [query, index.data]);

  // Nothing found on the device: ask the server's search, which tolerates typos and knows postcodes
  // (GET /public/search/communes). Debounced; a new keystroke cancels the pending timer and aborts the request in flight.
  const asked = query.trim();
  const suggest = !!index.data && results.length === 0 && asked.length >= SUGGEST_MIN_CHARS;
  const [suggestions, setSuggestions] = useState<Suggestions>({ query: '', communes: [] });
  useEffect(() => {
    if (!suggest) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      getLive<CommuneCandidate[]>(`/public/search/communes?q=${encodeURIComponent(asked)}`, controller.signal).then(
        (found) => {
          const communes = found.map((c) => ({ id: c.cityId, name: c.cityName, group: c.cityGroupName ?? '', key: fold(c.cityName) }));
          setSuggestions({ query: asked, communes });
        },
        () => {
          // Offline or failed: the « aucune commune » message stays (an abort is a newer text's business).
          if (!controller.signal.aborted) setSuggestions({ query: asked, communes: [] });
        },
      );
    }, SUGGEST_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [suggest, asked]);
  const answered = suggest && suggestions.query === asked;
  const offered = answered ? suggestions.communes : [];
  // Until the server answers, say nothing rather than « aucune commune » then its suggestions.
  const nothing = !!query && !!index.data && results.length === 0 && (!suggest || (answered && offered.length === 0));

  return (
    <section>
      <Title text="Choisir ma commune">Quand passe la collecte chez moi ?</Title>
      <p class="lead">Tapez le nom de votre commune pour voir vos prochains jours de collecte.</p>
      <form role="search" onSubmit={(e) => {
        e.preventDefault();
        const first = results[0] ?? offered[0];
        if (first) pick(first);
      }}>
        <label for="city-query">Votre commune</label>
        <input
          id="city-query"
          type="search"
          autocomplete="off"
          spellcheck={false}
          placeholder="Par exemple : Plouzané"
          value={query}
          onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
          aria-describedby="city-count"
        />
      </form>
      {index.loading && <Loading what="des communes" />}
      {index.error != null && <Problem error={index.error} retry={index.reload} />}
      <p id="city-count" class="visually-hidden" aria-live="polite">
        {query && index.data
          ? offered.length > 0
            ? `Aucune commune trouvée, ${offered.length} proposée${offered.length > 1 ? 's' : ''}`
            : results.length > 0 || nothing
              ? `${results.length} commune${results.length > 1 ? 's' : ''} trouvée${results.length > 1 ? 's' : ''}`
              : ''
          : ''}
      </p>
      {nothing && (
        <p class="card">Aucune commune ne correspond à « {query} ». Vérifiez l'orthographe, ou votre commune n'est peut-être pas encore desservie.</p>
      )}
      {results.length > 0 && (
        <ul class="choices" aria-label="Communes trouvées">
          {results.map((c) => (
            <li key={c.id}>
              <Link href={`/communes/${c.id}`} onClick={() => chooseCity(c.id)}>
                <strong>{c.name}</strong> <span class="muted">{c.group}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {offered.length > 0 && (
        <>
          <p id="city-suggestions">Vouliez-vous dire{NBSP}:</p>
          <ul class="choices" aria-labelledby="city-suggestions">
            {offered.map((c) => (
              <li key={c.id}>
                <Link href={`/communes/${c.id}`} onClick={() => chooseCity(c.id)}>
                  <strong>{c.name}</strong> {c.group && <span class="muted">{c.group}</span>}
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function pick(city: CityEntry) {
  chooseCity(city.id);
  navigate(`/communes/${city.id}`);
}

export function rememberPlace(city: City, placeId: string) {
  const place = city.wasteCollectionPlaces.find((p) => p.id === placeId);
  if (place) write('place', { cityId: city.id, cityName: city.name, placeId, placeName: place.name });
}

/** A commune's places to choose from; a widget (`inWidget`) stays on its commune. */
export function PlaceChoice({ cityId, inWidget = false }: { cityId: string; inWidget?: boolean }) {
  const city = useResource(`city:${cityId}`, () => get<City>(`/public/cities/${cityId}`));
  const places = city.data?.wasteCollectionPlaces ?? [];
  useEffect(() => {
    // One place: nothing to choose.
    if (city.data && places.length === 1) navigate(`/communes/${cityId}/${places[0].id}`, { replace: true });
  }, [city.data]);

  if (city.loading) return <Loading what="de la commune" />;
  if (city.error != null || !city.data) {
    return <Problem error={city.error} retry={city.reload} back={{ href: '/communes', label: 'Choisir ma commune' }} />;
  }
  return (
    <section>
      <Title text={city.data.name}>{city.data.name} : votre secteur</Title>
      {places.length !== 1 && <CityNotices cityId={cityId} />}
      {places.length === 0 ? (
        <p class="card">Aucun secteur de collecte n'est encore publié pour {city.data.name}.</p>
      ) : (
        <>
          <p class="lead">Les jours de collecte dépendent de votre secteur. Trouvez-le à partir de votre adresse&nbsp;:</p>
          <FindMyPlace cityId={cityId} />
          <h2 id="places-title" class="or">Ou choisissez votre secteur</h2>
          <ul class="choices" aria-labelledby="places-title">
            {places.map((p) => (
              <li key={p.id}>
                <Link href={`/communes/${cityId}/${p.id}`}>
                  <strong>{p.name}</strong>
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
      {!inWidget && (
        <p>
          <Link href="/communes">Choisir une autre commune</Link>
        </p>
      )}
      {!inWidget && <CityFaq cityId={cityId} />}
    </section>
  );
}
