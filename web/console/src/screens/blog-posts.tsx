// The blog posts of a city group: drafts, then scheduled ones, then published ones, newest first in each.
import '../content/content.css';
import { get, getAll, type Page } from '../api.ts';
import { frenchDateTime, publicationLabel, publicationOf, type BlogPost, type Publication } from '../content/types.ts';
import { SelectField } from '../form-fields.tsx';
import { setQuery } from '../location.ts';
import type { ScreenProps } from '../screens.ts';
import { Table } from '../table.tsx';
import type { CityGroup } from '../types.ts';
import { Loaded, Title, useResource } from '../ui.tsx';
import { Link } from '../../../shared/router.tsx';

const RANK: Record<Publication, number> = { draft: 0, scheduled: 1, published: 2 };

/** Drafts first (last changed first), then scheduled and published posts, newest publication first. */
function ordered(posts: BlogPost[]): BlogPost[] {
  const when = (p: BlogPost) => Date.parse(p.publishedAt ?? p.updatedAt);
  return [...posts].sort((a, b) => {
    const rank = RANK[publicationOf(a.publishedAt, a.published)] - RANK[publicationOf(b.publishedAt, b.published)];
    return rank !== 0 ? rank : when(b) - when(a);
  });
}

export default function BlogPosts({ query }: ScreenProps) {
  const groups = useResource('groups', () => get<Page<CityGroup>>('/admin/city-groups?pageSize=100').then((p) => p.data));
  const groupId = query.get('groupe') ?? groups.data?.[0]?.id ?? null;
  const posts = useResource(groupId, () => getAll<BlogPost>(`/admin/city-groups/${groupId}/blog-posts`));
  return (
    <section>
      <Title text="Actualités">Actualités</Title>
      <Loaded resource={groups} what="des collectivités">
        {(list) =>
          list.length === 0 || !groupId ? (
            <p>Votre compte n’est rattaché à aucune collectivité.</p>
          ) : (
            <>
              {list.length > 1 && (
                <SelectField
                  label="Collectivité"
                  value={groupId}
                  options={list.map((g) => ({ value: g.id, label: g.name }))}
                  onChange={(id) => setQuery('groupe', id)}
                />
              )}
              <p>
                <Link class="button" href={`/console/actualites/nouvel-article?groupe=${groupId}`}>
                  Écrire un article
                </Link>
              </p>
              <Loaded resource={posts} what="des articles">
                {(rows) => (
                  <Table
                    caption={`Articles de ${list.find((g) => g.id === groupId)?.name ?? 'la collectivité'}`}
                    rows={ordered(rows)}
                    rowKey={(p) => p.id}
                    empty="Aucun article pour cette collectivité."
                    columns={[
                      { label: 'Titre', cell: (p) => <Link href={`/console/actualites/${p.id}?groupe=${groupId}`}>{p.title}</Link> },
                      {
                        label: 'État',
                        cell: (p) => {
                          const state = publicationOf(p.publishedAt, p.published);
                          return <span class={`tag state-${state}`}>{publicationLabel(p.publishedAt, p.published)}</span>;
                        },
                      },
                      { label: 'Modifié le', cell: (p) => frenchDateTime(p.updatedAt) },
                    ]}
                  />
                )}
              </Loaded>
            </>
          )
        }
      </Loaded>
    </section>
  );
}
