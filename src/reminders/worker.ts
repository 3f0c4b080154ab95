import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { DB } from '../db/types.ts';
import { cachedReminderKeys, type ReminderKeys } from './keys.ts';
import { claimDue, deleteGoneSubscription, markFailed, markRetry, markSent, markSentMany, markSkipped, type ClaimedDelivery } from './ledger.ts';
import { signLink } from '../domain/signed-links.ts';
import { createMailer, mailDomain, type Mailer } from '../domain/mailer.ts';
import { noticeMail, pushPayload, reminderMail, type ReminderMessage } from './messages.ts';
import { cleanUp, planReminders } from './planner.ts';
import { planAlerts } from './alerts.ts';
import { planNotices } from './notice-planner.ts';
import { createSendChecker, type SendCheck } from './send-checks.ts';
import { createPushAgents, pushTopic, sendPush, type PushAgents } from './push.ts';
import { linkUrl } from './service.ts';
import { repeating, type Ticking } from '../kernel/repeating.ts';

/**
 * The reminder worker: each tick cleans up, plans the deliveries whose evening has come (planner.ts), the alerts
 * of changed data (alerts.ts) and the service notices whose time has come (notice-planner.ts), and sends every due
 * delivery of the ledger (ledger.ts), claiming no more than it sends at once. What a claimed delivery says is checked
 * again just before it is sent (send-checks.ts): a reminder whose collection was cancelled or moved since it was
 * planned, a notice deleted or ended since, is recorded SKIPPED. Any number of instances may run it on one database: the ledger's unique key and its SKIP LOCKED
 * claims keep each message to one. Time comes from `now()`, never from the system clock, so that tests play an
 * evening in a few ticks.
 */

export interface ReminderWorkerOptions {
  db: Kysely<DB>;
  config: Config;
  log: FastifyBaseLogger;
  /** The clock of every decision (due times, TTLs, retries). */
  now?: () => Date;
  /** Pause between ticks (30 s: an alert goes out within a minute of the change). */
  intervalMs?: number;
  /** Subscriptions (and places, for alerts) planned per batch. */
  batchSize?: number;
  /** How long a claimed delivery is this worker's; past it another worker sends it again. */
  leaseMs?: number;
  /** Deliveries sent at once, and the most this worker ever holds claimed (what a crash leaves for the lease). */
  concurrency?: number;
}

export interface TickSummary {
  planned: number;
  /** Alert deliveries created (one per subscriber and change). */
  alerts: number;
  /** Notice deliveries created (one per subscriber and notice). */
  notices: number;
  sent: number;
  retried: number;
  failed: number;
  deleted: number;
  /** Not sent: what they said stopped being true after they were planned. */
  skipped: number;
}

/**
 * `tick`: one pass (clean up, plan, send everything due); `start`: ticks every intervalMs until stopped; `stop`: stops
 * ticking, waits for the tick in progress, closes connections.
 */
export interface ReminderWorker extends Ticking<TickSummary> {
  /**
   * Checks one claimed delivery again (send-checks.ts), sends it and records the outcome; a success through
   * `recordSent` when given (the tick gathers them and records a few dozen in one statement), else at once.
   */
  deliver(delivery: ClaimedDelivery, recordSent?: (id: string) => Promise<void>): Promise<DeliveryOutcome>;
}

export type DeliveryOutcome = 'sent' | 'retried' | 'failed' | 'deleted' | 'skipped';

/** Attempts of one delivery before it is given up (with backoff they span about an hour). */
const MAX_ATTEMPTS = 8;
/** First retry delay; doubled at each attempt, capped at MAX_BACKOFF_MS. */
const BASE_BACKOFF_MS = 30_000;
const MAX_BACKOFF_MS = 30 * 60_000;
/**
 * More rows are claimed once this share of the lanes is free (at least one lane): a claim per freed lane would be a
 * statement per delivery, a claim only once all are free would leave lanes idle behind the slowest send.
 */
const REFILL_SHARE = 0.25;

/** Seconds of a Retry-After (a number of seconds or an HTTP date), null when absent or unreadable. */
export function retryAfterMs(value: string | null, now: Date): number | null {
  if (value === null) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now.getTime());
}

export function createReminderWorker(options: ReminderWorkerOptions): ReminderWorker {
  const { db, config, log } = options;
  const now = options.now ?? (() => new Date());
  const batchSize = options.batchSize ?? 500;
  const leaseMs = options.leaseMs ?? 5 * 60_000;
  const concurrency = options.concurrency ?? 32;
  const keys = cachedReminderKeys(db, config);
  let mailer: Mailer | null = createMailer(config);
  let agents: PushAgents | null = createPushAgents();
  const checkBeforeSending = createSendChecker(db);

  const retryOrFail = async (delivery: ClaimedDelivery, error: string, hintMs: number | null): Promise<'retried' | 'failed'> => {
    const delay = hintMs ?? Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** (delivery.attempts - 1));
    const runAfter = new Date(now().getTime() + Math.min(delay, MAX_BACKOFF_MS));
    if (delivery.attempts >= MAX_ATTEMPTS || runAfter >= delivery.expiresAt) {
      await markFailed(db, delivery.id, error);
      return 'failed';
    }
    await markRetry(db, delivery.id, runAfter, error);
    return 'retried';
  };

  type RecordSent = (id: string) => Promise<void>;
  const recordNow: RecordSent = (id) => markSent(db, id, now());

  const sendByPush = async (delivery: ClaimedDelivery, message: ReminderMessage, reminderKeys: ReminderKeys, ttl: number, recordSent: RecordSent) => {
    let answer;
    try {
      answer = await sendPush(
        { endpoint: delivery.endpoint!, p256dh: delivery.p256dh!, auth: delivery.auth! },
        pushPayload(message),
        {
          vapid: reminderKeys.vapid,
          ttl,
          topic: pushTopic(delivery.subscriptionId, delivery.kind, delivery.key),
          allowInsecure: config.webPushAllowInsecureEndpoints,
          agents: agents!,
        },
      );
    } catch (err) {
      return retryOrFail(delivery, `push: ${(err as Error).message}`, null);
    }
    if (answer.status >= 200 && answer.status < 300) {
      await recordSent(delivery.id);
      return 'sent' as const;
    }
    if (answer.status === 404 || answer.status === 410) {
      await deleteGoneSubscription(db, delivery.subscriptionId);
      return 'deleted' as const;
    }
    if (answer.status === 429 || answer.status >= 500) {
      return retryOrFail(delivery, `push service answered ${answer.status}`, retryAfterMs(answer.retryAfter, now()));
    }
    await markFailed(db, delivery.id, `push service answered ${answer.status}`);
    return 'failed' as const;
  };

  const sendByEmail = async (delivery: ClaimedDelivery, message: ReminderMessage, reminderKeys: ReminderKeys, recordSent: RecordSent) => {
    if (!mailer) {
      await markFailed(db, delivery.id, 'e-mail is not configured');
      return 'failed' as const;
    }
    const unsubscribeUrl = linkUrl(config, delivery.origin, 'unsubscribe', signLink(reminderKeys.linkKey, delivery.subscriptionId, 'unsubscribe', now()));
    try {
      await mailer.send({
        ...(delivery.kind === 'NOTICE' ? noticeMail(message, unsubscribeUrl) : reminderMail(message, unsubscribeUrl)),
        to: delivery.email!,
        // Stable across retries: `reminder-<subscription>-<day>@…`; an alert's key (`day|type|REMOVED|v7`) with dots.
        messageId: `${delivery.kind.toLowerCase()}-${delivery.subscriptionId}-${delivery.key.replace(/[^A-Za-z0-9-]/g, '.')}@${mailDomain(config)}`,
        unsubscribeUrl,
      });
    } catch (err) {
      const code = (err as { responseCode?: number }).responseCode;
      // 5xx from the SMTP server: the address is refused for good; anything else (4xx, network) is retried.
      if (code !== undefined && code >= 500) {
        await markFailed(db, delivery.id, `smtp ${code}`);
        return 'failed' as const;
      }
      return retryOrFail(delivery, `smtp: ${(err as Error).message}`, null);
    }
    await recordSent(delivery.id);
    return 'sent' as const;
  };

  /** Sends a delivery whose message was checked (`check`, from checkBeforeSending) and records the outcome. */
  const deliverChecked = async (delivery: ClaimedDelivery, check: SendCheck, recordSent: RecordSent): Promise<DeliveryOutcome> => {
    // Nothing, ever, to an address that has not been confirmed.
    if (delivery.subscriptionStatus !== 'ACTIVE') {
      await markFailed(db, delivery.id, 'subscription not confirmed');
      return 'failed';
    }
    if (!check.send) {
      await markSkipped(db, delivery.id, check.reason);
      return 'skipped';
    }
    const ttl = Math.floor((delivery.expiresAt.getTime() - now().getTime()) / 1000);
    if (ttl <= 0) {
      await markFailed(db, delivery.id, delivery.kind === 'NOTICE' ? 'the notice has ended' : 'the collection day has begun');
      return 'failed';
    }
    const reminderKeys = await keys();
    return delivery.channel === 'WEB_PUSH'
      ? sendByPush(delivery, check.message, reminderKeys, ttl, recordSent)
      : sendByEmail(delivery, check.message, reminderKeys, recordSent);
  };

  const deliver = async (delivery: ClaimedDelivery, recordSent: RecordSent = recordNow): Promise<DeliveryOutcome> => {
    const check = (await checkBeforeSending([delivery], now())).get(delivery.id)!;
    return deliverChecked(delivery, check, recordSent);
  };

  let stopping = false;

  /**
   * Sends every due delivery, `concurrency` at a time, never holding more claimed rows than that: a worker killed
   * mid-evening strands at most what it had in flight for its lease, and any other worker sends the rest at once.
   * Rows are claimed as lanes come free, a few at a time (REFILL_SHARE of the lanes, so that claims stay few), and what
   * was sent is recorded in one statement just before each claim: a row is this worker's from its claim until its
   * outcome is recorded, and those rows are never more than `concurrency`. A crash before a record leaves the rows
   * SENDING: sent again after the lease, under the same Topic / Message-ID.
   */
  const sendDue = async (summary: TickSummary) => {
    const refillAt = Math.max(1, Math.floor(concurrency * REFILL_SHARE));
    const inFlight = new Set<Promise<void>>();
    let sent: string[] = [];
    const flush = async () => {
      const ids = sent;
      sent = [];
      await markSentMany(db, ids, now());
    };
    const recordSent = async (id: string) => {
      sent.push(id);
    };
    const start = (delivery: ClaimedDelivery, check: SendCheck) => {
      const sending: Promise<void> = deliverChecked(delivery, check, recordSent)
        .catch((err: unknown) => {
          log.error({ err, deliveryId: delivery.id }, 'reminders: a delivery failed unexpectedly');
          // The lease runs out and the delivery is claimed again: nothing is lost.
          return 'retried' as const;
        })
        .then((outcome) => {
          summary[outcome]++;
          inFlight.delete(sending);
        });
      inFlight.add(sending);
    };
    let drained = false;
    try {
      while (!stopping) {
        const free = concurrency - inFlight.size;
        if (!drained && free >= refillAt) {
          await flush();
          const claimed = await claimDue(db, now(), free, leaseMs);
          // Fewer due rows than asked for: the queue is empty for now (a retry is due later, at the next tick).
          drained = claimed.length < free;
          // A failed check leaves the rows claimed: their lease runs out and they are claimed again.
          const checks = claimed.length > 0 ? await checkBeforeSending(claimed, now()) : new Map<string, SendCheck>();
          for (const delivery of claimed) start(delivery, checks.get(delivery.id)!);
          continue;
        }
        if (inFlight.size === 0) break;
        await Promise.race(inFlight);
      }
    } finally {
      // Stopping, drained or failing: the sends under way finish (they record their own outcome) before the tick ends.
      await Promise.all(inFlight);
    }
    await flush();
  };

  const tick = async (): Promise<TickSummary> => {
    const summary: TickSummary = { planned: 0, alerts: 0, notices: 0, sent: 0, retried: 0, failed: 0, deleted: 0, skipped: 0 };
    await cleanUp(db, now());
    summary.planned = await planReminders(db, { now: now(), batchSize, publicBaseUrl: config.publicBaseUrl });
    summary.alerts = await planAlerts(db, { now: now(), batchSize, publicBaseUrl: config.publicBaseUrl });
    summary.notices = await planNotices(db, { now: now(), batchSize, publicBaseUrl: config.publicBaseUrl });
    await sendDue(summary);
    return summary;
  };

  const repeat = repeating(tick, options.intervalMs ?? 30_000, {
    passed: (summary) => {
      if (summary.planned || summary.alerts || summary.notices || summary.sent || summary.failed || summary.deleted || summary.skipped) log.info({ reminders: summary }, 'reminders sent');
    },
    failed: (err) => log.warn({ err }, 'reminders: a tick failed; the next one tries again'),
  });

  return {
    tick,
    deliver,
    start() {
      stopping = false;
      repeat.start();
    },
    async stop() {
      stopping = true;
      await repeat.stop();
      mailer?.close();
      mailer = null;
      agents?.destroy();
      agents = null;
    },
  };
}
