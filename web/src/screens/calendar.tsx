// A place's calendar: the service notices in force, the next collection of each bin, what changes in the coming
// weeks (moves, additions, cancellations, holidays), the next 30 days, and the iCalendar subscription.
import { useEffect } from 'preact/hooks';
import { ApiError, get } from '../api.ts';
import { Link } from '../../shared/router.tsx';
import { read, write } from '../store.ts';
import { addDays, shortDate, todayInFrance } from '../text.ts';
import type { City, Collection, Place, ServiceNotice, WasteType } from '../types.ts';
import { Loading, Problem, Title, useResource } from '../ui.tsx';
import { rememberPlace } from './communes.tsx';
import { lazy } from '../lazy.tsx';
import { fetchNotices, NoticeList, stillInForce } from '../notices.tsx';
import { nameWithMark, takesPlace } from '../collection-changes.ts';
import { Changes, NextCollection, NextDays, YearCalendar } from './calendar-lists.tsx';
import { MyPlaces } from './my-places.tsx';
import { ReportEntry } from './report-entry.tsx';
import { CityFaq } from './city-faq.tsx';

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

type CityInfo = Omit<City, 'wasteTypes' | 'wasteCollectionPlaces' | 'recyclingPoints' | 'quizQuestions'> & {
  wasteTypes: Omit<WasteType, 'details'>[];
};

interface CalendarView {
  city: CityInfo;
  place: Place;
  /** The year ahead as the engine computes it, the cancelled collections included (`include=cancelled`). */
  collections: Collection[];
  /** The service notices in force for the place when it was loaded (absent from copies kept by older versions). */
  notices?: ServiceNotice[];
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
  const path = `/public/cities/${cityId}/places/${placeId}/collections?from=${from}&to=${to}&include=cancelled`;
  try {
    // The notices alongside: they answer [] rather than fail, so they never hold the calendar back.
    const [cityAnswer, collectionsAnswer, notices] = await Promise.allSettled([
      get<City>(`/public/cities/${cityId}`),
      get<Collection[]>(path, { fresh: true }),
      fetchNotices(cityId, placeId),
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
    rememberPlace(city, placeId);
    const { wasteCollectionPlaces: _p, recyclingPoints: _r, quizQuestions: _q, ...rest } = city;
    const view: CalendarView = {
      city: { ...rest, wasteTypes: city.wasteTypes.map(({ details: _d, ...w }) => w) },
      place,
      collections: collectionsAnswer.value,
      notices: notices.status === 'fulfilled' ? notices.value : [],
      from,
      to,
      savedAt: new Date().toISOString(),
    };
    // The last calendar loaded stays readable offline, with its notices.
    write('lastCalendar', view);
    return view;
  } catch (err) {
    const saved = read<CalendarView>('lastCalendar');
    if (err instanceof ApiError && err.offline && saved && saved.city.id === cityId && saved.place.id === placeId) {
      const notices = stillInForce(saved.notices ?? []);
      return { ...saved, offline: true, notices, collections: saved.collections.filter((c) => c.date >= from) };
    }
    throw err;
  }
}

/**
 * A place's calendar. In a widget (`inWidget`, docs/widgets.md): the notices, the next collections, the changes, and
 * « Dans mon agenda » (the calendar link and the reminder); the device's places, printing, reports and the long lists
 * stay in the app.
 */
export function Calendar({ cityId, placeId, inWidget = false }: { cityId: string; placeId: string; inWidget?: boolean }) {
  const view = useResource(`calendar:${cityId}:${placeId}`, () => loadCalendar(cityId, placeId));
  useEffect(() => {
    if (view.data) document.dispatchEvent(new CustomEvent('collecte:city', { detail: cityId }));
  }, [view.data]);
  if (view.loading) return <Loading what="du calendrier" />;
  if (view.error != null || !view.data) {
    const back = view.error instanceof PlaceGone ? { href: `/communes/${cityId}`, label: 'Choisir mon secteur' } : { href: '/communes', label: 'Choisir ma commune' };
    return <Problem error={view.error} retry={view.reload} back={back} />;
  }
  return <CalendarScreen view={view.data} inWidget={inWidget} />;
}

function CalendarScreen({ view, inWidget }: { view: CalendarView; inWidget: boolean }) {
  const { city, place, collections } = view;
  const today = todayInFrance();
  // Those taking place: the cancelled ones are only said as such (the changes, the next 30 days, a bin's card).
  const held = collections.filter(takesPlace);
  const typeIds = new Set(place.collectionDays.map((d) => d.wasteTypeId));
  for (const c of collections) typeIds.add(c.wasteTypeId);
  // The soonest collection first (bins without one last), then by name.
  const nextOf = new Map<string, string>();
  for (const c of held) if (!nextOf.has(c.wasteTypeId)) nextOf.set(c.wasteTypeId, c.date);
  const types = city.wasteTypes
    .filter((w) => typeIds.has(w.id))
    .sort((a, b) => (nextOf.get(a.id) ?? '9999').localeCompare(nextOf.get(b.id) ?? '9999') || a.name.localeCompare(b.name, 'fr'));
  const namesOn = (date: string) => held.filter((c) => c.date === date).map(nameWithMark);
  const todayBins = namesOn(today);
  const tomorrowBins = namesOn(addDays(today, 1));

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
      <NoticeList notices={view.notices ?? []} />
      <p class="screen-only">
        <Link href={`/communes/${city.id}`}>Changer de secteur</Link>
        {!inWidget && (
          <>
            {' · '}
            <Link href="/communes">Changer de commune</Link>
          </>
        )}
      </p>
      {!inWidget && <MyPlaces cityId={city.id} cityName={city.name} placeId={place.id} placeName={place.name} />}
      <p class="actions top-actions screen-only" hidden={inWidget}>
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
          <NextCollection key={type.id} type={type} place={place} collections={collections} today={today} />
        ))}
      </ul>

      {!view.offline && !inWidget && <ReportEntry cityId={city.id} placeId={place.id} cityGroupId={city.cityGroup?.id ?? null} />}

      <h2>Exceptions et jours fériés</h2>
      <Changes collections={collections} today={today} />
      {city.holidays && <p class="muted">{city.holidays}</p>}

      <h2 id="agenda" class="screen-only" tabIndex={-1}>
        Dans mon agenda
      </h2>
      <Agenda cityId={city.id} placeId={place.id} placeName={place.name} types={types.map((t) => ({ id: t.id, name: t.name }))} />

      {!inWidget && (
        <>
          <h2 class="screen-only">Les 30 prochains jours</h2>
          <NextDays collections={collections} today={today} />
          <YearCalendar collections={held} />
        </>
      )}

      {!inWidget && (city.outOfTheBins || city.presentationOfBins || city.returnOfBins || city.respectOfCalendar) && (
        <>
          <h2>Bien sortir ses bacs</h2>
          <div class="card rules">
            {[city.outOfTheBins, city.presentationOfBins, city.returnOfBins, city.respectOfCalendar].filter(Boolean).map((text) => (
              <p key={text}>{text}</p>
            ))}
          </div>
        </>
      )}

      {!view.offline && !inWidget && <CityFaq cityId={city.id} />}
    </section>
  );
}
