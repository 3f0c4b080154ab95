import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { pageOf, type PageRequest } from '../kernel/pagination.ts';
import type { DB } from './types.ts';
import { recordsById, type TableWithId as RecordTable } from './records.ts';

/**
 * How the admin API reads and writes a table whose records hang off a parent by `parentColumn` (a city's waste types, a
 * place's days, a challenge's series), one record at a time: found by id with the owner of its parent (`findOwner`,
 * whose group decides who may see it), listed under their parent in their public `order`, inserted under their parent,
 * changed and deleted by id, the writes answering the stored row. A record's parent is fixed at its creation: `values`
 * never hold it.
 */
export function childRecords<T extends RecordTable, P extends keyof DB[T] & string, O>(
  table: T,
  parentColumn: P,
  findOwner: (db: Kysely<DB>, parentId: string) => Promise<O | undefined>,
  order: (rows: Selectable<DB[T]>[]) => Selectable<DB[T]>[] = (rows) => rows,
) {
  type Row = Selectable<DB[T]>;
  type Values = Omit<Insertable<DB[T]>, 'id' | P>;
  // Kysely types a query by its literal table name: for a table passed as a type parameter the queries are written
  // here once on an untyped handle, and typed by the signatures below.
  const untyped = (db: Kysely<DB>) => db as unknown as Kysely<any>;
  const name: string = table;
  const records = recordsById(table);
  /** Every record of a parent, in their order. */
  const under = async (db: Kysely<DB>, parentId: string): Promise<Row[]> =>
    order((await untyped(db).selectFrom(name).selectAll().where(parentColumn as string, '=', parentId).execute()) as Row[]);
  return {
    /** The record and its parent's owner; the record alone locked until the end of the transaction with `forUpdate`. */
    async find(db: Kysely<DB>, id: string, options: { forUpdate?: boolean } = {}): Promise<{ row: Row; owner: O } | undefined> {
      const row = await records.find(db, id, options);
      const owner = row && (await findOwner(db, (row as Record<string, string>)[parentColumn]));
      return row && owner && { row, owner };
    },
    under,
    /** One page of a parent's records (a parent holds a few hundred at most: read whole, sorted, paged), and their total. */
    list: async (db: Kysely<DB>, parentId: string, page: PageRequest): Promise<{ rows: Row[]; total: number }> => pageOf(await under(db, parentId), page),
    insert: (db: Kysely<DB>, id: string, parentId: string, values: Values): Promise<Row> =>
      untyped(db).insertInto(name).values({ id, [parentColumn]: parentId, ...values }).returningAll().executeTakeFirstOrThrow() as Promise<Row>,
    update: (db: Kysely<DB>, id: string, values: Values): Promise<Row> => records.update(db, id, values as unknown as Updateable<DB[T]>),
    remove: records.remove,
  };
}
