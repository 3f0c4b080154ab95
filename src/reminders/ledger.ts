import { sql, type Kysely } from 'kysely';
import type { DB, DeliveryKind, ReminderChannel, ReminderStatus } from '../db/types.ts';
import type { ReminderMessage } from './messages.ts';

/**
 * The delivery ledger as a queue (migration 0010). A row is PENDING until a worker claims it: the claim sets
 * SENDING, counts the attempt and moves `run_after` to the end of the worker's lease, in one statement over rows
 * picked with FOR UPDATE SKIP LOCKED, so two workers never claim the same row. After sending, the worker records SENT
 * (or a retry, or FAILED). A worker that dies in between leaves the row SENDING with its lease running out: the
 * row is then due again, and the next claim sends it again under the same Topic / Message-ID. A claimed row whose
 * message stopped being true since it was planned (send-checks.ts) is recorded SKIPPED instead.
 */

/** A claimed delivery with what sending it needs from its subscription. */
export interface ClaimedDelivery {
  id: string;
  subscriptionId: string;
  kind: DeliveryKind;
  key: string;
  message: ReminderMessage;
  expiresAt: Date;
  attempts: number;
  channel: ReminderChannel;
  subscriptionStatus: ReminderStatus;
  /** The subscription's place and the waste types it asked for ([]: all), to check a reminder again when it is sent. */
  placeId: string;
  wasteTypeIds: string[];
  endpoint: string | null;
  p256dh: string | null;
  auth: string | null;
  email: string | null;
  origin: string;
}

interface ClaimedRow {
  id: string;
  subscription_id: string;
  kind: DeliveryKind;
  key: string;
  message: ReminderMessage | string;
  expires_at: Date | string;
  attempts: number;
  channel: ReminderChannel;
  subscription_status: ReminderStatus;
  place_id: string;
  waste_type_ids: string[] | string;
  endpoint: string | null;
  p256dh: string | null;
  auth: string | null;
  email: string | null;
  origin: string;
}

/** Claims up to `limit` due deliveries for `leaseMs`. */
export async function claimDue(db: Kysely<DB>, now: Date, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  const leaseEnd = new Date(now.getTime() + leaseMs);
  const { rows } = await sql<ClaimedRow>`
    WITH due AS (
      SELECT id FROM reminder_delivery
      WHERE status IN ('PENDING', 'SENDING') AND run_after <= ${now}
      ORDER BY run_after
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE reminder_delivery AS d
    SET status = 'SENDING', run_after = ${leaseEnd}, attempts = d.attempts + 1
    FROM due, reminder_subscription AS s
    WHERE d.id = due.id AND s.id = d.subscription_id
    RETURNING d.id, d.subscription_id, d.kind, d.key, d.message, d.expires_at, d.attempts, s.channel,
      s.status AS subscription_status, s.place_id, s.waste_type_ids, s.endpoint, s.p256dh, s.auth, s.email, s.origin`.execute(db);
  return rows.map((r) => ({
    id: String(r.id),
    subscriptionId: r.subscription_id,
    kind: r.kind,
    key: r.key,
    message: typeof r.message === 'string' ? (JSON.parse(r.message) as ReminderMessage) : r.message,
    expiresAt: new Date(r.expires_at),
    attempts: r.attempts,
    channel: r.channel,
    subscriptionStatus: r.subscription_status,
    placeId: r.place_id,
    wasteTypeIds: typeof r.waste_type_ids === 'string' ? (JSON.parse(r.waste_type_ids) as string[]) : r.waste_type_ids,
    endpoint: r.endpoint,
    p256dh: r.p256dh,
    auth: r.auth,
    email: r.email,
    origin: r.origin,
  }));
}

export async function markSent(db: Kysely<DB>, id: string, now: Date): Promise<void> {
  await db.updateTable('reminder_delivery').set({ status: 'SENT', sent_at: now, last_error: null }).where('id', '=', id).execute();
}

/** Records several deliveries as sent in one statement (a worker records what it sent a few dozen at a time). */
export async function markSentMany(db: Kysely<DB>, ids: string[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('reminder_delivery').set({ status: 'SENT', sent_at: now, last_error: null }).where('id', 'in', ids).execute();
}

/**
 * A claimed delivery (SENDING, and only so: a lease run out and claimed again by another worker is no longer this
 * one's) leaves that state for `status`, with what went wrong, or why it was skipped, cut to 500 characters.
 */
async function settle(db: Kysely<DB>, id: string, status: 'PENDING' | 'FAILED' | 'SKIPPED', note: string, runAfter?: Date): Promise<void> {
  await db
    .updateTable('reminder_delivery')
    .set({ status, last_error: note.slice(0, 500), ...(runAfter ? { run_after: runAfter } : {}) })
    .where('id', '=', id)
    .where('status', '=', 'SENDING')
    .execute();
}

/** Sent again at `runAfter`. */
export const markRetry = (db: Kysely<DB>, id: string, runAfter: Date, error: string): Promise<void> => settle(db, id, 'PENDING', error, runAfter);

/** Given up on. */
export const markFailed = (db: Kysely<DB>, id: string, error: string): Promise<void> => settle(db, id, 'FAILED', error);

/**
 * Not sent, and never will be: what the message said stopped being true after it was planned (a collection cancelled
 * or moved since, a notice deleted or ended). `reason` says which.
 */
export const markSkipped = (db: Kysely<DB>, id: string, reason: string): Promise<void> => settle(db, id, 'SKIPPED', reason);

/** A push service said the subscription is gone (404, 410): it is deleted, its ledger rows with it. */
export async function deleteGoneSubscription(db: Kysely<DB>, subscriptionId: string): Promise<void> {
  await db.deleteFrom('reminder_subscription').where('id', '=', subscriptionId).execute();
}
