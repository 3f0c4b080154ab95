import type { Kysely, Selectable } from 'kysely';
import type { ChallengeCompletionTable, DB } from '../db/types.ts';
import { earnedBadge, toOptionalBadge, type BadgeApi } from '../domain/challenges.ts';
import type { CompletionApi, ProgressItemApi } from './schemas.ts';

/**
 * Where a challenge stands at a moment, as the database's `challenge_availability` (migration 0005) says: only an
 * 'open' challenge can be completed; 'hidden' is a disabled one or one of a NON_ACTIF city, which the public
 * never sees.
 */
export type ChallengeAvailability = 'open' | 'not-started' | 'ended' | 'hidden';

/** What completing a challenge needs to know about it, read in one query. */
export interface ChallengeForCompletion {
  id: string;
  name: string;
  description: string | null;
  availability: ChallengeAvailability;
  startDate: Date | null;
  endDate: Date | null;
  cityTimeZone: string;
  requiredChallengeId: string | null;
  requiredChallengeName: string | null;
  /** Whether this device has completed the required challenge (false when there is none). */
  requiredCompleted: boolean;
  badge: BadgeApi | null;
  /** The best score that earns the badge. */
  passingScore: number;
}

export interface CompletionRow {
  id: string;
  deviceId: string;
  challengeId: string;
  score: number;
  completedAt: Date;
}

const completionColumns = ['id', 'device_id', 'challenge_id', 'score', 'completed_at'] as const;

export function toCompletionRow(row: Pick<Selectable<ChallengeCompletionTable>, (typeof completionColumns)[number]>): CompletionRow {
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
      'c.passing_score',
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
    badge: earnedBadge(toOptionalBadge(row), Number(row.score), row.passing_score),
  }));
}

/** The stored record; the challenge's badge only when the best score reaches its pass mark. */
export function toCompletionRecord(
  row: CompletionRow,
  challenge: Pick<ChallengeForCompletion, 'id' | 'name' | 'description' | 'badge' | 'passingScore'>,
): CompletionApi {
  return {
    id: row.id,
    deviceId: row.deviceId,
    challengeId: row.challengeId,
    score: row.score,
    completedAt: row.completedAt.toISOString(),
    challenge: { id: challenge.id, name: challenge.name, description: challenge.description, badge: earnedBadge(challenge.badge, row.score, challenge.passingScore) },
  };
}
