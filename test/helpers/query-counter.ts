import { SelectQueryNode, TableNode, type KyselyPlugin } from 'kysely';
import type { Database } from '../../src/db/database.ts';

/**
 * The same database seen through a plugin that counts the queries sent, to prove that a read takes a fixed
 * number of queries, or none when it is served from memory. Closing it leaves the underlying database open.
 */
export function countingDatabase(base: Database): { database: Database; counter: { queries: number } } {
  const counter = { queries: 0 };
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      // The instance's poll of data_version (every 400 ms) is no request's query.
      const node = args.node;
      const poll = SelectQueryNode.is(node) && node.from?.froms.some((f) => TableNode.is(f) && f.table.identifier.name === 'data_version');
      if (!poll) counter.queries += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { counter, database: { ...base, db: base.db.withPlugin(plugin), close: async () => {} } };
}

/**
 * The same database seen through a plugin that counts the rows read by SELECTs from `table`, to prove that a
 * request reads a bounded number of them whatever the table holds. Closing it leaves the underlying database open.
 */
export function rowCountingDatabase(base: Database, table: string): { database: Database; counter: { rows: number } } {
  const counter = { rows: 0 };
  const reads = new Set<string>();
  const plugin: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      if (SelectQueryNode.is(node) && node.from?.froms.some((f) => TableNode.is(f) && f.table.identifier.name === table)) {
        reads.add(queryId.queryId);
      }
      return node;
    },
    transformResult: async ({ queryId, result }) => {
      if (reads.delete(queryId.queryId)) counter.rows += result.rows.length;
      return result;
    },
  };
  return { counter, database: { ...base, db: base.db.withPlugin(plugin), close: async () => {} } };
}
