// One blog post of a city group: its title, its MDX with the live preview, and its publication (draft, now, at a date).
import { useState } from 'preact/hooks';
import '../content/content.css';
import { get, messageOf, request, type Page } from '../api.ts';
import { ConflictPanel, EditorActions, RestoredNotice, useEditor } from '../editor.tsx';
import { navigate } from '../router.tsx';
import type { ScreenProps } from '../screens.ts';
import type { CityGroup } from '../types.ts';
import { Breadcrumbs, Problem, Status, TextField, Title, useResource } from '../ui.tsx';
import { MdxEditor } from '../content/mdx-editor.tsx';
import { PublicationField, publicationProblem, publishedAtOf, type PublicationForm } from '../content/publication.tsx';
import { publicationLabel, publicationOf, toLocalInput, type BlogPost } from '../content/types.ts';

interface Form extends PublicationForm {
  title: string;
  content: string;
}

const LABELS: Record<keyof Form, string> = {
  title: 'Titre',
  content: 'Contenu',
  mode: 'Publication',
  at: 'Date de publication programmée',
  since: 'Publié depuis',
};

const EMPTY: Form = { title: '', content: '', mode: 'draft', at: '', since: null };

function toForm(p: BlogPost): Form {
  const mode = publicationOf(p.publishedAt, p.published);
  return {
    title: p.title,
    content: p.content,
    mode,
    at: mode === 'scheduled' ? toLocalInput(p.publishedAt) : '',
    since: mode === 'published' ? p.publishedAt : null,
  };
}

const toBody = (f: Form) => ({ title: f.title.trim(), content: f.content, published: f.mode !== 'draft', publishedAt: publishedAtOf(f) });

const LIST = '/console/actualites';

export default function BlogPostScreen({ params, query }: ScreenProps) {
  const id = params.postId ?? null;
  const groupId = query.get('groupe');
  const [status, setStatus] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [record, setRecord] = useState<BlogPost | null>(null);
  const groups = useResource('groups', () => get<Page<CityGroup>>('/admin/city-groups?pageSize=100').then((p) => p.data));
  const editor = useEditor<BlogPost, Form>({
    key: id ? `blogPost:${id}` : `blogPost:new:${groupId}`,
    url: id ? `/admin/blog-posts/${id}` : null,
    createUrl: `/admin/city-groups/${groupId}/blog-posts`,
    empty: EMPTY,
    toForm: (p) => {
      setRecord(p);
      return toForm(p);
    },
    toBody,
    onSaved: (p, created) => {
      setStatus(`Article enregistré : ${publicationLabel(p.publishedAt, p.published).toLowerCase()}.`);
      if (created) navigate(`${LIST}/${p.id}`, { replace: true });
    },
  });
  const f = editor.form;
  const listHref = `${LIST}${groupId ? `?groupe=${groupId}` : ''}`;
  const crumbs = <Breadcrumbs items={[{ href: listHref, label: 'Actualités' }]} />;
  if (!id && !groupId) {
    return (
      <section>
        {crumbs}
        <Title text="Nouvel article">Nouvel article</Title>
        <p>Choisissez d’abord la collectivité de l’article depuis la liste des actualités.</p>
      </section>
    );
  }
  if (editor.loadError) {
    return (
      <section>
        {crumbs}
        <Title text="Article">Article</Title>
        <Problem error={editor.loadError} />
      </section>
    );
  }
  const publicationError = f ? publicationProblem(f) : null;
  const groupName = groups.data?.find((g) => g.id === groupId)?.name;

  const remove = async () => {
    if (!id || !confirm(`Supprimer l’article « ${f?.title} » ? Il disparaîtra aussi de l’application des habitants.`)) return;
    try {
      const current = await request<BlogPost>('GET', `/admin/blog-posts/${id}`);
      await request('DELETE', `/admin/blog-posts/${id}`, { ifMatch: current.etag });
      editor.discard();
      navigate(`${LIST}?groupe=${current.data.cityGroupId}`);
    } catch (err) {
      setProblem(messageOf(err));
    }
  };

  return (
    <section>
      {crumbs}
      <Title text={id ? `Article – ${f?.title ?? ''}` : 'Nouvel article'}>{id ? 'Modifier l’article' : 'Nouvel article'}</Title>
      {!id && groupName && <p class="muted">Collectivité : {groupName}</p>}
      {id && record && <p class="muted">État : {publicationLabel(record.publishedAt, record.published)}</p>}
      {status && <Status>{status}</Status>}
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      {!f ? null : (
        <form
          class="card content-form"
          aria-label={id ? 'Article' : 'Nouvel article'}
          onSubmit={(e) => {
            e.preventDefault();
            setStatus(null);
            setProblem(null);
            if (!publicationError) void editor.save();
          }}
        >
          <RestoredNotice editor={editor} />
          <ConflictPanel editor={editor} labels={LABELS} />
          <TextField label={LABELS.title} value={f.title} required maxLength={300} onInput={(title) => editor.set({ title })} />
          <MdxEditor label={LABELS.content} value={f.content} onInput={(content) => editor.set({ content })} />
          <PublicationField form={f} wasPublished={Boolean(record?.published && record.publishedAt)} error={publicationError} onChange={(patch) => editor.set(patch)} />
          <EditorActions editor={editor} onCancel={() => navigate(listHref)} />
          {id && (
            <p>
              <button type="button" class="link-button danger" onClick={() => void remove()}>
                Supprimer l’article
              </button>
            </p>
          )}
        </form>
      )}
    </section>
  );
}
