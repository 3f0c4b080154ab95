/**
 * The number rules of a street (docs/api.md, From an address to a collection place: an inclusive range, open at
 * either end, and a side), their French labels, and the small typo measure the lookup can fall back on without SQL.
 * Pure functions.
 */
import { looseStreetKey } from './address.ts';

export type StreetSide = 'ALL' | 'ODD' | 'EVEN';

export interface StreetNumberRule {
  fromNumber: number | null;
  toNumber: number | null;
  side: StreetSide;
}

/** Whether a house number is served by a street rule: inside the inclusive range (null: open end) and on its side. */
export function numberMatches(rule: StreetNumberRule, n: number): boolean {
  if (!Number.isInteger(n) || n < 1) return false;
  if (rule.fromNumber !== null && n < rule.fromNumber) return false;
  if (rule.toNumber !== null && n > rule.toNumber) return false;
  if (rule.side === 'ODD') return n % 2 === 1;
  if (rule.side === 'EVEN') return n % 2 === 0;
  return true;
}

const NBSP = '\u00a0';

/**
 * Which numbers a rule serves, in French: `numéros impairs de 1 à 99`, `numéros pairs à partir de 100`,
 * `numéros jusqu’au 40`, `numéro 12`, `tous les numéros`. A no-break space binds each number to the word before it.
 */
export function numbersLabel(rule: StreetNumberRule): string {
  const side = rule.side === 'ODD' ? ' impairs' : rule.side === 'EVEN' ? ' pairs' : '';
  const { fromNumber: from, toNumber: to } = rule;
  if (from !== null && to !== null && from === to) return `numéro${NBSP}${from}`;
  if (from !== null && to !== null) return `numéros${side} de${NBSP}${from} à${NBSP}${to}`;
  if (from !== null) return `numéros${side} à partir de${NBSP}${from}`;
  if (to !== null) return `numéros${side} jusqu’au${NBSP}${to}`;
  return side === '' ? 'tous les numéros' : `numéros${side}`;
}

/** A street rule's label as the lookup answers it: `Rue de Siam, numéros impairs de 1 à 99`. */
export function ruleLabel(rule: StreetNumberRule & { street: string }): string {
  return `${rule.street}, ${numbersLabel(rule)}`;
}

/** Rows of editDistance, grown as needed and reused: a search compares one text with thousands of names. */
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/**
 * Edit distance between two keys (optimal string alignment: insertions, deletions, substitutions and swaps of two
 * neighbours each count one), computed only up to `max`: any larger distance is answered `max + 1`. Only the cells
 * within `max` of the diagonal are computed (a path leaving that band costs more than `max`), in reused rows.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (a === b) return 0;
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return max + 1;
  const band = Math.min(max, Math.max(n, m));
  const cap = band + 1;
  if (rows[0].length < m + 1) rows = [new Int32Array(m + 1), new Int32Array(m + 1), new Int32Array(m + 1)];
  let [before, previous, current] = rows;
  for (let j = 0; j <= m; j++) previous[j] = j <= band ? j : cap;
  for (let i = 1; i <= n; i++) {
    const lo = Math.max(1, i - band);
    const hi = Math.min(m, i + band);
    current[0] = i <= band ? i : cap;
    if (lo > 1) current[lo - 1] = cap;
    let rowMin = current[0];
    for (let j = lo; j <= hi; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
        value = Math.min(value, before[j - 2] + 1);
      }
      if (value > cap) value = cap;
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (hi < m) current[hi + 1] = cap;
    if (rowMin > max) return max + 1;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[m], max + 1);
}

/** Typos tolerated in a street's loose key: none under 5 characters, one under 10, two from there. */
export function typoAllowance(looseKey: string): number {
  return looseKey.length < 5 ? 0 : looseKey.length < 10 ? 1 : 2;
}

/** Whether a typed street key names a stored one, a typo or two aside (compared without articles). */
export function isNearMiss(typedKey: string, storedKey: string): boolean {
  const typed = looseStreetKey(typedKey);
  const stored = looseStreetKey(storedKey);
  const allowed = typoAllowance(stored);
  return editDistance(typed, stored, allowed) <= allowed;
}
