// The sites and apps of the agent's city groups: where pages and menus are edited.
import '../content/content.css';
import { get, getAll, type Page } from '../api.ts';
import type { Site } from '../content/types.ts';
import type { CityGroup } from '../types.ts';
import { Loaded, Title, useResource } from '../ui.tsx';
import { Link } from '../../../shared/router.tsx';

async function loadSites(): Promise<{ group: CityGroup; sites: Site[] }[]> {
  const groups = await get<Page<CityGroup>>('/admin/city-groups?pageSize=100');
  return Promise.all(groups.data.map(async (group) => ({ group, sites: await getAll<Site>(`/admin/city-groups/${group.id}/sites`) })));
}

export default function Sites() {
  const sites = useResource('sites', loadSites);
  return (
    <section>
      <Title text="Sites et pages">Sites et pages</Title>
      <p class="muted">Choisissez un site ou une application pour modifier ses pages et ses menus.</p>
      <Loaded resource={sites} what="des sites">
        {(list) =>
          list.length === 0 ? (
            <p>Votre compte n’est rattaché à aucune collectivité.</p>
          ) : (
            list.map(({ group, sites: items }) => (
              <div key={group.id} class="card">
                <h2>{group.name}</h2>
                {items.length === 0 ? (
                  <p class="muted">Aucun site.</p>
                ) : (
                  <ul class="links">
                    {items.map((site) => (
                      <li key={site.id}>
                        <Link href={`/console/sites/${site.id}`}>{site.name}</Link>
                        <span class="tag">{site.type === 'APP' ? 'application' : 'site'}</span>
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            ))
          )
        }
      </Loaded>
    </section>
  );
}
