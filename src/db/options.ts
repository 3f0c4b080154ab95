import type { Config } from '../config.ts';
import type { DatabaseOptions } from './database.ts';

/** The database as the configuration says, with the timeouts a served request needs. */
export function databaseOptions(config: Config, overrides: Partial<DatabaseOptions> = {}): DatabaseOptions {
  return {
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    pgliteSharedBuffersMb: config.pgliteSharedBuffersMb,
    timeouts: {
      connectMs: config.databaseConnectTimeoutMs,
      statementMs: config.databaseStatementTimeoutMs,
      idleInTransactionMs: config.databaseIdleInTransactionTimeoutMs,
    },
    ...overrides,
  };
}

/**
 * For operators' commands (migrate, import): no statement timeout, since a national import or a migration may
 * rightly run one statement for minutes; the connection timeout still says at once when the server is not there.
 */
export function operatorDatabaseOptions(config: Config): DatabaseOptions {
  const options = databaseOptions(config);
  return { ...options, timeouts: { ...options.timeouts, statementMs: 0, idleInTransactionMs: 0 } };
}
