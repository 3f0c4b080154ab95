import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { inGroup, underGroup, type AdminStore } from '../admin/store.ts';
import type { CannedReplyTable, DB } from '../db/types.ts';
import { errors } from '../kernel/errors.ts';
import { timestamps } from '../kernel/french.ts';
import type { PageRequest } from '../kernel/pagination.ts';
import type { CannedReply, CannedReplyPatch, CreateCannedReplyInput } from './schemas.ts';

/**
 * Canned replies: a city group's short answers, picked by title in the console's inbox and sent as an
 * agent's reply. Admin resource under the group (`/admin/city-groups/:cityGroupId/canned-replies`), then at
 * `/admin/canned-replies/:id`; audited as `cannedReply`; not public data, so no data_version bump.
 */

type CannedReplyRow = Selectable<CannedReplyTable>;

function toCannedReply(row: CannedReplyRow): CannedReply {
  return {
    id: row.id,
    cityGroupId: row.city_group_id,
    title: row.title,
    content: row.content,
    ...timestamps(row),
  };
}

async function findCannedReply(db: Kysely<DB>, id: string, forUpdate = false): Promise<CannedReplyRow | undefined> {
  const query = db.selectFrom('canned_reply').selectAll().where('id', '=', id);
  return (forUpdate ? query.forUpdate() : query).executeTakeFirst();
}

async function listCannedReplies(db: Kysely<DB>, cityGroupId: string, page: PageRequest): Promise<{ rows: CannedReplyRow[]; total: number }> {
  const base = db.selectFrom('canned_reply').where('city_group_id', '=', cityGroupId);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('title').orderBy('id').limit(page.pageSize).offset((page.page - 1) * page.pageSize).execute(),
    base.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export const cannedReplyStore: AdminStore<CannedReplyRow, CannedReply, { id: string }, CreateCannedReplyInput, CannedReplyPatch> = {
  entity: 'cannedReply',
  notFound: errors.cannedReplyNotFound,
  publicData: false,
  ...underGroup,
  fixedParent: true,
  find: async (db, id, options) => inGroup(await findCannedReply(db, id, options.forUpdate)),
  list: (db, group, page) => listCannedReplies(db, group!.id, page),
  show: async (_db, rows) => rows.map(toCannedReply),
  async insert(trx, { subject: group, now }, input) {
    const id = randomUUID();
    await trx
      .insertInto('canned_reply')
      .values({ id, city_group_id: group!.id, title: input.title.trim(), content: input.content.trim(), created_at: now, updated_at: now })
      .execute();
    return (await findCannedReply(trx, id))!;
  },
  async update(trx, { subject, now }, patch) {
    await trx
      .updateTable('canned_reply')
      .set({
        ...(patch.title !== undefined ? { title: patch.title.trim() } : {}),
        ...(patch.content !== undefined ? { content: patch.content.trim() } : {}),
        updated_at: now,
      })
      .where('id', '=', subject.row.id)
      .execute();
    return (await findCannedReply(trx, subject.row.id))!;
  },
  async remove(trx, { subject }) {
    await trx.deleteFrom('canned_reply').where('id', '=', subject.row.id).execute();
  },
};
