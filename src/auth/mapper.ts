import { iso } from '../kernel/french.ts';
import type { AccountRow } from './repository.ts';
import type { Selectable } from 'kysely';
import type { AuditEntryTable } from '../db/types.ts';
import type { Permission } from './permissions.ts';
import type { AuditEntry, User } from './schemas.ts';

/** An audit entry as stored. */
export type AuditRow = Selectable<AuditEntryTable>;

/** Rows to the shapes of CONTRACT section 13. The password hash stays behind. */

export function toUser(row: AccountRow): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    permissions: row.permissions as Permission[],
    cityGroupIds: row.city_group_ids,
    superAdmin: row.super_admin,
    active: row.active,
    createdAt: iso(row.created_at)!,
    lastLoginAt: iso(row.last_login_at),
  };
}

export function toAuditEntry(row: AuditRow): AuditEntry {
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
