import { Type, type Static } from 'typebox';
import type { Kysely, Selectable, SqlBool } from 'kysely';
import type { BadgeTable, ChallengeTable, DB, QuizQuestionTable, SerieTable } from '../db/types.ts';
import { compareFrench, compareIds } from '../kernel/french.ts';
import { Nullable, Timestamp as TimestampOf, Uuid as UuidOf } from '../kernel/schemas.ts';

/**
 * The challenge as citizens see it, served by two areas: the challenges' own list (GET /public/challenges/:cityId)
 * and the city, which nests its available challenges (GET /public/cities). Here are its schemas, the one read of
 * the available challenges of several cities, and the one mapper from its rows to that shape. Which challenges
 * are available is decided in SQL, by `challenge_available` (migration 0005): the rule the completion statements
 * apply too.
 */

const Uuid = UuidOf();

/** The pass mark of a challenge that sets none (the column's default, migration 0011). */
export const DEFAULT_PASSING_SCORE = 60;
const Timestamp = TimestampOf('ISO 8601 UTC with milliseconds');

/** What a challenge, its series and its badge all have. */
const Described = { id: Uuid, name: Type.String(), description: Nullable(Type.String()) };

export const BadgeSchema = Type.Object(
  { ...Described, icon: Nullable(Type.String()), imageUrl: Nullable(Type.String()) },
  { title: 'Badge' },
);
export type BadgeApi = Static<typeof BadgeSchema>;

export const ChallengeQuizQuestionSchema = Type.Object(
  { id: Uuid, material: Type.String(), question: Type.String(), correctWasteTypeId: Uuid, order: Type.Number() },
  { title: 'QuizQuestion' },
);
export type ChallengeQuizQuestionApi = Static<typeof ChallengeQuizQuestionSchema>;

export const SerieSchema = Type.Object(
  {
    ...Described,
    order: Type.Number(),
    quizQuestions: Type.Array(ChallengeQuizQuestionSchema, { description: 'Ordered by `order`' }),
  },
  { title: 'Serie' },
);
export type SerieApi = Static<typeof SerieSchema>;

export const ChallengeSchema = Type.Object(
  {
    ...Described,
    enabled: Type.Boolean(),
    startDate: Nullable(Timestamp),
    endDate: Nullable(Timestamp),
    order: Type.Number(),
    requiredChallengeId: Nullable(Uuid),
    requiredChallenge: Nullable(Type.Object({ id: Uuid, name: Type.String() })),
    passingScore: Type.Integer({
      minimum: 0,
      maximum: 100,
      description: 'The pass mark, in %: a completion earns the badge only with a best score at or above it (60 unless set)',
    }),
    series: Type.Array(SerieSchema, { description: 'Ordered by `order`, then name' }),
    badge: Nullable(BadgeSchema),
  },
  { title: 'Challenge' },
);
export type ChallengeApi = Static<typeof ChallengeSchema>;

type BadgeRow = Pick<Selectable<BadgeTable>, 'id' | 'name' | 'description' | 'icon' | 'image_url'>;

export function toBadge(row: BadgeRow): BadgeApi {
  return { id: row.id, name: row.name, description: row.description, icon: row.icon, imageUrl: row.image_url };
}

/** A badge read through a LEFT JOIN, its columns prefixed `badge_`: every one null when the challenge has none. */
export type OptionalBadgeRow = { [K in keyof BadgeRow as `badge_${K}`]: BadgeRow[K] | null };

/** A challenge's badge is earned only by a best score at or above its pass mark. */
export function earnedBadge(badge: BadgeApi | null, score: number, passingScore: number): BadgeApi | null {
  return score >= passingScore ? badge : null;
}

export function toOptionalBadge(row: OptionalBadgeRow): BadgeApi | null {
  if (row.badge_id === null) return null;
  const { badge_name: name, badge_description: description, badge_icon: icon, badge_image_url: image_url } = row;
  return toBadge({ id: row.badge_id, name: name ?? '', description, icon, image_url });
}

/** A challenge as the list reads it: its row and the name of the challenge it requires. */
type AvailableChallengeRow = Selectable<ChallengeTable> & { required_name: string | null };

type QuizQuestionRow = Pick<Selectable<QuizQuestionTable>, 'id' | 'material' | 'question' | 'correct_waste_type_id' | 'order'>;

type Ordered = { order: number; id: string };

/** The public order of challenges and series: `order`, then name, then id. */
export const byOrderThenName = (a: Ordered & { name: string }, b: Ordered & { name: string }) =>
  a.order - b.order || compareFrench(a.name, b.name) || compareIds(a, b);

/** The public order of quiz questions: `order`, then material, then id. */
export const byOrderThenMaterial = (a: Ordered & { material: string }, b: Ordered & { material: string }) =>
  a.order - b.order || compareFrench(a.material, b.material) || compareIds(a, b);

/**
 * The available challenges of each city at `now`, fully nested, ordered by `order` then name (French, the same on
 * both databases whatever their collations). Four queries whatever the number of cities: challenges, series,
 * badges, quiz questions. Every requested city id is a key of the result (an empty list when it has none).
 */
export async function availableChallengesByCity(
  db: Kysely<DB>,
  cityIds: readonly string[],
  now: Date,
): Promise<Map<string, ChallengeApi[]>> {
  const result = new Map<string, ChallengeApi[]>(cityIds.map((id) => [id, []]));
  if (cityIds.length === 0) return result;

  const challenges = await db
    .selectFrom('challenge as c')
    .innerJoin('city', 'city.id', 'c.city_id')
    .leftJoin('challenge as req', 'req.id', 'c.required_challenge_id')
    .selectAll('c')
    .select('req.name as required_name')
    .where('c.city_id', 'in', [...cityIds])
    .where((eb) => eb.fn<SqlBool>('challenge_available', ['c.enabled', 'city.status', 'c.start_date', 'c.end_date', eb.val(now)]))
    .execute();
  if (challenges.length === 0) return result;

  const challengeIds = challenges.map((c) => c.id);
  const [series, badges] = await Promise.all([
    db.selectFrom('serie').selectAll().where('challenge_id', 'in', challengeIds).execute(),
    db.selectFrom('badge').selectAll().where('challenge_id', 'in', challengeIds).execute(),
  ]);
  const serieIds = series.map((s) => s.id);
  const questions =
    serieIds.length === 0
      ? []
      : await db
          .selectFrom('serie_question as sq')
          .innerJoin('quiz_question as q', 'q.id', 'sq.quiz_question_id')
          .select(['sq.serie_id', 'q.id', 'q.material', 'q.question', 'q.correct_waste_type_id', 'q.order'])
          .where('sq.serie_id', 'in', serieIds)
          .execute();

  const questionsBySerie = Map.groupBy(questions, (q) => q.serie_id);
  const seriesByChallenge = Map.groupBy(series, (s) => s.challenge_id);
  const badgeByChallenge = new Map(badges.map((b) => [b.challenge_id, b]));
  for (const c of challenges.sort(byOrderThenName)) {
    const serieRows = (seriesByChallenge.get(c.id) ?? []).sort(byOrderThenName);
    result.get(c.city_id)?.push(toChallenge(c, serieRows, questionsBySerie, badgeByChallenge.get(c.id)));
  }
  return result;
}

/** A challenge's own fields as the API shows them (the public and the admin shapes add its series and badge). */
export function challengeFields(c: Selectable<ChallengeTable>, requiredName: string | null | undefined) {
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    enabled: c.enabled,
    startDate: c.start_date?.toISOString() ?? null,
    endDate: c.end_date?.toISOString() ?? null,
    order: c.order,
    requiredChallengeId: c.required_challenge_id,
    requiredChallenge: c.required_challenge_id === null ? null : { id: c.required_challenge_id, name: requiredName ?? '' },
    passingScore: c.passing_score,
  };
}

/** The one mapper from a challenge's rows to its API shape. */
function toChallenge(
  c: AvailableChallengeRow,
  series: Selectable<SerieTable>[],
  questionsBySerie: Map<string, QuizQuestionRow[]>,
  badge: BadgeRow | undefined,
): ChallengeApi {
  return {
    ...challengeFields(c, c.required_name),
    series: series.map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      order: s.order,
      quizQuestions: (questionsBySerie.get(s.id) ?? []).sort(byOrderThenMaterial).map((q) => ({
        id: q.id,
        material: q.material,
        question: q.question,
        correctWasteTypeId: q.correct_waste_type_id,
        order: q.order,
      })),
    })),
    badge: badge ? toBadge(badge) : null,
  };
}
