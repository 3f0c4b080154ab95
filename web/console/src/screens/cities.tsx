// The agent's city groups and their communes: where every collection screen starts.
import { get, getAll, type Page } from '../api.ts';
import { Link } from '../router.tsx';
import type { City, CityGroup } from '../types.ts';
import { Loaded, Title, useResource } from '../ui.tsx';

async function loadGroups(): Promise<{ group: CityGroup; cities: City[] }[]> {
  const groups = await get<Page<CityGroup>>('/admin/city-groups?pageSize=100');
  return Promise.all(groups.data.map(async (group) => ({ group, cities: await getAll<City>(`/admin/city-groups/${group.id}/cities`) })));
}

export default function Cities() {
  const groups = useResource('groups', loadGroups);
  return (
    <section>
      <Title text="Communes">Communes</Title>
      <p class="muted">Choisissez une commune pour modifier ses types de déchets, ses secteurs de collecte et ses points d’apport.</p>
      <Loaded resource={groups} what="des communes">
        {(list) =>
          list.length === 0 ? (
            <p>Votre compte n’est rattaché à aucune collectivité.</p>
          ) : (
            list.map(({ group, cities }) => (
              <div key={group.id} class="card">
                <h2>
                  {group.name} <span class="muted">({group.type})</span>
                </h2>
                {cities.length === 0 ? (
                  <p class="muted">Aucune commune.</p>
                ) : (
                  <ul class="links">
                    {cities.map((city) => (
                      <li key={city.id}>
                        <Link href={`/console/communes/${city.id}`}>{city.name}</Link>
                        {city.status === 'NON_ACTIF' && <span class="tag">non publiée</span>}
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
