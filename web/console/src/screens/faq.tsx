// The frequently asked questions of a city group (/admin/city-groups/:id/faq), drawn from their spec: what the
// residents of its communes read at /public/cities/:cityId/faq, in this order.
import { GroupRecords } from '../crud/group-records.tsx';
import type { ResourceSpec } from '../crud/spec.ts';
import type { ScreenProps } from '../screens.ts';
import type { GetJson } from '../../../shared/types.ts';

type FaqEntry = GetJson<'/admin/faq/{id}'>;

const faqSpec = (groupId: string): ResourceSpec<FaqEntry> => ({
  key: `faq:${groupId}`,
  noun: { label: 'Question', the: 'la question', feminine: true },
  caption: 'Questions fréquentes, dans l’ordre où les habitants les lisent',
  listUrl: `/admin/city-groups/${groupId}/faq`,
  itemUrl: (id) => `/admin/faq/${id}`,
  fields: [
    { name: 'question', label: 'Question', required: true, maxLength: 300, help: 'Telle que les habitants la posent\u00a0: «\u00a0Faut-il laver les bocaux\u00a0?\u00a0»' },
    { name: 'answer', label: 'Réponse', kind: 'long', required: true, maxLength: 3000, help: 'Du texte simple\u00a0; une ligne vide commence un paragraphe.' },
    { name: 'position', label: 'Position', kind: 'integer', short: true, initial: 0, empty: 0, help: 'Les plus petites d’abord (de 0 à 9999).' },
  ],
  columns: ['position', 'question', 'answer'],
  nameOf: (r) => r.question,
  addLabel: 'Ajouter une question',
  empty: 'Aucune question fréquente pour l’instant.',
});

export default function Faq({ query }: ScreenProps) {
  return (
    <GroupRecords title="Questions fréquentes" query={query} spec={faqSpec}>
      Les questions que les habitants posent souvent au service, avec leur réponse, pour toutes les communes de la collectivité.
    </GroupRecords>
  );
}
