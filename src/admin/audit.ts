import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Static } from 'typebox';
import type { AuditAction, AuditEntryTable, DB } from '../db/types.ts';
import { bumpDataVersion } from '../db/data-version.ts';
import { errors } from '../kernel/errors.ts';
import { iso } from '../kernel/french.ts';
import { pageMeta, pageWindow, type PageRequest } from '../kernel/pagination.ts';
import { groupScope, type AdminAgent } from './agent.ts';
import type { AuditEntry, AuditQuery } from './schemas.ts';

/** The audit log of admin writes (docs/api.md, the admin API): recorded inside each write's transaction, listed by /admin/audit. */

/** An audit entry as stored. */
export type AuditRow = Selectable<AuditEntryTable>;

/** Who wrote: an account, or the operator's command line (no id). */
export interface AuditAuthor {
  id: string | null;
  name: string;
}

export interface AuditChange {
  action: AuditAction;
  /** The kind's singular camelCase name: `user`, `exception`, `blogPost`. */
  entity: string;
  entityId: string;
  /**
   * The city groups of the record, before and after the write (null: none): whoever may see all of them may read the
   * entry. A record that belongs to no group is audited for super admins only.
   */
  cityGroupIds: readonly (string | null)[];
  /** The record as the admin API shows it (never a secret such as a password hash); null for a create or a delete. */
  before: object | null;
  after: object | null;
}

/**
 * Records one admin write. Call it with the write's own transaction: if the write fails, its entry goes with it,
 * and an entry never describes a write that did not happen.
 */
export async function recordAudit(trx: Kysely<DB>, author: AuditAuthor, change: AuditChange, at: Date): Promise<void> {
  const groups = [...new Set(change.cityGroupIds.filter((id): id is string => id !== null))].sort();
  // A record of no group (or partly of none) must not become readable by every agent: it keeps no group at all.
  const scope = change.cityGroupIds.includes(null) ? [] : groups;
  await trx
    .insertInto('audit_entry')
    .values({
      id: randomUUID(),
      at,
      user_id: author.id,
      user_name: author.name,
      action: change.action,
      entity: change.entity,
      entity_id: change.entityId,
      city_group_ids: scope,
      before: change.before === null ? null : JSON.stringify(change.before),
      after: change.after === null ? null : JSON.stringify(change.after),
    })
    .execute();
}

/**
 * Records an admin write that changes public data: its audit entry and the data_version bump, both in the write's
 * transaction, so that every instance's public answers change within a second. Answers the new data version.
 */
export async function recordPublicChange(trx: Kysely<DB>, author: AuditAuthor, change: AuditChange, at: Date): Promise<number> {
  await recordAudit(trx, author, change, at);
  return bumpDataVersion(trx, at);
}

export interface AuditFilters {
  entity?: string;
  entityId?: string;
  from?: Date;
  to?: Date;
}

/**
 * One page of the entries matching `filters`, newest first, and their total. `groups` null: every entry (a super
 * admin); otherwise only entries with at least one group, all of them among `groups`.
 */
async function listAudit(
  db: Kysely<DB>,
  groups: readonly string[] | null,
  filters: AuditFilters,
  page: PageRequest,
): Promise<{ rows: AuditRow[]; total: number }> {
  const matching = db
    .selectFrom('audit_entry')
    .$if(groups !== null, (qb) => qb.where(sql<boolean>`cardinality(city_group_ids) > 0 AND city_group_ids <@ ${groups}::uuid[]`))
    .$if(filters.entity !== undefined, (qb) => qb.where('entity', '=', filters.entity!))
    .$if(filters.entityId !== undefined, (qb) => qb.where('entity_id', '=', filters.entityId!))
    .$if(filters.from !== undefined, (qb) => qb.where('at', '>=', filters.from!))
    .$if(filters.to !== undefined, (qb) => qb.where('at', '<=', filters.to!));
  const [{ total }] = await matching.select((eb) => eb.fn.countAll<string>().as('total')).execute();
  const window = pageWindow(page, Number(total));
  if (!window) return { rows: [], total: Number(total) };
  const rows = await matching
    .selectAll()
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return { rows, total: Number(total) };
}

/** An entry as the admin API shows it. */
function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    at: iso(row.at)!,
    userId: row.user_id,
    userName: row.user_name,
    action: row.action,
    entity: row.entity,
    entityId: row.entity_id,
    before: row.before,
    after: row.after,
  };
}

/** One page of the audit log as the agent may read it (its groups' entries; every entry for a super admin). */
export async function auditLog(db: Kysely<DB>, agent: AdminAgent, query: Static<typeof AuditQuery>) {
  const { entity, entityId, page, pageSize } = query;
  const from = query.from === undefined ? undefined : new Date(query.from);
  const to = query.to === undefined ? undefined : new Date(query.to);
  if (from && to && from > to) throw errors.dateOrder();
  const { rows, total } = await listAudit(db, groupScope(agent), { entity, entityId, from, to }, { page, pageSize });
  return { data: rows.map(toAuditEntry), meta: pageMeta({ page, pageSize }, total) };
}
