import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../kernel/errors.ts';
import { CHAT_CONVERSATIONS, InvalidConsoleToken, readBearer, verifyConsoleToken, type ConsoleAgent } from '../auth/token.ts';
import { currentAgent } from '../auth/guard.ts';
import { isUuid } from '../kernel/schemas.ts';
import { allCityGroupIds } from '../domain/cities.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The agent of a console request, set by the console's onRequest hook; null elsewhere. */
    consoleAgent: ConsoleAgent | null;
  }
}

/**
 * Guards every route registered in the calling (encapsulated) plugin: a valid console token with the
 * CHAT_CONVERSATIONS permission, or 401 / 403 before anything else (validation included) runs.
 * Must be called inside the console plugin, not through fastify-plugin: its hook stays in that context.
 */
export function requireConsoleAgent(app: FastifyInstance): void {
  app.decorateRequest('consoleAgent', null);
  app.addHook('onRequest', async (request, reply) => {
    // What an agent reads is personal and changes with every message: never stored by a cache.
    reply.header('cache-control', 'no-store');
    const secret = app.config.consoleJwtSecret;
    if (!secret) throw errors.consoleNotConfigured();
    const bearer = readBearer(request.headers.authorization);
    if ('fault' in bearer) throw bearer.fault === 'missing' ? errors.consoleMissingToken() : errors.consoleInvalidToken();
    let agent: ConsoleAgent;
    try {
      agent = await verifyConsoleToken(bearer.token, secret, app.clock());
    } catch (err) {
      if (err instanceof InvalidConsoleToken) throw errors.consoleInvalidToken();
      throw err;
    }
    if (agent.account) agent = await asAccountNow(app, agent);
    if (!agent.permissions.includes(CHAT_CONVERSATIONS)) throw errors.missingPermission(CHAT_CONVERSATIONS);
    request.consoleAgent = agent;
  });
}

/**
 * An account's token (signed at login) judged on the account as it now is: 401 once it is deactivated or deleted,
 * its permissions and groups as they are now. A service token (`collecte console-token`) holds its own claims.
 */
async function asAccountNow(app: FastifyInstance, agent: ConsoleAgent): Promise<ConsoleAgent> {
  const now = isUuid(agent.id) ? await currentAgent(app.db, agent.id.toLowerCase()) : null;
  if (!now) throw errors.consoleInvalidToken();
  // The account's own permissions (CHAT_CONVERSATIONS still needed, whatever the rank); its groups, or every group for
  // a super admin, as the admin routes scope them: the demo's super admin sees the residents who wait.
  const cityGroupIds = now.superAdmin ? await allCityGroupIds(app.db) : [...now.cityGroupIds];
  return { ...agent, name: now.name, permissions: [...now.permissions], cityGroupIds };
}

/** The agent of a request that went through requireConsoleAgent. */
export function agentOf(request: FastifyRequest): ConsoleAgent {
  if (!request.consoleAgent) throw errors.consoleMissingToken();
  return request.consoleAgent;
}
