// The canned replies of a city group (/admin/city-groups/:id/canned-replies), drawn from their spec; the conversation
// screen offers them when answering.
import { currentUser, get, type Page } from '../api.ts';
import type { CannedReply } from '../chat-types.ts';
import { CrudSection } from '../crud/crud-section.tsx';
import type { ResourceSpec } from '../crud/spec.ts';
import { SelectField } from '../form-fields.tsx';
import { setQuery } from '../location.ts';
import type { ScreenProps } from '../screens.ts';
import type { CityGroup } from '../types.ts';
import { Loaded, Title, useResource } from '../ui.tsx';

const cannedSpec = (groupId: string): ResourceSpec<CannedReply> => ({
  key: `cannedReply:${groupId}`,
  noun: { label: 'Réponse type', the: 'la réponse type', feminine: true },
  caption: 'Réponses types',
  listUrl: `/admin/city-groups/${groupId}/canned-replies`,
  itemUrl: (id) => `/admin/canned-replies/${id}`,
  fields: [
    { name: 'title', label: 'Titre', required: true, maxLength: 100, help: 'Ce que l’agent choisit dans la liste en répondant.' },
    { name: 'content', label: 'Réponse', kind: 'long', required: true, help: 'Le texte envoyé au citoyen, que l’agent peut modifier avant de l’envoyer.' },
  ],
  columns: ['title', 'content'],
  nameOf: (r) => r.title,
  addLabel: 'Ajouter une réponse type',
  empty: 'Aucune réponse type pour l’instant.',
});

/** The agent's groups by name where the agent may read them (CITIES, super admin); else by their ids alone. */
async function loadGroups(): Promise<Pick<CityGroup, 'id' | 'name'>[]> {
  const named = await get<Page<CityGroup>>('/admin/city-groups?pageSize=100').then((p) => p.data).catch(() => null);
  return named ?? currentUser()!.cityGroupIds.map((id, i) => ({ id, name: `Collectivité ${i + 1}` }));
}

export default function CannedReplies({ query }: ScreenProps) {
  const groups = useResource('groups', loadGroups);
  return (
    <section>
      <Title text="Réponses types">Réponses types</Title>
      <p class="muted">Des réponses prêtes que les agents de la collectivité choisissent en répondant à un citoyen.</p>
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
              <CrudSection key={groupId} spec={cannedSpec(groupId)} param="edit" />
            </>
          );
        }}
      </Loaded>
    </section>
  );
}
