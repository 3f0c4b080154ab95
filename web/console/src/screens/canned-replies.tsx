// The canned replies of a city group (/admin/city-groups/:id/canned-replies), drawn from their spec; the conversation
// screen offers them when answering.
import type { CannedReply } from '../chat-types.ts';
import { GroupRecords } from '../crud/group-records.tsx';
import type { ResourceSpec } from '../crud/spec.ts';
import type { ScreenProps } from '../screens.ts';

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

export default function CannedReplies({ query }: ScreenProps) {
  return (
    <GroupRecords title="Réponses types" query={query} spec={cannedSpec}>
      Des réponses prêtes que les agents de la collectivité choisissent en répondant à un citoyen.
    </GroupRecords>
  );
}
