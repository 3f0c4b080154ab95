// Shapes of the admin API's content records as the content screens read them (docs/api.md, the admin API), named from the
// types generated from GET /openapi.json (web/shared/api-types.gen.ts); and how the screens show their publication.
import type { paths } from '../../../shared/api-types.gen.ts';
import type { GetJson, JsonAnswer } from '../../../shared/types.ts';

export type BlogPost = GetJson<'/admin/blog-posts/{id}'>;
export type Site = GetJson<'/admin/sites/{id}'>;
export type CmsPage = GetJson<'/admin/pages/{id}'>;
export type Menu = GetJson<'/admin/menus/{id}'>;
export type MenuItem = GetJson<'/admin/menu-items/{id}'>;
export type LinkType = MenuItem['linkType'];
export type Media = GetJson<'/admin/media/{id}'>;
/** Whether an MDX text compiles, and where it does not (POST /admin/content/check). */
export type ContentCheck = JsonAnswer<paths['/admin/content/check']['post']>;

/** Where a post or page stands: a draft, public since a date, or public from a later date. */
export type Publication = 'draft' | 'published' | 'scheduled';

export function publicationOf(publishedAt: string | null, published = publishedAt !== null, now = Date.now()): Publication {
  if (!published) return 'draft';
  return publishedAt && Date.parse(publishedAt) > now ? 'scheduled' : 'published';
}

const MONTH_YEAR = new Intl.DateTimeFormat('fr-FR', { month: 'long', year: 'numeric' });

/** « 1er décembre 2026 à 9 h 05 » in the agent's time zone, as the French typography wants it. */
export function frenchDateTime(iso: string): string {
  const d = new Date(iso);
  const day = d.getDate() === 1 ? '1er' : String(d.getDate());
  const minutes = d.getMinutes() === 0 ? '' : ` ${String(d.getMinutes()).padStart(2, '0')}`;
  return `${day} ${MONTH_YEAR.format(d)} à ${d.getHours()}\u00a0h${minutes.replace(' ', '\u00a0')}`;
}

/** An ISO instant as `<input type="datetime-local">` shows it, in the browser's time zone. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The value of `<input type="datetime-local">` as an ISO instant, or null when empty or malformed. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

export function publicationLabel(publishedAt: string | null, published = publishedAt !== null): string {
  const state = publicationOf(publishedAt, published);
  if (state === 'draft') return 'Brouillon';
  if (state === 'scheduled') return `Programmé pour le ${frenchDateTime(publishedAt!)}`;
  return publishedAt ? `Publié le ${frenchDateTime(publishedAt)}` : 'Publié';
}
