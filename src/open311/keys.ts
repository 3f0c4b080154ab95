import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { DB, Open311KeyTable } from '../db/types.ts';
import { groupFound, inGroup, type AdminStore } from '../admin/store.ts';
import { findCityGroupRef } from '../domain/cities.ts';
import { errors } from '../kernel/errors.ts';
import { iso } from '../kernel/french.ts';
import { pageWindow, type PageRequest } from '../kernel/pagination.ts';
import type { CreateKeyInput, KeyPatchInput, Open311Key } from './schemas.ts';

/**
 * Open311 API keys (docs/api.md, Open311): made, listed, renamed and revoked by a super admin through the admin
 * framework (audited, `If-Match` on a change or revocation), and checked on every `POST requests`. Only the key's
 * SHA-256 is stored (migration 0023); the key is shown once, by the route that creates it.
 */

export type KeyRow = Selectable<Open311KeyTable>;

/** A new key: 32 random bytes, base64url (43 characters). */
export const newKey = (): string => randomBytes(32).toString('base64url');

/** What is stored of a key. */
export const hashKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** `lastUsedAt` moves at most this often per key: a partner's burst of requests writes the row once. */
const LAST_USED_STEP_MS = 60_000;

/** The request to create a key, with the key the route drew (the store keeps only its hash). */
export type NewKeyInput = CreateKeyInput & { key: string };

export const toOpen311Key = (row: KeyRow): Open311Key => ({
  id: row.id,
  cityGroupId: row.city_group_id,
  name: row.name,
  createdAt: iso(row.created_at)!,
  lastUsedAt: iso(row.last_used_at),
});

/**
 * The key a partner sent, when it is a key of `groupId`: 403 `open311KeyRefused` when missing, unknown (a revoked key
 * is deleted) or another group's. Its `last_used_at` is moved when a minute has passed since it last was.
 */
export async function keyOfGroup(db: Kysely<DB>, apiKey: string | undefined, groupId: string, now: Date): Promise<KeyRow> {
  if (!apiKey) throw errors.open311KeyRefused();
  const row = await db.selectFrom('open311_key').selectAll().where('key_hash', '=', hashKey(apiKey)).executeTakeFirst();
  if (!row || row.city_group_id !== groupId) throw errors.open311KeyRefused();
  if (row.last_used_at === null || now.getTime() - row.last_used_at.getTime() >= LAST_USED_STEP_MS) {
    const before = new Date(now.getTime() - LAST_USED_STEP_MS);
    // Conditional: of two instances that both read an old value, one writes.
    await db
      .updateTable('open311_key')
      .set({ last_used_at: now })
      .where('id', '=', row.id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', before)]))
      .execute();
  }
  return row;
}

async function listKeys(db: Kysely<DB>, groupId: string | null, page: PageRequest): Promise<{ rows: KeyRow[]; total: number }> {
  const matching = () => db.selectFrom('open311_key').$if(groupId !== null, (q) => q.where('city_group_id', '=', groupId!));
  const { total } = await matching().select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow();
  const window = pageWindow(page, Number(total));
  if (!window) return { rows: [], total: Number(total) };
  const rows = await matching().selectAll().orderBy('name').orderBy('id').limit(window.limit).offset(window.offset).execute();
  return { rows, total: Number(total) };
}

/**
 * The keys as an admin resource. Every route is a super admin's (admin-routes.ts refuses anyone else before the store
 * runs); the store still scopes by group like any other. Not public data: a write moves no `data_version`. A key's
 * ETag leaves out `lastUsedAt`, which its partner moves: a revocation read a minute earlier still matches.
 */
export const keyStore: AdminStore<KeyRow, Open311Key, never, NewKeyInput, KeyPatchInput> = {
  entity: 'open311Key',
  notFound: errors.open311KeyNotFound,
  publicData: false,
  find: async (db, id, { forUpdate }) =>
    inGroup(await db.selectFrom('open311_key').selectAll().where('id', '=', id).$if(forUpdate, (q) => q.forUpdate()).executeTakeFirst()),
  list: (db, _parent, page, _scope, { query }) =>
    listKeys(db, typeof query.cityGroupId === 'string' ? query.cityGroupId.toLowerCase() : null, page),
  show: async (_db, rows) => rows.map(toOpen311Key),
  async insert(trx, { now, reachable }, input) {
    const groupId = reachable(groupFound(await findCityGroupRef(trx, input.cityGroupId.toLowerCase())), () => errors.cityGroupNotFound('cityGroupId')).id;
    return trx
      .insertInto('open311_key')
      .values({ id: randomUUID(), city_group_id: groupId, name: input.name.trim(), key_hash: hashKey(input.key), created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  async update(trx, { subject, now }, patch) {
    return trx
      .updateTable('open311_key')
      .set({ ...(patch.name === undefined ? {} : { name: patch.name.trim() }), updated_at: now })
      .where('id', '=', subject.row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  async remove(trx, { subject }) {
    await trx.deleteFrom('open311_key').where('id', '=', subject.row.id).execute();
  },
  revisionOf: ({ lastUsedAt: _used, ...key }) => key,
};
