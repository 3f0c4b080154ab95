import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { BadgeTable, ChallengeTable, DB, QuizQuestionTable, SerieTable } from '../db/types.ts';
import { childRecords } from '../db/child-records.ts';
import { byOrderThenMaterial, byOrderThenName } from '../domain/challenges.ts';
import { cityChildOwner, findCityOwner, type CityChildOwner } from '../domain/cities.ts';
import { compareFrench } from '../kernel/french.ts';
import { pageOf, type PageRequest } from '../kernel/pagination.ts';
import { countReferences } from '../db/records.ts';

/**
 * What the admin API reads and writes of quiz questions, challenges, their badges and series (docs/api.md, the admin API),
 * one record at a time. A city holds a few dozen of each: lists are read whole, sorted by the public order (French
 * rule, the same on both databases whatever their collations), then paged.
 */

export type QuizQuestionRow = Selectable<QuizQuestionTable>;
export type ChallengeRow = Selectable<ChallengeTable>;
export type BadgeRow = Selectable<BadgeTable>;
export type SerieRow = Selectable<SerieTable>;

/** A challenge with what its badge and series need: its city and the city's group. */
export type ChallengeOwner = CityChildOwner<'challengeId'>;
export const findChallengeOwner = cityChildOwner('challenge', 'challengeId');

type Page<R> = { rows: R[]; total: number };

// Quiz questions.

export const {
  find: findQuizQuestion,
  list: listCityQuizQuestions,
  insert: insertQuizQuestion,
  update: updateQuizQuestion,
  remove: deleteQuizQuestion,
} = childRecords('quiz_question', 'city_id', findCityOwner, (rows) => rows.sort(byOrderThenMaterial));

/** How many series hold the question. */
export async function countSeriesOfQuestion(db: Kysely<DB>, id: string): Promise<number> {
  const { count } = await db.selectFrom('serie_question').select((eb) => eb.fn.countAll<string>().as('count')).where('quiz_question_id', '=', id).executeTakeFirstOrThrow();
  return Number(count);
}

export async function cityQuizQuestionIds(db: Kysely<DB>, cityId: string): Promise<Set<string>> {
  return new Set((await db.selectFrom('quiz_question').select('id').where('city_id', '=', cityId).execute()).map((q) => q.id));
}

// Challenges.

export const { find: findChallenge, list: listCityChallenges, insert: insertChallenge, update: updateChallenge, remove: deleteChallenge } =
  childRecords('challenge', 'city_id', findCityOwner, (rows) => rows.sort(byOrderThenName));

export async function cityChallengeIds(db: Kysely<DB>, cityId: string): Promise<Set<string>> {
  return new Set((await db.selectFrom('challenge').select('id').where('city_id', '=', cityId).execute()).map((c) => c.id));
}

/** Any number that no other advisory lock of Collecte uses: see lockRequirements. */
const REQUIREMENTS_LOCK = 0x436f6c52; // 'ColR'

/**
 * Serialises the writes that set a requirement until the transaction ends, so that two agents cannot close a cycle
 * between them (A requires B and B requires A, each checked before the other committed). They are rare.
 */
export async function lockRequirements(db: Kysely<DB>): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${REQUIREMENTS_LOCK}::bigint)`.execute(db);
}

/**
 * The requirements met from `challengeId` on (it, what it requires, and so on) with the challenge each requires: all a
 * cycle through a new requirement can pass by. UNION stops at a challenge already met, so a stored cycle ends too.
 */
export async function requirementChain(db: Kysely<DB>, challengeId: string): Promise<Map<string, string | null>> {
  const { rows } = await sql<{ id: string; required_challenge_id: string | null }>`
    WITH RECURSIVE chain AS (
      SELECT id, required_challenge_id FROM challenge WHERE id = ${challengeId}
      UNION
      SELECT c.id, c.required_challenge_id FROM challenge c JOIN chain ON c.id = chain.required_challenge_id
    )
    SELECT id, required_challenge_id FROM chain
  `.execute(db);
  return new Map(rows.map((r) => [r.id, r.required_challenge_id]));
}

/** The names of the challenges that require this one, by name. */
export async function requiringNames(db: Kysely<DB>, id: string): Promise<string[]> {
  const rows = await db.selectFrom('challenge').select('name').where('required_challenge_id', '=', id).execute();
  return rows.map((r) => r.name).sort(compareFrench);
}

export const countCompletions = async (db: Kysely<DB>, challengeId: string): Promise<number> =>
  (await countReferences(db, challengeId, { completions: 'challenge_completion.challenge_id' })).completions;

/** The names of challenges by id (a requirement's). */
export async function challengeNames(db: Kysely<DB>, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('challenge').select(['id', 'name']).where('id', 'in', [...ids]).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

// Badges.

export async function badgesOf(db: Kysely<DB>, challengeIds: readonly string[]): Promise<BadgeRow[]> {
  if (challengeIds.length === 0) return [];
  return db.selectFrom('badge').selectAll().where('challenge_id', 'in', [...challengeIds]).execute();
}

export async function listChallengeBadges(db: Kysely<DB>, challengeId: string, page: PageRequest): Promise<Page<BadgeRow>> {
  return pageOf(await badgesOf(db, [challengeId]), page);
}

type BadgeValues = Omit<Insertable<BadgeTable>, 'id' | 'challenge_id'>;

/** The new badge, or undefined when the challenge has one already (one per challenge, the database's unique key). */
export async function insertBadge(db: Kysely<DB>, id: string, challengeId: string, values: BadgeValues): Promise<BadgeRow | undefined> {
  return db
    .insertInto('badge')
    .values({ id, challenge_id: challengeId, ...values })
    .onConflict((oc) => oc.column('challenge_id').doNothing())
    .returningAll()
    .executeTakeFirst();
}

export const { find: findBadge, update: updateBadge, remove: deleteBadge } =
  childRecords('badge', 'challenge_id', findChallengeOwner);

// Series.

export async function seriesOf(db: Kysely<DB>, challengeIds: readonly string[]): Promise<SerieRow[]> {
  if (challengeIds.length === 0) return [];
  return (await db.selectFrom('serie').selectAll().where('challenge_id', 'in', [...challengeIds]).execute()).sort(byOrderThenName);
}

export async function listChallengeSeries(db: Kysely<DB>, challengeId: string, page: PageRequest): Promise<Page<SerieRow>> {
  return pageOf(await seriesOf(db, [challengeId]), page);
}

export const { find: findSerie, insert: insertSerie, update: updateSerie, remove: deleteSerie } =
  childRecords('serie', 'challenge_id', findChallengeOwner);

/** The serie holds exactly `questionIds` (quiz questions of its city, checked before). */
export async function setSerieQuestions(db: Kysely<DB>, serieId: string, questionIds: readonly string[]): Promise<void> {
  await db.deleteFrom('serie_question').where('serie_id', '=', serieId).execute();
  if (questionIds.length === 0) return;
  await db.insertInto('serie_question').values(questionIds.map((quizQuestionId) => ({ serie_id: serieId, quiz_question_id: quizQuestionId }))).execute();
}

/** The question ids of each serie, in the public order of the questions (`order`, then material). */
export async function questionIdsOf(db: Kysely<DB>, serieIds: readonly string[]): Promise<Map<string, string[]>> {
  if (serieIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('serie_question as sq')
    .innerJoin('quiz_question as q', 'q.id', 'sq.quiz_question_id')
    .select(['sq.serie_id', 'q.id', 'q.order', 'q.material'])
    .where('sq.serie_id', 'in', [...serieIds])
    .execute();
  const bySerie = Map.groupBy(rows.sort(byOrderThenMaterial), (r) => r.serie_id);
  return new Map([...bySerie].map(([serieId, questions]) => [serieId, questions.map((q) => q.id)]));
}
