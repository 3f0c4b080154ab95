// A commune's quiz questions: which bin does this material go in? The list, and a form to create or change one.
import { useState } from 'preact/hooks';
import { get, getAll } from '../api.ts';
import { EditorForm, removeRecord, useEditing, useEditor } from '../editor.tsx';
import type { ScreenProps } from '../screens.ts';
import type { City, QuizQuestion, WasteType } from '../types.ts';
import { Breadcrumbs, Loaded, Notices, SelectField, Swatch, Table, TextArea, TextField, Title, useResource } from '../ui.tsx';

interface Form {
  material: string;
  question: string;
  correctWasteTypeId: string;
  order: string;
}

const LABELS: Record<keyof Form, string> = { material: 'Matériau', question: 'Question', correctWasteTypeId: 'Bonne réponse', order: 'Position' };

const toForm = (q: QuizQuestion): Form => ({ material: q.material, question: q.question, correctWasteTypeId: q.correctWasteTypeId, order: String(q.order) });
const toBody = (f: Form) => ({ material: f.material.trim(), question: f.question.trim(), correctWasteTypeId: f.correctWasteTypeId, order: Number(f.order || 0) });

function QuestionForm({ city, types, id, onDone }: { city: City; types: WasteType[]; id: string | null; onDone: (message: string | null) => void }) {
  const editor = useEditor<QuizQuestion, Form>({
    key: id ? `quizQuestion:${id}` : `quizQuestion:new:${city.id}`,
    url: id ? `/admin/quiz-questions/${id}` : null,
    createUrl: `/admin/cities/${city.id}/quiz-questions`,
    empty: { material: '', question: '', correctWasteTypeId: types[0]?.id ?? '', order: '0' },
    toForm,
    toBody,
    onSaved: (q, created) => onDone(created ? `Question sur « ${q.material} » créée.` : `Question sur « ${q.material} » enregistrée.`),
  });
  return (
    <EditorForm editor={editor} id="quiz-form-title" title={() => (id ? 'Modifier la question' : 'Nouvelle question')} labels={LABELS} onCancel={() => onDone(null)}>
      {(f) => (
        <>
          <TextField label={LABELS.material} value={f.material} required maxLength={200} hint="Par exemple : pot de yaourt." onInput={(material) => editor.set({ material })} />
          <TextArea label={LABELS.question} value={f.question} onInput={(question) => editor.set({ question })} />
          <div class="row">
            <SelectField
              label={LABELS.correctWasteTypeId}
              value={f.correctWasteTypeId}
              options={types.map((t) => ({ value: t.id, label: t.name }))}
              onChange={(correctWasteTypeId) => editor.set({ correctWasteTypeId })}
            />
            <TextField type="number" label={LABELS.order} value={f.order} hint="Les plus petites d’abord." onInput={(order) => editor.set({ order })} />
          </div>
        </>
      )}
    </EditorForm>
  );
}

export default function Quiz({ params, query }: ScreenProps) {
  const { cityId } = params;
  const data = useResource(cityId, async () => ({
    city: await get<City>(`/admin/cities/${cityId}`),
    questions: await getAll<QuizQuestion>(`/admin/cities/${cityId}/quiz-questions`),
    types: await getAll<WasteType>(`/admin/cities/${cityId}/waste-types`),
  }));
  const { editing, status, setStatus, open, done } = useEditing(query, data.reload);
  const [problem, setProblem] = useState<unknown>(null);

  const remove = async (q: QuizQuestion) => {
    if (!confirm(`Supprimer la question sur « ${q.material} » ?`)) return;
    try {
      await removeRecord(`/admin/quiz-questions/${q.id}`);
      setStatus(`Question sur « ${q.material} » supprimée.`);
      data.reload();
    } catch (err) {
      setProblem(err);
    }
  };

  return (
    <Loaded resource={data} what="des questions">
      {({ city, questions, types }) => {
        const typeOf = new Map(types.map((t) => [t.id, t]));
        return (
          <section>
            <Breadcrumbs items={[{ href: '/console/communes', label: 'Communes' }, { href: `/console/communes/${cityId}`, label: city.name }]} />
            <Title text={`Quiz – ${city.name}`}>Questions du quiz de tri</Title>
            <Notices status={status} problem={problem} />
            {editing ? (
              <QuestionForm
                key={editing}
                city={city}
                types={types}
                id={editing === 'nouveau' ? null : editing}
                onDone={done}
              />
            ) : (
              <p>
                <button type="button" class="button" onClick={() => open('nouveau')}>
                  Ajouter une question
                </button>
              </p>
            )}
            <Table
              caption={`Questions du quiz de ${city.name}`}
              rows={questions}
              rowKey={(q) => q.id}
              empty="Aucune question pour cette commune."
              columns={[
                { label: 'Position', cell: (q) => q.order },
                { label: 'Matériau', cell: (q) => q.material },
                { label: 'Question', cell: (q) => q.question },
                {
                  label: 'Bonne réponse',
                  cell: (q) => (
                    <>
                      <Swatch color={typeOf.get(q.correctWasteTypeId)?.color ?? null} />
                      {typeOf.get(q.correctWasteTypeId)?.name ?? '?'}
                    </>
                  ),
                },
                {
                  label: 'Actions',
                  class: 'actions-cell',
                  cell: (q) => (
                    <>
                      <button type="button" class="link-button" onClick={() => open(q.id)}>
                        Modifier<span class="visually-hidden"> la question sur {q.material}</span>
                      </button>
                      <button type="button" class="link-button danger" onClick={() => void remove(q)}>
                        Supprimer<span class="visually-hidden"> la question sur {q.material}</span>
                      </button>
                    </>
                  ),
                },
              ]}
            />
          </section>
        );
      }}
    </Loaded>
  );
}
