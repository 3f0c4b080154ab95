// Dates as the console writes them: French whatever the browser's language (« mardi 1er décembre 2026 »), as the
// citizens' app and src/kernel/french.ts write them.

/** `mardi 1er décembre 2026` for a calendar day (YYYY-MM-DD); `year: false` drops the year, `weekday: false` the day's name. */
export function frenchDate(day: string, { year = true, weekday = true } = {}): string {
  const date = new Date(`${day}T12:00:00Z`);
  const text = new Intl.DateTimeFormat('fr-FR', {
    ...(weekday ? { weekday: 'long' } : {}),
    day: 'numeric',
    month: 'long',
    ...(year ? { year: 'numeric' } : {}),
    timeZone: 'UTC',
  }).format(date);
  return text.replace(/^(\S+ )?1 /, (_, weekday = '') => `${weekday}1er `);
}

/** The calendar day (YYYY-MM-DD) an instant falls on, in the agent's time zone. */
export function localDay(timestamp: string): string {
  const d = new Date(timestamp);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** `1er décembre 2026`: the day of an instant in the agent's time zone. */
export const frenchDay = (timestamp: string): string => frenchDate(localDay(timestamp), { weekday: false });

/** A day typed in a form as the timestamp the API takes: noon UTC falls on that day in every European time zone. */
export const dayToTimestamp = (day: string): string => `${day}T12:00:00.000Z`;

/** A name between French quotation marks, with the no-break spaces they take: `«\u00a0Verre\u00a0»`. */
export const quoted = (name: string): string => `«\u00a0${name}\u00a0»`;

/** `2\u00a0secteurs`, `1\u00a0secteur`: a number and its noun, kept on one line. */
export const counted = (n: number, singular: string, plural: string): string => `${n}\u00a0${n > 1 ? plural : singular}`;

/** « de Brest », « d’Administrateur », « d’Élorn »: the preposition elided before a vowel (not before y, a consonant in « de Yann », nor h, aspiré or not). */
export const ofName = (name: string): string => (/^[aeiouàâäéèêëîïôöùûü]/i.test(name.trim()) ? `d’${name}` : `de ${name}`);
