import { Type, type TSchema } from 'typebox';

/** An optional field of the seed: always present in responses, `null` when unset. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });

/** ISO 8601 UTC timestamp with milliseconds. */
export const Timestamp = (description?: string) =>
  Type.String({ format: 'date-time', examples: ['2026-11-21T09:30:00.000Z'], ...(description ? { description } : {}) });

export const ErrorSchema = Type.Object(
  {
    statusCode: Type.Integer({ examples: [404] }),
    message: Type.String({ examples: ['Ville introuvable'] }),
    error: Type.String({ examples: ['Not Found'] }),
  },
  { $id: 'Error', description: 'Error body of every failure' },
);

/** Timestamps from the database (Date) to the contract's text form. */
export function iso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** French collation, used for every "ordered by name" rule so both databases sort alike. */
export const frenchCollator = new Intl.Collator('fr', { numeric: true });

/** Sorts in place by a text key in French collation; ties are broken by id so the order is stable. */
export function sortByText<T extends { id: string }>(items: T[], key: (item: T) => string): T[] {
  return items.sort((a, b) => frenchCollator.compare(key(a), key(b)) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
