import type { Kysely } from 'kysely';
import { TurnBatches, type Waiting } from '../kernel/turn-batches.ts';
import type { DB } from '../db/types.ts';
import { toCompletionRecord } from './repository.ts';
import { completeChallenge } from './completion.ts';
import { writeCompletions, type BatchAttempt, type BatchWrite } from './completion-statement.ts';
import type { CompleteChallengeBody, CompletionApi } from './schemas.ts';

interface Attempt extends BatchAttempt {
  /** The record's identity: a batch never holds two attempts on one record. */
  key: string;
}

/**
 * Group commit for completions. Completions that arrive together are written by one statement in one
 * transaction (`complete_challenges`) instead of one each: under load, a round trip and a commit (a WAL flush on
 * PostgreSQL) serve a whole batch. Nothing waits for a batch to fill: an attempt goes out at the end of the
 * event-loop turn that received it, with whatever else arrived in that turn, unless `maxInFlight` batches are
 * already running; then it joins the next batch, sent as soon as one returns.
 *
 * Each attempt keeps its own moment (the rules are judged at it) and gets its own answer. Attempts the batch did
 * not write (refused, not better than the stored score, or the whole batch failed, e.g. on a deadlock) are replayed
 * alone through `completeChallenge`, the one-statement path that explains a refusal and answers the stored record.
 * Two attempts on the same record never share a batch: the later one waits for the next.
 */
export class CompletionBatcher {
  readonly #db: Kysely<DB>;
  readonly #batches: TurnBatches<Attempt, CompletionApi>;

  /** `maxInFlight`: batches running at once (1 for the single-connection embedded database). */
  constructor(db: Kysely<DB>, maxInFlight: number) {
    this.#db = db;
    this.#batches = new TurnBatches({
      write: (batch) => this.#write(batch),
      maxInFlight,
      // Two attempts on one record never share a batch: the later one waits for the next.
      accepts: (batch, attempt) => !batch.some((other) => other.item.key === attempt.key),
    });
  }

  complete(input: CompleteChallengeBody, now: Date): Promise<CompletionApi> {
    const { deviceId, challengeId, score } = input;
    // The database compares uuids whatever their letter case.
    return this.#batches.submit({ deviceId, challengeId, score, now, key: recordKey(deviceId, challengeId) });
  }

  /** Resolves once the batch's statement is done and the attempts it did not write were replayed on their own. */
  async #write(batch: Waiting<Attempt, CompletionApi>[]): Promise<void> {
    let written: BatchWrite[] = [];
    try {
      written = await writeCompletions(
        this.#db,
        batch.map((p) => p.item),
      );
    } catch {
      // The batch's transaction rolled back as a whole: every attempt is replayed alone, and an error that
      // persists (the database is down) reaches each request from there.
    }
    const byKey = new Map(written.map((w) => [recordKey(w.record.deviceId, w.record.challengeId), w]));
    const replays: Promise<void>[] = [];
    for (const pending of batch) {
      const write = byKey.get(pending.item.key);
      if (write) pending.resolve(toCompletionRecord(write.record, write.challenge));
      else replays.push(completeChallenge(this.#db, pending.item, pending.item.now).then(pending.resolve, pending.reject));
    }
    // The replays belong to this batch: the next batch waits for them, so that a later attempt on the same record
    // is never written before an earlier one is answered (its answer would show a score it came before).
    await Promise.all(replays);
  }
}

function recordKey(deviceId: string, challengeId: string): string {
  return `${deviceId}\n${challengeId.toLowerCase()}`;
}
