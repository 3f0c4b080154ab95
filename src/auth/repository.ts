import { sql, type Kysely, type Selectable } from 'kysely';
import type { AccountTable, DB } from '../db/types.ts';
import { pageWindow, type PageRequest } from '../kernel/pagination.ts';

/** Accounts and their city groups. Plain functions taking `db` or a transaction first; rows out, no HTTP. */

/** An account row with the ids of its city groups (sorted), as every read returns it. */
export type AccountRow = Selectable<AccountTable> & { city_group_ids: string[] };

/** ICU root collation: the same French order on PGlite and PostgreSQL. */
const byName = sql`account.name collate "und-x-icu"`;

function accounts(db: Kysely<DB>) {
  return db
    .selectFrom('account')
    .selectAll('account')
    .select(sql<string[]>`array(SELECT g.city_group_id FROM account_city_group g WHERE g.account_id = account.id ORDER BY 1)`.as('city_group_ids'));
}

export async function findAccount(db: Kysely<DB>, id: string, options: { forUpdate?: boolean } = {}): Promise<AccountRow | null> {
  let query = accounts(db).where('account.id', '=', id);
  if (options.forUpdate) query = query.forUpdate('account');
  return (await query.executeTakeFirst()) ?? null;
}

/** The account of a (normalised) e-mail. */
export async function findAccountByEmail(db: Kysely<DB>, email: string): Promise<AccountRow | null> {
  return (await accounts(db).where('account.email', '=', email).executeTakeFirst()) ?? null;
}

/** The accounts an agent of `groups` manages: not super admins, with at least one group, all of them among `groups`. */
function withinGroups(groups: readonly string[]) {
  return sql<boolean>`NOT account.super_admin
    AND EXISTS (SELECT 1 FROM account_city_group g WHERE g.account_id = account.id)
    AND NOT EXISTS (SELECT 1 FROM account_city_group g WHERE g.account_id = account.id AND g.city_group_id <> ALL(${groups}::uuid[]))`;
}

/** One page of the accounts within `groups` (null: all), by name then id, and their total. */
export async function listAccounts(
  db: Kysely<DB>,
  groups: readonly string[] | null,
  page: PageRequest,
): Promise<{ rows: AccountRow[]; total: number }> {
  const [{ total }] = await db
    .selectFrom('account')
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .$if(groups !== null, (qb) => qb.where(withinGroups(groups!)))
    .execute();
  const window = pageWindow(page, Number(total));
  if (!window) return { rows: [], total: Number(total) };
  const rows = await accounts(db)
    .$if(groups !== null, (qb) => qb.where(withinGroups(groups!)))
    .orderBy(byName)
    .orderBy('account.id')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return { rows, total: Number(total) };
}

/** The ids among `ids` that name a city group. */
export async function existingCityGroups(db: Kysely<DB>, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  return (await db.selectFrom('city_group').select('id').where('id', 'in', [...ids]).execute()).map((r) => r.id);
}

export type AccountValues = Omit<Selectable<AccountTable>, 'last_login_at'>;

export async function insertAccount(db: Kysely<DB>, values: AccountValues, cityGroupIds: readonly string[]): Promise<AccountRow> {
  await db.insertInto('account').values({ ...values, last_login_at: null }).execute();
  await setCityGroups(db, values.id, cityGroupIds);
  return (await findAccount(db, values.id))!;
}

export async function updateAccount(
  db: Kysely<DB>,
  id: string,
  values: Partial<Omit<AccountValues, 'id' | 'created_at'>>,
  cityGroupIds: readonly string[] | undefined,
): Promise<AccountRow> {
  await db.updateTable('account').set(values).where('id', '=', id).execute();
  if (cityGroupIds !== undefined) {
    await db.deleteFrom('account_city_group').where('account_id', '=', id).execute();
    await setCityGroups(db, id, cityGroupIds);
  }
  return (await findAccount(db, id))!;
}

async function setCityGroups(db: Kysely<DB>, accountId: string, cityGroupIds: readonly string[]): Promise<void> {
  if (cityGroupIds.length === 0) return;
  await db
    .insertInto('account_city_group')
    .values(cityGroupIds.map((city_group_id) => ({ account_id: accountId, city_group_id })))
    .execute();
}

export async function deleteAccount(db: Kysely<DB>, id: string): Promise<void> {
  await db.deleteFrom('account').where('id', '=', id).execute();
}

export async function recordLogin(db: Kysely<DB>, id: string, at: Date): Promise<AccountRow> {
  await db.updateTable('account').set({ last_login_at: at }).where('id', '=', id).execute();
  return (await findAccount(db, id))!;
}
