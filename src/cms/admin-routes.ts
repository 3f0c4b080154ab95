import type { FastifyInstance } from 'fastify';
import { parentPath, parents, registerAdminResource } from '../admin/resource.ts';
import { adminService } from '../admin/store.ts';
import { requireAdminAgent } from '../auth/guard.ts';
import { menuItemStore, menuStore } from './admin-menus.ts';
import { pageStore } from './admin-pages.ts';
import { siteStore } from './admin-sites.ts';
import * as s from './admin-schemas.ts';

const AUDITED = 'Recorded in the audit log; the public sites, apps, pages and menus answer the change within a second.';
const STALE = 'With `If-Match`, 412 when it changed since it was read.';
const outside = (what: string) => `${what} outside the agent’s groups answers 404, like an unknown one.`;
const siteParent = parentPath('/sites', 'siteId', 'Site id');

/**
 * The CMS admin resources (docs/api.md, the admin API), for agents holding CMS: sites under their city group, pages and
 * menus under their site, menu items under their menu, each then at its own path.
 */
export default async function cmsAdminRoutes(app: FastifyInstance) {
  requireAdminAgent(app, 'CMS');

  registerAdminResource(app, {
    path: '/sites',
    parent: parents.cityGroup,
    schemas: s.siteSchemas,
    docs: {
      list: { summary: 'A city group’s sites and apps, by name', description: `The listing envelope. ${outside('A group')}` },
      create: {
        summary: 'Create a site or app of a city group',
        description: `The slug is unique across every site (400 naming \`slug\`). ${outside('A group')} ${AUDITED}`,
      },
      get: { summary: 'One site, with its theme and its ETag', description: outside('A site of a group') },
      update: {
        summary: 'Change a site (partial)',
        description: `${STALE} \`cityGroupId\` moves it to another of the agent’s groups (404 for any other). ${AUDITED}`,
      },
      remove: {
        summary: 'Delete a site that has no pages nor menus left',
        description: `${STALE} A site that still has pages or menus answers 409: delete them first (a site is never deleted with its content). ${AUDITED}`,
      },
    },
    deleteConflict: true,
    service: adminService(siteStore),
  });

  registerAdminResource(app, {
    path: '/pages',
    parent: siteParent,
    schemas: s.pageSchemas,
    docs: {
      list: {
        summary: 'A site’s pages, unpublished and scheduled ones included, newest publishedAt first',
        description: `The listing envelope; unpublished pages last. ${outside('A site of a group')}`,
      },
      create: {
        summary: 'Write a page of a site (an unpublished draft unless `publishedAt` is given)',
        description:
          '`content` must compile as MDX (400 naming `content`, with the line and column); the slug is unique in the site. ' +
          `${outside('A site of a group')} ${AUDITED}`,
      },
      get: { summary: 'One page (unpublished too), with its ETag', description: outside('A page of a group') },
      update: {
        summary: 'Change, publish, schedule or unpublish a page (partial)',
        description:
          `${STALE} \`{"publishedAt": <now or earlier>}\` publishes, a later date schedules (the page appears at its time on every ` +
          'instance, with no other write), `null` unpublishes (hidden at once, with the menu items that link to it). ' +
          `The bundle’s rules apply (MDX, slug). ${AUDITED}`,
      },
      remove: {
        summary: 'Delete a page that no menu item links to',
        description: `${STALE} A page still linked by menu items answers 409: point them elsewhere or delete them first. ${AUDITED}`,
      },
    },
    deleteConflict: true,
    service: adminService(pageStore),
  });

  registerAdminResource(app, {
    path: '/menus',
    parent: siteParent,
    schemas: s.menuSchemas,
    docs: {
      list: { summary: 'A site’s menus by name, each with every item as a tree', description: `The listing envelope. ${outside('A site of a group')}` },
      create: {
        summary: 'Create a menu of a site',
        description: `The location is unique in the site (400 naming \`location\`). ${outside('A site of a group')} ${AUDITED}`,
      },
      get: {
        summary: 'One menu with every item as a tree, with its ETag',
        description: `Items linking to unpublished pages are shown too (citizens do not see them). ${outside('A menu of a group')}`,
      },
      update: { summary: 'Rename or move a menu within its site (partial)', description: `${STALE} ${AUDITED}` },
      remove: { summary: 'Delete a menu and its items', description: `${STALE} Its items are deleted with it. ${AUDITED}` },
    },
    service: adminService(menuStore),
  });

  registerAdminResource(app, {
    path: '/menu-items',
    parent: parentPath('/menus', 'menuId', 'Menu id', '/items'),
    schemas: s.menuItemSchemas,
    docs: {
      list: {
        summary: 'A menu’s items, flat, in the order of its tree',
        description: `Each item (by \`order\`) followed by its sub-items. ${outside('A menu of a group')}`,
      },
      create: {
        summary: 'Add an item to a menu',
        description:
          'The bundle’s rules (400 naming the field): PAGE links to a page of the menu’s site (`pageId`), EXTERNAL to an absolute URL ' +
          '(`externalUrl`), the other field null; `parentId` is an item of the same menu, never the item itself nor one of its sub-items. ' +
          `${outside('A menu of a group')} ${AUDITED}`,
      },
      get: { summary: 'One menu item, with its ETag', description: outside('An item of a group') },
      update: { summary: 'Change a menu item (partial; its menu does not change)', description: `${STALE} The same rules as on creation. ${AUDITED}` },
      remove: { summary: 'Delete a menu item and its sub-items', description: `${STALE} Its sub-items are deleted with it. ${AUDITED}` },
    },
    service: adminService(menuItemStore),
  });
}
