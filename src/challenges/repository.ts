import type { Kysely, Selectable } from 'kysely';
import type { BadgeTable, DB } from '../db/types.ts';
import type { BadgeApi, ChallengeApi, ChallengeQuizQuestionApi, CompletionApi, ProgressItemApi, SerieApi } from './schemas.ts';
import { compareFrench } from '../kernel/french.ts';

/** Names sort the French way (accents, case), the same on PGlite and PostgreSQL whatever their collations. */

const byOrderThenName = (a: { order: number; name: string; id: string }, b: { order: number; name: string; id: string }) =>
  a.order - b.order || compareFrench(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

type BadgeRow = Pick<Selectable<BadgeTable>, 'id' | 'name' | 'description' | 'icon' | 'image_url'>;

export function toBadge(row: BadgeRow): BadgeApi {
  return { id: row.id, name: row.name, description: row.description, icon: row.icon, imageUrl: row.image_url };
}

/** A badge read through a LEFT JOIN: every column null when the challenge has none. */
export function toOptionalBadge(row: {
  badge_id: string | null;
  badge_name: string | null;
  badge_description: string | null;
  badge_icon: string | null;
  badge_image_url: string | null;
}): BadgeApi | null {
  if (row.badge_id === null) return null;
  return {
    id: row.badge_id,
    name: row.badge_name ?? '',
    description: row.badge_description,
    icon: row.badge_icon,
    imageUrl: row.badge_image_url,
  };
}

/** Whether the city exists and is ACTIF (the only cities whose challenges are public). */
export async function isCityActive(db: Kysely<DB>, cityId: string): Promise<boolean> {
  const row = await db.selectFrom('city').select('id').where('id', '=', cityId).where('status', '=', 'ACTIF').executeTakeFirst();
  return row !== undefined;
}

/**
 * The available challenges of each city (enabled, city ACTIF, startDate <= now <= endDate, a null bound open),
 * fully nested, ordered by `order` then name. Four queries whatever the number of cities: challenges, series,
 * quiz questions, badges. Every requested city id is a key of the result (an empty list when it has none).
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
    .select([
      'c.id',
      'c.city_id',
      'c.name',
      'c.description',
      'c.enabled',
      'c.start_date',
      'c.end_date',
      'c.order',
      'c.required_challenge_id',
      'req.name as required_name',
    ])
    .where('c.city_id', 'in', [...cityIds])
    .where('c.enabled', '=', true)
    .where('city.status', '=', 'ACTIF')
    .where((eb) => eb.or([eb('c.start_date', 'is', null), eb('c.start_date', '<=', now)]))
    .where((eb) => eb.or([eb('c.end_date', 'is', null), eb('c.end_date', '>=', now)]))
    .execute();
  if (challenges.length === 0) return result;

  const challengeIds = challenges.map((c) => c.id);
  const [series, badges] = await Promise.all([
    db
      .selectFrom('serie')
      .select(['id', 'challenge_id', 'name', 'description', 'order'])
      .where('challenge_id', 'in', challengeIds)
      .execute(),
    db
      .selectFrom('badge')
      .select(['id', 'challenge_id', 'name', 'description', 'icon', 'image_url'])
      .where('challenge_id', 'in', challengeIds)
      .execute(),
  ]);
  const questions =
    series.length === 0
      ? []
      : await db
          .selectFrom('serie_question as sq')
          .innerJoin('quiz_question as q', 'q.id', 'sq.quiz_question_id')
          .select(['sq.serie_id', 'q.id', 'q.material', 'q.question', 'q.correct_waste_type_id', 'q.order'])
          .where(
            'sq.serie_id',
            'in',
            series.map((s) => s.id),
          )
          .execute();

  const questionsBySerie = Map.groupBy(questions, (q) => q.serie_id);
  const seriesByChallenge = Map.groupBy(series, (s) => s.challenge_id);
  const badgeByChallenge = new Map(badges.map((b) => [b.challenge_id, toBadge(b)]));

  challenges.sort(byOrderThenName);
  for (const c of challenges) {
    const challengeSeries: SerieApi[] = (seriesByChallenge.get(c.id) ?? []).sort(byOrderThenName).map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      order: s.order,
      quizQuestions: (questionsBySerie.get(s.id) ?? [])
        .sort((a, b) => a.order - b.order || compareFrench(a.material, b.material) || (a.id < b.id ? -1 : 1))
        .map(toQuizQuestion),
    }));
    result.get(c.city_id)?.push({
      id: c.id,
      name: c.name,
      description: c.description,
      enabled: c.enabled,
      startDate: c.start_date?.toISOString() ?? null,
      endDate: c.end_date?.toISOString() ?? null,
      order: c.order,
      requiredChallengeId: c.required_challenge_id,
      requiredChallenge:
        c.required_challenge_id === null ? null : { id: c.required_challenge_id, name: c.required_name ?? '' },
      series: challengeSeries,
      badge: badgeByChallenge.get(c.id) ?? null,
    });
  }
  return result;
}

function toQuizQuestion(q: {
  id: string;
  material: string;
  question: string;
  correct_waste_type_id: string;
  order: number;
}): ChallengeQuizQuestionApi {
  return { id: q.id, material: q.material, question: q.question, correctWasteTypeId: q.correct_waste_type_id, order: q.order };
}


/** What completing a challenge needs to know about it, read in one query. */
export interface ChallengeForCompletion {
  id: string;
  name: string;
  description: string | null;
  enabled: boolean;
  startDate: Date | null;
  endDate: Date | null;
  cityActive: boolean;
  cityTimeZone: string;
  requiredChallengeId: string | null;
  requiredChallengeName: string | null;
  /** Whether this device has completed the required challenge (false when there is none). */
  requiredCompleted: boolean;
  badge: BadgeApi | null;
}

export interface CompletionRow {
  id: string;
  deviceId: string;
  challengeId: string;
  score: number;
  completedAt: Date;
}

const completionColumns = ['id', 'device_id', 'challenge_id', 'score', 'completed_at'] as const;

function toCompletionRow(row: { id: string; device_id: string; challenge_id: string; score: number; completed_at: Date }): CompletionRow {
  return { id: row.id, deviceId: row.device_id, challengeId: row.challenge_id, score: Number(row.score), completedAt: row.completed_at };
}

export async function findCompletion(db: Kysely<DB>, deviceId: string, challengeId: string): Promise<CompletionRow | undefined> {
  const row = await db
    .selectFrom('challenge_completion')
    .select(completionColumns)
    .where('device_id', '=', deviceId)
    .where('challenge_id', '=', challengeId)
    .executeTakeFirst();
  return row && toCompletionRow(row);
}

/** Every challenge the device completed, newest first; whatever the challenge's state today. One query. */
export async function progressOfDevice(db: Kysely<DB>, deviceId: string): Promise<ProgressItemApi[]> {
  const rows = await db
    .selectFrom('challenge_completion as cc')
    .innerJoin('challenge as c', 'c.id', 'cc.challenge_id')
    .leftJoin('badge as b', 'b.challenge_id', 'c.id')
    .select([
      'cc.challenge_id',
      'c.name',
      'cc.score',
      'cc.completed_at',
      'b.id as badge_id',
      'b.name as badge_name',
      'b.description as badge_description',
      'b.icon as badge_icon',
      'b.image_url as badge_image_url',
    ])
    .where('cc.device_id', '=', deviceId)
    .orderBy('cc.completed_at', 'desc')
    .orderBy('cc.challenge_id')
    .execute();
  return rows.map((row) => ({
    challengeId: row.challenge_id,
    challengeName: row.name,
    score: Number(row.score),
    completedAt: row.completed_at.toISOString(),
    badge: toOptionalBadge(row),
  }));
}

export function toCompletionRecord(row: CompletionRow, challenge: Pick<ChallengeForCompletion, 'id' | 'name' | 'description' | 'badge'>): CompletionApi {
  return {
    id: row.id,
    deviceId: row.deviceId,
    challengeId: row.challengeId,
    score: row.score,
    completedAt: row.completedAt.toISOString(),
    challenge: { id: challenge.id, name: challenge.name, description: challenge.description, badge: challenge.badge },
  };
}
