import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { errors } from '../kernel/errors.ts';
import { signConsoleToken } from './token.ts';
import { toUser } from './mapper.ts';
import { verifyPassword } from './passwords.ts';
import * as repo from './repository.ts';
import type { AccountRow } from './repository.ts';
import type { Session } from './schemas.ts';
import { formatRefreshToken, openSession, parseRefreshToken, revokeSession, rotateSession } from './sessions.ts';
import { beginAttempt, succeeded } from './throttle.ts';
import { normaliseEmail } from './users.ts';

/**
 * Login, refresh and logout (docs/api.md, the admin API). The access token is the console's JWT (section 8), signed by the
 * console's own function, so that /chat accepts it as it is.
 */

/** Lifetime of an access token (docs/api.md, the admin API): a deactivated account keeps working this long at most. */
export const ACCESS_TOKEN_TTL_S = 15 * 60;

export interface AuthContext {
  db: Kysely<DB>;
  /** CONSOLE_JWT_SECRET; null: nobody can log in. */
  secret: string | null;
  /** How long a login lasts (AUTH_SESSION_HOURS). */
  sessionMs: number;
}

/** What a login or a refresh gives: the answer's body, and the refresh token for the cookie. */
export interface IssuedSession {
  session: Session;
  refreshToken: string;
  refreshExpiresAt: Date;
}

function secretOf(ctx: AuthContext): string {
  if (!ctx.secret) throw errors.authNotConfigured();
  return ctx.secret;
}

/** The access token of an account: `superAdmin: true` is a claim of its own, which /chat ignores. */
async function accessSession(secret: string, row: AccountRow, now: Date): Promise<Session> {
  const accessToken = await signConsoleToken(
    secret,
    { sub: row.id, name: row.name, permissions: row.permissions, cityGroupIds: row.city_group_ids, superAdmin: row.super_admin, account: true },
    { now, ttlSeconds: ACCESS_TOKEN_TTL_S },
  );
  const expiresAt = new Date((Math.floor(now.getTime() / 1000) + ACCESS_TOKEN_TTL_S) * 1000);
  return { accessToken, expiresAt: expiresAt.toISOString(), user: toUser(row) };
}

/**
 * Checks the password (against a dummy hash when no account has that e-mail, so that both failures take as long and
 * read the same), within the throttle's budget; opens a session and records the login.
 */
export async function login(ctx: AuthContext, credentials: { email: string; password: string; ip: string }, now: Date): Promise<IssuedSession> {
  const secret = secretOf(ctx);
  const email = normaliseEmail(credentials.email);
  const attempt = await beginAttempt(ctx.db, email, credentials.ip, now);
  const account = await repo.findAccountByEmail(ctx.db, email);
  const valid = await verifyPassword(account?.password_hash ?? null, credentials.password);
  if (!account || !valid) throw errors.loginFailed();
  if (!account.active) throw errors.accountInactive();
  await succeeded(ctx.db, attempt, email);
  const refreshExpiresAt = new Date(now.getTime() + ctx.sessionMs);
  const { row, token } = await ctx.db.transaction().execute(async (trx) => ({
    token: await openSession(trx, account.id, now, refreshExpiresAt),
    row: await repo.recordLogin(trx, account.id, now),
  }));
  return { session: await accessSession(secret, row, now), refreshToken: formatRefreshToken(token), refreshExpiresAt };
}

/** A new access token and a new refresh token for the cookie's; 401 for a reused, ended or unknown one. */
export async function refresh(ctx: AuthContext, cookie: string | undefined, now: Date): Promise<IssuedSession> {
  const secret = secretOf(ctx);
  const token = parseRefreshToken(cookie);
  if (!token) throw errors.sessionInvalid();
  const rotation = await rotateSession(ctx.db, token, now);
  if (rotation.outcome !== 'rotated') throw errors.sessionInvalid();
  const account = await repo.findAccount(ctx.db, rotation.accountId);
  if (!account?.active) {
    await revokeSession(ctx.db, token.sessionId, now);
    throw errors.accountInactive();
  }
  return { session: await accessSession(secret, account, now), refreshToken: formatRefreshToken(rotation.token), refreshExpiresAt: rotation.expiresAt };
}

/** Ends the cookie's session, whichever of its tokens it holds; nothing to do without one. */
export async function logout(ctx: AuthContext, cookie: string | undefined, now: Date): Promise<void> {
  const token = parseRefreshToken(cookie);
  if (token) await revokeSession(ctx.db, token.sessionId, now);
}
