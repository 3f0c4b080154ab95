import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { DB } from '../db/types.ts';
import { PERMISSIONS } from '../auth/permissions.ts';
import { OPERATOR, createUser, normaliseEmail } from '../auth/users.ts';
import { findAccountByEmail } from '../auth/repository.ts';

/**
 * The demo's administrator: so that a newcomer who ran `npm start` can open the console at once. Created only on the
 * start that loads the demo data into an empty embedded database, with a random password printed once in the log;
 * never a fixed password, never on a PostgreSQL server, never twice.
 */
export const DEMO_ADMIN_EMAIL = 'demo@collecte.local';
const DEMO_ADMIN_NAME = 'Administrateur de démonstration';

/** Where the embedded demo keeps the console's signing key when CONSOLE_JWT_SECRET is not set. */
export const demoSecretPath = (config: Config) => path.join(config.dataDir, 'console-secret');

/**
 * The console's signing key for `npm start` on the embedded database without CONSOLE_JWT_SECRET: generated once into
 * DATA_DIR (readable by its owner only) and read back on later starts, so that logins survive a restart. Null when
 * the operator set one, or when the database is a server (a deployment: the operator sets the secret).
 */
export function demoConsoleSecret(config: Config): string | null {
  if (config.consoleJwtSecret !== null || config.databaseUrl !== null) return null;
  const file = demoSecretPath(config);
  try {
    const kept = fs.readFileSync(file, 'utf8').trim();
    if (kept.length >= 32) return kept;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const secret = randomBytes(48).toString('base64url');
  fs.mkdirSync(config.dataDir, { recursive: true });
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/**
 * Creates the demo administrator (super admin) unless an account already has its e-mail; answers its password, or
 * null when nothing was created. Called only right after the demo data was loaded into the embedded database.
 */
export async function createDemoAdmin(db: Kysely<DB>, now: Date): Promise<string | null> {
  if (await findAccountByEmail(db, normaliseEmail(DEMO_ADMIN_EMAIL))) return null;
  // 18 random bytes: 24 characters of base64url, far past the 12-character minimum.
  const password = randomBytes(18).toString('base64url');
  await createUser(
    db,
    OPERATOR,
    { email: DEMO_ADMIN_EMAIL, name: DEMO_ADMIN_NAME, password, permissions: [...PERMISSIONS], cityGroupIds: [], superAdmin: true, active: true },
    now,
  );
  return password;
}

/** The one log line a newcomer reads: where the console is, and how to log in. */
export function announceDemoAdmin(logger: Logger, config: Config, password: string): void {
  const host = config.host === '0.0.0.0' || config.host === '::' || config.host === '127.0.0.1' ? 'localhost' : config.host;
  const url = `http://${host}:${config.port}/console`;
  logger.info(
    { console: url, email: DEMO_ADMIN_EMAIL },
    `Console : ${url} — compte ${DEMO_ADMIN_EMAIL}, mot de passe ${password} (affiché cette seule fois ; notez-le)`,
  );
}
