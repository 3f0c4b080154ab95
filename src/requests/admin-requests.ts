import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { reachableRecord, type AdminAgent } from '../admin/agent.ts';
import { recordAudit } from '../admin/audit.ts';
import { etagOf } from '../admin/revision.ts';
import { groupFound, inGroup, type AdminStore, type Versioned } from '../admin/store.ts';
import { findCityGroupRef } from '../domain/cities.ts';
import { errors } from '../kernel/errors.ts';
import { requestMessages } from '../kernel/validation-messages.ts';
import { toAdminRequest } from './mapper.ts';
import * as repo from './repository.ts';
import { releasedByStaff } from './bulky-pickups.ts';
import type { RequestRow } from './repository.ts';
import { isOpen, type AdminRequest, type ReplyInput, type RequestPatchInput } from './schemas.ts';

/**
 * The staff's side of requests (docs/api.md, resident requests), for agents holding REQUESTS in the request's group
 * (404 elsewhere, as if missing): the queue oldest first, a request with its notes and photos, its status, assignee
 * and planned day changed under `If-Match`, replies public or internal, and its deletion for a resident who asks to be
 * forgotten. The audit log keeps what was done, never what identifies the resident (`auditedOf`).
 */

/** Shows rows as agents see them: one query per kind of child, whatever the number of rows. */
export async function showRequests(db: Kysely<DB>, rows: RequestRow[], now: Date): Promise<AdminRequest[]> {
  const ids = rows.map((r) => r.id);
  const [context, updates, photos] = await Promise.all([
    repo.requestContext(db, rows),
    repo.updatesOf(db, ids, { notes: true }),
    repo.photosOf(db, ids),
  ]);
  const updatesOf = Map.groupBy(updates, (u) => u.request_id);
  const photosOf = Map.groupBy(photos, (p) => p.request_id);
  return rows.map((row) =>
    toAdminRequest(row, context, updatesOf.get(row.id) ?? [], (photosOf.get(row.id) ?? []).map((p) => p.id), now),
  );
}

/** What the ETag covers: everything but what changes with the clock alone. */
const revisionOf = ({ overdue: _overdue, ...rest }: AdminRequest) => rest;

/** What the audit log keeps of a request: its handling, nothing of the resident. */
const auditedOf = (r: AdminRequest) => ({
  id: r.id,
  reference: r.reference,
  typeCode: r.typeCode,
  status: r.status,
  cityId: r.cityId,
  placeId: r.placeId,
  wasteTypeId: r.wasteTypeId,
  date: r.date,
  plannedFor: r.plannedFor,
  assignedTo: r.assignedTo,
});

export function requestStore(clock: () => Date): AdminStore<RequestRow, AdminRequest, never, never, RequestPatchInput> {
  return {
    entity: 'request',
    notFound: errors.requestNotFound,
    publicData: false,
    revisionOf,
    auditedOf,
    find: async (db, id, options) => inGroup(await repo.findRequest(db, id, options)),
    async list(db, _parent, page, scope, { agent, query }) {
      let groupIds = scope;
      if (typeof query.cityGroupId === 'string') {
        const group = reachableRecord(agent, groupFound(await findCityGroupRef(db, query.cityGroupId.toLowerCase())), (f) => f.groupIds, () =>
          errors.cityGroupNotFound('cityGroupId'),
        );
        groupIds = [group.row.id];
      }
      const lowered = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : undefined);
      return repo.listRequests(
        db,
        {
          groupIds,
          status: query.status as RequestRow['status'] | undefined,
          typeCode: typeof query.typeCode === 'string' ? query.typeCode : undefined,
          cityId: lowered(query.cityId),
          assignedTo: lowered(query.assignedTo),
          overdue: typeof query.overdue === 'boolean' ? query.overdue : undefined,
          now: clock(),
        },
        page,
      );
    },
    show: (db, rows) => showRequests(db, rows, clock()),
    insert: () => {
      throw errors.requestNotFound();
    },
    async update(trx, { subject, now, agent }, patch) {
      const row = subject.row;
      const status = patch.status ?? row.status;
      const plannedFor = patch.plannedFor === undefined ? row.planned_for : patch.plannedFor;
      const assignedTo = patch.assignedTo === undefined ? row.assigned_to : (patch.assignedTo?.toLowerCase() ?? null);
      if (status === 'PLANIFIEE' && plannedFor === null) throw errors.invalidField('plannedFor', requestMessages.plannedForRequired);
      const statusChanged = status !== row.status;
      if (statusChanged && status === 'REJETEE' && patch.reason === undefined) throw errors.invalidField('reason', requestMessages.reasonRequired);
      if (assignedTo !== null && assignedTo !== row.assigned_to && !(await repo.isRequestAgent(trx, assignedTo, row.city_group_id))) {
        throw errors.invalidField('assignedTo', requestMessages.notAnAgent(assignedTo));
      }
      // A new planned day is news to the requester as much as a new status.
      const replanned = status === 'PLANIFIEE' && plannedFor !== row.planned_for;
      const closedAt = isOpen(status) ? null : statusChanged ? now : row.closed_at;
      // A booking the staff cancel or reject gives its day's place back (a new day they plan is theirs to judge).
      if (statusChanged) await releasedByStaff(trx, row, status);
      await repo.updateRequest(trx, row.id, { status, assigned_to: assignedTo, planned_for: plannedFor, closed_at: closedAt, updated_at: now });
      if (statusChanged || replanned) {
        const updateId = randomUUID();
        const message = patch.reason?.trim() ?? null;
        await repo.insertUpdate(trx, { id: updateId, request_id: row.id, at: now, kind: 'STATUS', status, message, author: { id: agent.id, name: agent.name } });
        await repo.enqueueMail(trx, { id: randomUUID(), requestId: row.id, updateId, now });
      }
      return (await repo.findRequest(trx, row.id))!;
    },
    async remove(trx, { subject }) {
      await repo.deleteRequest(trx, subject.row.id);
    },
  };
}

/** The request an agent reaches, locked when asked: 404 outside the agent's groups, as if missing. */
async function reachableRequest(db: Kysely<DB>, agent: AdminAgent, id: string, forUpdate: boolean): Promise<RequestRow> {
  return reachableRecord(agent, await repo.findRequest(db, id, { forUpdate }), (r) => [r.city_group_id], errors.requestNotFound);
}

/**
 * A reply: public, an update the requester sees (and is told of); internal, a note for agents only. Answers the
 * request as it now is, with its new ETag.
 */
export async function replyToRequest(
  db: Kysely<DB>,
  agent: AdminAgent,
  id: string,
  input: ReplyInput,
  now: Date,
): Promise<Versioned<AdminRequest>> {
  return db.transaction().execute(async (trx) => {
    const row = await reachableRequest(trx, agent, id, true);
    const updateId = randomUUID();
    const kind = input.public ? 'REPLY' : 'NOTE';
    await repo.insertUpdate(trx, { id: updateId, request_id: row.id, at: now, kind, status: null, message: input.message.trim(), author: agent });
    if (input.public) await repo.enqueueMail(trx, { id: randomUUID(), requestId: row.id, updateId, now });
    await repo.touchRequest(trx, row.id, now);
    await recordAudit(
      trx,
      agent,
      // Named by the request it answers (whose `updatedAt` it moves), the reply's own id beside.
      { action: 'create', entity: 'requestReply', entityId: row.id, cityGroupIds: [row.city_group_id], before: null, after: { replyId: updateId, public: input.public } },
      now,
    );
    const [record] = await showRequests(trx, [(await repo.findRequest(trx, row.id))!], now);
    return { record, etag: etagOf(revisionOf(record)) };
  });
}

/** A photo's bytes, for an agent who reaches its request. */
export async function requestPhoto(db: Kysely<DB>, agent: AdminAgent, id: string, photoId: string) {
  const row = await reachableRequest(db, agent, id, false);
  const photo = await repo.findPhoto(db, row.id, photoId);
  if (!photo) throw errors.requestNotFound();
  return photo;
}

/** Whom a group's requests may be assigned to (`assignedTo`): 404 for a group outside the agent's, as if missing. */
export async function requestAgents(db: Kysely<DB>, agent: AdminAgent, groupId: string) {
  reachableRecord(agent, groupFound(await findCityGroupRef(db, groupId)), (f) => f.groupIds, () => errors.cityGroupNotFound('id'));
  return repo.requestAgentsOf(db, groupId);
}
