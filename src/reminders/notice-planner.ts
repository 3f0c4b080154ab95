import { sql, type Kysely } from 'kysely';
import type { DB, NoticeSeverity } from '../db/types.ts';
import { noticeMessage } from './messages.ts';

/**
 * Service notices sent to reminder subscribers (docs/api.md, collections that move and service notices). A notice with `notify` is handed to the ledger
 * once its `startsAt` has come (and before its `endsAt`): one NOTICE row per ACTIVE subscription of the places it
 * covers (its places; else every place of its cities; else every place of its group), keyed `NOTICE-<id>`, so that the
 * ledger's unique key makes it one message per subscription and notice whatever the number of workers; the notice's
 * `notified_at` is set in the same transaction, so it is planned once. Notices are taken in batches locked FOR UPDATE
 * SKIP LOCKED: two workers plan different notices, and an agent's write in progress is waited for by the next tick.
 * The notices area writes the table; this reads it on the worker's behalf (areas share tables, not code).
 */

export interface NoticePlanOptions {
  now: Date;
  batchSize: number;
  publicBaseUrl: string | null;
}

/** How long a notice without an end may still be sent (retries included): a week. */
const OPEN_NOTICE_SENDABLE_MS = 7 * 86_400_000;

export const noticeKey = (noticeId: string) => `NOTICE-${noticeId}`;

interface DueNotice {
  id: string;
  city_group_id: string;
  title: string;
  body: string;
  severity: NoticeSeverity;
  ends_at: Date | null;
}

/** Answers how many deliveries were created. */
export async function planNotices(db: Kysely<DB>, options: NoticePlanOptions): Promise<number> {
  let created = 0;
  for (;;) {
    const batch = await db.transaction().execute(async (trx) => {
      const notices: DueNotice[] = await trx
        .selectFrom('service_notice')
        .select(['id', 'city_group_id', 'title', 'body', 'severity', 'ends_at'])
        .where('notify', '=', true)
        .where('notified_at', 'is', null)
        .where('starts_at', '<=', options.now)
        .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', options.now)]))
        .orderBy('starts_at')
        .orderBy('id')
        .limit(options.batchSize)
        .forUpdate()
        .skipLocked()
        .execute();
      if (notices.length === 0) return null;
      let inserted = 0;
      for (const notice of notices) inserted += await insertDeliveries(trx, notice, options);
      await trx
        .updateTable('service_notice')
        .set({ notified_at: options.now })
        .where(
          'id',
          'in',
          notices.map((n) => n.id),
        )
        .execute();
      return inserted;
    });
    if (batch === null) return created;
    created += batch;
  }
}

/** One row per ACTIVE subscription of the notice's places (of ACTIF cities of its group), written by the database. */
async function insertDeliveries(trx: Kysely<DB>, notice: DueNotice, options: NoticePlanOptions): Promise<number> {
  const { title, body, tag } = noticeMessage(notice);
  const expiresAt = notice.ends_at ?? new Date(options.now.getTime() + OPEN_NOTICE_SENDABLE_MS);
  const result = await sql`
    INSERT INTO reminder_delivery (subscription_id, kind, key, status, message, expires_at, run_after, created_at)
    SELECT s.id, 'NOTICE', ${noticeKey(notice.id)}, 'PENDING',
      jsonb_build_object('title', ${title}::text, 'body', ${body}::text, 'tag', ${tag}::text,
        'url', coalesce(${options.publicBaseUrl}::text, s.origin) || '/communes/' || s.city_id || '/' || s.place_id),
      ${expiresAt}, ${options.now}, ${options.now}
    FROM service_notice n
    JOIN city c ON c.city_group_id = n.city_group_id AND c.status = 'ACTIF'
    JOIN reminder_subscription s ON s.city_id = c.id AND s.status = 'ACTIVE'
    WHERE n.id = ${notice.id}
      AND CASE
        WHEN cardinality(n.place_ids) > 0 THEN s.place_id = ANY (n.place_ids)
        WHEN cardinality(n.city_ids) > 0 THEN s.city_id = ANY (n.city_ids)
        ELSE true
      END
    ON CONFLICT (subscription_id, kind, key) DO NOTHING`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}

/** The notices among `ids` as they are now (a deleted one is missing): whether a planned message is still to be sent. */
export async function noticesNow(db: Kysely<DB>, ids: readonly string[]): Promise<Map<string, { endsAt: Date | null }>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('service_notice').select(['id', 'ends_at']).where('id', 'in', [...ids]).execute();
  return new Map(rows.map((row) => [row.id, { endsAt: row.ends_at }]));
}
