import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { assertNoFault, removeRow, underOwner, type AdminStore } from '../admin/store.ts';
import { serieFaults } from './challenge-rules.ts';
import { errors } from '../kernel/errors.ts';
import { lowercaseIds } from '../kernel/schemas.ts';
import * as repo from './admin-repository.ts';
import type { ChallengeOwner, SerieRow } from './admin-repository.ts';
import type { AdminSerie, CreateSerieInput, SeriePatch } from './admin-schemas.ts';

/**
 * The admin API's series (docs/api.md, the admin API, permission CHALLENGES): created under their challenge, then read,
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

/** The parent half of a challenge's badge and series: found with the challenge's city, 404 `Défi introuvable` outside it. */
export const underChallenge = underOwner(repo.findChallengeOwner, errors.adminChallengeNotFound, 'challengeId');

type SerieFields = Omit<AdminSerie, 'id' | 'challengeId'>;

async function write(trx: Kysely<DB>, cityId: string, fields: SerieFields, store: (values: Omit<SerieRow, 'id' | 'challenge_id'>) => Promise<SerieRow>) {
  assertNoFault(serieFaults(fields, { quizQuestionIds: await repo.cityQuizQuestionIds(trx, cityId) }));
  const row = await store({ name: fields.name.trim(), description: fields.description, order: fields.order });
  await repo.setSerieQuestions(trx, row.id, fields.quizQuestionIds);
  return row;
}

export const serieStore: AdminStore<SerieRow, AdminSerie, ChallengeOwner, CreateSerieInput, SeriePatch> = {
  entity: 'serie',
  notFound: errors.serieNotFound,
  ...underChallenge(repo.findSerie, repo.listChallengeSeries, showSeries),
  insert(trx, { subject: challenge }, input) {
    const fields = { description: null, order: 0, quizQuestionIds: [], ...lowercaseIds(input, 'quizQuestionIds') };
    return write(trx, challenge!.cityId, fields, (values) => repo.insertSerie(trx, randomUUID(), challenge!.challengeId, values));
  },
  async update(trx, { subject }, patch) {
    const owner = (await repo.findChallengeOwner(trx, subject.row.challenge_id))!;
    return write(trx, owner.cityId, { ...subject.record, ...lowercaseIds(patch, 'quizQuestionIds') }, (values) => repo.updateSerie(trx, subject.row.id, values));
  },
  remove: removeRow(repo.deleteSerie),
};
