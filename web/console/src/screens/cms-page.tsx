// One page of a site: title, address, SEO texts, its MDX with the live preview, and when it is public.
import { useState } from 'preact/hooks';
import '../content/content.css';
import { get, messageOf, request } from '../api.ts';
import { ConflictPanel, EditorActions, RestoredNotice, useEditor } from '../editor.tsx';
import { navigate } from '../router.tsx';
import type { ScreenProps } from '../screens.ts';
import { Breadcrumbs, Problem, Status, TextArea, TextField, Title, useResource } from '../ui.tsx';
import { MdxEditor } from '../content/mdx-editor.tsx';
import { PublicationField, publicationProblem, publishedAtOf, type PublicationForm } from '../content/publication.tsx';
import { publicationLabel, publicationOf, toLocalInput, type CmsPage, type Site } from '../content/types.ts';

interface Form extends PublicationForm {
  title: string;
  slug: string;
  content: string;
  seoTitle: string;
  seoDescription: string;
}

const LABELS: Record<keyof Form, string> = {
  title: 'Titre',
  slug: 'Adresse (slug)',
  content: 'Contenu',
  seoTitle: 'Titre pour les moteurs de recherche',
  seoDescription: 'Description pour les moteurs de recherche',
  mode: 'Publication',
  at: 'Date de publication programmée',
  since: 'Publiée depuis',
};

const EMPTY: Form = { title: '', slug: '', content: '', seoTitle: '', seoDescription: '', mode: 'draft', at: '', since: null };

function toForm(p: CmsPage): Form {
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
}

const orNull = (s: string) => (s.trim() === '' ? null : s.trim());
const toBody = (f: Form) => ({
  title: f.title.trim(),
  slug: f.slug.trim(),
  content: f.content,
  seoTitle: orNull(f.seoTitle),
  seoDescription: orNull(f.seoDescription),
  // A page is public from its publishedAt: publishing now is this moment.
  publishedAt: f.mode === 'published' ? (publishedAtOf(f) ?? new Date().toISOString()) : publishedAtOf(f),
});

/** « Collecte des encombrants » → « collecte-des-encombrants ». */
const slugify = (title: string) =>
  title
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 200);

export default function CmsPageScreen({ params }: ScreenProps) {
  const id = params.pageId ?? null;
  const [record, setRecord] = useState<CmsPage | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const siteId = params.siteId ?? record?.siteId ?? null;
  const site = useResource(siteId, () => get<Site>(`/admin/sites/${siteId}`));
  const editor = useEditor<CmsPage, Form>({
    key: id ? `page:${id}` : `page:new:${siteId}`,
    url: id ? `/admin/pages/${id}` : null,
    createUrl: `/admin/sites/${siteId}/pages`,
    empty: EMPTY,
    toForm: (p) => {
      setRecord(p);
      return toForm(p);
    },
    toBody,
    onSaved: (p, created) => {
      setStatus(`Page enregistrée : ${publicationLabel(p.publishedAt).toLowerCase()}.`);
      if (created) navigate(`/console/pages/${p.id}`, { replace: true });
    },
  });
  const f = editor.form;
  const crumbs = (
    <Breadcrumbs
      items={[
        { href: '/console/sites', label: 'Sites et pages' },
        ...(site.data ? [{ href: `/console/sites/${site.data.id}`, label: site.data.name }] : []),
      ]}
    />
  );
  if (editor.loadError) {
    return (
      <section>
        {crumbs}
        <Title text="Page">Page</Title>
        <Problem error={editor.loadError} />
      </section>
    );
  }
  const publicationError = f ? publicationProblem(f) : null;

  const remove = async () => {
    if (!id || !confirm(`Supprimer la page « ${f?.title} » ?`)) return;
    try {
      const current = await request<CmsPage>('GET', `/admin/pages/${id}`);
      await request('DELETE', `/admin/pages/${id}`, { ifMatch: current.etag });
      editor.discard();
      navigate(`/console/sites/${current.data.siteId}`);
    } catch (err) {
      setProblem(messageOf(err));
    }
  };

  return (
    <section>
      {crumbs}
      <Title text={id ? `Page – ${f?.title ?? ''}` : 'Nouvelle page'}>{id ? 'Modifier la page' : 'Nouvelle page'}</Title>
      {id && record && <p class="muted">État : {publicationLabel(record.publishedAt)}</p>}
      {status && <Status>{status}</Status>}
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      {f && (
        <form
          class="card content-form"
          aria-label={id ? 'Page' : 'Nouvelle page'}
          onSubmit={(e) => {
            e.preventDefault();
            setStatus(null);
            setProblem(null);
            if (!publicationError) void editor.save();
          }}
        >
          <RestoredNotice editor={editor} />
          <ConflictPanel editor={editor} labels={LABELS} />
          <TextField
            label={LABELS.title}
            value={f.title}
            required
            maxLength={300}
            onInput={(title) => editor.set(!id && (f.slug === '' || f.slug === slugify(f.title)) ? { title, slug: slugify(title) } : { title })}
          />
          <TextField
            label={LABELS.slug}
            value={f.slug}
            required
            maxLength={200}
            hint="La fin de l’adresse de la page, unique dans le site (lettres, chiffres et tirets)."
            onInput={(slug) => editor.set({ slug })}
          />
          <MdxEditor label={LABELS.content} value={f.content} onInput={(content) => editor.set({ content })} />
          <details class="seo">
            <summary>Référencement</summary>
            <TextField label={LABELS.seoTitle} value={f.seoTitle} maxLength={300} onInput={(seoTitle) => editor.set({ seoTitle })} />
            <TextArea label={LABELS.seoDescription} value={f.seoDescription} onInput={(seoDescription) => editor.set({ seoDescription })} />
          </details>
          <PublicationField form={f} wasPublished={record?.publishedAt != null} error={publicationError} onChange={(patch) => editor.set(patch)} />
          <EditorActions editor={editor} onCancel={() => navigate(siteId ? `/console/sites/${siteId}` : '/console/sites')} />
          {id && (
            <p>
              <button type="button" class="link-button danger" onClick={() => void remove()}>
                Supprimer la page
              </button>
            </p>
          )}
        </form>
      )}
    </section>
  );
}
