import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Config } from './config.ts';
import { withRedactedRequests } from './logger.ts';
import type { Database } from './db/database.ts';
import type { Kysely } from 'kysely';
import type { DB } from './db/types.ts';
import { frameworkErrors } from './http/error-handler.ts';
import { trustProxyOption } from './http/client-address.ts';
import edge from './http/edge.ts';
import { forAudience, type Audience } from './http/audience.ts';
import { registerOpenApi } from './http/openapi.ts';
import { deriveOperationIds } from './http/operation-ids.ts';
import { lazySerializers, lazyValidator } from './http/lazy-compilers.ts';
import { withUnknownFieldsDropped } from './http/unknown-fields.ts';
import healthRoutes from './health/routes.ts';
import cityRoutes from './cities/routes.ts';
import calendarRoutes from './calendar/routes.ts';
import calendarExportRoutes from './calendar/export-routes.ts';
import recyclingRoutes from './recycling/routes.ts';
import guideRoutes from './guide/routes.ts';
import challengeRoutes from './challenges/routes.ts';
import blogRoutes from './blog/routes.ts';
import cmsRoutes from './cms/routes.ts';
import mediaRoutes from './media/routes.ts';
import chatRoutes from './chat/routes.ts';
import reminderRoutes from './reminders/routes.ts';
import noticeRoutes from './notices/routes.ts';
import { faqAdminRoutes, faqRoutes } from './faq/routes.ts';
import requestRoutes from './requests/routes.ts';
import consoleRoutes from './console/routes.ts';
import authRoutes from './auth/routes.ts';
import authAdminRoutes from './auth/admin-routes.ts';
import bundleAdminRoutes from './bundle/admin-routes.ts';
import calendarAdminRoutes from './calendar/admin-routes.ts';
import cityAdminRoutes from './cities/admin-routes.ts';
import blogAdminRoutes from './blog/admin-routes.ts';
import contentCheckRoutes from './cms/content-check-routes.ts';
import cmsAdminRoutes from './cms/admin-routes.ts';
import mediaAdminRoutes from './media/admin-routes.ts';
import recyclingAdminRoutes from './recycling/admin-routes.ts';
import guideAdminRoutes from './guide/admin-routes.ts';
import challengeAdminRoutes from './challenges/admin-routes.ts';
import consoleAdminRoutes from './console/admin-routes.ts';
import noticeAdminRoutes from './notices/admin-routes.ts';
import requestAdminRoutes from './requests/admin-routes.ts';
import open311Routes from './open311/routes.ts';
import open311AdminRoutes from './open311/admin-routes.ts';
import webRoutes from './web/routes.ts';

/** Returns the current time; injected so that time-dependent rules are tested without sleeping. */
export type Clock = () => Date;

export interface AppOptions {
  config: Config;
  database: Database;
  clock?: Clock;
  /** The process's pino logger; tests build the app without one. */
  logger?: FastifyBaseLogger;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Kysely<DB>;
    database: Database;
    clock: Clock;
  }
}

/**
 * Every area's routes, where they are mounted and whom they answer (src/http/audience.ts: the edge's headers, rate
 * limit and caching follow the audience, not the URL): the citizens' API under /public, the agents' under /chat and
 * /auth, the back office under /admin; health at the root, and the web app last (it answers the paths nobody else
 * does; its catch-all route declares its own audience).
 */
const ROUTES: [FastifyPluginAsync, string, Audience][] = [
  [healthRoutes, '', 'operations'],
  [cityRoutes, '/public', 'public'],
  [calendarRoutes, '/public', 'public'],
  [calendarExportRoutes, '/public', 'public'],
  [recyclingRoutes, '/public', 'public'],
  [guideRoutes, '/public', 'public'],
  [challengeRoutes, '/public', 'public'],
  [blogRoutes, '/public', 'public'],
  [cmsRoutes, '/public', 'public'],
  [mediaRoutes, '/public', 'public'],
  [chatRoutes, '/public', 'public'],
  [reminderRoutes, '/public', 'public'],
  [noticeRoutes, '/public', 'public'],
  [faqRoutes, '/public', 'public'],
  [requestRoutes, '/public', 'public'],
  // Open311 GeoReport v2 for the city groups' partners (docs/api.md, Open311): public data, with the public API's edge.
  [open311Routes, '', 'public'],
  [consoleRoutes, '/chat', 'agent'],
  [authRoutes, '/auth', 'agent'],
  [authAdminRoutes, '/admin', 'admin'],
  [cityAdminRoutes, '/admin', 'admin'],
  [calendarAdminRoutes, '/admin', 'admin'],
  [blogAdminRoutes, '/admin', 'admin'],
  [cmsAdminRoutes, '/admin', 'admin'],
  [contentCheckRoutes, '/admin', 'admin'],
  [bundleAdminRoutes, '/admin', 'admin'],
  [mediaAdminRoutes, '/admin', 'admin'],
  [recyclingAdminRoutes, '/admin', 'admin'],
  [guideAdminRoutes, '/admin', 'admin'],
  [challengeAdminRoutes, '/admin', 'admin'],
  [consoleAdminRoutes, '/admin', 'admin'],
  [noticeAdminRoutes, '/admin', 'admin'],
  [faqAdminRoutes, '/admin', 'admin'],
  [requestAdminRoutes, '/admin', 'admin'],
  [open311AdminRoutes, '/admin', 'admin'],
  [webRoutes, '', 'web'],
];

/** Largest request body accepted (contract: 413 beyond 100 KiB). */
const BODY_LIMIT = 100 * 1024;

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerceTypes: boolean | 'array', removeAdditional: boolean): Ajv {
  const ajv = new Ajv({ coerceTypes, useDefaults: true, removeAdditional, allErrors: false, strict: false });
  addFormats(ajv);
  return ajv;
}

/**
 * The process's two validator compilers, made on the first build: query strings and paths arrive as text and are
 * coerced ("2" -> 2); JSON bodies are not (a string "50" where a number is expected is a client error), and a
 * body's unknown fields are dropped before any handler sees it (src/http/unknown-fields.ts). Ajv keeps what it
 * compiled by schema object, and the routes' schemas are the modules' own constants: an app built again in the same
 * process (the tests build about a thousand) reuses each validator instead of generating its code again.
 */
let validatorCompilers: { body: Ajv; text: Ajv } | undefined;

/**
 * Builds the application as a Fastify instance without listening. The caller owns the database:
 * it is not closed with the app.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    // Request URLs are logged with their bearer secrets (device and conversation ids) redacted.
    ...(options.logger ? { loggerInstance: withRedactedRequests(options.logger) } : { logger: false }),
    bodyLimit: BODY_LIMIT,
    trustProxy: trustProxyOption(config.trustProxy),
    // A slow client cannot hold a connection: headers within HEADERS_TIMEOUT_MS, the whole request within
    // REQUEST_TIMEOUT_MS (Node answers 408 and closes), and a socket with no traffic closes after 60 s.
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: 60_000,
    // Longer than the idle timeout of common load balancers (60 s), so that they close idle connections first.
    keepAliveTimeout: 72_000,
    http: {
      headersTimeout: config.headersTimeoutMs,
      // Node enforces both timeouts on this beat (30 s by default, which would let a slow client hold on far longer).
      connectionsCheckingInterval: Math.min(1000, Math.max(25, Math.floor(config.headersTimeoutMs / 4))),
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // URLs the router cannot decode, or too long a path parameter: the contract's error body, in French.
    frameworkErrors,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const ajv = (validatorCompilers ??= { body: makeAjv(false, true), text: makeAjv('array', false) });
  app.setValidatorCompiler(({ schema, httpPart }) =>
    lazyValidator(() => (httpPart === 'body' ? ajv.body.compile(withUnknownFieldsDropped(schema)) : ajv.text.compile(schema))),
  );

  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate('clock', options.clock ?? (() => new Date()));

  // Everything between the network and the routes, in the order written down in src/http/edge.ts.
  await app.register(edge);
  await registerOpenApi(app);
  deriveOperationIds(app);

  for (const [routes, prefix, audience] of ROUTES) await app.register(forAudience(audience, routes), { prefix });

  return app;
}
