import { dayNumberFromParts, dayNumberToUtcDate, type DayNumber } from '../kernel/dates.ts';
import { normalizeText } from './text-match.ts';
import { frenchHolidaysOf } from '../kernel/holidays.ts';
import { FIXED_DAYS, MONTH_WORDS, MOVABLE_DAYS } from './lexicon.ts';

/**
 * A day a citizen's message names: "le 25 décembre", "25/12", "1er janvier", "demain", "à Noël". The year is
 * the next one from today (a day already past this year means next year's). Only what the text says is read:
 * no weekday guessing ("lundi" is a collection day, not a date).
 */

const MONTHS = MONTH_WORDS;

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
  for (const { pattern, written, holiday } of MOVABLE_DAYS) {
    if (!pattern.test(t)) continue;
    for (const year of [todayYear, todayYear + 1]) {
      const found = [...frenchHolidaysOf(year)].find(([d, n]) => n === holiday && d >= today);
      if (found) return { day: found[0], named: true, words: written };
    }
  }
  for (const { pattern, written, month, day } of FIXED_DAYS) {
    if (!pattern.test(t)) continue;
    const d = nextOccurrence(today, todayYear, month, day);
    // The pattern reads normalized text; the message itself may carry accents ("Noël").
    return d === null ? null : { day: d, named: true, words: written };
  }
  return null;
}
