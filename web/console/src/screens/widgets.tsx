// « Widgets »: what a city group's communes show of Collecte on their own websites (docs/widgets.md). Above, the
// group's « Sites autorisés » (widget-sites.tsx: the https sites that may frame its widgets); below, « Intégrer un
// widget » (widget-snippet.tsx: the code to paste for a kind, a commune, a sector and a colour, and the widget itself).
// `?commune=<id>` (the link from a commune's screen) chooses that commune.
import { get, getAll } from '../api.ts';
import type { ScreenProps } from '../screens.ts';
import type { City, CityGroup } from '../types.ts';
import { Breadcrumbs, Loaded, Title, useResource } from '../ui.tsx';
import { AllowedSites } from './widget-sites.tsx';
import { WidgetSnippet } from './widget-snippet.tsx';
import './widgets.css';

interface GroupData {
  group: CityGroup;
  /** The group's communes, by name. */
  cities: City[];
}

async function loadGroup(groupId: string): Promise<GroupData> {
  const [group, cities] = await Promise.all([get<CityGroup>(`/admin/city-groups/${groupId}`), getAll<City>(`/admin/city-groups/${groupId}/cities`)]);
  return { group, cities: [...cities].sort((a, b) => a.name.localeCompare(b.name, 'fr')) };
}

export default function WidgetsScreen({ params, query }: ScreenProps) {
  const { cityGroupId } = params;
  const data = useResource(`widgets:${cityGroupId}`, () => loadGroup(cityGroupId));
  return (
    <Loaded resource={data} what="de la collectivité">
      {({ group, cities }) => (
        <section key={cityGroupId}>
          <Breadcrumbs items={[{ href: '/console/communes', label: 'Communes' }]} />
          <Title text={`Widgets – ${group.name}`}>Widgets – {group.name}</Title>
          <p class="muted">
            Les sites des communes de {group.name} peuvent montrer les jours de collecte, le guide du tri, les points d’apport ou le formulaire de
            signalement de Collecte, en y collant quelques lignes de code.
          </p>
          <AllowedSites groupId={group.id} groupName={group.name} />
          <WidgetSnippet cities={cities} chosenCityId={query.get('commune')} />
        </section>
      )}
    </Loaded>
  );
}
