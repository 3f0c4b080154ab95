import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';

/**
 * The signed links of e-mails (a reminder's confirm and unsubscribe, a request's tracking and unsubscribe): usable
 * without the device. A token is `payload.signature`, both base64url: the payload names the record, the purpose and an
 * optional expiry; the signature is an HMAC-SHA256 under the key kept in the database (`loadLinkKey`), so that any
 * instance checks any instance's links. No database row per link.
 */

interface LinkPayload {
  /** The record's id (a subscription, a request). */
  s: string;
  p: string;
  /** Expiry, Unix seconds; 0: none. */
  x: number;
}

const sign = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

/** A token naming `recordId` for `purpose`, valid `validDays` from `now` (null: for ever). */
export function signLink(key: Buffer, recordId: string, purpose: string, now: Date, validDays: number | null = null): string {
  const x = validDays === null ? 0 : Math.floor(now.getTime() / 1000) + validDays * 86_400;
  const payload = Buffer.from(JSON.stringify({ s: recordId, p: purpose, x } satisfies LinkPayload)).toString('base64url');
  return `${payload}.${sign(key, payload)}`;
}

/** The record a link names, when its signature is ours, its purpose the one asked and it has not expired; else null. */
export function readLink(key: Buffer, token: string, purpose: string, now: Date): string | null {
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

/**
 * Reads a generated value from the database, writing `make()`'s first: ON CONFLICT DO NOTHING lets the first of
 * several instances starting together win, and every instance then reads the winner's.
 */
export async function sharedSetting(db: Kysely<DB>, name: string, make: () => string): Promise<string> {
  await db.insertInto('reminder_setting').values({ name, value: make() }).onConflict((oc) => oc.column('name').doNothing()).execute();
  const row = await db.selectFrom('reminder_setting').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}

/** The HMAC key of every signed link, the same on every instance (generated at the first need). */
export async function loadLinkKey(db: Kysely<DB>): Promise<Buffer> {
  return Buffer.from(await sharedSetting(db, 'link-key', () => randomBytes(32).toString('base64url')), 'base64url');
}

/** The link key, read once per process at its first use; a failed read (database away) is tried again next time. */
export function cachedLinkKey(db: Kysely<DB>): () => Promise<Buffer> {
  let key: Promise<Buffer> | undefined;
  return () => {
    key ??= loadLinkKey(db).catch((err: unknown) => {
      key = undefined;
      throw err;
    });
    return key;
  };
}
