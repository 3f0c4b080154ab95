// A commune's challenges (permission CHALLENGES): the list, and a form to change one, its pass mark included.
import { get, getAll, type Page } from '../api.ts';
import { EditorForm, fieldError, useEditing, useEditor } from '../editor.tsx';
import { setQuery } from '../router.tsx';
import type { ScreenProps } from '../screens.ts';
import type { CityGroup as PublicGroup } from '../../../shared/types.ts';
import type { Challenge, CityGroup } from '../types.ts';
import { Checkbox, Loaded, SelectField, Status, Table, TextArea, TextField, Title, useResource } from '../ui.tsx';

interface Form {
  name: string;
  description: string;
  enabled: boolean;
  order: string;
  passingScore: string;
}

const LABELS: Record<keyof Form, string> = {
  name: 'Nom',
  description: 'Description',
  enabled: 'Proposé aux habitants',
  order: 'Position',
  passingScore: 'Note de réussite (%)',
};

const toForm = (c: Challenge): Form => ({ name: c.name, description: c.description ?? '', enabled: c.enabled, order: String(c.order), passingScore: String(c.passingScore) });

/** A number as typed; what is not one is sent as typed, and the API names the field. */
const number = (text: string) => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text);

const toBody = (f: Form) => ({
  name: f.name.trim(),
  description: f.description.trim() === '' ? null : f.description.trim(),
  enabled: f.enabled,
  order: number(f.order),
  passingScore: number(f.passingScore),
});

function ChallengeForm({ id, onDone }: { id: string; onDone: (message: string | null) => void }) {
  const editor = useEditor<Challenge, Form>({
    key: `challenge:${id}`,
    url: `/admin/challenges/${id}`,
    empty: { name: '', description: '', enabled: true, order: '0', passingScore: '60' },
    toForm,
    toBody,
    onSaved: (c) => onDone(`Défi « ${c.name} » enregistré.`),
  });
  return (
    <EditorForm
      editor={editor}
      id="challenge-form-title"
      title={(f) => `Modifier « ${f.name || '…'} »`}
      labels={LABELS}
      atFields={['name', 'passingScore', 'order']}
      onCancel={() => onDone(null)}
    >
      {(f) => (
        <>
          <TextField label={LABELS.name} value={f.name} maxLength={200} error={fieldError(editor, 'name')} onInput={(name) => editor.set({ name })} />
          <TextArea label={LABELS.description} value={f.description} onInput={(description) => editor.set({ description })} />
          <div class="row">
            <TextField
              label={LABELS.passingScore}
              type="number"
              min="0"
              max="100"
              value={f.passingScore}
              hint="Le badge est gagné avec un meilleur score égal ou supérieur à cette note (60 % par défaut)."
              error={fieldError(editor, 'passingScore')}
              onInput={(passingScore) => editor.set({ passingScore })}
            />
            <TextField label={LABELS.order} type="number" value={f.order} error={fieldError(editor, 'order')} onInput={(order) => editor.set({ order })} />
          </div>
          <Checkbox label={LABELS.enabled} checked={f.enabled} onChange={(enabled) => editor.set({ enabled })} />
        </>
      )}
    </EditorForm>
  );
}

/** The communes of the agent's groups (the public list: CHALLENGES alone does not read the admin cities). */
async function loadCities(): Promise<{ id: string; name: string }[]> {
  const mine = new Set((await get<Page<CityGroup>>('/admin/city-groups?pageSize=100')).data.map((g) => g.id));
  const groups = await get<PublicGroup[]>('/public/city-groups');
  return groups.filter((g) => mine.has(g.id)).flatMap((g) => g.cities);
}

export default function Challenges({ query }: ScreenProps) {
  const cities = useResource('cities', loadCities);
  const cityId = query.get('commune');
  const challenges = useResource(cityId, () => getAll<Challenge>(`/admin/cities/${cityId}/challenges`));
  const { editing, status, setStatus, open, done } = useEditing(query, challenges.reload);
  return (
    <section>
      <Title text="Défis">Défis</Title>
      {status && <Status>{status}</Status>}
      <Loaded resource={cities} what="des communes">
        {(list) => (
          <SelectField
            label="Commune"
            value={cityId ?? ''}
            options={[{ value: '', label: 'Choisissez une commune' }, ...list.map((c) => ({ value: c.id, label: c.name }))]}
            onChange={(id) => (setStatus(null), setQuery('edit', null), setQuery('commune', id || null))}
          />
        )}
      </Loaded>
      {cityId && (
        <Loaded resource={challenges} what="des défis">
          {(rows) => (
            <>
              {editing && (
                <ChallengeForm key={editing} id={editing} onDone={done} />
              )}
              <Table
                caption="Défis de la commune"
                rows={rows}
                rowKey={(c) => c.id}
                empty="Aucun défi pour cette commune."
                columns={[
                  { label: 'Nom', cell: (c) => c.name },
                  { label: 'Note de réussite', cell: (c) => `${c.passingScore}\u00a0%` },
                  { label: 'État', cell: (c) => (c.enabled ? 'Proposé' : 'Désactivé') },
                  {
                    label: 'Actions',
                    class: 'actions-cell',
                    cell: (c) => (
                      <button type="button" class="link-button" onClick={() => open(c.id)}>
                        Modifier<span class="visually-hidden"> {c.name}</span>
                      </button>
                    ),
                  },
                ]}
              />
            </>
          )}
        </Loaded>
      )}
    </section>
  );
}
