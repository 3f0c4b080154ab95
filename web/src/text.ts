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

/** "mardi 24 novembre" for a YYYY-MM-DD day. */
export function longDay(isoDate: string): string {
  return dayFormat.format(new Date(`${isoDate}T00:00:00Z`));
}

/** "aujourd’hui", "demain" or the long day. */
export function relativeDay(isoDate: string, today = todayInFrance()): string {
  if (isoDate === today) return 'aujourd’hui';
  if (isoDate === addDays(today, 1)) return 'demain';
  return longDay(isoDate);
}

/** "24 novembre 2026" for an instant (exceptions, posts). */
export function shortDate(iso: string): string {
  return shortFormat.format(new Date(iso));
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
