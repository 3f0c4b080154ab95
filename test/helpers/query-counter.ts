import type { KyselyPlugin } from 'kysely';
import type { Database } from '../../src/db/database.ts';

/**
 * The same database seen through a plugin that counts the queries sent, to prove that a read takes a fixed
 * number of queries, or none when it is served from memory. Closing it leaves the underlying database open.
 */
export function countingDatabase(base: Database): { database: Database; counter: { queries: number } } {
  const counter = { queries: 0 };
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      counter.queries += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { counter, database: { ...base, db: base.db.withPlugin(plugin), close: async () => {} } };
}
