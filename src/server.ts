import { buildApp } from './app.ts';
import { loadConfig, type Config } from './config.ts';
import { exitOnStartupError } from './startup-error.ts';
import { openDatabase } from './db/database.ts';
import { databaseOptions } from './db/options.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createLogger } from './logger.ts';
import { loadDemoDataInChildProcessIfEmpty, loadDemoDataIntoNewDataDir, type DemoLoadOptions } from './demo/load.ts';
import { announceDemoAdmin, createDemoAdmin, demoConsoleSecret, demoSecretPath } from './demo/admin.ts';
import { createReminderWorker, type ReminderWorker } from './reminders/worker.ts';
import { createRequestWorker, type RequestWorker } from './requests/worker.ts';
import { createChatRetention, type ChatRetention } from './chat/retention.ts';

export interface ServeOptions {
  /** Load the demo data set into an empty database (npm start); `collecte serve` does not. */
  demo: boolean;
}

/** Owns the process: database, listen, graceful shutdown on SIGTERM/SIGINT. */
export async function serve(given: Config, options: ServeOptions): Promise<void> {
  const logger = createLogger(given.logLevel);
  // npm start on the embedded database: the console works without CONSOLE_JWT_SECRET (a key kept in DATA_DIR).
  const demoSecret = options.demo ? demoConsoleSecret(given) : null;
  const config: Config = demoSecret ? Object.freeze({ ...given, consoleJwtSecret: demoSecret }) : given;
  if (demoSecret) logger.info({ file: demoSecretPath(config) }, 'CONSOLE_JWT_SECRET is not set: the demo console signs its tokens with the key kept in DATA_DIR');
  let lastConnectionWarning = 0;
  const openOptions = databaseOptions(config, {
    // A restart terminates every connection at once: one line says so, not one per connection.
    onConnectionError: (err) => {
      const now = Date.now();
      if (now - lastConnectionWarning < 5_000) return;
      lastConnectionWarning = now;
      logger.warn({ err }, 'a database connection failed: the requests using it answer 503, the pool reconnects');
    },
  });
  // The demo data is imported in a child process, so that what the import loads leaves with it. On a new embedded
  // database the child makes, migrates and fills it before it is opened here.
  const demoLoad: DemoLoadOptions = { databaseOptions: openOptions, mediaDir: config.mediaDir, logger };
  let demoLoaded = options.demo ? await loadDemoDataIntoNewDataDir(demoLoad) : null;
  // Reassigned once at most: an embedded database that held no city is reopened after the demo import used it.
  let database = await openDatabase(openOptions);
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  let reminders: ReminderWorker | null = null;
  let requests: RequestWorker | null = null;
  let chatRetention: ChatRetention | null = null;
  try {
    const applied = await migrateToLatest(database.db, database.schema);
    if (applied.length) logger.info({ applied }, 'migrations applied');
    if (options.demo && demoLoaded === null) ({ database, cities: demoLoaded } = await loadDemoDataInChildProcessIfEmpty(database, demoLoad));
    // The demo administrator comes with the demo data, on the embedded database only, once.
    const demoPassword = (demoLoaded ?? 0) > 0 && config.databaseUrl === null && config.consoleJwtSecret ? await createDemoAdmin(database.db, new Date()) : null;
    app = await buildApp({ config, database, logger });
    await app.listen({ port: config.port, host: config.host });
    // Plans and sends reminders, and the requests' e-mails and retention, and runs the chat's retention, from this
    // process (REMINDERS_WORKER=false leaves them to other instances).
    if (config.remindersWorker) {
      reminders = createReminderWorker({ db: database.db, config, log: logger });
      reminders.start();
      requests = createRequestWorker({ db: database.db, config, log: logger });
      requests.start();
      chatRetention = createChatRetention({ db: database.db, config, log: logger });
      chatRetention.start();
    }
    if (demoPassword) announceDemoAdmin(logger, config, demoPassword);
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
    // A request stuck on a database that no longer answers must not hold the stop for ever.
    const deadline = setTimeout(() => {
      logger.error({ timeoutMs: config.shutdownTimeoutMs }, 'requests still in flight after SHUTDOWN_TIMEOUT_MS: exiting anyway');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    deadline.unref();
    try {
      // The reminder worker finishes the batch it is sending (what it claimed and did not record is sent again by
      // the next worker once its lease ends); then close() stops accepting, waits for requests, runs onClose hooks.
      await Promise.all([reminders?.stop(), requests?.stop(), chatRetention?.stop()]);
      // Connections are closed as they turn idle, and those that never asked anything at once (src/http/draining.ts).
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

if (import.meta.main) {
  try {
    await serve(loadConfig(), { demo: true });
  } catch (err) {
    exitOnStartupError(err);
  }
}
