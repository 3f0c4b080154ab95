import type { TestContext } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp, type Clock } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import type { Database, DatabaseKind } from '../../src/db/database.ts';
import { createTestDatabase } from './database.ts';

export interface TestAppOptions {
  /** Environment variables for the config (defaults: none, so the contract's defaults apply). */
  env?: Record<string, string>;
  clock?: Clock;
  /** Reuse a database (several apps on one database); otherwise a fresh one is made and closed with the test. */
  database?: Database;
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: '/tmp/collecte-test-unused', ...env });
}

/** A settable clock for tests of time-dependent rules. */
export function fixedClock(iso: string): Clock & { set(iso: string): void } {
  let now = new Date(iso);
  const clock = (() => new Date(now)) as Clock & { set(iso: string): void };
  clock.set = (next: string) => {
    now = new Date(next);
  };
  return clock;
}

/** Builds the app on a real database and closes both when the test (or suite) ends. */
export async function buildTestApp(
  t: Pick<TestContext, 'after'> | { after: (fn: () => Promise<void>) => void },
  kind: DatabaseKind,
  options: TestAppOptions = {},
): Promise<{ app: FastifyInstance; database: Database }> {
  const database = options.database ?? (await createTestDatabase(kind));
  const app = await buildApp({ config: testConfig(options.env), database, clock: options.clock });
  await app.ready();
  t.after(async () => {
    await app.close();
    if (!options.database) await database.close();
  });
  return { app, database };
}
