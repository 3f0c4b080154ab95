import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { ownedBy, ownerFound, type AdminStore } from '../auth/admin-store.ts';
import { serieFaults } from '../bundle/rules/challenges.ts';
import { errors } from '../kernel/errors.ts';
import * as repo from './admin-repository.ts';
import type { ChallengeOwner, SerieRow } from './admin-repository.ts';
import type { AdminSerie, CreateSerieInput, SeriePatch } from './admin-schemas.ts';

/**
 * The admin API's series (CONTRACT section 13, permission CHALLENGES): created under their challenge, then read,
 * changed and deleted at `/admin/series/:id`. Their `quizQuestionIds` are quiz questions of the challenge's city,
 * each once (the bundle's rule); a serie keeps its challenge, as in the bundle.
 */

/** Series as the admin API shows them, with their questions' ids: one query for all of them. */
export async function showSeries(db: Kysely<DB>, rows: SerieRow[]): Promise<AdminSerie[]> {
  const questions = await repo.questionIdsOf(db, rows.map((row) => row.id));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    order: row.order,
    quizQuestionIds: questions.get(row.id) ?? [],
    challengeId: row.challenge_id,
  }));
}

type SerieFields = Omit<AdminSerie, 'id' | 'challengeId'>;

const lowercase = <P extends Partial<SerieFields>>(p: P): P =>
  p.quizQuestionIds ? { ...p, quizQuestionIds: p.quizQuestionIds.map((id) => id.toLowerCase()) } : p;

async function write(trx: Kysely<DB>, cityId: string, fields: SerieFields, store: (values: Omit<SerieRow, 'id' | 'challenge_id'>) => Promise<SerieRow>) {
  const [fault] = serieFaults(fields, { quizQuestionIds: await repo.cityQuizQuestionIds(trx, cityId) });
  if (fault) throw errors.invalidField(fault.path, fault.message);
  const row = await store({ name: fields.name.trim(), description: fields.description, order: fields.order });
  await repo.setSerieQuestions(trx, row.id, fields.quizQuestionIds);
  return row;
}

export const serieStore: AdminStore<SerieRow, AdminSerie, ChallengeOwner, CreateSerieInput, SeriePatch> = {
  entity: 'serie',
  fixedParent: true,
  notFound: errors.serieNotFound,
  parentNotFound: errors.adminChallengeNotFound,
  findParent: async (db, challengeId) => ownerFound(await repo.findChallengeOwner(db, challengeId)),
  find: async (db, id, options) => ownedBy(await repo.findSerie(db, id, options)),
  list: (db, challenge, page) => repo.listChallengeSeries(db, challenge!.challengeId, page),
  show: showSeries,
  insert(trx, { subject: challenge }, input) {
    const fields = { description: null, order: 0, quizQuestionIds: [], ...lowercase(input) };
    return write(trx, challenge!.cityId, fields, (values) => repo.insertSerie(trx, randomUUID(), challenge!.challengeId, values));
  },
  async update(trx, { subject }, patch) {
    const owner = (await repo.findChallengeOwner(trx, subject.row.challenge_id))!;
    return write(trx, owner.cityId, { ...subject.record, ...lowercase(patch) }, (values) => repo.updateSerie(trx, subject.row.id, values));
  },
  async remove(trx, { subject }) {
    await repo.deleteSerie(trx, subject.row.id);
  },
};
