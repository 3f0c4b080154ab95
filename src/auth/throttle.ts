import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { errors } from '../kernel/errors.ts';

/**
 * Login throttling (docs/api.md, the admin API): after 5 failures in 15 minutes for an e-mail, or 20 for a client IP, the
 * next attempt answers 429, even with the right password. Attempts live in the database, which every instance
 * shares (and which a login needs anyway): no instance can be used to escape the count, and the count does not
 * fail open with Redis. Each attempt is written before its password is checked, so that guesses sent in parallel
 * count against each other at once; a success then removes it, with the e-mail's earlier failures.
 */

export const LOGIN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_IP = 20;

/** Seconds until the failures of `column = value` are fewer than `max` again. */
async function secondsUntilBelow(db: Kysely<DB>, column: 'email' | 'ip', value: string, max: number, now: Date): Promise<number> {
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS);
  const row = await db
    .selectFrom('login_attempt')
    .select('at')
    .where(column, '=', value)
    .where('at', '>', since)
    .orderBy('at', 'desc')
    .offset(max - 1)
    .limit(1)
    .executeTakeFirst();
  return row ? Math.max(1, Math.ceil((row.at.getTime() + LOGIN_WINDOW_MS - now.getTime()) / 1000)) : 1;
}

/**
 * Records an attempt for `email` from `ip`, counted as a failure until `succeeded` is called; throws 429 (and
 * records nothing) when the e-mail or the IP is over its budget. Returns the attempt's id.
 */
export async function beginAttempt(db: Kysely<DB>, email: string, ip: string, now: Date): Promise<string> {
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS);
  await db.deleteFrom('login_attempt').where('at', '<=', since).execute();
  const id = randomUUID();
  await db.insertInto('login_attempt').values({ id, email, ip, at: now }).execute();
  const counts = await db
    .selectFrom('login_attempt')
    .select((eb) => [
      eb.fn.countAll<string>().filterWhere('email', '=', email).as('byEmail'),
      eb.fn.countAll<string>().filterWhere('ip', '=', ip).as('byIp'),
    ])
    .where('at', '>', since)
    .where((eb) => eb.or([eb('email', '=', email), eb('ip', '=', ip)]))
    .executeTakeFirstOrThrow();
  const overEmail = Number(counts.byEmail) > MAX_FAILURES_PER_EMAIL;
  const overIp = Number(counts.byIp) > MAX_FAILURES_PER_IP;
  if (!overEmail && !overIp) return id;
  // A refused attempt is not a failure: it does not push the end of the wait further away.
  await db.deleteFrom('login_attempt').where('id', '=', id).execute();
  const waits = await Promise.all([
    overEmail ? secondsUntilBelow(db, 'email', email, MAX_FAILURES_PER_EMAIL, now) : 0,
    overIp ? secondsUntilBelow(db, 'ip', ip, MAX_FAILURES_PER_IP, now) : 0,
  ]);
  throw errors.loginThrottled(Math.max(...waits));
}

/** A successful login: its attempt and the e-mail's earlier failures are forgotten (not the IP's other e-mails). */
export async function succeeded(db: Kysely<DB>, attemptId: string, email: string): Promise<void> {
  await db.deleteFrom('login_attempt').where((eb) => eb.or([eb('id', '=', attemptId), eb('email', '=', email)])).execute();
}
