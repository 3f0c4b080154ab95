import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { ChallengeCompletionTable, ChallengeTable, DB } from '../db/types.ts';
import { DEFAULT_PASSING_SCORE, toOptionalBadge, type OptionalBadgeRow } from '../domain/challenges.ts';
import { toCompletionRow, type ChallengeAvailability, type ChallengeForCompletion, type CompletionRow } from './repository.ts';

/** A challenge_completion record read through a LEFT JOIN, its columns prefixed: every one null when there is none. */
type OptionalRecord<P extends string> = {
  [K in 'id' | 'score' | 'completed_at' as `${P}_${K}`]: Selectable<ChallengeCompletionTable>[K] | null;
};

/** A row of `complete_challenge` (migration 0005), as far as the answer needs it. */
type StatementRow = Pick<Selectable<ChallengeTable>, 'id' | 'name' | 'description' | 'start_date' | 'end_date' | 'required_challenge_id'> &
  OptionalBadgeRow &
  OptionalRecord<'saved'> &
  OptionalRecord<'stored'> & {
    city_time_zone: string;
    required_name: string | null;
    required_completed: boolean;
    availability: ChallengeAvailability;
    passing_score: number | null;
  };

export interface CompletionAttempt {
  challenge: ChallengeForCompletion;
  /** The record as stored after this attempt; undefined only when a concurrent writer got there in between. */
  record: CompletionRow | undefined;
}

/**
 * One round trip for a completion, through the `complete_challenge` database function (migrations 0002, 0005): it
 * reads the challenge with everything its rules need and, in the same statement, upserts the device's record when
 * (and only when) those rules allow it, keeping the best score. It answers the challenge's availability and
 * whether its prerequisite is met, from which `assertCompletable` explains a refusal. The unique (device,
 * challenge) constraint keeps one record under any concurrency, across instances.
 */
export async function attemptCompletion(
  db: Kysely<DB>,
  input: { deviceId: string; challengeId: string; score: number },
  now: Date,
): Promise<CompletionAttempt | undefined> {
  // The pass mark is read beside the statement's answer (migration 0011 added it after the function was written).
  const { rows } = await sql<StatementRow>`
    SELECT f.*, c.passing_score
    FROM complete_challenge(${randomUUID()}, ${input.deviceId}, ${input.challengeId}, ${input.score}, ${now}) f
    LEFT JOIN challenge c ON c.id = f.id
  `.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  const challenge: ChallengeForCompletion = {
    id: row.id,
    name: row.name,
    description: row.description,
    availability: row.availability,
    startDate: row.start_date,
    endDate: row.end_date,
    cityTimeZone: row.city_time_zone,
    requiredChallengeId: row.required_challenge_id,
    requiredChallengeName: row.required_name,
    requiredCompleted: Boolean(row.required_completed),
    badge: toOptionalBadge(row),
    passingScore: row.passing_score ?? DEFAULT_PASSING_SCORE,
  };
  // `saved` is this call's write; otherwise `stored` is the record as it was when the statement began
  // (the statement's own write is not visible to its other parts), which is the stored best when nothing was written.
  const record: CompletionRow | undefined =
    row.saved_id !== null
      ? { id: row.saved_id, deviceId: input.deviceId, challengeId: row.id, score: Number(row.saved_score), completedAt: row.saved_completed_at! }
      : row.stored_id !== null
        ? { id: row.stored_id, deviceId: input.deviceId, challengeId: row.id, score: Number(row.stored_score), completedAt: row.stored_completed_at! }
        : undefined;
  return { challenge, record };
}

/** One attempt of a batch: what a completion request asks, at its own moment. */
export interface BatchAttempt {
  deviceId: string;
  challengeId: string;
  score: number;
  now: Date;
}

/** A record written by a batch, with what the answer needs of its challenge. */
export interface BatchWrite {
  record: CompletionRow;
  challenge: Pick<ChallengeForCompletion, 'id' | 'name' | 'description' | 'badge' | 'passingScore'>;
}

type BatchRow = Selectable<ChallengeCompletionTable> & Pick<Selectable<ChallengeTable>, 'name' | 'description' | 'passing_score'> & OptionalBadgeRow;

/**
 * Writes a batch of completions in one statement, through the `complete_challenges` database function
 * (migrations 0003, 0005), and answers the records it wrote. An attempt that the rules refuse, or whose score is not
 * better than the stored one, is not in the answer. The attempts must name distinct (device, challenge) pairs.
 */
export async function writeCompletions(db: Kysely<DB>, attempts: BatchAttempt[]): Promise<BatchWrite[]> {
  const { rows } = await sql<BatchRow>`
    SELECT f.*, c.passing_score FROM complete_challenges(
      ${attempts.map(() => randomUUID())}, ${attempts.map((a) => a.deviceId)}, ${attempts.map((a) => a.challengeId)},
      ${attempts.map((a) => a.score)}, ${attempts.map((a) => a.now.toISOString())}
    ) f
    JOIN challenge c ON c.id = f.challenge_id
  `.execute(db);
  return rows.map((row) => ({
    record: toCompletionRow(row),
    challenge: { id: row.challenge_id, name: row.name, description: row.description, badge: toOptionalBadge(row), passingScore: row.passing_score },
  }));
}
