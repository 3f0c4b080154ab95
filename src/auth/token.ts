import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { isUuid } from '../kernel/schemas.ts';
import { MS_PER_DAY } from '../kernel/dates.ts';

/**
 * The agents' JWT (docs/console.md and docs/api.md, the admin API): HS256 with CONSOLE_JWT_SECRET, signed at login (login.ts) and by
 * `collecte console-token` for service accounts, checked by the /admin guard (guard.ts) and the /chat console
 * (src/console/auth.ts). It lives with accounts, which the console uses like every area uses src/auth.
 */

/** The permission a console token must hold to use the chat console (seed, section 5.4). */
export const CHAT_CONVERSATIONS = 'CHAT_CONVERSATIONS';

/** Only HS256 is accepted: `alg: none` and every other algorithm are refused before the signature is looked at. */
const ALGORITHM = 'HS256';

/**
 * Longest lifetime a token may claim (exp - iat, or exp - now): a leaked token must not outlive a month. The same
 * bound as `collecte console-token --ttl`; a token minted elsewhere with a longer life is refused.
 */
export const MAX_TOKEN_LIFETIME_DAYS = 30;
export const MAX_TOKEN_LIFETIME_SECONDS = (MAX_TOKEN_LIFETIME_DAYS * MS_PER_DAY) / 1000;


/** The agent a valid console token speaks for. */
export interface ConsoleAgent {
  /** The token's `sub`: the agent's id, recorded on replies, assignments and tickets. */
  id: string;
  name: string;
  permissions: string[];
  /** The city groups whose conversations the agent may see. */
  cityGroupIds: string[];
  /** When the token stops being valid (its `exp`), in milliseconds since the epoch: a live stream ends then. */
  expiresAt: number;
  /** Signed at login for an account (the `account` claim): its rights are the account's as it now is. */
  account: boolean;
}

/** Why a token was refused; the console answers 401 for every one of them. */
export class InvalidConsoleToken extends Error {}

const key = (secret: string) => new TextEncoder().encode(secret);

const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/**
 * Whether a token claims to live longer than MAX_TOKEN_LIFETIME_SECONDS: from its issue (`iat`), and in any case
 * from now (a token without `iat`, or one dated in the future to look short-lived). jose has checked that both
 * claims, when present, are numbers.
 */
function livesTooLong(exp: number, iat: number | undefined, now: Date): boolean {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  return exp - nowSeconds > MAX_TOKEN_LIFETIME_SECONDS || (iat !== undefined && exp - iat > MAX_TOKEN_LIFETIME_SECONDS);
}

/**
 * Verifies a console JWT: HS256 with the configured secret, not expired at `now`, with an expiry at most
 * MAX_TOKEN_LIFETIME_SECONDS after its issue (or after `now` when it has no `iat`), and with the claims the
 * console needs in the right types. Throws InvalidConsoleToken otherwise.
 */
export async function verifyConsoleToken(token: string, secret: string, now: Date): Promise<ConsoleAgent> {
  let payload;
  try {
    ({ payload } = await jwtVerify(token, key(secret), {
      algorithms: [ALGORITHM],
      currentDate: now,
      // A token without an expiry would stay valid for ever once leaked.
      requiredClaims: ['exp', 'sub'],
    }));
  } catch (err) {
    if (err instanceof joseErrors.JOSEError) throw new InvalidConsoleToken(err.code);
    throw err;
  }
  const { sub, name, permissions, cityGroupIds, exp, iat, account } = payload;
  if (exp === undefined || livesTooLong(exp, iat, now)) throw new InvalidConsoleToken('exp');
  if (typeof sub !== 'string' || sub.trim() === '') throw new InvalidConsoleToken('sub');
  if (typeof name !== 'string') throw new InvalidConsoleToken('name');
  if (!isStringArray(permissions)) throw new InvalidConsoleToken('permissions');
  // Group ids reach SQL as uuid values: anything else is a malformed token, not a database error.
  if (!isStringArray(cityGroupIds) || !cityGroupIds.every(isUuid)) throw new InvalidConsoleToken('cityGroupIds');
  return { id: sub, name, permissions, cityGroupIds: [...new Set(cityGroupIds.map((id) => id.toLowerCase()))], expiresAt: exp * 1000, account: account === true };
}

export interface ConsoleTokenClaims {
  sub: string;
  name: string;
  cityGroupIds: string[];
  permissions?: string[];
  /** An account's super-admin rank (src/auth); the console ignores it. Left out of the token when false. */
  superAdmin?: boolean;
  /**
   * The token speaks for an account (signed at login), not for a service (`collecte console-token`): every request
   * is then judged on the account as it now is, so that deactivating it or taking a right away works at once.
   */
  account?: boolean;
}

/** Signs a console token valid from `now` for `ttlSeconds`. */
export async function signConsoleToken(
  secret: string,
  claims: ConsoleTokenClaims,
  options: { now: Date; ttlSeconds: number },
): Promise<string> {
  const issuedAt = Math.floor(options.now.getTime() / 1000);
  return new SignJWT({
    name: claims.name,
    permissions: claims.permissions ?? [CHAT_CONVERSATIONS],
    cityGroupIds: claims.cityGroupIds,
    ...(claims.superAdmin ? { superAdmin: true } : {}),
    ...(claims.account ? { account: true } : {}),
  })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + options.ttlSeconds)
    .sign(key(secret));
}

const BEARER = /^Bearer[ \t]+([A-Za-z0-9._~+/=-]+)[ \t]*$/i;

/**
 * The token of an `Authorization: Bearer` header (RFC 6750's token68 characters), `missing` without a header,
 * `malformed` for any other scheme or shape. The console and the admin guard answer each case with their own error.
 */
export function readBearer(header: string | undefined): { token: string } | { fault: 'missing' | 'malformed' } {
  if (!header) return { fault: 'missing' };
  const token = BEARER.exec(header)?.[1];
  return token === undefined ? { fault: 'malformed' } : { token };
}
