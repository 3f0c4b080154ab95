import type { Kysely, Selectable } from 'kysely';
import { recordsById } from '../db/records.ts';
import type { DB, FaqEntryTable } from '../db/types.ts';
import { inFaqOrder } from '../domain/faq-order.ts';
import { pageOf, type PageRequest } from '../kernel/pagination.ts';

/** Frequently asked questions: SQL only, rows out (faq.ts shapes them). */

export type FaqEntryRow = Selectable<FaqEntryTable>;

const entries = recordsById('faq');
export const findFaqEntry = entries.find;
export const insertFaqEntry = entries.insert;
export const updateFaqEntry = entries.update;
export const deleteFaqEntry = entries.remove;

/** A group's questions in the order residents read them (inFaqOrder). */
export const findGroupFaq = (db: Kysely<DB>, cityGroupId: string): Promise<FaqEntryRow[]> =>
  inFaqOrder(db.selectFrom('faq').selectAll().where('city_group_id', '=', cityGroupId)).execute();

/** One page of a group's questions, in the public order, and their total: a group's list is read whole (a few dozen). */
export const listGroupFaq = async (db: Kysely<DB>, cityGroupId: string, page: PageRequest): Promise<{ rows: FaqEntryRow[]; total: number }> =>
  pageOf(await findGroupFaq(db, cityGroupId), page);
