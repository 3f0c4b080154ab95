import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signed links of e-mails: confirm (activates a pending subscription) and unsubscribe (RFC 8058 one-click,
 * usable without the device). A token is `payload.signature`, both base64url: the payload names the subscription,
 * the purpose and, for confirmation, an expiry; the signature is an HMAC-SHA256 under the key kept in the database
 * (keys.ts), so that any instance checks any instance's links. No database row per link.
 */

export type LinkPurpose = 'confirm' | 'unsubscribe';

interface LinkPayload {
  /** Subscription id. */
  s: string;
  p: LinkPurpose;
  /** Expiry, Unix seconds; 0: none. */
  x: number;
}

/** A confirmation link works as long as an unconfirmed subscription is kept. */
export const CONFIRM_LINK_DAYS = 7;

const sign = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

export function signLink(key: Buffer, subscriptionId: string, purpose: LinkPurpose, now: Date): string {
  const x = purpose === 'confirm' ? Math.floor(now.getTime() / 1000) + CONFIRM_LINK_DAYS * 86_400 : 0;
  const payload = Buffer.from(JSON.stringify({ s: subscriptionId, p: purpose, x } satisfies LinkPayload)).toString('base64url');
  return `${payload}.${sign(key, payload)}`;
}

/** The subscription a link names, when its signature is ours, its purpose the one asked and it has not expired; else null. */
export function readLink(key: Buffer, token: string, purpose: LinkPurpose, now: Date): string | null {
  const dot = token.indexOf('.');
  if (dot <= 0) return null;
  const payload = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = Buffer.from(sign(key, payload), 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let parsed: LinkPayload;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as LinkPayload;
  } catch {
    return null;
  }
  if (parsed.p !== purpose || typeof parsed.s !== 'string') return null;
  if (parsed.x !== 0 && parsed.x * 1000 < now.getTime()) return null;
  return parsed.s;
}
