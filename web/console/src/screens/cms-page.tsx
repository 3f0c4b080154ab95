// One page of a site, in the content editor (content/content-editor.tsx): a post's fields, plus its address (slug,
// derived from the title for a new page) and its SEO texts; public from its publishedAt.
import { get } from '../api.ts';
import { ContentEditor, type ContentForm, type ContentKind } from '../content/content-editor.tsx';
import { publishedAtOf } from '../content/publication.tsx';
import { publicationLabel, publicationOf, toLocalInput, type CmsPage, type Site } from '../content/types.ts';
import { TextArea, TextField } from '../form-fields.tsx';
import type { ScreenProps } from '../screens.ts';
import { Breadcrumbs, useResource } from '../ui.tsx';

interface Form extends ContentForm {
  slug: string;
  seoTitle: string;
  seoDescription: string;
}

/** « Collecte des encombrants » → « collecte-des-encombrants ». */
const slugify = (title: string) =>
  title
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 200);

const orNull = (s: string) => (s.trim() === '' ? null : s.trim());

const PAGE: ContentKind<CmsPage, Form> = {
  entity: 'page',
  words: { the: 'la page', one: 'Page', new: 'Nouvelle page', saved: 'Page enregistrée' },
  labels: {
    title: 'Titre',
    slug: 'Adresse (slug)',
    content: 'Contenu',
    seoTitle: 'Titre pour les moteurs de recherche',
    seoDescription: 'Description pour les moteurs de recherche',
    mode: 'Publication',
    at: 'Date de publication programmée',
    since: 'Publiée depuis',
  },
  empty: { title: '', slug: '', content: '', seoTitle: '', seoDescription: '', mode: 'draft', at: '', since: null },
  toForm: (p) => {
    const mode = publicationOf(p.publishedAt);
    return {
      title: p.title,
      slug: p.slug,
      content: p.content,
      seoTitle: p.seoTitle ?? '',
      seoDescription: p.seoDescription ?? '',
      mode,
      at: mode === 'scheduled' ? toLocalInput(p.publishedAt) : '',
      since: mode === 'published' ? p.publishedAt : null,
    };
  },
  toBody: (f) => ({
    title: f.title.trim(),
    slug: f.slug.trim(),
    content: f.content,
    seoTitle: orNull(f.seoTitle),
    seoDescription: orNull(f.seoDescription),
    // A page is public from its publishedAt: publishing now is this moment.
    publishedAt: f.mode === 'published' ? (publishedAtOf(f) ?? new Date().toISOString()) : publishedAtOf(f),
  }),
  itemUrl: (id) => `/admin/pages/${id}`,
  href: (p) => `/console/pages/${p.id}`,
  wasPublished: (p) => p.publishedAt !== null,
  state: (p) => publicationLabel(p.publishedAt),
  // A new page's address follows its title until the agent writes one of their own.
  onTitle: (title, f, creating) => (creating && (f.slug === '' || f.slug === slugify(f.title)) ? { slug: slugify(title) } : {}),
  afterTitle: (f, set, error) => (
    <TextField
      label={PAGE.labels.slug}
      value={f.slug}
      required
      maxLength={200}
      hint="La fin de l’adresse de la page, unique dans le site (lettres, chiffres et tirets)."
      error={error('slug')}
      onInput={(slug) => set({ slug })}
    />
  ),
  afterContent: (f, set) => (
    <details class="seo">
      <summary>Référencement</summary>
      <TextField label={PAGE.labels.seoTitle} value={f.seoTitle} maxLength={300} onInput={(seoTitle) => set({ seoTitle })} />
      <TextArea label={PAGE.labels.seoDescription} value={f.seoDescription} onInput={(seoDescription) => set({ seoDescription })} />
    </details>
  ),
};

function SiteCrumbs({ siteId }: { siteId: string | null }) {
  const site = useResource(siteId, () => get<Site>(`/admin/sites/${siteId}`));
  return (
    <Breadcrumbs
      items={[{ href: '/console/sites', label: 'Sites et pages' }, ...(site.data ? [{ href: `/console/sites/${site.data.id}`, label: site.data.name }] : [])]}
    />
  );
}

export default function CmsPageScreen({ params }: ScreenProps) {
  const siteOf = (page: CmsPage | null) => params.siteId ?? page?.siteId ?? null;
  return (
    <ContentEditor
      kind={PAGE}
      id={params.pageId ?? null}
      createUrl={`/admin/sites/${params.siteId}/pages`}
      crumbs={(page) => <SiteCrumbs siteId={siteOf(page)} />}
      back={(page) => (siteOf(page) ? `/console/sites/${siteOf(page)}` : '/console/sites')}
      afterRemove={(page) => `/console/sites/${page.siteId}`}
      mediaScope={(page) => {
        const siteId = siteOf(page);
        return siteId ? { siteId } : null;
      }}
    />
  );
}
