import type { Kysely } from 'kysely';
import type { DB } from './types.ts';

/**
 * Runs a multi-query read on one consistent snapshot, so that a response never mixes the data from before
 * an import with the data after it.
 */
export function readSnapshot<T>(db: Kysely<DB>, read: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return read(db);
  return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(read);
}
