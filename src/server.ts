import { buildApp } from './app.ts';
import { loadConfig, ConfigError, type Config } from './config.ts';
import { openDatabase, DatabaseLockedError } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createLogger } from './logger.ts';
import { loadDemoDataIfEmpty } from './demo/load.ts';

export interface ServeOptions {
  /** Load the demo data set into an empty database (npm start); `collecte serve` does not. */
  demo: boolean;
}

/** Owns the process: database, listen, graceful shutdown on SIGTERM/SIGINT. */
export async function serve(config: Config, options: ServeOptions): Promise<void> {
  const logger = createLogger(config.logLevel);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    const applied = await migrateToLatest(database.db, database.schema);
    if (applied.length) logger.info({ applied }, 'migrations applied');
    if (options.demo) await loadDemoDataIfEmpty(database, config, logger);
    app = await buildApp({ config, database, logger });
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await app?.close().catch(() => {});
    await database.close().catch(() => {});
    throw err;
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: finishing requests in flight');
    try {
      // close() stops accepting, waits for in-flight requests, runs onClose hooks.
      await app!.close();
      await database.close();
      logger.info('stopped');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'unclean stop');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

/** Prints a start-up failure the way an operator can act on it, and exits non-zero. */
export function exitOnStartupError(err: unknown): never {
  if (err instanceof ConfigError || err instanceof DatabaseLockedError) {
    console.error(`collecte: ${err.message}`);
  } else {
    console.error('collecte: could not start:', err);
  }
  process.exit(1);
}

if (import.meta.main) {
  try {
    await serve(loadConfig(), { demo: true });
  } catch (err) {
    exitOnStartupError(err);
  }
}
