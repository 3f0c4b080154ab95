import { iso } from '../kernel/french.ts';
import type { AccountRow } from './repository.ts';
import type { Permission } from './permissions.ts';
import type { User } from './schemas.ts';

/** Rows to the shapes of docs/api.md, the admin API. The password hash stays behind. */

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
