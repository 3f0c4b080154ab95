import { ConfigError } from './config.ts';
import { DatabaseLockedError } from './db/database.ts';

/** Prints a start-up failure the way an operator can act on it, and exits non-zero (`npm start` and the commands). */
export function exitOnStartupError(err: unknown): never {
  if (err instanceof ConfigError || err instanceof DatabaseLockedError) {
    console.error(`collecte: ${err.message}`);
  } else {
    console.error('collecte: could not start:', err);
  }
  process.exit(1);
}
