// A month of bulky-waste pickup days (docs/api.md, bulky-waste pickups): a week a row on a wide screen, a
// day a line on a phone; each day a link that opens it below (in the address: `?jour=`), its places, its
// bookings and what is left said with it.
import { frenchDate } from '../french.ts';
import type { PickupDay } from '../types.ts';
import { Link } from '../../../shared/router.tsx';
import { dayLines, dayState, daysOf, monthName, weekdayIndex } from './bulky-text.ts';

const SHORT_WEEKDAYS = ['lun.', 'mar.', 'mer.', 'jeu.', 'ven.', 'sam.', 'dim.'];

export function PickupCalendar({
  month,
  days,
  selected,
  hrefOf,
}: {
  month: string;
  days: PickupDay[];
  selected: string | null;
  hrefOf: (date: string) => string;
}) {
  const byDate = new Map(days.map((d) => [d.date, d]));
  return (
    <div class="pickup-month">
      <div class="pickup-weekdays" aria-hidden="true">
        {SHORT_WEEKDAYS.map((name) => (
          <span key={name}>{name}</span>
        ))}
      </div>
      <ol class="pickup-days" aria-label={`Jours de ${monthName(month)}`}>
        {daysOf(month).map((date, i) => {
          const day = byDate.get(date);
          const lines = dayLines(day);
          const weekday = weekdayIndex(date);
          // The first day sits under its day of the week; the others follow it.
          const start = i === 0 ? ` start-${weekday + 1}` : '';
          return (
            <li key={date} class={`${dayState(day)}${start}${date === selected ? ' selected' : ''}`}>
              <Link href={hrefOf(date)} class="pickup-day" aria-current={date === selected ? 'true' : undefined}>
                <span class="pickup-date" aria-hidden="true">
                  <span class="pickup-weekday">{SHORT_WEEKDAYS[weekday]} </span>
                  {Number(date.slice(8))}
                </span>
                <span class="visually-hidden">{frenchDate(date, { year: false })}&nbsp;: </span>
                <span class="pickup-counts">
                  {lines.map((line, j) => (
                    <span key={j}>
                      {line}
                      {j < lines.length - 1 && <span class="visually-hidden">, </span>}
                    </span>
                  ))}
                </span>
              </Link>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
