import { Type, type Static } from 'typebox';
import { NonBlank, Nullable, Timestamp, Uuid, writeBodies } from '../kernel/schemas.ts';
import { Envelope } from '../kernel/pagination.ts';
import { MenuItemSchema, MenuLinkTypeSchema, PageSchema, SiteSchema, SiteTypeSchema } from './schemas.ts';

/**
 * The admin API's CMS records (CONTRACT section 13): the public shapes plus what they keep to themselves (a site's
 * theme and group, a page's unpublished state, every menu item), with the import bundle's field names.
 */

const JsonObject = (description: string) => Type.Object({}, { additionalProperties: true, description });
const Text = NonBlank;

// ---------------------------------------------------------------- sites

export const AdminSiteSchema = Type.Object({
  ...SiteSchema.properties,
  theme: Nullable(JsonObject('Colours, fonts and logos of an app')),
  cityGroupId: Nullable(Uuid('The city group it belongs to (null: none, super admins only)')),
});
export type AdminSite = Static<typeof AdminSiteSchema>;

const siteFields = {
  name: Text(200),
  slug: Text(200, 'Unique across every site'),
  type: SiteTypeSchema,
  domain: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 253 }))),
  settings: Type.Optional(JsonObject('Free-form settings; {} when absent')),
  theme: Type.Optional(Nullable(JsonObject('Matters for an APP only'))),
};
export const CreateSiteBody = Type.Object(siteFields);
export const PatchSiteBody = Type.Partial(Type.Object({ ...siteFields, cityGroupId: Uuid('Moves the site to another of the agent’s groups') }));
export type CreateSiteInput = Static<typeof CreateSiteBody>;
export type SitePatch = Static<typeof PatchSiteBody>;

// ---------------------------------------------------------------- pages

export const AdminPageSchema = Type.Object(
  { ...PageSchema.properties, publishedAt: Nullable(Timestamp('null: an unpublished draft; later than now: scheduled')) },
  { description: 'A page as agents see it, unpublished or scheduled too' },
);
export type AdminPage = Static<typeof AdminPageSchema>;

const pageFields = {
  title: Text(300),
  slug: Text(200, 'Unique within the site'),
  content: Type.Optional(Type.String({ description: 'MDX; must compile (400 with the line and column otherwise); \'\' when absent' })),
  seoTitle: Type.Optional(Nullable(Type.String({ maxLength: 300 }))),
  seoDescription: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  publishedAt: Type.Optional(Nullable(Timestamp('When the page becomes public; null (the default): an unpublished draft'))),
};
export const { create: CreatePageBody, patch: PatchPageBody } = writeBodies(pageFields);
export type CreatePageInput = Static<typeof CreatePageBody>;
export type PagePatch = Static<typeof PatchPageBody>;

// ---------------------------------------------------------------- menus and their items

export const AdminMenuSchema = Type.Object({
  id: Uuid(),
  siteId: Uuid(),
  name: Type.String(),
  location: Type.String({ examples: ['header', 'footer'] }),
  items: Type.Array(MenuItemSchema, { description: 'Every item as a tree, by `order`, those linking to unpublished pages too' }),
});
export type AdminMenu = Static<typeof AdminMenuSchema>;

const menuFields = { name: Text(200), location: Text(200, 'Unique within the site, typically header or footer') };
export const { create: CreateMenuBody, patch: PatchMenuBody } = writeBodies(menuFields);
export type CreateMenuInput = Static<typeof CreateMenuBody>;
export type MenuPatch = Static<typeof PatchMenuBody>;

export const AdminMenuItemSchema = Type.Object({
  id: Uuid(),
  menuId: Uuid(),
  parentId: Nullable(Uuid('The item it sits under, of the same menu; null at the top')),
  label: Type.String(),
  linkType: MenuLinkTypeSchema,
  pageId: Nullable(Uuid('A page of the menu’s site; required for PAGE, null otherwise')),
  externalUrl: Nullable(Type.String({ description: 'An absolute http, https, mailto or tel URL; required for EXTERNAL, null otherwise' })),
  order: Type.Integer({ description: 'Position among its siblings' }),
});
export type AdminMenuItem = Static<typeof AdminMenuItemSchema>;

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
export const { create: CreateMenuItemBody, patch: PatchMenuItemBody } = writeBodies(itemFields);
export type CreateMenuItemInput = Static<typeof CreateMenuItemBody>;
export type MenuItemPatch = Static<typeof PatchMenuItemBody>;

// ---------------------------------------------------------------- lists and paths

export const AdminSiteListSchema = Envelope(AdminSiteSchema);
export const AdminPageListSchema = Envelope(AdminPageSchema);
export const AdminMenuListSchema = Envelope(AdminMenuSchema);
export const AdminMenuItemListSchema = Envelope(AdminMenuItemSchema);

export const IdParams = (description: string) => Type.Object({ id: Uuid(description) });
export const CityGroupSitesParams = Type.Object({ cityGroupId: Uuid('City group id') });
export const SiteChildrenParams = Type.Object({ siteId: Uuid('Site id') });
export const MenuItemsParams = Type.Object({ menuId: Uuid('Menu id') });
