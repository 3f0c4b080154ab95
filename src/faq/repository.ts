import type { Kysely, Selectable } from 'kysely';
import { recordsById } from '../db/records.ts';
import type { DB, FaqEntryTable } from '../db/types.ts';
import { pageOf, type PageRequest } from '../kernel/pagination.ts';

/** Frequently asked questions: SQL only, rows out (faq.ts shapes them). */

export type FaqEntryRow = Selectable<FaqEntryTable>;

const entries = recordsById('faq');
export const findFaqEntry = entries.find;
export const insertFaqEntry = entries.insert;
export const updateFaqEntry = entries.update;
export const deleteFaqEntry = entries.remove;

/**
 * A group's questions in its order: `position`, then the oldest first (not by the question's text, which PostgreSQL
 * would sort by the server's collation, not the same on every server), then the id.
 */
export const findGroupFaq = (db: Kysely<DB>, cityGroupId: string): Promise<FaqEntryRow[]> =>
  db.selectFrom('faq').selectAll().where('city_group_id', '=', cityGroupId).orderBy('position').orderBy('created_at').orderBy('id').execute();

/** One page of a group's questions, in the public order, and their total: a group's list is read whole (a few dozen). */
export const listGroupFaq = async (db: Kysely<DB>, cityGroupId: string, page: PageRequest): Promise<{ rows: FaqEntryRow[]; total: number }> =>
  pageOf(await findGroupFaq(db, cityGroupId), page);
