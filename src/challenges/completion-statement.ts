import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { toOptionalBadge, type ChallengeForCompletion, type CompletionRow } from './repository.ts';

interface StatementRow {
  id: string;
  name: string;
  description: string | null;
  enabled: boolean;
  start_date: Date | null;
  end_date: Date | null;
  city_status: string;
  city_time_zone: string;
  required_challenge_id: string | null;
  required_name: string | null;
  required_completed: boolean;
  badge_id: string | null;
  badge_name: string | null;
  badge_description: string | null;
  badge_icon: string | null;
  badge_image_url: string | null;
  saved_id: string | null;
  saved_score: number | null;
  saved_completed_at: Date | null;
  stored_id: string | null;
  stored_score: number | null;
  stored_completed_at: Date | null;
}

export interface CompletionAttempt {
  challenge: ChallengeForCompletion;
  /** The record as stored after this attempt; undefined only when a concurrent writer got there in between. */
  record: CompletionRow | undefined;
}

/**
 * One round trip for a completion: reads the challenge with everything its rules need and, in the same statement,
 * upserts the device's record when (and only when) those rules allow it, keeping the best score. The conditions in
 * SQL are the same as `assertCompletable` applies to the returned challenge, which turns a refusal into its error.
 * The unique (device, challenge) constraint keeps one record under any concurrency, across instances.
 */
export async function attemptCompletion(
  db: Kysely<DB>,
  input: { deviceId: string; challengeId: string; score: number },
  now: Date,
): Promise<CompletionAttempt | undefined> {
  const { rows } = await sql<StatementRow>`
    WITH target AS (
      SELECT c.id, c.name, c.description, c.enabled, c.start_date, c.end_date,
             city.status AS city_status, city.time_zone AS city_time_zone,
             c.required_challenge_id, req.name AS required_name,
             EXISTS (
               SELECT 1 FROM challenge_completion done
               WHERE done.challenge_id = c.required_challenge_id AND done.device_id = ${input.deviceId}
             ) AS required_completed,
             b.id AS badge_id, b.name AS badge_name, b.description AS badge_description,
             b.icon AS badge_icon, b.image_url AS badge_image_url
      FROM challenge c
      JOIN city ON city.id = c.city_id
      LEFT JOIN challenge req ON req.id = c.required_challenge_id
      LEFT JOIN badge b ON b.challenge_id = c.id
      WHERE c.id = ${input.challengeId}
    ),
    saved AS (
      INSERT INTO challenge_completion (id, device_id, challenge_id, score, completed_at)
      SELECT ${randomUUID()}, ${input.deviceId}, target.id, ${input.score}, ${now}
      FROM target
      WHERE target.enabled AND target.city_status = 'ACTIF'
        AND (target.start_date IS NULL OR target.start_date <= ${now})
        AND (target.end_date IS NULL OR target.end_date >= ${now})
        AND (target.required_challenge_id IS NULL OR target.required_completed)
      ON CONFLICT (device_id, challenge_id) DO UPDATE
        SET score = excluded.score, completed_at = excluded.completed_at
        WHERE challenge_completion.score < excluded.score
      RETURNING id, score, completed_at
    )
    SELECT target.*,
           saved.id AS saved_id, saved.score AS saved_score, saved.completed_at AS saved_completed_at,
           stored.id AS stored_id, stored.score AS stored_score, stored.completed_at AS stored_completed_at
    FROM target
    LEFT JOIN saved ON true
    LEFT JOIN challenge_completion stored ON stored.device_id = ${input.deviceId} AND stored.challenge_id = target.id
  `.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  const challenge: ChallengeForCompletion = {
    id: row.id,
    name: row.name,
    description: row.description,
    enabled: row.enabled,
    startDate: row.start_date,
    endDate: row.end_date,
    cityActive: row.city_status === 'ACTIF',
    cityTimeZone: row.city_time_zone,
    requiredChallengeId: row.required_challenge_id,
    requiredChallengeName: row.required_name,
    requiredCompleted: Boolean(row.required_completed),
    badge: toOptionalBadge(row),
  };
  // `saved` is this statement's write; otherwise `stored` is the record as it was when the statement began
  // (the statement's own write is not visible to its other parts), which is the stored best when nothing was written.
  const record: CompletionRow | undefined =
    row.saved_id !== null
      ? { id: row.saved_id, deviceId: input.deviceId, challengeId: row.id, score: Number(row.saved_score), completedAt: row.saved_completed_at! }
      : row.stored_id !== null
        ? { id: row.stored_id, deviceId: input.deviceId, challengeId: row.id, score: Number(row.stored_score), completedAt: row.stored_completed_at! }
        : undefined;
  return { challenge, record };
}
