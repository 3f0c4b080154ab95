import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { assertNoFault, eachRow, underCity, type AdminStore } from '../admin/store.ts';
import { quizQuestionFaults } from '../domain/rules/cities.ts';
import { cityWasteTypeIds, type CityOwner } from '../domain/cities.ts';
import { errors } from '../kernel/errors.ts';
import { lowercaseIds } from '../kernel/schemas.ts';
import * as repo from './admin-repository.ts';
import type { QuizQuestionRow } from './admin-repository.ts';
import type { AdminQuizQuestion, CreateQuizQuestionInput, QuizQuestionPatch } from './admin-schemas.ts';

/**
 * The admin API's quiz questions (docs/api.md, the admin API, permission CITIES): created under their city, then read,
 * changed and deleted at `/admin/quiz-questions/:id`. The correct waste type is one of the city's (the bundle's rule).
 * A question still in a serie is not deleted (409): the database would silently take it out of the series, changing
 * quizzes that belong to the challenge managers (CHALLENGES), who take it out themselves.
 */

const toAdminQuizQuestion = (row: QuizQuestionRow): AdminQuizQuestion => ({
  id: row.id,
  material: row.material,
  question: row.question,
  correctWasteTypeId: row.correct_waste_type_id,
  order: row.order,
  cityId: row.city_id,
});

type QuestionFields = Omit<AdminQuizQuestion, 'id' | 'cityId'>;

async function assertValid(db: Kysely<DB>, cityId: string, question: QuestionFields): Promise<void> {
  assertNoFault(quizQuestionFaults(question, { wasteTypeIds: await cityWasteTypeIds(db, cityId) }));
}

const columns = (q: QuestionFields) => ({
  material: q.material.trim(),
  question: q.question.trim(),
  correct_waste_type_id: q.correctWasteTypeId.toLowerCase(),
  order: q.order,
});

export const quizQuestionStore: AdminStore<QuizQuestionRow, AdminQuizQuestion, CityOwner, CreateQuizQuestionInput, QuizQuestionPatch> = {
  entity: 'quizQuestion',
  notFound: errors.quizQuestionNotFound,
  ...underCity(repo.findQuizQuestion, repo.listCityQuizQuestions, eachRow(toAdminQuizQuestion)),
  async insert(trx, { subject: city }, input) {
    const fields = { order: 0, ...lowercaseIds(input, 'correctWasteTypeId') };
    await assertValid(trx, city!.cityId, fields);
    return repo.insertQuizQuestion(trx, randomUUID(), city!.cityId, columns(fields));
  },
  async update(trx, { subject }, patch) {
    const fields = { ...subject.record, ...lowercaseIds(patch, 'correctWasteTypeId') };
    await assertValid(trx, subject.row.city_id, fields);
    return repo.updateQuizQuestion(trx, subject.row.id, columns(fields));
  },
  async remove(trx, { subject }) {
    const series = await repo.countSeriesOfQuestion(trx, subject.row.id);
    if (series > 0) throw errors.quizQuestionInUse(series);
    await repo.deleteQuizQuestion(trx, subject.row.id);
  },
};
