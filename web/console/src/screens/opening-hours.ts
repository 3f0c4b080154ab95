// « Ouvert maintenant ? » for an OpenStreetMap opening-hours spec, read by the same library as the server
// (opening_hours, loaded with the recycling points' screen only).
import OpeningHours from 'opening_hours';

/** Where PH (public holidays) are read: France, as the server does. */
const FRANCE = { lat: 46.6033, lon: 1.8892, address: { country_code: 'fr', state: '' } };

/** A Date whose local fields show the wall clock of `timeZone` now (the library reads local time). */
function wallClockNow(timeZone: string): Date {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' })
      .formatToParts(new Date())
      .map((p) => [p.type, Number(p.value)]),
  );
  return new Date(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute);
}

const when = (d: Date) =>
  new Intl.DateTimeFormat('fr-FR', { weekday: 'long', day: 'numeric', month: 'long', hour: 'numeric', minute: '2-digit' }).format(d).replace(':', '\u00a0h\u00a0').replace('\u00a0h\u00a000', '\u00a0h');

/** Parsed specs: the library is slow to read one, and the table and the form ask again on every render. */
const parsed = new Map<string, OpeningHours | Error>();

function parse(spec: string): OpeningHours {
  let hours = parsed.get(spec);
  if (!hours) {
    try {
      hours = new OpeningHours(spec, FRANCE, { mode: 0, tag_key: 'opening_hours', map_value: false, warnings_severity: 4, locale: 'fr' } as never);
    } catch (err) {
      hours = err instanceof Error ? err : new Error(String(err));
    }
    if (parsed.size > 500) parsed.clear();
    parsed.set(spec, hours);
  }
  if (hours instanceof Error) throw hours;
  return hours;
}

/** « Ouvert maintenant ? » for a spec, in French: the answer and when it changes, or why the spec does not read. */
export function openNowText(spec: string, timeZone: string): { ok: boolean; text: string } {
  if (spec.trim() === '') return { ok: true, text: 'Sans horaires au format OpenStreetMap, l’application ne dit pas si le point est ouvert.' };
  try {
    const hours = parse(spec);
    const now = wallClockNow(timeZone);
    const open = hours.getState(now);
    const next = hours.getNextChange(now);
    const change = next ? ` ${open ? 'Ferme' : 'Ouvre'} ${when(next)}.` : open ? ' Toujours ouvert.' : ' Jamais ouvert.';
    return { ok: true, text: `Ouvert maintenant\u202f? ${open ? 'Oui' : 'Non'}.${change}` };
  } catch (err) {
    return { ok: false, text: `Ces horaires ne se lisent pas\u00a0: ${(err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').trim()}` };
  }
}
