import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { eachRow, inGroup, removeRow, underGroup, type AdminStore } from '../admin/store.ts';
import type { DB } from '../db/types.ts';
import { findActiveCity } from '../domain/cities.ts';
import { errors } from '../kernel/errors.ts';
import { timestamps } from '../kernel/french.ts';
import { deleteFaqEntry, findFaqEntry, findGroupFaq, insertFaqEntry, listGroupFaq, updateFaqEntry, type FaqEntryRow } from './repository.ts';
import type { AdminFaqEntry, CreateFaqEntryInput, FaqEntry, FaqEntryPatch } from './schemas.ts';

/**
 * A city group's frequently asked questions (docs/api.md, frequently asked questions): written by its agents holding
 * CMS under `/admin/city-groups/:cityGroupId/faq`, read by residents for their city at `/public/cities/:cityId/faq`.
 */

const toFaqEntry = (row: FaqEntryRow): FaqEntry => ({ id: row.id, question: row.question, answer: row.answer });

const toAdminFaqEntry = (row: FaqEntryRow): AdminFaqEntry => ({
  ...toFaqEntry(row),
  position: row.position,
  cityGroupId: row.city_group_id,
  ...timestamps(row),
});

/** The questions of an active city's group, in the group's order; a city of no group has none. 404 for an unknown or NON_ACTIF city. */
export async function cityFaq(db: Kysely<DB>, cityId: string): Promise<FaqEntry[]> {
  const city = await findActiveCity(db, cityId);
  if (!city) throw errors.cityNotFound();
  return city.cityGroupId === null ? [] : (await findGroupFaq(db, city.cityGroupId)).map(toFaqEntry);
}

export const faqStore: AdminStore<FaqEntryRow, AdminFaqEntry, { id: string }, CreateFaqEntryInput, FaqEntryPatch> = {
  entity: 'faqEntry',
  notFound: errors.faqEntryNotFound,
  ...underGroup,
  fixedParent: true,
  find: async (db, id, options) => inGroup(await findFaqEntry(db, id, options)),
  list: (db, group, page) => listGroupFaq(db, group!.id, page),
  show: eachRow(toAdminFaqEntry),
  insert: (trx, { subject: group, now }, input) =>
    insertFaqEntry(trx, {
      id: randomUUID(),
      city_group_id: group!.id,
      question: input.question.trim(),
      answer: input.answer.trim(),
      position: input.position ?? 0,
      created_at: now,
      updated_at: now,
    }),
  update: (trx, { subject, now }, patch) =>
    updateFaqEntry(trx, subject.row.id, {
      ...(patch.question !== undefined ? { question: patch.question.trim() } : {}),
      ...(patch.answer !== undefined ? { answer: patch.answer.trim() } : {}),
      ...(patch.position !== undefined ? { position: patch.position } : {}),
      updated_at: now,
    }),
  remove: removeRow(deleteFaqEntry),
};
