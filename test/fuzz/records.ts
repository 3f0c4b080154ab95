import { sql, type Kysely } from 'kysely';
import type { DB } from '../../src/db/types.ts';

/**
 * What the fuzz tests know of the stored records, read from the database's own catalogue so that tables and routes
 * added later are covered without touching these files: the ids of every table, the city group each record belongs
 * to (by following foreign keys up to `city_group`), and a cheap fingerprint of what a request may have written.
 */

/** The tables of the current schema and, for each, whether it has a uuid `id`. */
async function tables(db: Kysely<DB>): Promise<Array<{ name: string; uuidId: boolean }>> {
  const { rows } = await sql<{ name: string; uuid_id: boolean }>`
    SELECT t.table_name AS name,
           EXISTS (SELECT 1 FROM information_schema.columns c
                   WHERE c.table_schema = t.table_schema AND c.table_name = t.table_name
                     AND c.column_name = 'id' AND c.data_type = 'uuid') AS uuid_id
    FROM information_schema.tables t
    WHERE t.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
    ORDER BY t.table_name
  `.execute(db);
  return rows.map((row) => ({ name: row.name, uuidId: row.uuid_id }));
}

/** The ids of every table that has a uuid `id`, by table name. */
export async function tableIds(db: Kysely<DB>): Promise<Record<string, string[]>> {
  const ids: Record<string, string[]> = {};
  for (const table of await tables(db)) {
    if (!table.uuidId) continue;
    const { rows } = await sql<{ id: string }>`SELECT id::text AS id FROM ${sql.table(table.name)} ORDER BY id`.execute(db);
    ids[table.name] = rows.map((row) => row.id);
  }
  return ids;
}

/** A single-column foreign key: `table.column` names a row of `references` by its `referencedColumn`. */
interface ForeignKey {
  table: string;
  column: string;
  references: string;
  referencedColumn: string;
}

async function foreignKeys(db: Kysely<DB>): Promise<ForeignKey[]> {
  const { rows } = await sql<ForeignKey>`
    SELECT cl.relname AS "table", a.attname AS "column", rf.relname AS "references", ra.attname AS "referencedColumn"
    FROM pg_constraint c
    JOIN pg_class cl ON cl.oid = c.conrelid
    JOIN pg_namespace n ON n.oid = cl.relnamespace
    JOIN pg_class rf ON rf.oid = c.confrelid
    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
    JOIN pg_attribute ra ON ra.attrelid = c.confrelid AND ra.attnum = c.confkey[1]
    WHERE c.contype = 'f' AND n.nspname = current_schema() AND cardinality(c.conkey) = 1
    ORDER BY 1, 2
  `.execute(db);
  return rows;
}

/**
 * The shortest chain of foreign keys from `table` up to `city_group` (empty for city_group itself), or null when
 * its records belong to no group that way (accounts, whose groups are a list of their own).
 */
function pathToGroup(table: string, keys: ForeignKey[]): ForeignKey[] | null {
  if (table === 'city_group') return [];
  const queue: Array<{ at: string; path: ForeignKey[] }> = [{ at: table, path: [] }];
  const seen = new Set([table]);
  while (queue.length) {
    const { at, path } = queue.shift()!;
    for (const key of keys.filter((k) => k.table === at)) {
      if (key.references === 'city_group') return [...path, key];
      if (seen.has(key.references)) continue;
      seen.add(key.references);
      queue.push({ at: key.references, path: [...path, key] });
    }
  }
  return null;
}

/** Finds, for any stored record, the city group it belongs to now (records move: a city to another group). */
export interface GroupFinder {
  /** The tables whose records belong to a group through their foreign keys. */
  tables: string[];
  /** The record's group now: a group id, null for a record of no group, undefined when it is gone or not grouped. */
  groupOf(table: string, id: string): Promise<string | null | undefined>;
  /**
   * Every record's owners as they stand now, by id: the records its foreign keys climb through up to its group, the
   * group last (null for a record of no group): a collection day's place, city and group.
   */
  ancestors(): Promise<Map<string, Array<string | null>>>;
}

export async function groupFinder(db: Kysely<DB>): Promise<GroupFinder> {
  const keys = await foreignKeys(db);
  const grouped = (await tables(db)).filter((t) => t.uuidId);
  const queries = new Map<string, string>();
  for (const { name } of grouped) {
    const path = pathToGroup(name, keys);
    if (path === null) continue;
    // t0 is the record; each join climbs one key; each key's column names one owner, the last one the group.
    const joins = path.slice(0, -1).map((key, i) => `LEFT JOIN "${key.references}" t${i + 1} ON t${i + 1}."${key.referencedColumn}" = t${i}."${key.column}"`);
    const owners = path.length ? path.map((key, i) => `t${i}."${key.column}"::text`) : ['t0.id::text'];
    queries.set(name, `SELECT t0.id::text AS id, ARRAY[${owners.join(', ')}] AS owners FROM "${name}" t0 ${joins.join(' ')}`);
  }
  return {
    tables: [...queries.keys()],
    async groupOf(table, id) {
      const query = queries.get(table);
      if (!query) return undefined;
      const { rows } = await sql<{ owners: Array<string | null> }>`${sql.raw(query)} WHERE t0.id = ${id}::uuid`.execute(db);
      return rows.length ? (rows[0].owners.at(-1) ?? null) : undefined;
    },
    async ancestors() {
      const owners = new Map<string, Array<string | null>>();
      for (const query of queries.values()) {
        const { rows } = await sql<{ id: string; owners: Array<string | null> }>`${sql.raw(query)}`.execute(db);
        for (const row of rows) owners.set(row.id, row.owners);
      }
      return owners;
    },
  };
}

/**
 * One query answering the row count of every table but `skip`, the data version and the audit entries: what any
 * write changes but an UPDATE in place. Cheap enough to run after every fuzzed write.
 */
export async function writeFingerprint(db: Kysely<DB>, skip: readonly string[]): Promise<() => Promise<Record<string, number>>> {
  const counted = (await tables(db)).map((t) => t.name).filter((name) => !skip.includes(name) && name !== 'data_version');
  const columns = [
    ...counted.map((name) => `(SELECT count(*) FROM "${name}") AS "${name}"`),
    `(SELECT coalesce(max(version), 0) FROM data_version) AS "data_version"`,
  ];
  const query = sql.raw<Record<string, string | number>>(`SELECT ${columns.join(', ')}`);
  return async () => {
    const { rows } = await query.execute(db);
    return Object.fromEntries(Object.entries(rows[0]).map(([name, value]) => [name, Number(value)]));
  };
}
