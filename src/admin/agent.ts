import type { FastifyRequest } from 'fastify';
import { errors, type DomainError } from '../kernel/errors.ts';

/**
 * The agent an admin request speaks for, and the records it reaches: what the admin framework needs of an account.
 * Who the agent is (its token, its account as it now is, its permissions) is src/auth/guard.ts's business; the
 * framework only reads the agent the guard set and scopes every read and write by its groups.
 */

/** The agent an admin request speaks for, from its access token. */
export interface AdminAgent {
  /** The account's id (the token's `sub`). */
  id: string;
  name: string;
  permissions: readonly string[];
  cityGroupIds: readonly string[];
  /** Holds every permission on every group. */
  superAdmin: boolean;
  /** When the request's access token expires (milliseconds since the epoch): a live stream ends then. */
  tokenExpiresAt?: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The agent of an /admin request, set by requireAdminAgent's hook; null elsewhere. */
    adminAgent: AdminAgent | null;
  }
}

/** The agent of a request that went through requireAdminAgent. */
export function adminAgentOf(request: FastifyRequest): AdminAgent {
  if (!request.adminAgent) throw errors.adminMissingToken();
  return request.adminAgent;
}

/**
 * The groups a listing is limited to: null for a super admin (every group), the agent's own groups otherwise.
 * Repositories filter with it; a record outside is never listed.
 */
export const groupScope = (agent: Pick<AdminAgent, 'superAdmin' | 'cityGroupIds'>): readonly string[] | null =>
  agent.superAdmin ? null : agent.cityGroupIds;

/**
 * Whether the agent may see a record belonging to `groupIds` (a record of several groups, an account, lists them all;
 * null stands for "no group"): a super admin every record, another agent a record whose groups are all its own.
 */
export function reaches(agent: Pick<AdminAgent, 'superAdmin' | 'cityGroupIds'>, groupIds: readonly (string | null)[]): boolean {
  if (agent.superAdmin) return true;
  return groupIds.length > 0 && groupIds.every((id) => id !== null && agent.cityGroupIds.includes(id));
}

/** Throws `notFound()` when the agent may not see the record: outside its groups, a record answers as if missing. */
export function assertReaches(
  agent: Pick<AdminAgent, 'superAdmin' | 'cityGroupIds'>,
  groupIds: readonly (string | null)[],
  notFound: () => DomainError,
): void {
  if (!reaches(agent, groupIds)) throw notFound();
}

/** `record` if it exists and the agent may see it (its groups from `groupIdsOf`); `notFound()` otherwise, as if missing. */
export function reachableRecord<T>(
  agent: Pick<AdminAgent, 'superAdmin' | 'cityGroupIds'>,
  record: T | undefined,
  groupIdsOf: (record: T) => readonly (string | null)[],
  notFound: () => DomainError,
): T {
  if (record === undefined) throw notFound();
  assertReaches(agent, groupIdsOf(record), notFound);
  return record;
}

/** A record of a city group's data, seen through its owner (the city or place it hangs off): `reachableRecord` by its group. */
export function reachableOwned<T extends { owner: { cityGroupId: string | null } }>(
  agent: Pick<AdminAgent, 'superAdmin' | 'cityGroupIds'>,
  record: T | undefined,
  notFound: () => DomainError,
): T {
  return reachableRecord(agent, record, (found) => [found.owner.cityGroupId], notFound);
}
