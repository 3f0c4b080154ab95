// Setting bulky-waste pickup capacities (docs/api.md, bulky-waste pickups): one day's (PUT), or the same
// capacity for some days of the week over a period (POST). A refusal naming a field is shown at it; any other (the 409
// of a day that already holds more bookings) above the button, as every form of the console shows them.
import { useEffect, useState } from 'preact/hooks';
import { request } from '../api.ts';
import { DateField } from '../date-field.tsx';
import { fieldError, refusedField } from '../editor-form.tsx';
import { Checkbox, TextField } from '../form-fields.tsx';
import { counted } from '../french.ts';
import type { PickupDay } from '../types.ts';
import { Problem } from '../ui.tsx';
import { capitalized, daysOf, WEEKDAYS, weekdayIndex, type Weekday } from './bulky-text.ts';

/** A capacity as typed: a whole number is sent as one, anything else as typed, for the API to refuse at its field. */
const capacityOf = (typed: string): unknown => (/^\s*\d+\s*$/.test(typed) ? Number(typed) : typed.trim() === '' ? null : typed);

/** The refusal shown above the button: one that names no field of the form. */
const unplaced = (error: unknown, fields: string[]) => (error !== null && !fields.includes(refusedField(error) ?? '') ? error : null);

export function DayCapacityForm({
  cityId,
  date,
  capacity,
  onSaved,
}: {
  cityId: string;
  date: string;
  capacity: number | null;
  onSaved: (day: PickupDay) => void;
}) {
  const [typed, setTyped] = useState(capacity === null ? '' : String(capacity));
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  // The day read again (after the bulk form, say): the field shows what it now holds.
  useEffect(() => setTyped(capacity === null ? '' : String(capacity)), [capacity]);
  const save = async (event: Event) => {
    event.preventDefault();
    setSaving(true);
    setError(null);
    try {
      const { data } = await request<PickupDay>('PUT', `/admin/cities/${cityId}/bulky-pickups/${date}`, { body: { capacity: capacityOf(typed) } });
      setTyped(String(data.capacity));
      onSaved(data);
    } catch (err) {
      setError(err);
    } finally {
      setSaving(false);
    }
  };
  const problem = unplaced(error, ['capacity']);
  return (
    <form class="day-capacity" aria-label="Capacité du jour" noValidate onSubmit={(e) => void save(e)}>
      <TextField
        label="Capacité du jour"
        type="number"
        inputMode="numeric"
        min="0"
        value={typed}
        hint="Le nombre de rendez-vous que la tournée peut prendre ce jour-là. 0 ferme le jour."
        error={fieldError({ saveError: error }, 'capacity')}
        onInput={(value) => {
          setTyped(value);
          setError(null);
        }}
      />
      {problem !== null && <Problem error={problem} />}
      <div class="actions">
        <button type="submit" class="button" disabled={saving}>
          {saving ? 'Enregistrement…' : 'Enregistrer la capacité'}
        </button>
      </div>
    </form>
  );
}

interface Range {
  from: string;
  to: string;
  weekdays: Weekday[];
  capacity: string;
}

/** The same capacity for the days of a period that fall on the days of the week checked; the period is the month shown at first. */
export function BulkCapacityForm({ cityId, month, onSaved }: { cityId: string; month: string; onSaved: (message: string) => void }) {
  const all = daysOf(month);
  const [form, setForm] = useState<Range>({ from: all[0], to: all[all.length - 1], weekdays: [], capacity: '' });
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const set = (patch: Partial<Range>) => {
    setForm({ ...form, ...patch });
    setError(null);
    if (patch.weekdays?.length) setNoWeekday(false);
  };
  const toggle = (weekday: Weekday, on: boolean) =>
    set({ weekdays: WEEKDAYS.filter((w) => (w === weekday ? on : form.weekdays.includes(w))) });

  const [noWeekday, setNoWeekday] = useState(false);
  const save = async (event: Event) => {
    event.preventDefault();
    setError(null);
    // Said here rather than sent: the API would name its field, `weekdays`, not the agents' words.
    setNoWeekday(form.weekdays.length === 0);
    if (form.weekdays.length === 0) return;
    setSaving(true);
    try {
      const capacity = capacityOf(form.capacity);
      const { data } = await request<PickupDay[]>('POST', `/admin/cities/${cityId}/bulky-pickups`, {
        body: { from: form.from, to: form.to, weekdays: form.weekdays, capacity },
      });
      // The answer holds every day of the period that has a capacity: those set are the ones on the days checked.
      const chosen = new Set(form.weekdays.map((w) => WEEKDAYS.indexOf(w)));
      const changed = data.filter((d) => chosen.has(weekdayIndex(d.date)));
      const n = counted(changed.length, 'jour', 'jours');
      onSaved(capacity === 0 ? `${capitalized(n)} fermé${changed.length > 1 ? 's' : ''}.` : `${capitalized(n)} à ${counted(Number(capacity), 'place', 'places')}.`);
    } catch (err) {
      setError(err);
    } finally {
      setSaving(false);
    }
  };

  const weekdaysError = noWeekday ? 'Cochez au moins un jour de la semaine.' : fieldError({ saveError: error }, 'weekdays');
  const problem = unplaced(error, ['from', 'to', 'weekdays', 'capacity']);
  return (
    <form class="card" aria-labelledby="bulk-capacity-title" noValidate onSubmit={(e) => void save(e)}>
      <h2 id="bulk-capacity-title">Ouvrir ou fermer plusieurs jours</h2>
      <p class="hint">
        La même capacité pour chaque jour coché de la période. 0 ferme ces jours. Si l’un d’eux compte déjà plus de rendez-vous, rien n’est changé.
      </p>
      <div class="row">
        <DateField label="Premier jour" value={form.from} required error={fieldError({ saveError: error }, 'from')} onInput={(from) => set({ from })} />
        <DateField label="Dernier jour" value={form.to} required error={fieldError({ saveError: error }, 'to')} onInput={(to) => set({ to })} />
      </div>
      <fieldset class={weekdaysError ? 'invalid' : undefined} aria-describedby={weekdaysError ? 'bulk-weekdays-error' : undefined}>
        <legend>Jours de la semaine</legend>
        <div class="weekday-choices">
          {WEEKDAYS.map((w) => (
            <Checkbox key={w} label={capitalized(w)} checked={form.weekdays.includes(w)} onChange={(on) => toggle(w, on)} />
          ))}
        </div>
        {weekdaysError && (
          <p class="field-error" id="bulk-weekdays-error">
            {weekdaysError}
          </p>
        )}
      </fieldset>
      <TextField
        label="Capacité de chaque jour"
        type="number"
        inputMode="numeric"
        min="0"
        value={form.capacity}
        error={fieldError({ saveError: error }, 'capacity')}
        onInput={(capacity) => set({ capacity })}
      />
      {problem !== null && <Problem error={problem} />}
      <div class="actions">
        <button type="submit" class="button" disabled={saving}>
          {saving ? 'Enregistrement…' : 'Appliquer à ces jours'}
        </button>
      </div>
    </form>
  );
}
