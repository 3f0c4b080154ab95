import type { Kysely } from 'kysely';
import { TurnBatches } from '../kernel/turn-batches.ts';
import type { DB } from '../db/types.ts';
import { toCompletionRecord } from './repository.ts';
import { completeChallenge } from './completion.ts';
import { writeCompletions, type BatchAttempt, type BatchWrite } from './completion-statement.ts';
import type { CompleteChallengeBody, CompletionApi } from './schemas.ts';

/** Largest batch: past a few dozen rows a statement gains little, and one slow batch would delay many answers. */
const MAX_BATCH = 64;

interface Pending {
  attempt: BatchAttempt;
  /** The record's identity: a batch never holds two attempts on one record. */
  key: string;
  resolve(record: CompletionApi): void;
  reject(err: unknown): void;
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
  readonly #batches: TurnBatches<Pending>;

  /** `maxInFlight`: batches running at once (1 for the single-connection embedded database). */
  constructor(db: Kysely<DB>, maxInFlight: number) {
    this.#db = db;
    this.#batches = new TurnBatches<Pending>({
      write: (batch) => this.#write(batch),
      maxInFlight,
      maxBatch: MAX_BATCH,
      // Two attempts on one record never share a batch: the later one waits for the next.
      accepts: (batch, pending) => !batch.some((other) => other.key === pending.key),
    });
  }

  complete(input: CompleteChallengeBody, now: Date): Promise<CompletionApi> {
    return new Promise((resolve, reject) => {
      const attempt = { deviceId: input.deviceId, challengeId: input.challengeId, score: input.score, now };
      // The database compares uuids whatever their letter case.
      this.#batches.push({ attempt, key: recordKey(input.deviceId, input.challengeId), resolve, reject });
    });
  }

  /** Resolves once the batch's statement is done and the attempts it did not write were replayed on their own. */
  async #write(batch: Pending[]): Promise<void> {
    let written: BatchWrite[] = [];
    try {
      written = await writeCompletions(
        this.#db,
        batch.map((p) => p.attempt),
      );
    } catch {
      // The batch's transaction rolled back as a whole: every attempt is replayed alone, and an error that
      // persists (the database is down) reaches each request from there.
    }
    const byKey = new Map(written.map((w) => [recordKey(w.record.deviceId, w.record.challengeId), w]));
    const replays: Promise<void>[] = [];
    for (const pending of batch) {
      const write = byKey.get(pending.key);
      if (write) pending.resolve(toCompletionRecord(write.record, write.challenge));
      else replays.push(completeChallenge(this.#db, pending.attempt, pending.attempt.now).then(pending.resolve, pending.reject));
    }
    // The replays belong to this batch: the next batch waits for them, so that a later attempt on the same record
    // is never written before an earlier one is answered (its answer would show a score it came before).
    await Promise.all(replays);
  }
}

function recordKey(deviceId: string, challengeId: string): string {
  return `${deviceId}\n${challengeId.toLowerCase()}`;
}
