import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { UUID_PATTERN } from '../kernel/schemas.ts';

/**
 * Refresh sessions (docs/api.md, the admin API). A login opens a session; its refresh token is `<session id>.<secret>`, and
 * only the SHA-256 of the secret is stored (the secret is 256 random bits: a fast hash is enough, nothing to guess).
 * Each refresh replaces the secret, so every older token of the session stops matching: presenting one is a reuse,
 * which means the token was copied, and the whole session is revoked.
 */

export interface RefreshToken {
  sessionId: string;
  secret: string;
}

const TOKEN_PATTERN = new RegExp(`^(${UUID_PATTERN.source.slice(1, -1)})\\.([A-Za-z0-9_-]{43})$`, 'i');

const hashOf = (secret: string): string => createHash('sha256').update(secret).digest('hex');
const newSecret = (): string => randomBytes(32).toString('base64url');

export const formatRefreshToken = ({ sessionId, secret }: RefreshToken): string => `${sessionId}.${secret}`;

/** The token a cookie holds, or null when it is not one. */
export function parseRefreshToken(text: string | undefined): RefreshToken | null {
  const match = text === undefined ? null : TOKEN_PATTERN.exec(text);
  return match ? { sessionId: match[1].toLowerCase(), secret: match[2] } : null;
}

/** Opens a session for the account, ending at `expiresAt`; its first refresh token. */
export async function openSession(db: Kysely<DB>, accountId: string, now: Date, expiresAt: Date): Promise<RefreshToken> {
  const token = { sessionId: randomUUID(), secret: newSecret() };
  // The account's ended sessions are of no more use: the table keeps only what may still be presented.
  await db
    .deleteFrom('refresh_session')
    .where('account_id', '=', accountId)
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('revoked_at', 'is not', null)]))
    .execute();
  await db
    .insertInto('refresh_session')
    .values({ id: token.sessionId, account_id: accountId, token_hash: hashOf(token.secret), created_at: now, refreshed_at: now, expires_at: expiresAt, revoked_at: null })
    .execute();
  return token;
}

export type Rotation =
  | { outcome: 'rotated'; token: RefreshToken; accountId: string; expiresAt: Date }
  /** An older token of a live session: the session is now revoked. */
  | { outcome: 'reused' }
  /** No such session, or one that ended. */
  | { outcome: 'ended' };

/**
 * Replaces the session's secret when `token` is its current one. One statement each way, so that of two refreshes
 * with the same token, the second sees the first one's secret and counts as a reuse.
 */
export async function rotateSession(db: Kysely<DB>, token: RefreshToken, now: Date): Promise<Rotation> {
  const presented = hashOf(token.secret);
  const next = { sessionId: token.sessionId, secret: newSecret() };
  const rotated = await db
    .updateTable('refresh_session')
    .set({ token_hash: hashOf(next.secret), refreshed_at: now })
    .where('id', '=', token.sessionId)
    .where('token_hash', '=', presented)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['account_id', 'expires_at'])
    .executeTakeFirst();
  if (rotated) return { outcome: 'rotated', token: next, accountId: rotated.account_id, expiresAt: rotated.expires_at };
  const revoked = await db
    .updateTable('refresh_session')
    .set({ revoked_at: now })
    .where('id', '=', token.sessionId)
    .where('token_hash', '<>', presented)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return revoked ? { outcome: 'reused' } : { outcome: 'ended' };
}

export async function revokeSession(db: Kysely<DB>, sessionId: string, now: Date): Promise<void> {
  await db.updateTable('refresh_session').set({ revoked_at: now }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
}

/** Ends every session of an account (a new password, a deactivation). */
export async function revokeSessionsOf(db: Kysely<DB>, accountId: string, now: Date): Promise<void> {
  await db.updateTable('refresh_session').set({ revoked_at: now }).where('account_id', '=', accountId).where('revoked_at', 'is', null).execute();
}
