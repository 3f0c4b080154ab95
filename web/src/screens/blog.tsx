// The city group's blog posts, rendered from their MDX.
import { get } from '../api.ts';
import { Markdown } from '../../shared/markdown.tsx';
import { Link } from '../../shared/router.tsx';
import { currentCityId } from '../store.ts';
import { shortDate } from '../text.ts';
import type { BlogPost, City } from '../types.ts';
import { Loading, OfflineNotice, Problem, Title, useResource } from '../ui.tsx';

/** One line of text from the start of a post, without its Markdown. */
function excerpt(content: string): string {
  const line = content
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l && !/^(#|:::|!\[|[-*]\s|\d+\.|import |export |<)/.test(l));
  const text = (line ?? '').replace(/[*_`]/g, '').replace(/\[([^\]]+)\]\([^)]*\)/g, '$1');
  return cutOnWord(text, 160);
}

/** At most `max` characters, cut after a whole word (no dangling punctuation) and ended with an ellipsis. */
export function cutOnWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const space = head.search(/\s\S*$/);
  return `${(space > 0 ? head.slice(0, space) : head).replace(/[\s,;:.!?'’(«–-]+$/u, '')}…`;
}

async function loadPosts() {
  const cityId = currentCityId();
  const city = cityId ? await get<City>(`/public/cities/${cityId}`) : null;
  const group = city?.cityGroup?.id;
  return get<BlogPost[]>(group ? `/public/blog-posts?cityGroupId=${group}` : '/public/blog-posts');
}

export function BlogList() {
  const posts = useResource('posts', loadPosts);
  return (
    <section>
      <Title text="Actualités">Actualités</Title>
      <OfflineNotice what="voici les actualités lues lors de votre dernière visite." />
      {posts.loading ? (
        <Loading what="des actualités" />
      ) : posts.error != null || !posts.data ? (
        <Problem error={posts.error} retry={posts.reload} />
      ) : posts.data.length === 0 ? (
        <p>Aucune actualité pour le moment.</p>
      ) : (
        <ul class="posts">
          {posts.data.map((p) => (
            <li key={p.id} class="card">
              <h2>
                <Link href={`/actualites/${p.id}`}>{p.title}</Link>
              </h2>
              <p class="muted">
                {p.cityGroup.name}
                {p.publishedAt && ` · ${shortDate(p.publishedAt)}`}
              </p>
              <p>{excerpt(p.content)}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function BlogPostScreen({ postId }: { postId: string }) {
  const post = useResource(`post:${postId}`, () => get<BlogPost>(`/public/blog-posts/${postId}`));
  if (post.loading) return <Loading what="de l'article" />;
  if (post.error != null || !post.data) return <Problem error={post.error} retry={post.reload} />;
  return (
    <article>
      <Title text={post.data.title}>{post.data.title}</Title>
      <p class="muted">
        {post.data.cityGroup.name}
        {post.data.publishedAt && ` · publié le ${shortDate(post.data.publishedAt)}`}
      </p>
      <Markdown source={post.data.content} />
      <p>
        <Link href="/actualites">Toutes les actualités</Link>
      </p>
    </article>
  );
}
