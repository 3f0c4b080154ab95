// The agent's city groups and their communes: where every collection screen starts.
import { currentUser, get, getAll, holds, type Page } from '../api.ts';
import { useEditing } from '../editor.tsx';
import type { ScreenProps } from '../screens.ts';
import type { City, CityGroup } from '../types.ts';
import { Loaded, Status, Title, useResource } from '../ui.tsx';
import { ContactLines, GroupContactForm } from './group-contact.tsx';
import { Link } from '../../../shared/router.tsx';

async function loadGroups(): Promise<{ group: CityGroup; cities: City[] }[]> {
  const groups = await get<Page<CityGroup>>('/admin/city-groups?pageSize=100');
  return Promise.all(groups.data.map(async (group) => ({ group, cities: await getAll<City>(`/admin/city-groups/${group.id}/cities`) })));
}

export default function Cities({ query }: ScreenProps) {
  const groups = useResource('groups', loadGroups);
  const { editing, status, open, done } = useEditing(query, groups.reload);
  // Only a super admin changes a group (docs/api.md, the admin API).
  const mayEdit = currentUser()?.superAdmin ?? false;
  return (
    <section>
      <Title text="Communes">Communes</Title>
      {status && <Status>{status}</Status>}
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
                {mayEdit && editing === group.id ? (
                  <GroupContactForm key={group.id} groupId={group.id} onDone={done} />
                ) : (
                  <>
                    <ContactLines group={group} />
                    {mayEdit && (
                      <p>
                        <button type="button" class="link-button" onClick={() => open(group.id)}>
                          Modifier les coordonnées<span class="visually-hidden"> de {group.name}</span>
                        </button>
                      </p>
                    )}
                  </>
                )}
                <ul class="links">
                  <li>
                    <Link href={`/console/collectivites/${group.id}/jours-feries`}>
                      Jours fériés<span class="visually-hidden"> de {group.name}</span>
                    </Link>
                  </li>
                  <li>
                    <Link href={`/console/collectivites/${group.id}/avis`}>
                      Avis aux habitants<span class="visually-hidden"> de {group.name}</span>
                    </Link>
                  </li>
                  <li>
                    <Link href={`/console/collectivites/${group.id}/widgets`}>
                      Widgets<span class="visually-hidden"> de {group.name}</span>
                    </Link>
                  </li>
                  {holds(currentUser(), 'REQUESTS') && (
                    <li>
                      <Link href={`/console/collectivites/${group.id}/types-de-demandes`}>
                        Types de demandes<span class="visually-hidden"> de {group.name}</span>
                      </Link>
                    </li>
                  )}
                </ul>
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
