// A published CMS page of the site the app is served for.
import { get } from '../api.ts';
import { Markdown } from '../../shared/markdown.tsx';
import type { CmsPage } from '../types.ts';
import { Loading, Problem, Title, useResource } from '../ui.tsx';

export function PageScreen({ pageId }: { pageId: string }) {
  const page = useResource(`page:${pageId}`, () => get<CmsPage>(`/public/cms/pages/${pageId}`));
  if (page.loading) return <Loading what="de la page" />;
  if (page.error != null || !page.data) return <Problem error={page.error} retry={page.reload} />;
  // The page's own "# Title" would repeat the screen title: drop a leading one that says the same.
  const source = page.data.content.replace(/^\s*#\s+(.*)\n/, (line, title: string) => (title.trim() === page.data!.title ? '' : line));
  return (
    <article>
      <Title text={page.data.title}>{page.data.title}</Title>
      <Markdown source={source} />
    </article>
  );
}
