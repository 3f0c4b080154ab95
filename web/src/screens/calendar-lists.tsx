// The calendar screen's lists, each drawn from the collections answer (cancelled ones included): a bin's next
// collection, what changes in the coming weeks, the next 30 days, and the year ahead for paper.
import { addDays, capitalize, firstOfMonth, relativeDay } from '../text.ts';
import type { Collection, Place, WasteType } from '../types.ts';
import { Swatch } from '../ui.tsx';
import { cancelledRuns, cancelledSentence, changeMark, nameWithMark, reasonOf, takesPlace, upcomingChanges } from '../collection-changes.ts';

/** How far « Exceptions et jours fériés » looks ahead: the coming weeks (the year-end holidays from November on). */
const CHANGES_DAYS = 62;

/** « Pas de collecte … · the commune's note ». */
function withNote(sentence: string, note: string | null): string {
  return note ? `${sentence} · ${note}` : sentence;
}

export function NextCollection(props: { type: Omit<WasteType, 'details'>; place: Place; collections: Collection[]; today: string }) {
  const { type, place, collections, today } = props;
  const mine = collections.filter((c) => c.wasteTypeId === type.id);
  const dates = mine.filter(takesPlace);
  const next = dates[0];
  const days = place.collectionDays.filter((d) => d.wasteTypeId === type.id);
  const mark = next && changeMark(next);
  const note = next && next.status !== 'PLANNED' ? reasonOf(next).note : null;
  const then = dates[1] && changeMark(dates[1]);
  // The collections of this bin cancelled before its next one explain the wait (a winter pause, a holiday).
  const skipped = cancelledRuns(mine.filter((c) => !takesPlace(c) && (!next || c.date < next.date))).slice(0, 2);
  return (
    <li class="card bin" style={{ borderLeftColor: type.color ?? '#6b7280' }} data-waste-type={type.id} data-status={next?.status}>
      <h3>
        <Swatch color={type.color} /> {type.name}
      </h3>
      {next ? (
        <p class="next">
          <time dateTime={next.date}>{capitalize(relativeDay(next.date, today))}</time>
          {mark && <span class="change">, {mark}</span>}
          {next.holiday && <span class="tag">{next.holiday}</span>}
        </p>
      ) : (
        <p class="next none">Aucune collecte prévue dans les douze prochains mois.</p>
      )}
      {note && <p class="muted">{note}</p>}
      {dates[1] && (
        <p class="muted">
          puis <time dateTime={dates[1].date}>{relativeDay(dates[1].date, today)}</time>
          {then && ` (${then})`}
        </p>
      )}
      {skipped.map((run) => (
        <p key={run[0].date} class="muted skipped">
          {withNote(cancelledSentence(run), reasonOf(run[0]).note)}
        </p>
      ))}
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

/** « Exceptions et jours fériés »: moves with both days, additions, cancellations and holidays kept, by day. */
export function Changes({ collections, today }: { collections: Collection[]; today: string }) {
  const changes = upcomingChanges(collections, addDays(today, CHANGES_DAYS));
  if (changes.length === 0) return <p>Aucun changement prévu dans les deux prochains mois pour votre secteur.</p>;
  return (
    <ul class="exceptions">
      {changes.map((change) => (
        <li key={change.key} class={`card exception ${change.status.toLowerCase()}`} data-waste-type={change.collection.wasteTypeId} data-status={change.status}>
          <Swatch color={change.collection.color} />
          <div>
            <strong>{change.collection.wasteTypeName}</strong>
            <p>{change.sentence}</p>
            {change.note && <p class="muted">{change.note}</p>}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The next 30 days, day by day: a moved or added collection says so, a cancelled one is listed as such. */
export function NextDays({ collections, today }: { collections: Collection[]; today: string }) {
  return (
    <ol class="agenda screen-only">
      {groupByDate(collections.filter((c) => c.date <= addDays(today, 30))).map(([date, items]) => (
        <li key={date}>
          <time dateTime={date}>{capitalize(relativeDay(date, today))}</time>
          <ul>
            {items.map((c) => {
              const mark = changeMark(c);
              return (
                <li key={`${c.wasteTypeId}-${c.status}`} class={takesPlace(c) ? undefined : 'cancelled'} data-status={c.status}>
                  <Swatch color={c.color} /> <span class="name">{c.wasteTypeName}</span>
                  {!takesPlace(c) && <span class="tag off">pas de collecte</span>}
                  {mark && <span class="tag change">{mark}</span>}
                  {c.holiday && <span class="tag">{c.holiday}</span>}
                </li>
              );
            })}
          </ul>
        </li>
      ))}
    </ol>
  );
}

const monthFormat = new Intl.DateTimeFormat('fr-FR', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const dayOfMonthFormat = new Intl.DateTimeFormat('fr-FR', { weekday: 'short', day: 'numeric', timeZone: 'UTC' });

/** The year ahead, month by month, for paper only (the print stylesheet shows it, the screen does not). */
export function YearCalendar({ collections }: { collections: Collection[] }) {
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
                  {items.map(nameWithMark).join(', ')}
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
