import { createHash, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { DB } from '../db/types.ts';
import { createMailer, mailDomain, type Mailer } from '../domain/mailer.ts';
import { cachedLinkKey, signLink } from '../domain/signed-links.ts';
import { DEFAULT_TIME_ZONE, dayInTimeZone, formatDayNumber, parseCalendarDate, resolveTimeZone, startOfDayIn, wallClockInstant } from '../kernel/dates.ts';
import { pickupEveMail, receiptMail, updateMail, type MailLinks } from './messages.ts';
import { bookingsWithoutEve, enqueueEveMail } from './bulky-repository.ts';
import { BULKY_PICKUP } from './bulky-pickups.ts';
import * as repo from './repository.ts';
import { PHOTO_TTL_MS } from './service.ts';
import { repeating, type Ticking } from '../kernel/repeating.ts';

/**
 * The requests' worker (docs/api.md, resident requests; docs/operating.md), beside the reminders' and started with it
 * (REMINDERS_WORKER): each tick sends the e-mails owed to requesters from the outbox (`request_mail`), at most
 * MAILS_PER_MAILBOX_DAY a day to one mailbox across the service (the rest wait for the next day), retrying a failed
 * send with backoff; and keeps what the contract says must go: photos no request took within 24 hours, and, 
 * REQUESTS_RETENTION_DAYS after a request closed, what identifies its requester. Every instance may run one: the
 * outbox is claimed with SKIP LOCKED and the daily counts are taken atomically.
 */

/** The contract's cap: e-mails a day to one mailbox (the address without its `+tag` and case). */
export const MAILS_PER_MAILBOX_DAY = 5;
const TICK_MS = 30_000;
const BATCH = 32;
const LEASE_MS = 5 * 60_000;
const MAX_ATTEMPTS = 8;
const BASE_BACKOFF_MS = 60_000;
const MAX_BACKOFF_MS = 6 * 3_600_000;
/**
 * How often the worker vacuums and analyzes the requests' tables: PGlite has no autovacuum, and without statistics its
 * planner walks the whole table for a device's list, without a visibility map every count reads the heap
 * (PostgreSQL's autovacuum does it too; once an hour is cheap).
 */
const VACUUM_EVERY_MS = 3_600_000;
/** The day the daily cap counts in. */
const CAP_TIME_ZONE = DEFAULT_TIME_ZONE;

/** A booking's evening-before message goes at the reminders' default time, 19 h in the city's time (docs/api.md). */
const EVE_HOUR = 19;

/** Whether `at` falls on the evening before a pickup day: from 19 h the day before until the day begins, city time. */
export function isEveOf(day: string, timeZone: string, at: Date): boolean {
  const d = parseCalendarDate(day)!;
  return at.getTime() >= wallClockInstant(d - 1, EVE_HOUR, 0, timeZone).getTime() && at.getTime() < startOfDayIn(d, timeZone).getTime();
}

/** `Jean.Dupont+bac@Exemple.fr` → the SHA-256 of `jean.dupont@exemple.fr`: a mailbox, never kept as an address. */
export function mailboxKey(email: string): string {
  const lower = email.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  const local = lower.slice(0, at).split('+')[0];
  return createHash('sha256').update(`${local}${lower.slice(at)}`).digest('hex');
}

export interface RequestWorkerOptions {
  db: Kysely<DB>;
  config: Config;
  log: FastifyBaseLogger;
  now?: () => Date;
}

export interface TickSummary {
  sent: number;
  retried: number;
  failed: number;
  skipped: number;
  postponed: number;
  erased: number;
  photosDeleted: number;
}

export type RequestWorker = Ticking<TickSummary>;

export function createRequestWorker(options: RequestWorkerOptions): RequestWorker {
  const { db, config, log } = options;
  const now = options.now ?? (() => new Date());
  const mailer: Mailer | null = createMailer(config);
  const key = cachedLinkKey(db);

  const linksOf = async (requestId: string, origin: string | null, at: Date): Promise<MailLinks> => {
    const base = `${config.publicBaseUrl ?? origin ?? ''}/public/requests`;
    const k = await key();
    return {
      trackUrl: `${base}/track?token=${signLink(k, requestId, 'request-track', at)}`,
      unsubscribeUrl: `${base}/unsubscribe?token=${signLink(k, requestId, 'request-unsubscribe', at)}`,
    };
  };

  const sendMails = async (summary: TickSummary) => {
    const at = now();
    const claimed = await repo.claimMails(db, at, BATCH, LEASE_MS);
    if (claimed.length === 0) return;
    const { requests, updates } = await repo.mailSubjects(db, claimed);
    const today = formatDayNumber(dayInTimeZone(at, CAP_TIME_ZONE));
    for (const mail of claimed) {
      const request = requests.get(mail.request_id);
      const update = mail.update_id ? updates.get(mail.update_id) : null;
      if (!mailer || !request || request.email === null || request.mail_stopped_at !== null || request.erased_at !== null || update === undefined) {
        await repo.markMail(db, mail.id, { status: 'SKIPPED', last_error: mailer ? 'no address to write to' : 'e-mail is not configured' });
        summary.skipped++;
        continue;
      }
      const mailbox = mailboxKey(request.email);
      if (!(await repo.countMailboxDay(db, mailbox, today, MAILS_PER_MAILBOX_DAY))) {
        // The mailbox had its day: the message waits for the next one (its attempt given back).
        const tomorrow = startOfDayIn(dayInTimeZone(at, CAP_TIME_ZONE) + 1, CAP_TIME_ZONE);
        await repo.markMail(db, mail.id, { status: 'PENDING', next_attempt_at: tomorrow, attempts: mail.attempts - 1, last_error: 'daily cap of the mailbox' });
        summary.postponed++;
        continue;
      }
      const facts = {
        reference: request.reference,
        typeName: request.type_name,
        status: request.status,
        plannedFor: request.planned_for,
        createdAt: request.created_at,
        timeZone: resolveTimeZone(request.time_zone),
      };
      const links = await linksOf(request.id, request.origin, at);
      let content;
      if (mail.kind === 'PICKUP_EVE') {
        // The booking was cancelled, or moved, since the message was owed: nothing to say any more.
        if (request.status !== 'PLANIFIEE' || request.planned_for === null || !isEveOf(request.planned_for, facts.timeZone, at)) {
          await repo.uncountMailboxDay(db, mailbox, today);
          await repo.markMail(db, mail.id, { status: 'SKIPPED', last_error: 'the booking is no longer for tomorrow' });
          summary.skipped++;
          continue;
        }
        const items = typeof request.attributes.items === 'string' ? request.attributes.items : null;
        content = pickupEveMail({ ...facts, plannedFor: request.planned_for }, items, links);
      } else {
        content = update ? updateMail(facts, update, links) : receiptMail(facts, links);
      }
      try {
        await mailer.send({ ...content, to: request.email, unsubscribeUrl: links.unsubscribeUrl, messageId: `request-${mail.id}@${mailDomain(config)}` });
      } catch (err) {
        await repo.uncountMailboxDay(db, mailbox, today);
        const error = `smtp: ${(err as Error).message}`;
        if (mail.attempts >= MAX_ATTEMPTS) {
          await repo.markMail(db, mail.id, { status: 'FAILED', last_error: error });
          summary.failed++;
        } else {
          const delay = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** (mail.attempts - 1));
          await repo.markMail(db, mail.id, { status: 'PENDING', next_attempt_at: new Date(at.getTime() + delay), last_error: error });
          summary.retried++;
        }
        continue;
      }
      await repo.markMail(db, mail.id, { status: 'SENT', sent_at: now(), last_error: null });
      summary.sent++;
    }
  };

  /** When the requests' tables were last vacuumed (an hour between two). */
  let vacuumedAt = -Infinity;
  const housekeeping = async (summary: TickSummary) => {
    const at = now();
    if (at.getTime() - vacuumedAt >= VACUUM_EVERY_MS) {
      await repo.vacuumRequests(db);
      vacuumedAt = at.getTime();
    }
    summary.photosDeleted = await repo.deleteUnattachedPhotos(db, new Date(at.getTime() - PHOTO_TTL_MS));
    summary.erased = await repo.eraseClosedBefore(db, new Date(at.getTime() - config.requestsRetentionDays * 86_400_000), at);
    await repo.deleteMailboxDaysBefore(db, formatDayNumber(dayInTimeZone(at, CAP_TIME_ZONE) - 2));
  };

  /** Owes each booking of tomorrow (city time) its evening-before message, from 19 h: read from the bookings, once each. */
  const owePickupEves = async () => {
    const at = now();
    const today = dayInTimeZone(at, 'UTC');
    // Every zone's tomorrow lies within a day of UTC's.
    const due = await bookingsWithoutEve(db, formatDayNumber(today), formatDayNumber(today + 2), BULKY_PICKUP, 500);
    for (const booking of due) {
      if (isEveOf(booking.day, resolveTimeZone(booking.time_zone), at)) await enqueueEveMail(db, { id: randomUUID(), requestId: booking.id, now: at });
    }
  };

  const tick = async (): Promise<TickSummary> => {
    const summary: TickSummary = { sent: 0, retried: 0, failed: 0, skipped: 0, postponed: 0, erased: 0, photosDeleted: 0 };
    await housekeeping(summary);
    await owePickupEves();
    await sendMails(summary);
    return summary;
  };

  const repeat = repeating(tick, TICK_MS, {
    passed: (summary) => {
      if (summary.erased || summary.photosDeleted || summary.failed) log.info({ requests: summary }, 'requests: a tick erased, deleted or gave up');
    },
    failed: (err) => log.warn({ err }, 'requests: a tick failed; the next one tries again'),
  });
  return {
    start: repeat.start,
    tick,
    async stop() {
      await repeat.stop();
      mailer?.close();
    },
  };
}
