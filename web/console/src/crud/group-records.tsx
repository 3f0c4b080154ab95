// A screen of one kind of a city group's plain records (canned replies, frequently asked questions): the agent's groups
// to choose from when it holds several, and the chosen group's records drawn from their spec.
import type { ComponentChildren } from 'preact';
import { currentUser, get, type Page } from '../api.ts';
import { SelectField } from '../form-fields.tsx';
import { setQuery } from '../location.ts';
import type { CityGroup } from '../types.ts';
import { Loaded, Title, useResource } from '../ui.tsx';
import { CrudSection } from './crud-section.tsx';
import type { ResourceSpec } from './spec.ts';

/** The agent's groups by name where the agent may read them (CITIES, super admin); else by their ids alone. */
async function loadGroups(): Promise<Pick<CityGroup, 'id' | 'name'>[]> {
  const named = await get<Page<CityGroup>>('/admin/city-groups?pageSize=100').then((p) => p.data).catch(() => null);
  return named ?? currentUser()!.cityGroupIds.map((id, i) => ({ id, name: `Collectivité ${i + 1}` }));
}

export function GroupRecords<Row extends { id: string }>({
  title,
  children,
  query,
  spec,
}: {
  title: string;
  /** What the records are for, under the title. */
  children: ComponentChildren;
  query: URLSearchParams;
  spec: (groupId: string) => ResourceSpec<Row>;
}) {
  const groups = useResource('groups', loadGroups);
  return (
    <section>
      <Title text={title}>{title}</Title>
      <p class="muted">{children}</p>
      <Loaded resource={groups} what="des collectivités">
        {(list) => {
          const groupId = list.find((g) => g.id === query.get('groupe'))?.id ?? list[0]?.id;
          if (!groupId) return <p>Votre compte n’est rattaché à aucune collectivité.</p>;
          return (
            <>
              {list.length > 1 && (
                <SelectField
                  label="Collectivité"
                  value={groupId}
                  options={list.map((g) => ({ value: g.id, label: g.name }))}
                  onChange={(id) => (setQuery('edit', null), setQuery('groupe', id))}
                />
              )}
              <CrudSection key={groupId} spec={spec(groupId)} param="edit" />
            </>
          );
        }}
      </Loaded>
    </section>
  );
}
