import { dayNumberFromParts, dayNumberToUtcDate, type DayNumber } from '../kernel/dates.ts';
import { normalizeText } from './text-match.ts';
import { frenchHolidaysOf } from '../kernel/holidays.ts';

/**
 * A day a citizen's message names: "le 25 décembre", "25/12", "1er janvier", "demain", "à Noël". The year is
 * the next one from today (a day already past this year means next year's). Only what the text says is read:
 * no weekday guessing ("lundi" is a collection day, not a date).
 */

const MONTHS: Record<string, number> = {
  janvier: 1, janv: 1, fevrier: 2, fev: 2, mars: 3, avril: 4, avr: 4, mai: 5, juin: 6, juillet: 7, juil: 7,
  aout: 8, septembre: 9, sept: 9, octobre: 10, oct: 10, novembre: 11, nov: 11, decembre: 12, dec: 12,
};

/** Fixed-date holidays named in words. */
const NAMED_DAYS: [RegExp, number, number][] = [
  [/\bnoel\b/, 12, 25],
  [/\bjour de l an\b|\bnouvel an\b/, 1, 1],
  [/\btoussaint\b/, 11, 1],
  [/\barmistice\b/, 11, 11],
  [/\bfete nationale\b/, 7, 14],
  [/\bfete du travail\b/, 5, 1],
  [/\bsaint sylvestre\b|\breveillon\b/, 12, 31],
];

/** Holidays whose date moves with Easter, by the kernel's names (kernel/holidays.ts). */
const MOVABLE_DAYS: [RegExp, string][] = [
  [/\b(lundi de )?paques?\b/, 'Lundi de Pâques'],
  [/\bascension\b/, 'Ascension'],
  [/\b(lundi de )?pentecote\b/, 'Lundi de Pentecôte'],
];

export interface AskedDay {
  day: DayNumber;
  /** How the message named it, when by a holiday's name ("Noël"). */
  named: boolean;
  /** The words that named it, as found in the message (for reading the rest without them). */
  words: RegExp;
}

function nextOccurrence(today: DayNumber, todayYear: number, month: number, day: number): DayNumber | null {
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  for (const year of [todayYear, todayYear + 1]) {
    const d = dayNumberFromParts(year, month, day);
    // 31 février is no date.
    const check = dayNumberToUtcDate(d);
    if (check.getUTCMonth() !== month - 1) return null;
    if (d >= today) return d;
  }
  return null;
}

/** "25/12", "25.12.2026": day first, as written in France. */
const NUMERIC = /(?:^|[^\d])(\d{1,2})[/.-](\d{1,2})(?:[/.-](\d{2,4}))?(?![\d])/;

export function dayAsked(text: string, today: DayNumber): AskedDay | null {
  const t = normalizeText(text);
  const todayYear = dayNumberToUtcDate(today).getUTCFullYear();
  if (/\bapres demain\b/.test(t)) return { day: today + 2, named: false, words: /apr[eè]s[- ]demain/i };
  if (/\bdemain\b/.test(t)) return { day: today + 1, named: false, words: /demain/i };
  if (/\baujourd hui\b|\bce jour\b/.test(t)) return { day: today, named: false, words: /aujourd.?hui|ce jour/i };
  const written = [...t.matchAll(/\b(\d{1,2})(?:er)?\s+([a-z]+)\b/g)].find((m) => MONTHS[m[2]] !== undefined);
  if (written) {
    const d = nextOccurrence(today, todayYear, MONTHS[written[2]], Number(written[1]));
    return d === null ? null : { day: d, named: false, words: /\d{1,2}(?:er)?\s+\p{L}+/iu };
  }
  // normalizeText turns "25/12" into "25 12".
  const numeric = NUMERIC.exec(text);
  if (numeric) {
    const [day, month] = [Number(numeric[1]), Number(numeric[2])];
    if (numeric[3]) {
      const year = numeric[3].length === 2 ? 2000 + Number(numeric[3]) : Number(numeric[3]);
      const d = dayNumberFromParts(year, month, day);
      return month >= 1 && month <= 12 && dayNumberToUtcDate(d).getUTCMonth() === month - 1 ? { day: d, named: false, words: NUMERIC } : null;
    }
    const d = nextOccurrence(today, todayYear, month, day);
    return d === null ? null : { day: d, named: false, words: NUMERIC };
  }
  for (const [pattern, name] of MOVABLE_DAYS) {
    if (!pattern.test(t)) continue;
    for (const year of [todayYear, todayYear + 1]) {
      const found = [...frenchHolidaysOf(year)].find(([d, n]) => n === name && d >= today);
      if (found) return { day: found[0], named: true, words: new RegExp(pattern.source.replace(/e/g, '[eéèêë]').replace(/a/g, '[aâà]').replace(/\\b/g, ''), 'i') };
    }
  }
  for (const [pattern, month, day] of NAMED_DAYS) {
    if (pattern.test(t)) {
      const d = nextOccurrence(today, todayYear, month, day);
      // The pattern reads normalized text; the message itself may carry accents ("Noël").
      const words = new RegExp(pattern.source.replace(/e/g, '[eéèêë]').replace(/\\b/g, ''), 'i');
      return d === null ? null : { day: d, named: true, words };
    }
  }
  return null;
}
