/**
 * French text and dates, as every area needs them: the one ordering rule of contract section 1 ("by name, French
 * collation"), and timestamps in the contract's text form.
 */

/** French collation, used for every "ordered by name" rule so both databases sort alike (numbers in natural order). */
export const frenchCollator = new Intl.Collator('fr', { numeric: true });

/** Compares two texts in French collation. */
export const compareFrench = (a: string, b: string): number => frenchCollator.compare(a, b);

/** Sorts in place by a text key in French collation; ties are broken by id so the order is stable. */
export function sortByText<T extends { id: string }>(items: T[], key: (item: T) => string): T[] {
  return items.sort((a, b) => frenchCollator.compare(key(a), key(b)) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Timestamps from the database (Date) to the contract's text form. */
export function iso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** `n` things in French, with a no-break space: `1 ville`, `2 villes`, `0 ville`. */
export const counted = (n: number, singular: string, plural: string): string => `${n}\u00a0${n > 1 ? plural : singular}`;

/** Items joined the French way: `a`, `a et b`, `a, b et c`. */
export function frenchList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} et ${items.at(-1)}`;
}
