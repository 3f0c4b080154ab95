import type { FastifyInstance } from 'fastify';
import { errors } from '../kernel/errors.ts';
import { isUuid } from '../kernel/schemas.ts';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { InvalidConsoleToken, readBearer, verifyConsoleToken } from './token.ts';
import type { Permission } from './permissions.ts';
import { existingCityGroups, findAccount } from './repository.ts';
import { assertReaches, groupScope, type AdminAgent } from '../admin/agent.ts';

/** The token of an `Authorization: Bearer` header, or the 401 to answer. */
function bearerToken(header: string | undefined): string {
  const bearer = readBearer(header);
  if ('fault' in bearer) throw bearer.fault === 'missing' ? errors.adminMissingToken() : errors.adminInvalidToken();
  return bearer.token;
}

/**
 * The account `id` as it now is, as an agent: its name, permissions, groups and rank are read at every request, not
 * taken from the token, so that a deactivated or deleted account stops at once (401) and a right taken away is gone
 * from the next request on. `null` when the account no longer exists; the 401 of an inactive one is thrown.
 */
export async function currentAgent(db: Kysely<DB>, id: string): Promise<AdminAgent | null> {
  const row = await findAccount(db, id);
  if (!row) return null;
  if (!row.active) throw errors.accountInactive();
  return { id: row.id, name: row.name, permissions: row.permissions, cityGroupIds: row.city_group_ids, superAdmin: row.super_admin };
}

/** The agent of a valid access token, judged on its account as it now is, or the 401 to answer. */
async function agentOfToken(db: Kysely<DB>, token: string, secret: string, now: Date): Promise<AdminAgent> {
  let id: string;
  let expiresAt: number;
  try {
    ({ id, expiresAt } = await verifyConsoleToken(token, secret, now));
  } catch (err) {
    if (err instanceof InvalidConsoleToken) throw errors.adminInvalidToken();
    throw err;
  }
  // Only an account's token names an account: a service token of `console-token` (any `sub`) is not one.
  if (!isUuid(id)) throw errors.adminInvalidToken();
  const agent = await currentAgent(db, id.toLowerCase());
  if (!agent) throw errors.adminInvalidToken();
  return { ...agent, tokenExpiresAt: expiresAt };
}

/** Whether the agent holds one of `permissions` (a super admin holds them all). */
export const holdsPermission = (agent: AdminAgent, permissions: readonly Permission[]): boolean =>
  agent.superAdmin || permissions.some((p) => agent.permissions.includes(p));

/**
 * Guards every route of the calling (encapsulated) admin plugin, like the console's guard: a valid access token
 * (`Authorization: Bearer`, 401 otherwise) holding one of `permissions` (403 otherwise; a super admin passes), before
 * anything else runs, validation included. The agent is then `adminAgentOf(request)` (src/admin/agent.ts). Admin
 * answers are never stored by a cache. Call it inside the area's admin plugin, not through fastify-plugin, so that
 * its hook stays there.
 */
export function requireAdminAgent(
  app: FastifyInstance,
  permissions: Permission | readonly Permission[],
  options: {
    /** The 403 of any agent but a super admin, for routes that are theirs alone (Open311 keys): refused before `If-Match`. */
    superAdminOnly?: () => Error;
  } = {},
): void {
  const needed: readonly Permission[] = typeof permissions === 'string' ? [permissions] : permissions;
  // Once per context: an area's admin plugin may hold several guarded plugins.
  if (!app.hasRequestDecorator('adminAgent')) app.decorateRequest('adminAgent', null);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { consoleJwtSecret } = app.config;
    // Without a secret, nothing can be checked: said before anything else, as the console does.
    if (!consoleJwtSecret) throw errors.authNotConfigured();
    const agent = await agentOfToken(app.db, bearerToken(request.headers.authorization), consoleJwtSecret, app.clock());
    if (!holdsPermission(agent, needed)) throw errors.adminPermission(needed);
    if (options.superAdminOnly && !agent.superAdmin) throw options.superAdminOnly();
    // Every admin change or deletion is conditional: a blind write could undo someone else's change unseen.
    if ((request.method === 'PATCH' || request.method === 'DELETE') && request.headers['if-match'] === undefined) {
      throw errors.preconditionRequired();
    }
    request.adminAgent = agent;
  });
}

/**
 * The groups a read asked for with `?cityGroupId=` is limited to: that group alone, when the agent reaches it and it
 * exists (404 at `cityGroupId` otherwise, as if missing); without it, `groupScope`.
 */
export async function requestedGroupScope(db: Kysely<DB>, agent: AdminAgent, cityGroupId: string | undefined): Promise<readonly string[] | null> {
  if (cityGroupId === undefined) return groupScope(agent);
  const id = cityGroupId.toLowerCase();
  assertReaches(agent, [id], () => errors.cityGroupNotFound('cityGroupId'));
  if ((await existingCityGroups(db, [id])).length === 0) throw errors.cityGroupNotFound('cityGroupId');
  return [id];
}
