// A place's next collections per waste type, its exceptions and holidays, and the iCalendar subscription.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, get } from '../api.ts';
import { Link } from '../../shared/router.tsx';
import { forgetPlace, read, savePlace, savedPlaces, write, type SavedPlace } from '../store.ts';
import { addDays, capitalize, firstOfMonth, longDay, relativeDay, shortDate, todayInFrance } from '../text.ts';
import type { City, Collection, Place, WasteType } from '../types.ts';
import { Loading, Problem, Swatch, Title, useResource } from '../ui.tsx';
import { rememberPlace } from './communes.tsx';
import { lazy } from '../lazy.tsx';

/** « Dans mon agenda » and « Me prévenir la veille », loaded on first use (not part of the first screen). */
const Agenda = lazy(() => import('./agenda.tsx').then((m) => m.Agenda));

const NBSP = '\u00a0';

/** « a, b et c ». */
function listInFrench(items: string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} et ${items[items.length - 1]}`;
}

/**
 * A year ahead (the longest range the API serves at once, docs/api.md, the collection calendar): a bin paused for the winter still shows its
 * real next date, and one request covers every card.
 */
const RANGE_DAYS = 365;
/** How far the exceptions section lists the public holidays that fall on a collection. */
const HOLIDAY_DAYS = 62;

type CityInfo = Omit<City, 'wasteTypes' | 'wasteCollectionPlaces' | 'recyclingPoints' | 'quizQuestions'> & {
  wasteTypes: Omit<WasteType, 'details'>[];
};

interface CalendarView {
  city: CityInfo;
  place: Place;
  collections: Collection[];
  from: string;
  to: string;
  savedAt: string;
  /** Shown from the copy kept on this device, the network being out of reach. */
  offline?: boolean;
}

/** The commune exists but no longer has this sector: the way back is the commune's list of sectors. */
class PlaceGone extends ApiError {
  constructor() {
    super(`Ce secteur de collecte n'existe plus${NBSP}: choisissez à nouveau le vôtre.`, 404);
  }
}

async function loadCalendar(cityId: string, placeId: string): Promise<CalendarView> {
  const from = todayInFrance();
  const to = addDays(from, RANGE_DAYS);
  try {
    const [cityAnswer, collectionsAnswer] = await Promise.allSettled([
      get<City>(`/public/cities/${cityId}`),
      get<Collection[]>(`/public/cities/${cityId}/places/${placeId}/collections?from=${from}&to=${to}`, { fresh: true }),
    ]);
    if (cityAnswer.status === 'rejected') throw cityAnswer.reason;
    const city = cityAnswer.value;
    const place = city.wasteCollectionPlaces.find((p) => p.id === placeId);
    if (!place) {
      // Forget it, so that the home screen does not lead here again.
      if (read<{ placeId: string }>('place')?.placeId === placeId) write('place', null);
      throw new PlaceGone();
    }
    if (collectionsAnswer.status === 'rejected') throw collectionsAnswer.reason;
    const collections = collectionsAnswer.value;
    rememberPlace(city, placeId);
    const { wasteCollectionPlaces: _p, recyclingPoints: _r, quizQuestions: _q, ...rest } = city;
    const view: CalendarView = {
      city: { ...rest, wasteTypes: city.wasteTypes.map(({ details: _d, ...w }) => w) },
      place,
      collections,
      from,
      to,
      savedAt: new Date().toISOString(),
    };
    // The last calendar loaded stays readable offline.
    write('lastCalendar', view);
    return view;
  } catch (err) {
    const saved = read<CalendarView>('lastCalendar');
    if (err instanceof ApiError && err.offline && saved && saved.city.id === cityId && saved.place.id === placeId) {
      return { ...saved, offline: true, collections: saved.collections.filter((c) => c.date >= from) };
    }
    throw err;
  }
}

export function Calendar({ cityId, placeId }: { cityId: string; placeId: string }) {
  const view = useResource(`calendar:${cityId}:${placeId}`, () => loadCalendar(cityId, placeId));
  useEffect(() => {
    if (view.data) document.dispatchEvent(new CustomEvent('collecte:city', { detail: cityId }));
  }, [view.data]);
  if (view.loading) return <Loading what="du calendrier" />;
  if (view.error != null || !view.data) {
    const back = view.error instanceof PlaceGone ? { href: `/communes/${cityId}`, label: 'Choisir mon secteur' } : { href: '/communes', label: 'Choisir ma commune' };
    return <Problem error={view.error} retry={view.reload} back={back} />;
  }
  return <CalendarScreen view={view.data} />;
}

function CalendarScreen({ view }: { view: CalendarView }) {
  const { city, place, collections } = view;
  const today = todayInFrance();
  const typeIds = new Set(place.collectionDays.map((d) => d.wasteTypeId));
  // The soonest collection first (bins without one last), then by name.
  const nextOf = new Map<string, string>();
  for (const c of collections) if (!nextOf.has(c.wasteTypeId)) nextOf.set(c.wasteTypeId, c.date);
  const types = city.wasteTypes
    .filter((w) => typeIds.has(w.id))
    .sort((a, b) => (nextOf.get(a.id) ?? '9999').localeCompare(nextOf.get(b.id) ?? '9999') || a.name.localeCompare(b.name, 'fr'));
  const namesOn = (date: string) => collections.filter((c) => c.date === date).map((c) => c.wasteTypeName);
  const todayBins = namesOn(today);
  const tomorrowBins = namesOn(addDays(today, 1));
  // Exceptions still to come or under way (their bounds are instants at midnight in France).
  const exceptions = place.exceptions.filter((e) => todayInFrance(new Date(e.dateTo ?? e.dateFrom)) >= today);
  const holidays = collections.filter((c) => c.holiday !== null && c.date <= addDays(today, HOLIDAY_DAYS));

  return (
    <section>
      <Title text={`Collecte à ${city.name}`}>
        Collecte à {city.name} <span class="subtitle">Secteur {place.name}</span>
      </Title>
      {view.offline && (
        <p class="notice" role="status">
          Vous êtes hors connexion : voici le calendrier enregistré le {shortDate(view.savedAt)}.
        </p>
      )}
      <p class="screen-only">
        <Link href={`/communes/${city.id}`}>Changer de secteur</Link> · <Link href="/communes">Changer de commune</Link>
      </p>
      <MyPlaces cityId={city.id} cityName={city.name} placeId={place.id} placeName={place.name} />
      <p class="actions top-actions screen-only">
        <a class="button secondary" href="#agenda">
          Dans mon agenda
        </a>
        <button type="button" class="button secondary" onClick={() => print()}>
          Imprimer l'année
        </button>
      </p>

      {(todayBins.length > 0 || tomorrowBins.length > 0) && (
        <div class="card tonight screen-only" role="status">
          {tomorrowBins.length > 0 && (
            <p>
              <strong>Ce soir, sortez{NBSP}:</strong> {listInFrench(tomorrowBins)}
            </p>
          )}
          {todayBins.length > 0 && (
            <p>
              <strong>Aujourd’hui{NBSP}:</strong> {listInFrench(todayBins)}
            </p>
          )}
        </div>
      )}

      <h2>Prochaines collectes</h2>
      <ul class="bins" aria-label="Prochaine collecte de chaque bac">
        {types.map((type) => (
          <NextCollection key={type.id} type={type} place={place} collections={collections} today={today} to={view.to} />
        ))}
      </ul>

      <h2>Exceptions et jours fériés</h2>
      {exceptions.length === 0 && holidays.length === 0 ? (
        <p>Aucune exception prévue pour votre secteur.</p>
      ) : (
        <ul class="exceptions">
          {exceptions.map((e) => (
            <li key={e.id} class="card exception">
              <Swatch color={city.wasteTypes.find((w) => w.id === e.wasteTypeId)?.color ?? null} />
              <div>
                <strong>{e.name ?? 'Changement de collecte'}</strong>{' '}
                <span class="muted">
                  {e.dateTo ? `du ${shortDate(e.dateFrom)} au ${shortDate(e.dateTo)}` : `le ${shortDate(e.dateFrom)}`} ·{' '}
                  {city.wasteTypes.find((w) => w.id === e.wasteTypeId)?.name}
                </span>
                {e.description && <p>{e.description}</p>}
              </div>
            </li>
          ))}
          {holidays.map((c) => (
            <li key={`${c.date}-${c.wasteTypeId}`} class="card exception">
              <Swatch color={c.color} />
              <div>
                <strong>{c.holiday}</strong> <span class="muted">{longDay(c.date)}</span>
                <p>Collecte {c.wasteTypeName.toLowerCase()} maintenue ce jour férié.</p>
              </div>
            </li>
          ))}
        </ul>
      )}
      {city.holidays && <p class="muted">{city.holidays}</p>}

      <h2 id="agenda" class="screen-only" tabIndex={-1}>
        Dans mon agenda
      </h2>
      <Agenda cityId={city.id} placeId={place.id} placeName={place.name} types={types.map((t) => ({ id: t.id, name: t.name }))} />

      <h2 class="screen-only">Les 30 prochains jours</h2>
      <ol class="agenda screen-only">
        {groupByDate(collections.filter((c) => c.date <= addDays(today, 30))).map(([date, items]) => (
          <li key={date}>
            <time dateTime={date}>{capitalize(relativeDay(date, today))}</time>
            <ul>
              {items.map((c) => (
                <li key={c.wasteTypeId}>
                  <Swatch color={c.color} /> {c.wasteTypeName}
                  {c.holiday && <span class="tag"> {c.holiday}</span>}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>

      <YearCalendar collections={collections} />

      {(city.outOfTheBins || city.presentationOfBins || city.returnOfBins || city.respectOfCalendar) && (
        <>
          <h2>Bien sortir ses bacs</h2>
          <div class="card rules">
            {[city.outOfTheBins, city.presentationOfBins, city.returnOfBins, city.respectOfCalendar].filter(Boolean).map((text) => (
              <p key={text}>{text}</p>
            ))}
          </div>
        </>
      )}
    </section>
  );
}

/** The citizen's saved places (home, parents'…): one tap to switch, a name to keep this one. */
function MyPlaces(current: { cityId: string; cityName: string; placeId: string; placeName: string }) {
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

function NextCollection(props: { type: Omit<WasteType, 'details'>; place: Place; collections: Collection[]; today: string; to: string }) {
  const { type, place, collections, today, to } = props;
  const dates = collections.filter((c) => c.wasteTypeId === type.id);
  const days = place.collectionDays.filter((d) => d.wasteTypeId === type.id);
  const next = dates[0];
  // A pause (an exception over several days) under way or starting before the next collection explains the wait.
  const pause = place.exceptions.find(
    (e) => e.wasteTypeId === type.id && e.dateTo !== null && todayInFrance(new Date(e.dateFrom)) <= (next?.date ?? to) && todayInFrance(new Date(e.dateTo)) >= today,
  );
  return (
    <li class="card bin" style={{ borderLeftColor: type.color ?? '#6b7280' }} data-waste-type={type.id}>
      <h3>
        <Swatch color={type.color} /> {type.name}
      </h3>
      {next ? (
        <p class="next">
          <time dateTime={next.date}>{capitalize(relativeDay(next.date, today))}</time>
          {next.holiday && <span class="tag">{next.holiday}</span>}
        </p>
      ) : (
        <p class="next none">Aucune collecte prévue dans les douze prochains mois.</p>
      )}
      {dates[1] && (
        <p class="muted">
          puis <time dateTime={dates[1].date}>{relativeDay(dates[1].date, today)}</time>
        </p>
      )}
      {pause?.description && <p class="muted">{pause.description}</p>}
      {days.map((d) => (
        <p key={d.id} class="muted">
          {capitalize(d.name)}
          {d.biweekly ? ', une semaine sur deux' : ', chaque semaine'}
          {d.description ? ` – ${d.description}` : ''}
        </p>
      ))}
    </li>
  );
}

const monthFormat = new Intl.DateTimeFormat('fr-FR', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const dayOfMonthFormat = new Intl.DateTimeFormat('fr-FR', { weekday: 'short', day: 'numeric', timeZone: 'UTC' });

/** The year ahead, month by month, for paper only (the print stylesheet shows it, the screen does not). */
function YearCalendar({ collections }: { collections: Collection[] }) {
  const months = new Map<string, [string, Collection[]][]>();
  for (const [date, items] of groupByDate(collections)) {
    const month = date.slice(0, 7);
    months.set(month, [...(months.get(month) ?? []), [date, items]]);
  }
  return (
    <section class="year-calendar" aria-label="Calendrier de l'année">
      <h2>Calendrier des 12 prochains mois</h2>
      <div class="year-months">
        {[...months].map(([month, days]) => (
          <section key={month} class="year-month">
            <h3>{capitalize(monthFormat.format(new Date(`${month}-01T00:00:00Z`)))}</h3>
            <ul>
              {days.map(([date, items]) => (
                <li key={date}>
                  <time dateTime={date}>{firstOfMonth(dayOfMonthFormat.format(new Date(`${date}T00:00:00Z`)))}</time>{' '}
                  {items.map((c) => c.wasteTypeName).join(', ')}
                  {items[0].holiday && ` (${items[0].holiday})`}
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </section>
  );
}

function groupByDate(collections: Collection[]): [string, Collection[]][] {
  const groups = new Map<string, Collection[]>();
  for (const c of collections) groups.set(c.date, [...(groups.get(c.date) ?? []), c]);
  return [...groups];
}
