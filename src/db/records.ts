import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { DB } from './types.ts';

/** The tables whose rows are known by an `id` column. */
export type TableWithId = { [T in keyof DB]: 'id' extends keyof DB[T] ? T : never }[keyof DB];

/**
 * The four statements a record known by its id needs, written once for every table that has nothing more to them
 * (city groups, cities, media): one row by id (locked until the end of the transaction with `forUpdate`), inserted,
 * changed or deleted, each answering the whole row.
 */
export function recordsById<T extends TableWithId>(table: T) {
  type Row = Selectable<DB[T]>;
  // Kysely types a statement by its table's name; for any table, the row types are said here instead.
  const name: string = table;
  const on = (db: Kysely<DB>) => db as unknown as Kysely<Record<string, { id: string }>>;
  return {
    async find(db: Kysely<DB>, id: string, options: { forUpdate?: boolean } = {}): Promise<Row | undefined> {
      const query = on(db).selectFrom(name).selectAll().where('id', '=', id);
      return (await (options.forUpdate ? query.forUpdate() : query).executeTakeFirst()) as Row | undefined;
    },
    async insert(db: Kysely<DB>, values: Insertable<DB[T]>): Promise<Row> {
      return (await on(db).insertInto(name).values(values as unknown as { id: string }).returningAll().executeTakeFirstOrThrow()) as Row;
    },
    async update(db: Kysely<DB>, id: string, values: Updateable<DB[T]>): Promise<Row> {
      return (await on(db).updateTable(name).set(values as unknown as { id: string }).where('id', '=', id).returningAll().executeTakeFirstOrThrow()) as Row;
    },
    async remove(db: Kysely<DB>, id: string): Promise<void> {
      await on(db).deleteFrom(name).where('id', '=', id).execute();
    },
    /** Every row whose `column` is among `scope` (an agent's groups; null: every row), unordered. */
    async within(db: Kysely<DB>, column: keyof DB[T] & string, scope: readonly string[] | null): Promise<Row[]> {
      if (scope !== null && scope.length === 0) return [];
      const query = on(db).selectFrom(name).selectAll();
      return (await (scope === null ? query : query.where(column as 'id', 'in', scope)).execute()) as Row[];
    },
  };
}

/** Where a record is named: `table.column`, the column holding the record's id. */
export type Reference = `${keyof DB & string}.${string}`;

/**
 * How many rows of each table name the record, in one query, under the caller's names: what its deletion would take
 * with it or leave without it (a city's waste types, a site's pages, the uses of a waste type).
 */
export async function countReferences<K extends string>(db: Kysely<DB>, id: string, references: Record<K, Reference>): Promise<Record<K, number>> {
  const entries = Object.entries<Reference>(references);
  const counts = entries.map(([name, reference]) => {
    const table = reference.slice(0, reference.indexOf('.'));
    return sql`(SELECT count(*) FROM ${sql.table(table)} WHERE ${sql.ref(reference)} = ${id}) AS ${sql.ref(name)}`;
  });
  const { rows } = await sql<Record<K, string>>`SELECT ${sql.join(counts)}`.execute(db);
  return Object.fromEntries(entries.map(([name]) => [name, Number(rows[0][name as K])])) as Record<K, number>;
}
