// One bulky-waste pickup day (docs/api.md, bulky-waste pickups): its capacity, set here; its bookings,
// each linking to its request; and the crew's list, printed alone (bulky-pickups.css, `@media print`) in the crew's
// order: by street, then by number.
import { useState } from 'preact/hooks';
import { counted, frenchDate } from '../french.ts';
import { Table } from '../table.tsx';
import type { PickupDay } from '../types.ts';
import { FormHeading, Status } from '../ui.tsx';
import { Link } from '../../../shared/router.tsx';
import { DayCapacityForm } from './bulky-forms.tsx';
import { capitalized, crewOrder } from './bulky-text.ts';

/** What a day holds, in a sentence. */
function daySummary(day: PickupDay | undefined): string {
  if (!day) return 'Aucune tournée n’est prévue ce jour-là.';
  const booked = counted(day.booked, 'rendez-vous', 'rendez-vous');
  if (day.capacity === 0) return day.booked > 0 ? `Jour fermé, ${booked}.` : 'Jour fermé.';
  const left = day.remaining === 0 ? 'complet' : `${counted(day.remaining, 'place libre', 'places libres')}`;
  return `${counted(day.capacity, 'place', 'places')}, ${booked}, ${left}.`;
}

export function DayPanel({ cityId, date, day, onSaved }: { cityId: string; date: string; day: PickupDay | undefined; onSaved: () => void }) {
  const [status, setStatus] = useState<string | null>(null);
  const bookings = crewOrder(day?.bookings ?? []);
  const title = capitalized(frenchDate(date));
  return (
    <section class="card day-panel" aria-labelledby="pickup-day-title">
      <FormHeading id="pickup-day-title">{title}</FormHeading>
      <p>{daySummary(day)}</p>
      {status && <Status>{status}</Status>}
      <DayCapacityForm
        cityId={cityId}
        date={date}
        capacity={day?.capacity ?? null}
        onSaved={(saved) => {
          setStatus(saved.capacity === 0 ? `${title}\u00a0: jour fermé.` : `${title}\u00a0: ${counted(saved.capacity, 'place', 'places')}.`);
          onSaved();
        }}
      />
      <h3>Rendez-vous</h3>
      <Table
        caption={`Rendez-vous du ${frenchDate(date)}, par rue`}
        rows={bookings}
        rowKey={(b) => b.id}
        empty="Aucun rendez-vous ce jour-là."
        columns={[
          {
            label: 'Référence',
            cell: (b) => (
              <Link href={`/console/demandes/${b.id}`}>
                <span class="reference">{b.reference}</span>
              </Link>
            ),
          },
          { label: 'Adresse', cell: (b) => b.address ?? '—' },
          { label: 'Objets', cell: (b) => b.items ?? '—' },
          { label: 'Secteur', cell: (b) => b.placeName ?? '—' },
        ]}
      />
      {bookings.length > 0 && (
        <p>
          <button type="button" class="button secondary" onClick={() => window.print()}>
            Imprimer la liste de la tournée
          </button>
        </p>
      )}
    </section>
  );
}

/** The crew's list of a day, which alone is printed (hidden on screen). */
export function CrewList({ cityName, date, day }: { cityName: string; date: string; day: PickupDay }) {
  const bookings = crewOrder(day.bookings);
  return (
    <section class="crew-list" aria-labelledby="crew-list-title">
      <h2 id="crew-list-title">
        Enlèvement des encombrants – {cityName} – {capitalized(frenchDate(date))}
      </h2>
      <p>
        {counted(bookings.length, 'rendez-vous', 'rendez-vous')}, dans l’ordre des rues.
      </p>
      <table>
        <thead>
          <tr>
            <th scope="col" class="num">
              N°
            </th>
            <th scope="col">Adresse</th>
            <th scope="col">Objets</th>
            <th scope="col">Référence</th>
          </tr>
        </thead>
        <tbody>
          {bookings.map((b, i) => (
            <tr key={b.id}>
              <td class="num">{i + 1}</td>
              <td>{b.address ?? '—'}</td>
              <td>{b.items ?? '—'}</td>
              <td class="reference">{b.reference}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
