// French text helpers: accent-insensitive matching and dates.

/** Lowercase, without accents or punctuation: "Plouzané" and "plouzane" match, so do "Saint-Pabu" and "st pabu". */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/œ/g, 'oe')
    .replace(/æ/g, 'ae')
    .replace(/[^a-z0-9]+/g, ' ')
    .replace(/\bst\b/g, 'saint')
    .replace(/\bste\b/g, 'sainte')
    .trim();
}

const STOP = new Set(['de', 'du', 'des', 'la', 'le', 'les', 'l', 'd', 'un', 'une', 'en', 'et', 'a', 'au', 'aux', 'mon', 'ma', 'mes']);

/** The words of a query that carry meaning, singular-ish ("pots" finds "pot"). */
export function words(query: string): string[] {
  return fold(query)
    .split(' ')
    .filter((w) => w && !STOP.has(w))
    .map((w) => (w.length > 3 && /[sx]$/.test(w) ? w.slice(0, -1) : w));
}

/** Every query word starts a word of the text. */
export function matchesAll(queryWords: string[], text: string): boolean {
  const textWords = words(text);
  return queryWords.every((q) => textWords.some((t) => t.startsWith(q)));
}

const dayFormat = new Intl.DateTimeFormat('fr-FR', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
const shortFormat = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Paris' });
const isoInParis = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'Europe/Paris' });

/** Today's date in France, YYYY-MM-DD (collection dates are calendar days there). */
export function todayInFrance(now = new Date()): string {
  return isoInParis.format(now);
}

export function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The first of a month as French typography writes it: `1er décembre` (Intl writes `1 décembre`). */
export function firstOfMonth(date: string): string {
  return date.replace(/(^|\s)1(?=\s)/, '$11er');
}

/** "mardi 24 novembre", "lundi 1er mars" for a YYYY-MM-DD day. */
export function longDay(isoDate: string): string {
  return firstOfMonth(dayFormat.format(new Date(`${isoDate}T00:00:00Z`)));
}

/** "aujourd’hui", "demain" or the long day. */
export function relativeDay(isoDate: string, today = todayInFrance()): string {
  if (isoDate === today) return 'aujourd’hui';
  if (isoDate === addDays(today, 1)) return 'demain';
  return longDay(isoDate);
}

/** "24 novembre 2026" for an instant (the day an offline copy was saved, posts). */
export function shortDate(iso: string): string {
  return firstOfMonth(shortFormat.format(new Date(iso)));
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const NBSP = '\u00a0';
const clockFormat = new Intl.DateTimeFormat('fr-FR', { hour: 'numeric', minute: '2-digit', hourCycle: 'h23', timeZone: 'Europe/Paris' });
const weekdayFormat = new Intl.DateTimeFormat('fr-FR', { weekday: 'long', timeZone: 'UTC' });

/** "18 h", "18 h 30", "9 h" (non-breaking spaces) for an instant, on the clock of France. */
export function frenchTime(iso: string): string {
  const parts = clockFormat.formatToParts(new Date(iso));
  const hour = Number(parts.find((p) => p.type === 'hour')?.value ?? 0);
  const minute = parts.find((p) => p.type === 'minute')?.value ?? '00';
  return minute === '00' ? `${hour}${NBSP}h` : `${hour}${NBSP}h${NBSP}${minute}`;
}

/** When an instant comes, said from `now`: "à 18 h", "demain à 9 h", "lundi à 9 h", "le lundi 5 janvier à 9 h". */
export function whenNext(iso: string, now = new Date()): string {
  const day = todayInFrance(new Date(iso));
  const today = todayInFrance(now);
  const time = frenchTime(iso);
  if (day === today) return `à ${time}`;
  if (day === addDays(today, 1)) return `demain à ${time}`;
  if (day < addDays(today, 7)) return `${weekdayFormat.format(new Date(`${day}T00:00:00Z`))} à ${time}`;
  return `le ${longDay(day)} à ${time}`;
}

/**
 * A recycling point's opening state as GET /public/cities/:cityId/recycling-points computes it, in words:
 * « Ouvert · ferme à 18 h », « Fermé · ouvre lundi à 9 h », « Ouvert 24 h/24 »; null without a spec.
 */
export function openingLabel(openNow: boolean | null, nextChange: string | null, now = new Date()): string | null {
  if (openNow === null) return null;
  if (nextChange === null) return openNow ? `Ouvert 24${NBSP}h/24` : 'Fermé';
  return openNow ? `Ouvert · ferme ${whenNext(nextChange, now)}` : `Fermé · ouvre ${whenNext(nextChange, now)}`;
}

/** "à 350 m", "à 1,2 km", "à 14 km" (non-breaking spaces). */
export function distanceLabel(meters: number): string {
  if (meters < 1000) return `à ${Math.round(meters / 10) * 10}${NBSP}m`;
  if (meters < 10_000) return `à ${(meters / 1000).toFixed(1).replace('.', ',')}${NBSP}km`;
  return `à ${Math.round(meters / 1000)}${NBSP}km`;
}

/** Noon of a YYYY-MM-DD day on the clock of France, as an instant (the missed-collection window opens then). */
export function noonInFrance(isoDate: string): Date {
  const guess = new Date(`${isoDate}T12:00:00Z`);
  // What the clock of France reads at that instant, as if it were UTC: the difference is France's offset then.
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
      .formatToParts(guess)
      .map((p) => [p.type, p.value]),
  );
  const wall = Date.parse(`${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:00Z`);
  return new Date(guess.getTime() - (wall - guess.getTime()));
}

/** « 23 novembre 2026 à 14 h » for an instant, on the clock of France. */
export function dateAndTime(iso: string): string {
  return `${shortDate(iso)} à ${frenchTime(iso)}`;
}
