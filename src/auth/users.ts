import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../db/errors.ts';
import { errors } from '../kernel/errors.ts';
import { iso } from '../kernel/french.ts';
import { pageMeta, type PageRequest } from '../kernel/pagination.ts';
import { groupScope, reaches, type AdminAgent } from '../admin/agent.ts';
import { recordAudit, type AuditChange } from '../admin/audit.ts';
import { etagOf, assertIfMatch } from '../admin/revision.ts';
import { toUser } from './mapper.ts';
import { MIN_PASSWORD_LENGTH, hashPassword, passwordLength } from './passwords.ts';
import { PERMISSIONS } from './permissions.ts';
import * as repo from './repository.ts';
import type { AccountRow } from './repository.ts';
import { revokeSessionsOf } from './sessions.ts';
import type { CreateUserInput, User, UserPatch } from './schemas.ts';

/**
 * Account management (docs/api.md, the admin API, `/admin/users` and `collecte user create`). An agent with USERS manages
 * the accounts of its own groups: accounts that are not super admins and whose groups are all among its own (any
 * other answers 404, as if missing); it changes or deletes only accounts whose permissions it holds all of, and
 * gives no permission, group or super-admin rank it does not hold itself (403). A super admin manages every account.
 */

/** Who writes: an agent, or the operator's command line (no account, every right). */
export type Actor = Omit<AdminAgent, 'id'> & { id: string | null };

export const OPERATOR: Actor = { id: null, name: 'Opérateur (ligne de commande)', permissions: [], cityGroupIds: [], superAdmin: true };

/** An account as the admin API shows it, with its ETag. */
export interface VersionedUser {
  user: User;
  etag: string;
}

/** E-mails are compared and stored lower-cased. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];

/** Permissions in the catalogue's order, each once: the same list however it was sent. */
const canonical = (permissions: readonly string[]): string[] => PERMISSIONS.filter((p) => permissions.includes(p));

/** The ETag moves with what the API shows and with `updated_at`, which a password change moves. */
function versioned(row: AccountRow): VersionedUser {
  const user = toUser(row);
  return { user, etag: etagOf(user, iso(row.updated_at)) };
}

function assertPassword(password: string): void {
  if (passwordLength(password) < MIN_PASSWORD_LENGTH) throw errors.passwordTooShort(MIN_PASSWORD_LENGTH);
}

/** An account's groups as the scope sees them: a super admin's account is of no group (for super admins only). */
const groupsOf = (row: AccountRow): (string | null)[] => (row.super_admin ? [null] : row.city_group_ids);

/** The account if the actor may see it; 404 otherwise. */
function reachable(actor: Actor, row: AccountRow | null): AccountRow {
  if (!row || !reaches(actor, groupsOf(row))) throw errors.userNotFound();
  return row;
}

/** An account may be changed by an agent that holds every permission it has. */
function assertMayChange(actor: Actor, row: AccountRow): void {
  if (!actor.superAdmin && !row.permissions.every((p) => actor.permissions.includes(p))) throw errors.accountAboveYours();
}

interface Rights {
  permissions: readonly string[];
  cityGroupIds: readonly string[];
  superAdmin: boolean;
}

/** Checks that an account may have `rights` and that the actor may give them. */
async function assertGrantable(db: Kysely<DB>, actor: Actor, rights: Rights): Promise<void> {
  if (!rights.superAdmin && rights.cityGroupIds.length === 0) throw errors.cityGroupsRequired();
  if (!actor.superAdmin) {
    if (rights.superAdmin) throw errors.grantSuperAdmin();
    const withheld = rights.permissions.find((p) => !actor.permissions.includes(p));
    if (withheld !== undefined) throw errors.grantPermission(withheld);
    if (!rights.cityGroupIds.every((id) => actor.cityGroupIds.includes(id))) throw errors.grantCityGroup();
  }
  const found = await repo.existingCityGroups(db, rights.cityGroupIds);
  if (found.length !== rights.cityGroupIds.length) throw errors.unknownCityGroup();
}

/** The audit of an account's write, read by whoever may see the account before and after. */
function userChange(action: AuditChange['action'], before: AccountRow | null, after: AccountRow | null, extra: object = {}): AuditChange {
  const rows = [before, after].filter((row): row is AccountRow => row !== null);
  return {
    action,
    entity: 'user',
    entityId: rows[0].id,
    cityGroupIds: rows.flatMap(groupsOf),
    before: before && toUser(before),
    after: after && { ...toUser(after), ...extra },
  };
}

/**
 * Runs a write, turning the races past its checks into their answers: a second account with the same e-mail (409),
 * a group deleted meanwhile (400; the only foreign key a write names is a group's).
 */
async function writing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw errors.emailTaken();
    if (isForeignKeyViolation(err)) throw errors.unknownCityGroup();
    throw err;
  }
}

export async function listUsers(db: Kysely<DB>, actor: Actor, page: PageRequest) {
  const { rows, total } = await repo.listAccounts(db, groupScope(actor), page);
  return { data: rows.map(toUser), meta: pageMeta(page, total) };
}

export async function getUser(db: Kysely<DB>, actor: Actor, id: string): Promise<VersionedUser> {
  return versioned(reachable(actor, await repo.findAccount(db, id)));
}

export async function createUser(db: Kysely<DB>, actor: Actor, input: CreateUserInput, now: Date): Promise<VersionedUser> {
  assertPassword(input.password);
  const rights = {
    permissions: canonical(input.permissions ?? []),
    cityGroupIds: unique((input.cityGroupIds ?? []).map((id) => id.toLowerCase())),
    superAdmin: input.superAdmin ?? false,
  };
  await assertGrantable(db, actor, rights);
  const email = normaliseEmail(input.email);
  if (await repo.findAccountByEmail(db, email)) throw errors.emailTaken();
  const passwordHash = await hashPassword(input.password);
  const row = await writing(() =>
    db.transaction().execute(async (trx) => {
      const values = {
        id: randomUUID(),
        email,
        name: input.name.trim(),
        password_hash: passwordHash,
        permissions: rights.permissions,
        super_admin: rights.superAdmin,
        active: input.active ?? true,
        created_at: now,
        updated_at: now,
      };
      const created = await repo.insertAccount(trx, values, rights.cityGroupIds);
      await recordAudit(trx, actor, userChange('create', null, created), now);
      return created;
    }),
  );
  return versioned(row);
}

export async function updateUser(
  db: Kysely<DB>,
  actor: Actor,
  id: string,
  patch: UserPatch,
  ifMatch: string | undefined,
  now: Date,
): Promise<VersionedUser> {
  if (patch.password !== undefined) assertPassword(patch.password);
  // Hashed before the transaction: the row stays locked for as short a time as possible.
  const passwordHash = patch.password === undefined ? undefined : await hashPassword(patch.password);
  const row = await writing(() =>
    db.transaction().execute(async (trx) => {
      const before = reachable(actor, await repo.findAccount(trx, id, { forUpdate: true }));
      assertIfMatch(ifMatch, versioned(before).etag);
      assertMayChange(actor, before);
      if (patch.active === false && actor.id === id) throw errors.ownAccountLockout();
      const cityGroupIds = patch.cityGroupIds && unique(patch.cityGroupIds.map((g) => g.toLowerCase()));
      const rights = {
        permissions: patch.permissions ? canonical(patch.permissions) : before.permissions,
        cityGroupIds: cityGroupIds ?? before.city_group_ids,
        superAdmin: patch.superAdmin ?? before.super_admin,
      };
      await assertGrantable(trx, actor, rights);
      const email = patch.email === undefined ? before.email : normaliseEmail(patch.email);
      if (email !== before.email && (await repo.findAccountByEmail(trx, email))) throw errors.emailTaken();
      const after = await repo.updateAccount(
        trx,
        id,
        {
          email,
          name: patch.name?.trim() ?? before.name,
          permissions: [...rights.permissions],
          super_admin: rights.superAdmin,
          active: patch.active ?? before.active,
          ...(passwordHash ? { password_hash: passwordHash } : {}),
          updated_at: now,
        },
        cityGroupIds,
      );
      // A new password or a deactivation ends every session: the agent logs in again (or no more).
      if (passwordHash || !after.active) await revokeSessionsOf(trx, id, now);
      await recordAudit(trx, actor, userChange('update', before, after, passwordHash ? { passwordChanged: true } : {}), now);
      return after;
    }),
  );
  return versioned(row);
}

export async function deleteUser(db: Kysely<DB>, actor: Actor, id: string, ifMatch: string | undefined, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = reachable(actor, await repo.findAccount(trx, id, { forUpdate: true }));
    assertIfMatch(ifMatch, versioned(before).etag);
    assertMayChange(actor, before);
    if (actor.id === id) throw errors.ownAccountLockout();
    await repo.deleteAccount(trx, id);
    await recordAudit(trx, actor, userChange('delete', before, null), now);
  });
}
