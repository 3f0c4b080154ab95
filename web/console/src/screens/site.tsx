// One site or app: its pages (drafts, scheduled and published) and its menus.
import '../content/content.css';
import { get, getAll } from '../api.ts';
import { publicationLabel, publicationOf, type CmsPage, type Menu, type Site } from '../content/types.ts';
import type { ScreenProps } from '../screens.ts';
import { Table } from '../table.tsx';
import { Breadcrumbs, Loaded, Title, useResource } from '../ui.tsx';
import { Link } from '../../../shared/router.tsx';
import { ofName } from '../french.ts';

export default function SiteScreen({ params }: ScreenProps) {
  const { siteId } = params;
  const data = useResource(siteId, async () => ({
    site: await get<Site>(`/admin/sites/${siteId}`),
    pages: await getAll<CmsPage>(`/admin/sites/${siteId}/pages`),
    menus: await getAll<Menu>(`/admin/sites/${siteId}/menus`),
  }));
  return (
    <Loaded resource={data} what="du site">
      {({ site, pages, menus }) => (
        <section>
          <Breadcrumbs items={[{ href: '/console/sites', label: 'Sites et pages' }]} />
          <Title text={site.name}>{site.name}</Title>
          <p class="muted">
            {site.type === 'APP' ? 'Application' : 'Site'} · {site.domain ?? site.slug}
          </p>
          <h2>Pages</h2>
          <p>
            <Link class="button" href={`/console/sites/${siteId}/nouvelle-page`}>
              Ajouter une page
            </Link>
          </p>
          <Table
            caption={`Pages ${ofName(site.name)}`}
            rows={pages}
            rowKey={(p) => p.id}
            empty="Aucune page."
            columns={[
              { label: 'Titre', cell: (p) => <Link href={`/console/pages/${p.id}`}>{p.title}</Link> },
              { label: 'Adresse', cell: (p) => p.slug },
              { label: 'État', cell: (p) => <span class={`tag state-${publicationOf(p.publishedAt)}`}>{publicationLabel(p.publishedAt)}</span> },
            ]}
          />
          <h2>Menus</h2>
          {menus.length === 0 ? (
            <p class="muted">Aucun menu.</p>
          ) : (
            <ul class="links">
              {menus.map((m) => (
                <li key={m.id}>
                  <Link href={`/console/menus/${m.id}`}>{m.name}</Link> <span class="muted">({m.location})</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </Loaded>
  );
}
