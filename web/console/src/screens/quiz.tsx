// A commune's quiz questions (which bin does this material go in?), drawn from their spec.
import { get, getAll } from '../api.ts';
import { CrudSection } from '../crud/crud-section.tsx';
import type { ResourceSpec } from '../crud/spec.ts';
import type { ScreenProps } from '../screens.ts';
import { Swatch } from '../table.tsx';
import type { City, QuizQuestion, WasteType } from '../types.ts';
import { Breadcrumbs, Loaded, Title, useResource } from '../ui.tsx';

function quizSpec(city: City, types: WasteType[]): ResourceSpec<QuizQuestion> {
  const typeOf = new Map(types.map((t) => [t.id, t]));
  return {
    key: `quizQuestion:${city.id}`,
    noun: { label: 'Question', the: 'la question', feminine: true },
    caption: `Questions du quiz de ${city.name}`,
    listUrl: `/admin/cities/${city.id}/quiz-questions`,
    itemUrl: (id) => `/admin/quiz-questions/${id}`,
    fields: [
      { name: 'material', label: 'Matériau', required: true, maxLength: 200, help: 'Par exemple\u00a0: pot de yaourt.' },
      { name: 'question', label: 'Question', kind: 'long', required: true, maxLength: 1000 },
      {
        name: 'correctWasteTypeId',
        label: 'Bonne réponse',
        kind: 'select',
        required: true,
        short: true,
        choices: types.map((t) => ({ value: t.id, label: t.name })),
        initial: types[0]?.id,
      },
      { name: 'order', label: 'Position', kind: 'integer', short: true, empty: 0, initial: 0, help: 'Les plus petites d’abord.' },
    ],
    columns: [
      'order',
      'material',
      'question',
      {
        label: 'Bonne réponse',
        cell: (q) => (
          <>
            <Swatch color={typeOf.get(q.correctWasteTypeId)?.color ?? null} />
            {typeOf.get(q.correctWasteTypeId)?.name ?? '?'}
          </>
        ),
      },
    ],
    nameOf: (q) => q.material,
    rowLabel: (q) => `la question sur ${q.material}`,
    addLabel: 'Ajouter une question',
    empty: 'Aucune question pour cette commune.',
  };
}

export default function Quiz({ params }: ScreenProps) {
  const { cityId } = params;
  const data = useResource(cityId, async () => ({
    city: await get<City>(`/admin/cities/${cityId}`),
    types: await getAll<WasteType>(`/admin/cities/${cityId}/waste-types`),
  }));
  return (
    <Loaded resource={data} what="des questions">
      {({ city, types }) => (
        <section>
          <Breadcrumbs items={[{ href: '/console/communes', label: 'Communes' }, { href: `/console/communes/${cityId}`, label: city.name }]} />
          <Title text={`Quiz – ${city.name}`}>Questions du quiz de tri</Title>
          <CrudSection spec={quizSpec(city, types)} param="edit" />
        </section>
      )}
    </Loaded>
  );
}
