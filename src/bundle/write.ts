import { sql, type Kysely, type OnConflictTables, type OnConflictUpdateDatabase, type UpdateObject } from 'kysely';
import type { DB } from '../db/types.ts';
import {
  CHILD_TABLES,
  DATED_TABLES,
  KEPT_WHEN_LEFT_OUT,
  LINK_TABLES,
  LIST_TABLES,
  WRITE_ORDER,
  type BundleRows,
  type BundleTable,
  type ChildTable,
  type DatedRow,
  type DatedTable,
  type KeptWhenLeftOut,
  type LinkTable,
  type ListTable,
  type Row,
} from './tables.ts';

/**
 * Set-based writes for the import: one statement per table per batch, never one per row,
 * so that a bundle of thousands of cities goes in quickly.
 */

/** The tables whose rows have an id, which an upsert matches on. */
type UpsertTable = ChildTable | DatedTable;

/**
 * Makes the database hold the bundle's rows. The children of each imported city, site, menu… that the bundle no
 * longer lists go first, children before parents; then every table is upserted, parents before children.
 * Answers the rows inserted or changed, deleted, and the challenges disabled rather than deleted, in all and by table.
 */
export async function writeBundleRows(db: Kysely<DB>, rows: BundleRows): Promise<BundleWrites> {
  const byTable = new Map<BundleTable, number>();
  const count = (table: BundleTable, n: number) => n > 0 && byTable.set(table, (byTable.get(table) ?? 0) + n);
  let deleted = 0;
  let disabled = 0;
  for (const table of [...WRITE_ORDER].reverse()) {
    const stale = await removeStale(db, rows, table);
    deleted += stale.deleted;
    disabled += stale.disabled;
    count(table, stale.deleted + stale.disabled);
  }
  let changed = 0;
  for (const table of WRITE_ORDER) {
    const written = await writeTable(db, rows, table);
    changed += written;
    count(table, written);
  }
  return { changed, deleted, disabled, byTable };
}

export interface BundleWrites {
  /** Rows inserted or changed. */
  changed: number;
  deleted: number;
  /** Challenges disabled rather than deleted (citizens completed them). */
  disabled: number;
  /** Rows inserted, changed, deleted or disabled, by table (the tables with none left out). */
  byTable: ReadonlyMap<BundleTable, number>;
}

async function writeTable(db: Kysely<DB>, rows: BundleRows, table: BundleTable): Promise<number> {
  if (isLinkTable(table)) return insertLinks(db, table, rows[table]);
  if (isListTable(table)) return insertListRows(db, table, rows[table]);
  if (isDatedTable(table)) return upsertDatedRows(db, table, rows[table]);
  return upsertRows(db, table, rows[table]);
}

/** The rows of the table's parents, the rows the bundle keeps: what is neither goes (see deleteStaleChildren). */
async function removeStale(db: Kysely<DB>, rows: BundleRows, table: BundleTable): Promise<{ deleted: number; disabled: number }> {
  if (isLinkTable(table)) {
    return { deleted: await deleteStaleLinks(db, table, idsOf(rows, LINK_TABLES[table].owner), rows[table]), disabled: 0 };
  }
  if (isListTable(table)) return { deleted: await deleteChangedListRows(db, table, rows.listedParents[table], rows[table]), disabled: 0 };
  if (table === 'challenge') return retireStaleChallenges(db, idsOf(rows, 'city'), idsOf(rows, 'challenge'));
  if (!isChildTable(table)) return { deleted: 0, disabled: 0 };
  const parents = isKeptWhenLeftOut(table) ? rows.listedParents[table] : idsOf(rows, CHILD_TABLES[table].parent);
  return { deleted: await deleteStaleChildren(db, table, parents, idsOf(rows, table)), disabled: 0 };
}

function idsOf(rows: BundleRows, table: UpsertTable): string[] {
  if (isDatedTable(table)) return rows[table].map((r) => r.values.id);
  return rows[table].map((r) => r.id);
}

const isLinkTable = (table: BundleTable): table is LinkTable => table in LINK_TABLES;
const isListTable = (table: BundleTable): table is ListTable => table in LIST_TABLES;
const isChildTable = (table: BundleTable): table is ChildTable => table in CHILD_TABLES;
const isDatedTable = (table: BundleTable): table is DatedTable => (DATED_TABLES as readonly string[]).includes(table);
const isKeptWhenLeftOut = (table: BundleTable): table is KeptWhenLeftOut => (KEPT_WHEN_LEFT_OUT as readonly string[]).includes(table);

/** PostgreSQL accepts at most 65535 parameters per statement; stay well below. */
const MAX_PARAMETERS_PER_STATEMENT = 30_000;

function batches<T>(rows: T[], columns: number): T[][] {
  const size = Math.max(1, Math.floor(MAX_PARAMETERS_PER_STATEMENT / Math.max(1, columns)));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/**
 * Inserts rows, or updates the row of the same id, but only where some column differs
 * (`WHERE (cols) IS DISTINCT FROM (excluded cols)`): re-importing the same content touches nothing.
 * Answers how many rows were inserted or changed.
 */
export async function upsertRows<T extends UpsertTable>(db: Kysely<DB>, table: T, rows: Row<T>[]): Promise<number> {
  return upsertBatchGroup(db, table, rows, { dated: false, createdGiven: false, updatedGiven: false });
}

/**
 * The same for a table with created_at / updated_at. A date the bundle gives is stored as given;
 * a date it leaves out is the import time on insert, and on update: created_at stays, and updated_at
 * moves only when the content changed.
 */
export async function upsertDatedRows<T extends DatedTable>(db: Kysely<DB>, table: T, rows: DatedRow<T>[]): Promise<number> {
  let changed = 0;
  for (const createdGiven of [false, true]) {
    for (const updatedGiven of [false, true]) {
      const group = rows.filter((r) => r.createdGiven === createdGiven && r.updatedGiven === updatedGiven).map((r) => r.values);
      changed += await upsertBatchGroup(db, table, group, { dated: true, createdGiven, updatedGiven });
    }
  }
  return changed;
}

async function upsertBatchGroup<T extends UpsertTable>(
  db: Kysely<DB>,
  table: T,
  rows: Row<T>[],
  mode: { dated: boolean; createdGiven: boolean; updatedGiven: boolean },
): Promise<number> {
  if (rows.length === 0) return 0;
  const columns = Object.keys(rows[0]);
  const content = columns.filter((c) => c !== 'id' && c !== 'created_at' && c !== 'updated_at');
  const compared = [...content];
  const updated = [...content];
  if (mode.dated) {
    if (mode.createdGiven) {
      compared.push('created_at');
      updated.push('created_at');
    }
    if (mode.updatedGiven) compared.push('updated_at');
    updated.push('updated_at');
  }
  const differs = sql<boolean>`(${sql.join(compared.map((c) => sql.ref(`${table}.${c}`)))}) IS DISTINCT FROM (${sql.join(
    compared.map((c) => sql.ref(`excluded.${c}`)),
  )})`;
  const set = fromExcluded<T>(updated);
  let changed = 0;
  for (const batch of batches(rows, columns.length)) {
    const result = await db
      .insertInto(table)
      .values(batch)
      .onConflict((oc) => oc.column('id').doUpdateSet(set).where(differs))
      .executeTakeFirst();
    changed += Number(result.numInsertedOrUpdatedRows ?? 0n);
  }
  return changed;
}

/**
 * `SET c = excluded.c` for each of `columns`. They are the columns of the rows, known only at run time, so Kysely
 * cannot check them against the table: this is the one place where the writer says their type itself.
 */
function fromExcluded<T extends UpsertTable>(
  columns: string[],
): UpdateObject<OnConflictUpdateDatabase<DB, T>, OnConflictTables<T>, OnConflictTables<T>> {
  return Object.fromEntries(columns.map((c) => [c, sql.ref(`excluded.${c}`)])) as UpdateObject<
    OnConflictUpdateDatabase<DB, T>,
    OnConflictTables<T>,
    OnConflictTables<T>
  >;
}

/** Inserts the pairs of a link table that are not there yet. */
export async function insertLinks<L extends LinkTable>(db: Kysely<DB>, table: L, rows: Row<L>[]): Promise<number> {
  return insertMissing(db, table, rows, LINK_TABLES[table].key);
}

/** Inserts the rows whose key is not taken yet; answers how many went in. */
async function insertMissing<T extends LinkTable | ListTable>(db: Kysely<DB>, table: T, rows: Row<T>[], key: readonly string[]): Promise<number> {
  let changed = 0;
  for (const batch of batches(rows, Object.keys(rows[0] ?? {}).length)) {
    const result = await db
      .insertInto(table)
      .values(batch)
      // The key's columns are the table's (tables.ts); Kysely cannot check a key chosen by the table at run time.
      .onConflict((oc) => oc.columns(key as never).doNothing())
      .executeTakeFirst();
    changed += Number(result.numInsertedOrUpdatedRows ?? 0n);
  }
  return changed;
}

/**
 * The rows of the listed owners' lists that the bundle's lists do not hold as they are: a row differs in any column
 * (a rule moved, or its action changed) is deleted, to be inserted anew by insertListRows. Same lists: nothing moves.
 */
export async function deleteChangedListRows<T extends ListTable>(db: Kysely<DB>, table: T, ownerIds: string[], rows: Row<T>[]): Promise<number> {
  if (ownerIds.length === 0) return 0;
  const { ownerColumn } = LIST_TABLES[table];
  const columns = Object.keys(rows[0] ?? {});
  if (columns.length === 0) {
    const result = await sql`DELETE FROM ${sql.table(table)} WHERE ${sql.ref(ownerColumn)} = ANY(${ownerIds}::uuid[])`.execute(db);
    return Number(result.numAffectedRows ?? 0n);
  }
  // The bundle's rows as JSON, compared column by column with the stored ones (null equal to null).
  const kept = JSON.stringify(rows);
  const same = sql.join(
    columns.map((c) => sql`(kept.${sql.ref(c)})::text IS NOT DISTINCT FROM (l.${sql.ref(c)})::text`),
    sql` AND `,
  );
  const result = await sql`
    DELETE FROM ${sql.table(table)} l
    WHERE l.${sql.ref(ownerColumn)} = ANY(${ownerIds}::uuid[])
      AND NOT EXISTS (SELECT 1 FROM json_populate_recordset(NULL::${sql.table(table)}, ${kept}::json) AS kept WHERE ${same})
  `.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** Inserts the rows of the lists that are not stored as they are (deleteChangedListRows removed the others). */
export async function insertListRows<T extends ListTable>(db: Kysely<DB>, table: T, rows: Row<T>[]): Promise<number> {
  return insertMissing(db, table, rows, LIST_TABLES[table].key);
}

/** Deletes the children of the given parents whose ids the bundle no longer lists. */
export async function deleteStaleChildren(db: Kysely<DB>, table: ChildTable, parentIds: string[], keptIds: string[]): Promise<number> {
  if (parentIds.length === 0) return 0;
  const result = await sql`
    DELETE FROM ${sql.table(table)}
    WHERE ${sql.ref(CHILD_TABLES[table].parentColumn)} = ANY(${parentIds}::uuid[])
      AND id NOT IN (SELECT unnest(${keptIds}::uuid[]))
  `.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** The links of the given owners that `rows` (the bundle's links) no longer hold. */
export async function deleteStaleLinks<L extends LinkTable>(db: Kysely<DB>, table: L, ownerIds: string[], rows: Row<L>[]): Promise<number> {
  if (ownerIds.length === 0) return 0;
  const [owner, linked] = LINK_TABLES[table].key;
  // Every column of a link row is an id; Kysely's row type cannot be indexed by a column the table is generic over.
  const pairs = rows as Record<string, string>[];
  const owners = pairs.map((r) => r[owner]);
  const targets = pairs.map((r) => r[linked]);
  const result = await sql`
    DELETE FROM ${sql.table(table)} l
    WHERE l.${sql.ref(owner)} = ANY(${ownerIds}::uuid[])
      AND NOT EXISTS (
        SELECT 1 FROM unnest(${owners}::uuid[], ${targets}::uuid[]) AS kept(owner_id, linked_id)
        WHERE kept.owner_id = l.${sql.ref(owner)} AND kept.linked_id = l.${sql.ref(linked)}
      )
  `.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/**
 * Challenges of an imported city that the bundle no longer lists: deleted, except those that citizens
 * have completed, which are disabled instead so that their progress (and badges) survive.
 */
export async function retireStaleChallenges(
  db: Kysely<DB>,
  cityIds: string[],
  keptIds: string[],
): Promise<{ deleted: number; disabled: number }> {
  if (cityIds.length === 0) return { deleted: 0, disabled: 0 };
  const stale = sql`city_id = ANY(${cityIds}::uuid[]) AND id NOT IN (SELECT unnest(${keptIds}::uuid[]))`;
  const completed = sql`EXISTS (SELECT 1 FROM challenge_completion cc WHERE cc.challenge_id = challenge.id)`;
  const disabled = await sql`UPDATE challenge SET enabled = false WHERE ${stale} AND enabled AND ${completed}`.execute(db);
  const deleted = await sql`DELETE FROM challenge WHERE ${stale} AND NOT ${completed}`.execute(db);
  return { deleted: Number(deleted.numAffectedRows ?? 0n), disabled: Number(disabled.numAffectedRows ?? 0n) };
}
