// A place's next collections per waste type, its exceptions and holidays, and the iCalendar subscription.
import { useEffect } from 'preact/hooks';
import { ApiError, get } from '../api.ts';
import { Link } from '../router.tsx';
import { read, write } from '../store.ts';
import { addDays, capitalize, longDay, relativeDay, shortDate, todayInFrance } from '../text.ts';
import type { City, Collection, Place, WasteType } from '../types.ts';
import { Loading, Problem, Swatch, Title, useResource } from '../ui.tsx';
import { rememberPlace } from './communes.tsx';

/** Two months: a fortnightly bin shows twice. */
const RANGE_DAYS = 62;

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

async function loadCalendar(cityId: string, placeId: string): Promise<CalendarView> {
  const from = todayInFrance();
  const to = addDays(from, RANGE_DAYS);
  try {
    const [city, collections] = await Promise.all([
      get<City>(`/public/cities/${cityId}`),
      get<Collection[]>(`/public/cities/${cityId}/places/${placeId}/collections?from=${from}&to=${to}`, { fresh: true }),
    ]);
    const place = city.wasteCollectionPlaces.find((p) => p.id === placeId);
    if (!place) throw new ApiError("Ce secteur de collecte n'existe plus : choisissez à nouveau le vôtre.", 404);
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
  if (view.error != null || !view.data) return <Problem error={view.error} retry={view.reload} />;
  return <CalendarScreen view={view.data} />;
}

function CalendarScreen({ view }: { view: CalendarView }) {
  const { city, place, collections } = view;
  const today = todayInFrance();
  const typeIds = new Set(place.collectionDays.map((d) => d.wasteTypeId));
  const types = city.wasteTypes.filter((w) => typeIds.has(w.id));
  // Exceptions still to come or under way (their bounds are instants at midnight in France).
  const exceptions = place.exceptions.filter((e) => todayInFrance(new Date(e.dateTo ?? e.dateFrom)) >= today);
  const holidays = collections.filter((c) => c.holiday !== null);
  const feed = `${location.host}/public/cities/${city.id}/places/${place.id}/calendar.ics`;
  const webcal = `webcal://${feed}`;
  const download = `${location.protocol}//${feed}`;

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
      <p>
        <Link href={`/communes/${city.id}`}>Changer de secteur</Link> · <Link href="/communes">Changer de commune</Link>
      </p>

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

      <h2>Dans mon agenda</h2>
      <div class="card subscribe">
        <p>Recevez les jours de collecte de votre secteur dans l'agenda de votre téléphone : ils se mettent à jour tout seuls.</p>
        <p class="actions">
          <a class="button" href={webcal}>
            S'abonner au calendrier
          </a>
          <a class="button secondary" href={download} download={`collecte-${place.name}.ics`}>
            Télécharger le fichier .ics
          </a>
        </p>
      </div>

      <h2>Les 30 prochains jours</h2>
      <ol class="agenda">
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

function NextCollection(props: { type: Omit<WasteType, 'details'>; place: Place; collections: Collection[]; today: string; to: string }) {
  const { type, place, collections, today, to } = props;
  const dates = collections.filter((c) => c.wasteTypeId === type.id);
  const days = place.collectionDays.filter((d) => d.wasteTypeId === type.id);
  const pause = place.exceptions.find(
    (e) => e.wasteTypeId === type.id && e.dateTo !== null && todayInFrance(new Date(e.dateFrom)) <= to && todayInFrance(new Date(e.dateTo)) >= today,
  );
  const next = dates[0];
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
        <p class="next none">Pas de collecte prévue avant le {longDay(to)}.</p>
      )}
      {dates[1] && (
        <p class="muted">
          puis <time dateTime={dates[1].date}>{relativeDay(dates[1].date, today)}</time>
        </p>
      )}
      {!next && pause?.description && <p class="muted">{pause.description}</p>}
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

function groupByDate(collections: Collection[]): [string, Collection[]][] {
  const groups = new Map<string, Collection[]>();
  for (const c of collections) groups.set(c.date, [...(groups.get(c.date) ?? []), c]);
  return [...groups];
}
