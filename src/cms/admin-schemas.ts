import { Type, type Static } from 'typebox';
import { adminSchemas, NonBlank, Nullable, Timestamp, Uuid } from '../kernel/schemas.ts';
import { MenuItemSchema, MenuLinkTypeSchema, PageSchema, SiteSchema, SiteTypeSchema } from './schemas.ts';

/**
 * The admin API's CMS records (docs/api.md, the admin API): the public shapes plus what they keep to themselves (a site's
 * theme and group, a page's unpublished state, every menu item), with the import bundle's field names.
 */

const JsonObject = (description: string) => Type.Object({}, { additionalProperties: true, description });
const Text = NonBlank;

// ---------------------------------------------------------------- sites

export const siteSchemas = adminSchemas(
  Type.Object({
    ...SiteSchema.properties,
    theme: Nullable(JsonObject('Colours, fonts and logos of an app')),
    cityGroupId: Nullable(Uuid('The city group it belongs to (null: none, super admins only)')),
  }),
  {
    name: Text(200),
    slug: Text(200, 'Unique across every site'),
    type: SiteTypeSchema,
    domain: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 253 }))),
    settings: Type.Optional(JsonObject('Free-form settings; {} when absent')),
    theme: Type.Optional(Nullable(JsonObject('Matters for an APP only'))),
  },
  { id: 'Site id', patchOnly: { cityGroupId: Uuid('Moves the site to another of the agent’s groups') } },
);
export type AdminSite = Static<typeof siteSchemas.item>;
export type CreateSiteInput = Static<typeof siteSchemas.create>;
export type SitePatch = Static<typeof siteSchemas.patch>;

// ---------------------------------------------------------------- pages

export const pageSchemas = adminSchemas(
  Type.Object(
    { ...PageSchema.properties, publishedAt: Nullable(Timestamp('null: an unpublished draft; later than now: scheduled')) },
    { description: 'A page as agents see it, unpublished or scheduled too' },
  ),
  {
    title: Text(300),
    slug: Text(200, 'Unique within the site'),
    content: Type.Optional(Type.String({ description: 'MDX; must compile (400 with the line and column otherwise); \'\' when absent' })),
    seoTitle: Type.Optional(Nullable(Type.String({ maxLength: 300 }))),
    seoDescription: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
    publishedAt: Type.Optional(Nullable(Timestamp('When the page becomes public; null (the default): an unpublished draft'))),
  },
  { id: 'Page id' },
);
export type AdminPage = Static<typeof pageSchemas.item>;
export type CreatePageInput = Static<typeof pageSchemas.create>;
export type PagePatch = Static<typeof pageSchemas.patch>;

// ---------------------------------------------------------------- menus and their items

export const menuSchemas = adminSchemas(
  Type.Object({
    id: Uuid(),
    siteId: Uuid(),
    name: Type.String(),
    location: Type.String({ examples: ['header', 'footer'] }),
    items: Type.Array(MenuItemSchema, { description: 'Every item as a tree, by `order`, those linking to unpublished pages too' }),
  }),
  { name: Text(200), location: Text(200, 'Unique within the site, typically header or footer') },
  { id: 'Menu id' },
);
export type AdminMenu = Static<typeof menuSchemas.item>;
export type CreateMenuInput = Static<typeof menuSchemas.create>;
export type MenuPatch = Static<typeof menuSchemas.patch>;

const AdminMenuItemSchema = Type.Object({
  id: Uuid(),
  menuId: Uuid(),
  parentId: Nullable(Uuid('The item it sits under, of the same menu; null at the top')),
  label: Type.String(),
  linkType: MenuLinkTypeSchema,
  pageId: Nullable(Uuid('A page of the menu’s site; required for PAGE, null otherwise')),
  externalUrl: Nullable(Type.String({ description: 'An absolute http, https, mailto or tel URL; required for EXTERNAL, null otherwise' })),
  order: Type.Integer({ description: 'Position among its siblings' }),
});

const itemFields = {
  label: Text(200),
  linkType: MenuLinkTypeSchema,
  pageId: Type.Optional(Nullable(Uuid('A page of the menu’s site; required for PAGE'))),
  externalUrl: Type.Optional(
    Nullable(
      Type.String({
        maxLength: 2000,
        description:
          'An absolute URL; required for EXTERNAL. Only `http:`, `https:`, `mailto:` and `tel:`, the scheme read as a browser ' +
          'reads it (case, spaces, tabs and control characters do not hide `javascript:`): any other scheme answers 400, ' +
          'code `validation`, field `externalUrl`',
      }),
    ),
  ),
  order: Type.Optional(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000, description: '0 when absent' })),
  parentId: Type.Optional(Nullable(Uuid('An item of the same menu; not the item itself nor one of its sub-items'))),
};
export const menuItemSchemas = adminSchemas(AdminMenuItemSchema, itemFields, { id: 'Menu item id' });
export type AdminMenuItem = Static<typeof menuItemSchemas.item>;
export type CreateMenuItemInput = Static<typeof menuItemSchemas.create>;
export type MenuItemPatch = Static<typeof menuItemSchemas.patch>;
