import { randomBytes } from 'node:crypto';
import { hash, verify, type Algorithm } from '@node-rs/argon2';

/** Shortest password an account may have (docs/api.md, the admin API), in characters. */
export const MIN_PASSWORD_LENGTH = 12;
/** Longest password accepted: hashing is deliberately slow, and its input must stay bounded. */
export const MAX_PASSWORD_LENGTH = 1024;

/**
 * argon2id with OWASP's first recommended setting (19 MiB, 2 passes, 1 lane): about 10 ms per check here, slow enough for an
 * offline guesser, fast enough that a login does not hold the server. Hashes carry their parameters (PHC string),
 * so raising them later leaves existing hashes verifiable.
 */
const OPTIONS = {
  // Algorithm.Argon2id: the package's enum is a const enum, which this project's type stripping cannot inline.
  algorithm: 2 as Algorithm.Argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

/** Characters as a person counts them (code points), not UTF-16 units. */
export const passwordLength = (password: string): number => [...password].length;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** A hash of nothing anyone knows, made once: an unknown e-mail is checked against it so that it costs a real verify. */
let dummyHash: Promise<string> | undefined;

/**
 * Whether `password` matches `passwordHash`. Without a hash (no such account) a dummy hash is verified anyway, and
 * the answer is false: a wrong e-mail takes as long as a wrong password.
 */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (passwordHash === null) {
    await prepareDummyHash();
    await verify(await dummyHash!, password);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    // A hash this code did not write (corrupt row): no password matches it.
    return false;
  }
}

/** Makes the dummy hash ahead of the first login, so that the first unknown e-mail is not slower than the others. */
export async function prepareDummyHash(): Promise<void> {
  dummyHash ??= hashPassword(randomBytes(24).toString('base64url'));
  await dummyHash;
}
