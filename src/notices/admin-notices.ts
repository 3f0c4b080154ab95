import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { reachableRecord } from '../admin/agent.ts';
import { assertNoFault, groupFound, groupMovedTo, inGroup, removeRow, type AdminStore } from '../admin/store.ts';
import { findCityGroupRef } from '../domain/cities.ts';
import { errors } from '../kernel/errors.ts';
import { toAdminNotice } from './mapper.ts';
import { noticeScopeFaults, noticeTimeFaults } from './notice-rules.ts';
import * as repo from './repository.ts';
import type { NoticeRow } from './repository.ts';
import type { AdminNotice, CreateNoticeInput, NoticePatchInput } from './schemas.ts';

/**
 * The admin API's service notices (docs/api.md, collections that move and service notices): a top-level resource at `/admin/notices` whose records name
 * their city group in the body, like an account its groups. A group outside the agent's answers 404 at
 * `cityGroupId`, as if missing, on a write and on the listing's filter alike. Each write checks the notice's rules
 * (notice-rules.ts) on the record as it will be stored; adminService wraps it in one transaction with its audit entry
 * and the data version bump (the public notices follow within a second).
 */

/** Ids as stored: lowercase, each once, in the order given. */
const idList = (ids: readonly string[]) => [...new Set(ids.map((id) => id.toLowerCase()))];

type NoticeRecord = Pick<AdminNotice, 'cityGroupId' | 'cityIds' | 'placeIds' | 'title' | 'body' | 'severity' | 'startsAt' | 'endsAt' | 'notify'>;

/** The record's columns, once its rules pass: its lists against its group when `scopeChanged`, its dates always. */
async function checkedValues(trx: Kysely<DB>, record: NoticeRecord, scopeChanged: boolean, now: Date): Promise<repo.NoticeValues> {
  const scope = { cityIds: idList(record.cityIds), placeIds: idList(record.placeIds) };
  if (scopeChanged) {
    const { cityIds, placeCity } = await repo.groupCitiesAndPlaces(trx, record.cityGroupId, scope.placeIds);
    assertNoFault(noticeScopeFaults(scope, { groupCityIds: cityIds, placeCity }));
  }
  const startsAt = new Date(record.startsAt);
  const endsAt = record.endsAt === null ? null : new Date(record.endsAt);
  assertNoFault(noticeTimeFaults(startsAt, endsAt));
  return {
    city_group_id: record.cityGroupId,
    city_ids: scope.cityIds,
    place_ids: scope.placeIds,
    title: record.title.trim(),
    body: record.body.trim(),
    severity: record.severity,
    starts_at: startsAt,
    ends_at: endsAt,
    notify: record.notify,
    updated_at: now,
  };
}

export const noticeStore: AdminStore<NoticeRow, AdminNotice, never, CreateNoticeInput, NoticePatchInput> = {
  entity: 'notice',
  notFound: errors.noticeNotFound,
  parentNotFound: () => errors.cityGroupNotFound('cityGroupId'),
  find: async (db, id, options) => inGroup(await repo.findNotice(db, id, options)),
  async list(db, _parent, page, scope, { agent, query }) {
    const groupId = typeof query.cityGroupId === 'string' ? query.cityGroupId.toLowerCase() : null;
    if (groupId === null) return repo.listNotices(db, scope, page);
    const group = reachableRecord(agent, groupFound(await findCityGroupRef(db, groupId)), (f) => f.groupIds, () => errors.cityGroupNotFound('cityGroupId'));
    return repo.listNotices(db, [group.row.id], page);
  },
  show: async (_db, rows) => rows.map(toAdminNotice),
  async insert(trx, { now, reachable }, input) {
    const cityGroupId = await groupMovedTo(trx, { reachable }, input.cityGroupId.toLowerCase());
    const record: NoticeRecord = {
      cityGroupId,
      cityIds: input.cityIds ?? [],
      placeIds: input.placeIds ?? [],
      title: input.title,
      body: input.body,
      severity: input.severity ?? 'INFO',
      startsAt: input.startsAt ?? now.toISOString(),
      endsAt: input.endsAt ?? null,
      notify: input.notify ?? false,
    };
    return repo.insertNotice(trx, randomUUID(), { ...(await checkedValues(trx, record, true, now)), created_at: now });
  },
  async update(trx, { subject, now, reachable }, patch) {
    const cityGroupId = patch.cityGroupId === undefined ? subject.record.cityGroupId : await groupMovedTo(trx, { reachable }, patch.cityGroupId.toLowerCase());
    const record: NoticeRecord = { ...subject.record, ...patch, cityGroupId };
    const scopeChanged = patch.cityGroupId !== undefined || patch.cityIds !== undefined || patch.placeIds !== undefined;
    return repo.updateNotice(trx, subject.row.id, await checkedValues(trx, record, scopeChanged, now));
  },
  remove: removeRow(repo.deleteNotice),
};
