import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { errors } from '../kernel/errors.ts';
import { frenchMoment } from '../kernel/french.ts';
import { findCompletion, toCompletionRecord, type ChallengeForCompletion } from './repository.ts';
import { attemptCompletion } from './completion-statement.ts';
import type { CompleteChallengeBody, CompletionApi } from './schemas.ts';

/** Turns a refusal into its error, from what the database said of the challenge (its availability, its prerequisite). */
function assertCompletable(challenge: ChallengeForCompletion | undefined): asserts challenge is ChallengeForCompletion {
  if (!challenge || challenge.availability === 'hidden') throw errors.challengeNotFound();
  if (challenge.availability === 'not-started') {
    throw errors.challengeNotStarted(challenge.name, frenchMoment(challenge.startDate!, challenge.cityTimeZone));
  }
  if (challenge.availability === 'ended') {
    throw errors.challengeEnded(challenge.name, frenchMoment(challenge.endDate!, challenge.cityTimeZone));
  }
  if (challenge.requiredChallengeId !== null && !challenge.requiredCompleted) {
    throw errors.challengePrerequisite(challenge.requiredChallengeName ?? challenge.requiredChallengeId);
  }
}

/**
 * Records that a device completed a challenge and answers the stored record: the best score and when it was
 * reached. One statement checks the rules and upserts; a refusal is then explained from what it read. A second
 * read happens only when a concurrent completion by the same device committed in between.
 */
export async function completeChallenge(db: Kysely<DB>, input: CompleteChallengeBody, now: Date): Promise<CompletionApi> {
  const attempt = await attemptCompletion(db, input, now);
  assertCompletable(attempt?.challenge);
  const stored = attempt!.record ?? (await findCompletion(db, input.deviceId, input.challengeId));
  // The row cannot vanish unless the challenge itself was deleted meanwhile.
  if (!stored) throw errors.challengeNotFound();
  return toCompletionRecord(stored, attempt!.challenge);
}
