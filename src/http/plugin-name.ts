import type { FastifyPluginAsync } from 'fastify';

const DISPLAY_NAME = Symbol.for('fastify.display-name');

/**
 * `plugin` with the display name Fastify reads: lacking one, Fastify looks for the plugin among every loaded CommonJS
 * module, twice per plugin (a tenth of building the app, at each start and in each test's app). The routes an area
 * registers inside its scope are named where they are registered.
 */
export function withDisplayName<T extends FastifyPluginAsync<never>>(plugin: T, name = plugin.name || 'routes'): T {
  const named = plugin as T & { [DISPLAY_NAME]?: string };
  named[DISPLAY_NAME] ??= name;
  return plugin;
}
