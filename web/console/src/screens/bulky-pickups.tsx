// « Enlèvement des encombrants »: a commune's bulky-waste pickup days (docs/api.md, bulky-waste pickups), a
// month at a time (`?mois=2026-12`), each day with its places, bookings and what is left; a day opened below the month
// (`?jour=2026-12-16`) to set its capacity, see its bookings and print the crew's list; several days set at once.
// GET, PUT and POST /admin/cities/:cityId/bulky-pickups, for agents holding REQUESTS.
import { useEffect, useState } from 'preact/hooks';
import { currentUser, get, holds } from '../api.ts';
import { localDay } from '../french.ts';
import type { ScreenProps } from '../screens.ts';
import type { City, PickupDay } from '../types.ts';
import { Breadcrumbs, Loaded, Status, Title, useResource } from '../ui.tsx';
import { PickupCalendar } from '../requests/bulky-calendar.tsx';
import { CrewList, DayPanel } from '../requests/bulky-day.tsx';
import { BulkCapacityForm } from '../requests/bulky-forms.tsx';
import { capitalized, daysOf, monthName, readDay, readMonth, shiftMonth } from '../requests/bulky-text.ts';
import { Link } from '../../../shared/router.tsx';
import '../requests/bulky-pickups.css';

/** The commune's name: the admin record for agents holding CITIES, else the published communes (REQUESTS alone). */
async function cityNameOf(cityId: string): Promise<string> {
  if (holds(currentUser(), 'CITIES')) return (await get<City>(`/admin/cities/${cityId}`)).name;
  const published = await get<{ id: string; name: string }[]>('/public/cities').catch(() => []);
  return published.find((c) => c.id === cityId)?.name ?? 'la commune';
}

export default function BulkyPickupsScreen({ params, query }: ScreenProps) {
  const { cityId } = params;
  const day = readDay(query.get('jour'));
  const month = readMonth(query.get('mois')) ?? day?.slice(0, 7) ?? localDay(new Date().toISOString()).slice(0, 7);
  const selected = day && day.startsWith(month) ? day : null;
  const all = daysOf(month);
  const base = `/console/communes/${cityId}/encombrants`;
  const city = useResource(`city-name:${cityId}`, () => cityNameOf(cityId));
  const days = useResource(`bulky-pickups:${cityId}:${month}`, () =>
    get<PickupDay[]>(`/admin/cities/${cityId}/bulky-pickups?from=${all[0]}&to=${all[all.length - 1]}`),
  );
  const [status, setStatus] = useState<string | null>(null);
  // What the bulk form said speaks of the month it was sent from.
  useEffect(() => setStatus(null), [month]);
  const monthHref = (m: string) => `${base}?mois=${m}`;

  return (
    <Loaded resource={city} what="de la commune">
      {(name) => (
        <section class="bulky-screen">
          <Breadcrumbs
            items={
              holds(currentUser(), 'CITIES')
                ? [
                    { href: '/console/communes', label: 'Communes' },
                    { href: `/console/communes/${cityId}`, label: name },
                  ]
                : [{ href: '/console/demandes', label: 'Demandes' }]
            }
          />
          <Title text={`Enlèvement des encombrants – ${name}`}>Enlèvement des encombrants – {name}</Title>
          <p class="muted">
            Les jours où les habitants peuvent prendre rendez-vous, et combien. Un jour ferme aux rendez-vous à midi la veille. Choisissez un jour pour
            changer sa capacité, voir ses rendez-vous et imprimer la liste de la tournée.
          </p>
          <h2 class="month-title">{capitalized(monthName(month))}</h2>
          <nav class="month-nav" aria-label="Changer de mois">
            <Link href={monthHref(shiftMonth(month, -1))} rel="prev">
              <span aria-hidden="true">‹ </span>
              <span class="visually-hidden">Mois précédent, </span>
              {monthName(shiftMonth(month, -1))}
            </Link>
            <Link href={monthHref(shiftMonth(month, 1))} rel="next">
              <span class="visually-hidden">Mois suivant, </span>
              {monthName(shiftMonth(month, 1))}
              <span aria-hidden="true"> ›</span>
            </Link>
          </nav>
          <Loaded resource={days} what="des jours de collecte">
            {(list) => {
              const current = selected ? list.find((d) => d.date === selected) : undefined;
              return (
                <>
                  <PickupCalendar month={month} days={list} selected={selected} hrefOf={(date) => `${base}?mois=${month}&jour=${date}`} />
                  {selected && <DayPanel key={selected} cityId={cityId} date={selected} day={current} onSaved={days.reload} />}
                  {status && <Status>{status}</Status>}
                  <BulkCapacityForm
                    key={month}
                    cityId={cityId}
                    month={month}
                    onSaved={(message) => {
                      setStatus(message);
                      days.reload();
                    }}
                  />
                  {selected && current && current.bookings.length > 0 && <CrewList cityName={name} date={selected} day={current} />}
                </>
              );
            }}
          </Loaded>
        </section>
      )}
    </Loaded>
  );
}
