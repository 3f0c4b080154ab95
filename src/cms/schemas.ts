import { Type, type Static } from 'typebox';
import { Nullable, Timestamp, Uuid } from '../kernel/schemas.ts';
import { CityGroupRefSchema } from '../kernel/schemas.ts';
import { Envelope, PaginationQuery } from '../kernel/pagination.ts';

export const SiteTypeSchema = Type.Enum(['SITE', 'APP'], { description: 'SITE (a website) or APP (a mobile app)' });
export type SiteType = Static<typeof SiteTypeSchema>;

const JsonObject = (description: string) => Type.Object({}, { additionalProperties: true, description });

export const SiteSchema = Type.Object({
  id: Uuid(),
  name: Type.String(),
  slug: Type.String({ examples: ['grand-lac'] }),
  type: SiteTypeSchema,
  domain: Nullable(Type.String()),
  settings: JsonObject('Free-form settings of the site (an object, `{}` when none)'),
  cityGroup: Nullable(CityGroupRefSchema),
  createdAt: Timestamp(),
  updatedAt: Timestamp(),
});
export type Site = Static<typeof SiteSchema>;

const pageFields = {
  id: Uuid(),
  siteId: Uuid(),
  title: Type.String(),
  slug: Type.String(),
  seoTitle: Nullable(Type.String()),
  seoDescription: Nullable(Type.String()),
  publishedAt: Timestamp('Never later than now: unpublished pages are not served'),
  createdAt: Timestamp(),
  updatedAt: Timestamp(),
};

export const PageSchema = Type.Object({ ...pageFields, content: Type.String({ description: 'MDX, as stored' }) });
export type Page = Static<typeof PageSchema>;

export const PageSummarySchema = Type.Object(pageFields, { description: 'A published page without its content' });
export type PageSummary = Static<typeof PageSummarySchema>;

export const MenuLinkTypeSchema = Type.Enum(['PAGE', 'EXTERNAL', 'NONE']);

export const MenuItemSchema = Type.Cyclic(
  {
    MenuItem: Type.Object(
      {
        id: Uuid(),
        label: Type.String(),
        linkType: MenuLinkTypeSchema,
        pageId: Nullable(Uuid()),
        externalUrl: Nullable(Type.String()),
        children: Type.Array(Type.Ref('MenuItem'), { description: 'Sub-items, ordered by `order`' }),
      },
      { description: 'An item linking to a page that is not published is left out, with its children' },
    ),
  },
  'MenuItem',
);

export interface MenuItem {
  id: string;
  label: string;
  linkType: 'PAGE' | 'EXTERNAL' | 'NONE';
  pageId: string | null;
  externalUrl: string | null;
  children: MenuItem[];
}

export const MenuSchema = Type.Object({
  id: Uuid(),
  name: Type.String(),
  location: Type.String({ examples: ['header', 'footer'] }),
  items: Type.Array(MenuItemSchema, { description: 'Top-level items, ordered by `order`' }),
});
export interface Menu {
  id: string;
  name: string;
  location: string;
  items: MenuItem[];
}

export const AppSchema = Type.Object({
  id: Uuid(),
  name: Type.String(),
  slug: Type.String(),
  theme: Nullable(JsonObject('Colours, fonts and logos of the app, as imported')),
  pages: Type.Array(PageSummarySchema, { description: 'Published pages, newest publishedAt first, without content' }),
  apiUrl: Type.String({ description: 'PUBLIC_BASE_URL (or the request’s own origin) + /public', examples: ['https://collecte.example.fr/public'] }),
  menus: Type.Array(MenuSchema, { description: 'Menus of the app, ordered by name' }),
});
export type App = Static<typeof AppSchema>;

export const SiteListQuery = Type.Object({ ...PaginationQuery, type: Type.Optional(SiteTypeSchema) });
export const PageListQuery = Type.Object(PaginationQuery);
export const SiteQuery = Type.Object({ type: Type.Optional(SiteTypeSchema) });

const Slug = Type.String({ minLength: 1, maxLength: 200 });
export const SlugParams = Type.Object({ slug: Slug });
export const SiteMenuParams = Type.Object({ slug: Slug, location: Type.String({ minLength: 1, maxLength: 200 }) });
export const AppMenuParams = Type.Object({ slug: Slug, menuId: Uuid() });
export const PageIdParams = Type.Object({ id: Uuid() });

export const SiteListSchema = Envelope(SiteSchema);
export const PageListSchema = Envelope(PageSchema);
