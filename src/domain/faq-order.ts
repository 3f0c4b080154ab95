import type { SelectQueryBuilder } from 'kysely';
import type { DB } from '../db/types.ts';

/**
 * The order residents read a city group's frequently asked questions in (docs/api.md, frequently asked questions):
 * `position`, then the oldest first (not by the question's text, which PostgreSQL would sort by the server's
 * collation, not the same on every server), then the id. The public read, the assistant's passages and the import
 * bundle's export all list them so.
 */
export function inFaqOrder<O>(query: SelectQueryBuilder<DB, 'faq', O>): SelectQueryBuilder<DB, 'faq', O> {
  return query.orderBy('faq.position').orderBy('faq.created_at').orderBy('faq.id');
}
