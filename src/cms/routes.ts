import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorSchema } from '../kernel/schemas.ts';
import { errors } from '../kernel/errors.ts';
import {
  AppMenuParams,
  AppSchema,
  MenuSchema,
  PageIdParams,
  PageListQuery,
  PageListSchema,
  PageSchema,
  SiteListQuery,
  SiteListSchema,
  SiteMenuParams,
  SiteQuery,
  SiteSchema,
  SlugParams,
} from './schemas.ts';
import * as cms from './service.ts';
import { nextPagePublication } from './repository.ts';

const errorResponses = { 400: ErrorSchema, 404: ErrorSchema };

/** A host name or IP literal with an optional port, as a Host header may hold. */
const VALID_HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

export default async function cmsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // A scheduled page (and the menu items linking to it) appears at its time on every instance, without a write then.
  app.addPublicationSource(nextPagePublication);

  /**
   * Where the public API lives for an app: the configured public origin, else the origin the app called. That origin
   * comes from the Host header and the protocol (X-Forwarded-Host and X-Forwarded-Proto only from a trusted proxy), so
   * the answer is cached per origin: a forged Host only ever reaches the client that sent it, and an app that called
   * over HTTPS is never sent an http:// apiUrl. A Host that is not a host name is refused.
   */
  const apiUrl = (request: FastifyRequest) => {
    if (app.config.publicBaseUrl) return `${app.config.publicBaseUrl}/public`;
    if (!VALID_HOST.test(request.host)) throw errors.badHost();
    return `${request.protocol}://${request.host}/public`;
  };

  app.get(
    '/cms/sites',
    {
      schema: {
        tags: ['cms'],
        summary: 'Sites and apps, by name, in the listing envelope',
        querystring: SiteListQuery,
        response: { 200: SiteListSchema, 400: ErrorSchema },
      },
    },
    async (request) => {
      const { page, pageSize, type } = request.query;
      return cms.listSites(app.db, { page, pageSize }, type);
    },
  );

  app.get(
    '/cms/sites/:slug',
    {
      schema: {
        tags: ['cms'],
        summary: 'One site by slug',
        description: 'With `type`, a site of the other type answers 404.',
        params: SlugParams,
        querystring: SiteQuery,
        response: { 200: SiteSchema, ...errorResponses },
      },
    },
    async (request) => cms.getSite(app.db, request.params.slug, request.query.type),
  );

  app.get(
    '/cms/apps/:slug',
    {
      config: { cacheByOrigin: app.config.publicBaseUrl === null },
      schema: {
        tags: ['cms'],
        summary: 'Configuration of a mobile app (a site of type APP)',
        params: SlugParams,
        response: { 200: AppSchema, ...errorResponses },
      },
    },
    async (request) => cms.getAppConfig(app.db, request.params.slug, app.clock(), apiUrl(request)),
  );

  app.get(
    '/cms/apps/:slug/menus/by-id/:menuId',
    {
      schema: {
        tags: ['cms'],
        summary: 'One menu of an app, as a tree',
        description: 'A menu of another site or app answers 404.',
        params: AppMenuParams,
        response: { 200: MenuSchema, ...errorResponses },
      },
    },
    async (request) => cms.getAppMenu(app.db, request.params.slug, request.params.menuId, app.clock()),
  );

  app.get(
    '/cms/sites/:slug/pages',
    {
      schema: {
        tags: ['cms'],
        summary: 'Published pages of a site, newest publishedAt first, in the listing envelope',
        params: SlugParams,
        querystring: PageListQuery,
        response: { 200: PageListSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { page, pageSize } = request.query;
      return cms.listSitePages(app.db, request.params.slug, { page, pageSize }, app.clock());
    },
  );

  app.get(
    '/cms/pages/:id',
    {
      schema: {
        tags: ['cms'],
        summary: 'One published page',
        description: 'A page whose publishedAt is unset or later than now answers 404.',
        params: PageIdParams,
        response: { 200: PageSchema, ...errorResponses },
      },
    },
    async (request) => cms.getPublishedPage(app.db, request.params.id, app.clock()),
  );

  app.get(
    '/cms/sites/:slug/menus',
    {
      schema: {
        tags: ['cms'],
        summary: 'Menus of a site, by name, as trees (a bare array)',
        params: SlugParams,
        response: { 200: Type.Array(MenuSchema), ...errorResponses },
      },
    },
    async (request) => cms.listSiteMenus(app.db, request.params.slug, app.clock()),
  );

  app.get(
    '/cms/sites/:slug/menus/:location',
    {
      schema: {
        tags: ['cms'],
        summary: 'The menu of a site at a location (typically header or footer), as a tree',
        params: SiteMenuParams,
        response: { 200: MenuSchema, ...errorResponses },
      },
    },
    async (request) => cms.getSiteMenu(app.db, request.params.slug, request.params.location, app.clock()),
  );
}
