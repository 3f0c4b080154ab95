// The days a bulky-waste pickup can be booked for, on a small calendar (docs/api.md, bulky-waste pickups): a month
// a table, Monday first; each day with room a radio button (the arrow keys move between them, as in any group of
// radios), a full day shown « complet » and disabled, the others plain numbers. The server's list decides: the app
// never guesses a day.
import type { PickupDay } from '../types.ts';
import { FieldError } from '../ui.tsx';
import { longDay } from '../text.ts';
import { describedBy } from './report-inputs.tsx';

const NBSP = '\u00a0';
const WEEKDAYS: [string, string][] = [
  ['lun.', 'lundi'],
  ['mar.', 'mardi'],
  ['mer.', 'mercredi'],
  ['jeu.', 'jeudi'],
  ['ven.', 'vendredi'],
  ['sam.', 'samedi'],
  ['dim.', 'dimanche'],
];
const monthFormat = new Intl.DateTimeFormat('fr-FR', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** « 3 places restantes », « 1 place restante ». */
export function placesLeft(n: number): string {
  return n > 1 ? `${n} places restantes` : `${n} place restante`;
}

/** The weeks of a `YYYY-MM` month, Monday first, each day its `YYYY-MM-DD` or null outside the month. */
function weeksOf(month: string): (string | null)[][] {
  const first = new Date(`${month}-01T00:00:00Z`);
  const length = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  const lead = (first.getUTCDay() + 6) % 7;
  const cells: (string | null)[] = Array.from({ length: lead }, () => null);
  for (let d = 1; d <= length; d++) cells.push(`${month}-${String(d).padStart(2, '0')}`);
  while (cells.length % 7 !== 0) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, i) => cells.slice(i * 7, i * 7 + 7));
}

/** The months from the first listed day's to the last one's, as `YYYY-MM`. */
function monthsOf(days: PickupDay[]): string[] {
  if (days.length === 0) return [];
  const months: string[] = [];
  let [year, month] = days[0].date.slice(0, 7).split('-').map(Number);
  const last = days[days.length - 1].date.slice(0, 7);
  for (;;) {
    const key = `${year}-${String(month).padStart(2, '0')}`;
    months.push(key);
    if (key >= last) return months;
    month = month === 12 ? 1 : month + 1;
    if (month === 1) year++;
  }
}

export function PickupDayPicker(props: {
  id: string;
  legend: string;
  days: PickupDay[];
  value: string;
  error?: string;
  onChange: (date: string) => void;
}) {
  const { id, legend, days, value, error, onChange } = props;
  const byDate = new Map(days.map((d) => [d.date, d]));
  const hint = `Les jours proposés par votre commune${NBSP}; un jour se réserve et s’annule jusqu’à midi la veille.`;
  return (
    <fieldset id={id} class={error ? 'field group pickup-days has-error' : 'field group pickup-days'} aria-describedby={describedBy(id, true, error)}>
      <legend>{legend}</legend>
      <p id={`${id}-hint`} class="hint muted">
        {hint}
      </p>
      <FieldError id={id} error={error} />
      {monthsOf(days).map((month) => (
        <table key={month} class="pickup-month">
          <caption>{monthFormat.format(new Date(`${month}-01T00:00:00Z`))}</caption>
          <thead>
            <tr>
              {WEEKDAYS.map(([short, full]) => (
                <th key={full} scope="col">
                  <abbr title={full}>{short}</abbr>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {weeksOf(month).map((week, w) => (
              <tr key={w}>
                {week.map((date, i) => {
                  if (date === null) return <td key={i} />;
                  const day = byDate.get(date);
                  const number = Number(date.slice(8));
                  if (!day) {
                    return (
                      <td key={date} class="no-pickup">
                        <span aria-hidden="true">{number}</span>
                      </td>
                    );
                  }
                  const full = day.remaining === 0;
                  return (
                    <td key={date} class={full ? 'full' : date === value ? 'chosen' : 'open'}>
                      <input
                        type="radio"
                        id={`${id}-${date}`}
                        name={id}
                        value={date}
                        checked={date === value}
                        disabled={full}
                        onChange={() => onChange(date)}
                      />
                      <label for={`${id}-${date}`}>
                        <span aria-hidden="true">{number}</span>
                        <span class="visually-hidden">
                          {longDay(date)}, {full ? 'complet' : placesLeft(day.remaining)}
                        </span>
                      </label>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      ))}
      <p class="pickup-legend muted" aria-hidden="true">
        <span class="pickup-key open" /> jour proposé <span class="pickup-key full" /> complet
      </p>
    </fieldset>
  );
}
