// One blog post of a city group, in the content editor (content/content-editor.tsx): its title, its MDX with the live
// preview, and its publication (draft, now, at a date).
import { get, type Page } from '../api.ts';
import { ContentEditor, type ContentForm, type ContentKind } from '../content/content-editor.tsx';
import { publishedAtOf } from '../content/publication.tsx';
import { publicationLabel, publicationOf, toLocalInput, type BlogPost } from '../content/types.ts';
import type { ScreenProps } from '../screens.ts';
import type { CityGroup } from '../types.ts';
import { Breadcrumbs, Title, useResource } from '../ui.tsx';

const LIST = '/console/actualites';

const POST: ContentKind<BlogPost, ContentForm> = {
  entity: 'blogPost',
  words: { the: 'l’article', one: 'Article', new: 'Nouvel article', saved: 'Article enregistré' },
  labels: { title: 'Titre', content: 'Contenu', mode: 'Publication', at: 'Date de publication programmée', since: 'Publié depuis' },
  empty: { title: '', content: '', mode: 'draft', at: '', since: null },
  toForm: (p) => {
    const mode = publicationOf(p.publishedAt, p.published);
    return { title: p.title, content: p.content, mode, at: mode === 'scheduled' ? toLocalInput(p.publishedAt) : '', since: mode === 'published' ? p.publishedAt : null };
  },
  toBody: (f) => ({ title: f.title.trim(), content: f.content, published: f.mode !== 'draft', publishedAt: publishedAtOf(f) }),
  itemUrl: (id) => `/admin/blog-posts/${id}`,
  href: (p) => `${LIST}/${p.id}`,
  wasPublished: (p) => Boolean(p.published && p.publishedAt),
  state: (p) => publicationLabel(p.publishedAt, p.published),
  removeWarning: 'Il disparaîtra aussi de l’application des habitants.',
};

export default function BlogPostScreen({ params, query }: ScreenProps) {
  const id = params.postId ?? null;
  const groupId = query.get('groupe');
  const groups = useResource('groups', () => get<Page<CityGroup>>('/admin/city-groups?pageSize=100').then((p) => p.data));
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
  const groupName = groups.data?.find((g) => g.id === groupId)?.name;
  return (
    <ContentEditor
      kind={POST}
      id={id}
      createUrl={`/admin/city-groups/${groupId}/blog-posts`}
      crumbs={() => crumbs}
      intro={groupName && <p class="muted">Collectivité&nbsp;: {groupName}</p>}
      back={() => listHref}
      afterRemove={(p) => `${LIST}?groupe=${p.cityGroupId}`}
      mediaScope={(p) => {
        const group = p?.cityGroupId ?? groupId;
        return group ? { groupId: group } : null;
      }}
    />
  );
}
