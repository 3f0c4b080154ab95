import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { findCityGroupRef, findCityOwner, findPlaceOwner } from '../domain/cities.ts';
import { errors, type DomainError } from '../kernel/errors.ts';
import { pageMeta, type PageRequest } from '../kernel/pagination.ts';
import { recordAudit, recordPublicChange, type AuditChange } from './audit.ts';
import { reachableRecord, type AdminAgent } from './agent.ts';
import { assertIfMatch, etagOf } from './revision.ts';

/**
 * The five operations of an admin resource, written once (docs/api.md, the admin API). An area describes how its records
 * are found, shown, checked and written ({@link AdminStore}); {@link adminService} turns that into the service that
 * `registerAdminResource` serves: every read scoped to the agent's groups (404 outside, as if missing), every write
 * in one transaction with its record locked, its `If-Match` checked, its audit entry and (for public data) the
 * `data_version` bump, so that two agents never overwrite each other silently and an entry never describes a write
 * that did not happen.
 */

/** What a service answers for one record: the record, its ETag, and after a write the data version it moved to. */
export interface Versioned<T> {
  record: T;
  etag: string;
  dataVersion?: number;
}

/** A stored record with the city groups it belongs to (null: no group, seen by super admins only). */
export interface Found<Row> {
  row: Row;
  groupIds: readonly (string | null)[];
}

/** A record found with the owner it hangs off (a city, a place): found by its owner's group. */
export const ownedBy = <R>(found: { row: R; owner: { cityGroupId: string | null } } | undefined): Found<R> | undefined =>
  found && { row: found.row, groupIds: [found.owner.cityGroupId] };

/** An owner (a city, a place) found as a parent: by its own group. */
export const ownerFound = <O extends { cityGroupId: string | null }>(owner: O | undefined): Found<O> | undefined =>
  owner && { row: owner, groupIds: [owner.cityGroupId] };

/** A record that names its city group (a blog post, a site, a canned reply, a medium): found by that group. */
export const inGroup = <R extends { city_group_id: string | null }>(row: R | undefined): Found<R> | undefined =>
  row && { row, groupIds: [row.city_group_id] };

/** A city group found as a parent: it belongs to itself, so that its agents may read it. */
export const groupFound = <G extends { id: string }>(group: G | undefined): Found<G> | undefined => group && { row: group, groupIds: [group.id] };

type FindOwned<R, O> = (db: Kysely<DB>, id: string, options: { forUpdate: boolean }) => Promise<{ row: R; owner: O } | undefined>;
type ListUnder<R, O> = (db: Kysely<DB>, parentId: string, page: PageRequest, parent: O) => Promise<{ rows: R[]; total: number }>;

/**
 * The parent half of a store whose records hang off an owner and never leave it (a city's waste types, a place's
 * days, a challenge's series): the parent found by its group, 404 `parentNotFound` outside it; a record found with
 * its owner (the repository's `find`), listed under its parent's id (the repository's `list`) and shown (`show`).
 */
export function underOwner<O extends { cityGroupId: string | null }, K extends keyof O>(
  findOwner: (db: Kysely<DB>, id: string) => Promise<O | undefined>,
  parentNotFound: () => DomainError,
  idOf: K,
) {
  return <R, T>(find: FindOwned<R, { cityGroupId: string | null }>, list: ListUnder<R, O>, show: ShowRows<R, T>) => ({
    fixedParent: true,
    parentNotFound,
    findParent: async (db: Kysely<DB>, parentId: string) => ownerFound(await findOwner(db, parentId)),
    find: async (db: Kysely<DB>, id: string, options: { forUpdate: boolean }) => ownedBy(await find(db, id, options)),
    list: (db: Kysely<DB>, parent: O | null, page: PageRequest) => list(db, parent![idOf] as string, page, parent!),
    show,
  });
}

type ShowRows<R, T> = (db: Kysely<DB>, rows: R[]) => Promise<T[]>;

/** `show` of a store whose rows are shown one by one, with nothing more to read. */
export const eachRow =
  <R, T>(toRecord: (row: R) => T): ShowRows<R, T> =>
  async (_db, rows) =>
    rows.map(toRecord);

/** Records of a city (waste types, places, recycling points, quiz questions, challenges): 404 `Ville introuvable` outside it. */
export const underCity = underOwner(findCityOwner, errors.cityNotFound, 'cityId');

/** Records of a place (days, exceptions, locations, streets). */
export const underPlace = underOwner(findPlaceOwner, errors.collectionPlaceNotFound, 'placeId');

/**
 * The parent half of a store whose records belong to a city group and may move to another (blog posts, sites): the
 * group found by itself, 404 `Groupe de villes introuvable` outside the agent's groups.
 */
export const underGroup = {
  parentNotFound: errors.cityGroupNotFound,
  findParent: async (db: Kysely<DB>, groupId: string) => groupFound(await findCityGroupRef(db, groupId)),
};

/** The group a body's `cityGroupId` moves a record to: one the agent holds, 404 at `cityGroupId` otherwise (as if missing). */
export async function groupMovedTo(db: Kysely<DB>, context: Pick<WriteContext<unknown>, 'reachable'>, groupId: string): Promise<string> {
  return context.reachable(groupFound(await findCityGroupRef(db, groupId)), () => errors.cityGroupNotFound('cityGroupId')).id;
}

/** The first of a write's faults (the import bundle's rules), as the 400 naming its field. */
export function assertNoFault(faults: readonly { path: string; message: string }[]): void {
  const [fault] = faults;
  if (fault) throw errors.invalidField(fault.path, fault.message);
}

/** `remove` of a store whose records go without a check (their parts cascade with them). */
export const removeRow =
  (remove: (trx: Kysely<DB>, id: string) => Promise<unknown>) =>
  async (trx: Kysely<DB>, { subject }: WriteContext<{ row: { id: string } }>): Promise<void> => {
    await remove(trx, subject.row.id);
  };

/** A record as the admin API shows it, with what it was read from. */
export interface Shown<Row, T> extends Found<Row> {
  record: T;
}

export interface AdminStore<Row, T extends { id: string }, Parent, Create, Patch> {
  /** The kind's singular camelCase name, for the audit log: `exception`, `blogPost`. */
  entity: string;
  notFound: () => DomainError;
  /** Whether its writes change public answers (the `data_version` bump); default true. */
  publicData?: boolean;
  /**
   * True when a record never leaves its parent (an exception stays with its place): its groups after a write are its
   * parent's, known without reading it back. Otherwise each write reads the record back and checks the agent still
   * reaches it (a city moved to another group).
   */
  fixedParent?: boolean;
  /**
   * The parent a record is listed and created under (a city, a place) with its groups, or undefined (404). Absent
   * for a top-level resource (city groups).
   */
  findParent?(db: Kysely<DB>, parentId: string): Promise<Found<Parent> | undefined>;
  parentNotFound?: () => DomainError;
  /** One record, locked `FOR UPDATE` when asked. */
  find(db: Kysely<DB>, id: string, options: { forUpdate: boolean }): Promise<Found<Row> | undefined>;
  /**
   * One page of the records under a parent (null: top level) that the agent may see (`scope` null: every group).
   * `query`: the listing's query parameters, the page's and the resource's own (`listQuery`).
   */
  list(
    db: Kysely<DB>,
    parent: Parent | null,
    page: PageRequest,
    scope: readonly string[] | null,
    context: { agent: AdminAgent; query: Record<string, unknown> },
  ): Promise<{ rows: Row[]; total: number }>;
  /** The rows as the admin API shows them, in order (batched: one query per kind of child, not one per row). */
  show(db: Kysely<DB>, rows: Row[]): Promise<T[]>;
  /** Checks and stores a new record (400 naming the field); answers its row. */
  insert(trx: Kysely<DB>, context: WriteContext<Parent | null>, input: Create): Promise<Row>;
  /** Checks and stores a change (400 naming the field; a move to another parent is checked with `reachable`). */
  update(trx: Kysely<DB>, context: WriteContext<Shown<Row, T>>, patch: Patch): Promise<Row>;
  /** Deletes the record (409 when still in use). */
  remove(trx: Kysely<DB>, context: WriteContext<Shown<Row, T>>): Promise<void>;
  /**
   * What of a record its ETag covers, when not all of it: fields that change with the clock alone (a request's
   * `overdue`) must not make a write that read the record a minute earlier fail with 412.
   */
  revisionOf?(record: T): unknown;
  /**
   * What the audit log keeps of a record, when not all of it: a resident's request is logged without what identifies
   * the resident, so that erasing the request (retention, a request to be forgotten) leaves nothing of them behind.
   */
  auditedOf?(record: T): object;
}

/** What a write knows: the agent, the record or parent it starts from, and how to check another one the agent names. */
export interface WriteContext<Subject> {
  agent: AdminAgent;
  subject: Subject;
  now: Date;
  /** The found record if the agent may see it, `notFound()` otherwise: for a parent named in a body. */
  reachable<R>(found: Found<R> | undefined, notFound: () => DomainError): R;
}

export interface AdminService<T> {
  list(db: Kysely<DB>, agent: AdminAgent, parentId: string | undefined, page: PageRequest & Record<string, unknown>): Promise<{ data: T[]; meta: object }>;
  create(db: Kysely<DB>, agent: AdminAgent, parentId: string | undefined, body: never, now: Date): Promise<Versioned<T>>;
  get(db: Kysely<DB>, agent: AdminAgent, id: string): Promise<Versioned<T>>;
  update(db: Kysely<DB>, agent: AdminAgent, id: string, body: never, ifMatch: string | undefined, now: Date): Promise<Versioned<T>>;
  remove(db: Kysely<DB>, agent: AdminAgent, id: string, ifMatch: string | undefined, now: Date): Promise<number | undefined>;
}

export function adminService<Row, T extends { id: string }, Parent, Create, Patch>(
  store: AdminStore<Row, T, Parent, Create, Patch>,
): AdminService<T> {
  const reachableFor = (agent: AdminAgent) => <R>(found: Found<R> | undefined, notFound: () => DomainError): R =>
    reachableRecord(agent, found, (f) => f.groupIds, notFound).row;

  const parentOf = async (db: Kysely<DB>, agent: AdminAgent, parentId: string | undefined): Promise<Found<Parent> | null> => {
    if (!store.findParent || parentId === undefined) return null;
    return reachableRecord(agent, await store.findParent(db, parentId), (f) => f.groupIds, store.parentNotFound ?? store.notFound);
  };

  const shown = async (db: Kysely<DB>, found: Found<Row>): Promise<Shown<Row, T>> => {
    const [record] = await store.show(db, [found.row]);
    return { ...found, record };
  };

  const reachable = async (db: Kysely<DB>, agent: AdminAgent, id: string, forUpdate: boolean): Promise<Shown<Row, T>> => {
    const found = reachableRecord(agent, await store.find(db, id, { forUpdate }), (f) => f.groupIds, store.notFound);
    return shown(db, found);
  };

  const versioned = (record: T): Versioned<T> => ({ record, etag: etagOf(store.revisionOf ? store.revisionOf(record) : record) });

  /** Audits the write and, for public data, bumps the data version (answered). */
  const audited = async (trx: Kysely<DB>, agent: AdminAgent, change: AuditChange, now: Date): Promise<number | undefined> => {
    if (store.publicData === false) {
      await recordAudit(trx, agent, change, now);
      return undefined;
    }
    return recordPublicChange(trx, agent, change, now);
  };

  const auditedRecord = (record: T): object => (store.auditedOf ? store.auditedOf(record) : record);

  const change = (action: AuditChange['action'], before: Shown<Row, T> | null, after: Shown<Row, T> | null): AuditChange => ({
    action,
    entity: store.entity,
    entityId: (before ?? after)!.record.id,
    cityGroupIds: [...(before?.groupIds ?? []), ...(after?.groupIds ?? [])],
    before: before && auditedRecord(before.record),
    after: after && auditedRecord(after.record),
  });

  /** The stored row, read back with its groups (a write may have moved it). */
  const reread = async (trx: Kysely<DB>, id: string): Promise<Shown<Row, T>> => shown(trx, (await store.find(trx, id, { forUpdate: false }))!);

  return {
    async list(db, agent, parentId, page) {
      const parent = await parentOf(db, agent, parentId);
      const scope = agent.superAdmin ? null : agent.cityGroupIds;
      const { rows, total } = await store.list(db, parent?.row ?? null, page, scope, { agent, query: page });
      return { data: await store.show(db, rows), meta: pageMeta(page, total) };
    },

    async get(db, agent, id) {
      return versioned((await reachable(db, agent, id, false)).record);
    },

    async create(db, agent, parentId, body, now) {
      return db.transaction().execute(async (trx) => {
        const parent = await parentOf(trx, agent, parentId);
        const context = { agent, subject: parent?.row ?? null, now, reachable: reachableFor(agent) };
        const row = await store.insert(trx, context, body as Create);
        const after = parent && store.fixedParent ? await shown(trx, { row, groupIds: parent.groupIds }) : await reread(trx, (await store.show(trx, [row]))[0].id);
        // A super admin may create a record of a group it names; anyone else only in its own groups.
        reachableRecord(agent, after, (f) => f.groupIds, store.parentNotFound ?? store.notFound);
        const dataVersion = await audited(trx, agent, change('create', null, after), now);
        return { ...versioned(after.record), dataVersion };
      });
    },

    async update(db, agent, id, body, ifMatch, now) {
      return db.transaction().execute(async (trx) => {
        const before = await reachable(trx, agent, id, true);
        assertIfMatch(ifMatch, versioned(before.record).etag);
        const context = { agent, subject: before, now, reachable: reachableFor(agent) };
        const row = await store.update(trx, context, body as Patch);
        const after = store.fixedParent ? await shown(trx, { row, groupIds: before.groupIds }) : await reread(trx, before.record.id);
        // A move to a group the agent does not hold is refused as if the target were missing.
        reachableRecord(agent, after, (f) => f.groupIds, store.parentNotFound ?? store.notFound);
        const dataVersion = await audited(trx, agent, change('update', before, after), now);
        return { ...versioned(after.record), dataVersion };
      });
    },

    async remove(db, agent, id, ifMatch, now) {
      return db.transaction().execute(async (trx) => {
        const before = await reachable(trx, agent, id, true);
        assertIfMatch(ifMatch, versioned(before.record).etag);
        await store.remove(trx, { agent, subject: before, now, reachable: reachableFor(agent) });
        return audited(trx, agent, change('delete', before, null), now);
      });
    },
  };
}
