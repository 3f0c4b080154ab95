import { sql, type Kysely } from 'kysely';
import type { DatedRow, Row } from './rows.ts';

/**
 * Set-based writes for the import: one statement per table per batch, never one per row,
 * so that a bundle of thousands of cities goes in quickly.
 */

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
export async function upsertRows(db: Kysely<any>, table: string, rows: Row[]): Promise<number> {
  return upsertBatchGroup(db, table, rows, { dated: false, createdGiven: false, updatedGiven: false });
}

/**
 * The same for a table with created_at / updated_at. A date the bundle gives is stored as given;
 * a date it leaves out is the import time on insert, and on update: created_at stays, and updated_at
 * moves only when the content changed.
 */
export async function upsertDatedRows(db: Kysely<any>, table: string, rows: DatedRow[]): Promise<number> {
  let changed = 0;
  for (const createdGiven of [false, true]) {
    for (const updatedGiven of [false, true]) {
      const group = rows.filter((r) => r.createdGiven === createdGiven && r.updatedGiven === updatedGiven).map((r) => r.values);
      changed += await upsertBatchGroup(db, table, group, { dated: true, createdGiven, updatedGiven });
    }
  }
  return changed;
}

async function upsertBatchGroup(
  db: Kysely<any>,
  table: string,
  rows: Row[],
  mode: { dated: boolean; createdGiven: boolean; updatedGiven: boolean },
): Promise<number> {
  if (rows.length === 0) return 0;
  const columns = Object.keys(rows[0]);
  const content = columns.filter((c) => c !== 'id' && c !== 'created_at' && c !== 'updated_at');
  const compared = [...content];
  const set: Record<string, unknown> = {};
  for (const c of content) set[c] = sql.ref(`excluded.${c}`);
  if (mode.dated) {
    if (mode.createdGiven) {
      compared.push('created_at');
      set.created_at = sql.ref('excluded.created_at');
    }
    if (mode.updatedGiven) compared.push('updated_at');
    set.updated_at = sql.ref('excluded.updated_at');
  }
  const differs = sql<boolean>`(${sql.join(compared.map((c) => sql.ref(`${table}.${c}`)))}) IS DISTINCT FROM (${sql.join(
    compared.map((c) => sql.ref(`excluded.${c}`)),
  )})`;
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
 * Link tables (a serie's quiz questions, a recycling point's materials): a row is its key pair, plus what the pair
 * implies (a material's city); a pair exists or not, there is nothing to update.
 */
export interface LinkTable {
  table: 'serie_question' | 'recycling_point_material';
  /** The owner's column (the serie, the point), then the linked row's. */
  key: [owner: string, linked: string];
}

export const SERIE_QUESTIONS: LinkTable = { table: 'serie_question', key: ['serie_id', 'quiz_question_id'] };
export const POINT_MATERIALS: LinkTable = { table: 'recycling_point_material', key: ['recycling_point_id', 'waste_type_id'] };

export async function insertLinks(db: Kysely<any>, links: LinkTable, rows: Row[]): Promise<number> {
  let changed = 0;
  for (const batch of batches(rows, Object.keys(rows[0] ?? {}).length)) {
    const result = await db
      .insertInto(links.table)
      .values(batch)
      .onConflict((oc) => oc.columns(links.key).doNothing())
      .executeTakeFirst();
    changed += Number(result.numInsertedOrUpdatedRows ?? 0n);
  }
  return changed;
}

/** Deletes the children of the given parents whose ids the bundle no longer lists. */
export async function deleteStaleChildren(
  db: Kysely<any>,
  table: string,
  parentColumn: string,
  parentIds: string[],
  keptIds: string[],
): Promise<number> {
  if (parentIds.length === 0) return 0;
  const result = await sql`
    DELETE FROM ${sql.table(table)}
    WHERE ${sql.ref(parentColumn)} = ANY(${parentIds}::uuid[])
      AND id NOT IN (SELECT unnest(${keptIds}::uuid[]))
  `.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** The links of the given owners that `rows` (the bundle's links) no longer hold. */
export async function deleteStaleLinks(db: Kysely<any>, links: LinkTable, ownerIds: string[], rows: Row[]): Promise<number> {
  if (ownerIds.length === 0) return 0;
  const [owner, linked] = links.key;
  const owners = rows.map((r) => r[owner] as string);
  const targets = rows.map((r) => r[linked] as string);
  const result = await sql`
    DELETE FROM ${sql.table(links.table)} l
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
  db: Kysely<any>,
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
