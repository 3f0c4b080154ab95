import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';

/** The permission a console token must hold to use the chat console (seed, section 5.4). */
export const CHAT_CONVERSATIONS = 'CHAT_CONVERSATIONS';

/** Only HS256 is accepted: `alg: none` and every other algorithm are refused before the signature is looked at. */
const ALGORITHM = 'HS256';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The agent a valid console token speaks for. */
export interface ConsoleAgent {
  /** The token's `sub`: the agent's id, recorded on replies, assignments and tickets. */
  id: string;
  name: string;
  permissions: string[];
  /** The city groups whose conversations the agent may see. */
  cityGroupIds: string[];
}

/** Why a token was refused; the console answers 401 for every one of them. */
export class InvalidConsoleToken extends Error {}

const key = (secret: string) => new TextEncoder().encode(secret);

const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/**
 * Verifies a console JWT: HS256 with the configured secret, not expired at `now`, with an expiry, and with the
 * claims the console needs in the right types. Throws InvalidConsoleToken otherwise.
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
  const { sub, name, permissions, cityGroupIds } = payload;
  if (typeof sub !== 'string' || sub.trim() === '') throw new InvalidConsoleToken('sub');
  if (typeof name !== 'string') throw new InvalidConsoleToken('name');
  if (!isStringArray(permissions)) throw new InvalidConsoleToken('permissions');
  // Group ids reach SQL as uuid values: anything else is a malformed token, not a database error.
  if (!isStringArray(cityGroupIds) || !cityGroupIds.every((id) => UUID.test(id))) throw new InvalidConsoleToken('cityGroupIds');
  return { id: sub, name, permissions, cityGroupIds: [...new Set(cityGroupIds.map((id) => id.toLowerCase()))] };
}

export interface ConsoleTokenClaims {
  sub: string;
  name: string;
  cityGroupIds: string[];
  permissions?: string[];
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
  })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + options.ttlSeconds)
    .sign(key(secret));
}
