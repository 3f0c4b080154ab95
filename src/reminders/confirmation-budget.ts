import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../kernel/errors.ts';

/** Confirmation e-mails one mailbox may be sent per day: a stranger cannot flood someone's mailbox through us. */
export const CONFIRMATION_MAILS_PER_DAY = 5;

const DAY_MS = 86_400_000;

/**
 * The mailbox an address delivers to, as far as can be told without its domain's rules: case folded, and the
 * `+tag` of the local part dropped whatever the domain (`Jeanne+rappels@Exemple.fr` → `jeanne@exemple.fr`), since
 * most mail systems deliver `name+anything@` to `name@`. Dots are kept: only some domains ignore them.
 */
export function mailboxOf(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  const plus = address.indexOf('+');
  return plus >= 0 && plus < at ? `${address.slice(0, plus)}${address.slice(at)}` : address;
}

/**
 * Counts an e-mail subscription request against its mailbox's budget and its client IP's, each a day long and shared
 * between instances through Redis when REDIS_URL is set (the app's rateBudget); 429 (`rateLimited`) past either.
 * The mailbox is counted by a hash: no address is written to Redis.
 */
export function confirmationBudget(app: FastifyInstance): (request: FastifyRequest, email: string) => Promise<void> {
  const perMailbox = app.rateBudget('reminder-confirmation', CONFIRMATION_MAILS_PER_DAY, DAY_MS);
  const perIp = app.rateBudget('reminder-confirmation-ip', app.config.reminderConfirmationsPerIp, DAY_MS);
  return async (request, email) => {
    const mailbox = createHash('sha256').update(mailboxOf(email)).digest('base64url');
    const verdicts = await Promise.all([perMailbox(mailbox), perIp(request.ip)]);
    const spent = verdicts.find((verdict) => verdict.exceeded);
    if (spent) throw errors.tooManyRequests(spent.retryAfterS);
  };
}
