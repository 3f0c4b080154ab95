// A request type's extra questions (`fields`), edited as a list: each question's label, code, kind of answer, whether
// it is required, and a list's choices; questions added, removed and moved up or down (the focus follows). Saved as
// one PATCH of `fields` with the type's ETag (the console's editor: drafts, the 412's conflict); a refusal naming
// `fields[2].values` is shown on the third question.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, get } from '../api.ts';
import { EditorForm } from '../editor-form.tsx';
import { useEditor } from '../editor.tsx';
import { Checkbox, SelectField, TextField } from '../form-fields.tsx';
import { quoted } from '../french.ts';
import type { AdminRequestType, RequestTypeField } from '../types.ts';
import { useResource } from '../ui.tsx';
import { DATATYPE_LABELS, isList } from './request-text.ts';

interface FieldsForm {
  fields: RequestTypeField[];
}

/** A code from a label: `Partie abîmée` → `partie-abimee` (what the API takes: a letter first, then letters, digits, - and _). */
export function codeOf(label: string): string {
  const slug = label.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return /^[a-z]/.test(slug) ? slug.slice(0, 64) : slug ? `q-${slug}`.slice(0, 64) : '';
}

/** The question a refusal names (`fields[2].values[0].key` → the third, `values`), or null. */
function fieldFault(err: unknown): { index: number; part: string | null; message: string } | null {
  if (!(err instanceof ApiError) || err.status !== 400 || !err.field) return null;
  const match = /^fields\[(\d+)\](?:\.(\w+))?/.exec(err.field);
  return match ? { index: Number(match[1]), part: match[2] ?? null, message: err.message } : null;
}

const DATATYPES = Object.entries(DATATYPE_LABELS).map(([value, label]) => ({ value, label }));

export function TypeFieldsEditor({ typeId, onDone }: { typeId: string; onDone: (said: string | null) => void }) {
  const type = useResource(`requestType:${typeId}`, () => get<AdminRequestType>(`/admin/request-types/${typeId}`));
  const name = type.data?.name ?? '';
  const editor = useEditor<AdminRequestType, FieldsForm>({
    key: `requestTypeFields:${typeId}`,
    url: `/admin/request-types/${typeId}`,
    empty: { fields: [] },
    toForm: (t) => ({ fields: t.fields }),
    toBody: (f) => ({ fields: f.fields.map((q) => ({ ...q, values: isList(q.datatype) ? q.values : [] })) }),
    onSaved: (t) => onDone(`Questions du type ${quoted(t.name)} enregistrées.`),
  });
  const fault = fieldFault(editor.saveError);
  const [focus, setFocus] = useState<{ index: number; control: string } | null>(null);
  useEffect(() => {
    if (!focus) return;
    const row = document.querySelector(`[data-question="${focus.index}"]`);
    const wanted = row?.querySelector<HTMLElement>(`[data-control="${focus.control}"]`);
    const fallback = row?.querySelector<HTMLElement>('input');
    (wanted && !(wanted as HTMLButtonElement).disabled ? wanted : fallback)?.focus();
    setFocus(null);
  }, [focus]);

  const fields = editor.form?.fields ?? [];
  const setFields = (next: RequestTypeField[]) => editor.set({ fields: next });
  const change = (i: number, patch: Partial<RequestTypeField>) => setFields(fields.map((q, j) => (j === i ? { ...q, ...patch } : q)));
  const move = (i: number, by: -1 | 1) => {
    const next = [...fields];
    [next[i], next[i + by]] = [next[i + by], next[i]];
    setFields(next);
    setFocus({ index: i + by, control: by < 0 ? 'up' : 'down' });
  };

  return (
    <EditorForm
      editor={editor}
      id="request-type-fields-title"
      title={() => `Questions du type ${quoted(name)}`}
      labels={{ fields: 'Questions' }}
      show={(value) => (Array.isArray(value) ? value.map((q: RequestTypeField) => q.label).join(', ') || 'Aucune' : '—')}
      atFields={fault ? ['fields'] : []}
      onCancel={() => onDone(null)}
    >
      {(f) => (
        <>
          <p class="hint">Les questions que le formulaire pose en plus pour ce type. Le code nomme la réponse pour les applications&nbsp;: ne le changez pas une fois des demandes reçues.</p>
          {f.fields.length === 0 && <p class="muted">Aucune question supplémentaire.</p>}
          <ol class="field-rows">
            {f.fields.map((q, i) => {
              const at = fault?.index === i ? fault : null;
              const error = (part: string) => (at && at.part === part ? at.message : null);
              const n = i + 1;
              return (
                <li key={i} data-question={i} class={at ? 'invalid' : undefined}>
                  <fieldset>
                    <legend>Question {n}</legend>
                    <div class="row">
                      <TextField
                        label={`Libellé de la question ${n}`}
                        value={q.label}
                        maxLength={200}
                        required
                        error={error('label')}
                        onInput={(label) => change(i, { label, ...(q.code === '' || q.code === codeOf(q.label) ? { code: codeOf(label) } : {}) })}
                      />
                      <TextField label={`Code de la question ${n}`} value={q.code} maxLength={64} spellcheck={false} required error={error('code')} onInput={(code) => change(i, { code })} />
                    </div>
                    <div class="row">
                      <SelectField
                        label={`Réponse attendue à la question ${n}`}
                        value={q.datatype}
                        options={DATATYPES}
                        error={error('datatype')}
                        onChange={(datatype) => change(i, { datatype: datatype as RequestTypeField['datatype'] })}
                      />
                      <Checkbox label={`Réponse obligatoire à la question ${n}`} checked={q.required} onChange={(required) => change(i, { required })} />
                    </div>
                    {isList(q.datatype) && <Choices question={q} n={n} error={error('values')} onChange={(values) => change(i, { values })} />}
                    {at && !['label', 'code', 'datatype', 'values'].includes(at.part ?? '') && <p class="field-error">{at.message}</p>}
                    <div class="actions">
                      <button type="button" class="button small secondary" data-control="up" disabled={i === 0} onClick={() => move(i, -1)}>
                        Monter<span class="visually-hidden"> la question {n}</span>
                      </button>
                      <button type="button" class="button small secondary" data-control="down" disabled={i === f.fields.length - 1} onClick={() => move(i, 1)}>
                        Descendre<span class="visually-hidden"> la question {n}</span>
                      </button>
                      <button
                        type="button"
                        class="button small secondary"
                        onClick={() => {
                          setFields(f.fields.filter((_, j) => j !== i));
                          setFocus({ index: Math.max(0, i - 1), control: 'remove' });
                        }}
                      >
                        Retirer la question {n}
                      </button>
                    </div>
                  </fieldset>
                </li>
              );
            })}
          </ol>
          <p>
            <button
              type="button"
              class="button secondary"
              onClick={() => {
                setFields([...f.fields, { code: '', label: '', datatype: 'string', required: false, values: [] }]);
                setFocus({ index: f.fields.length, control: 'label' });
              }}
            >
              Ajouter une question
            </button>
          </p>
        </>
      )}
    </EditorForm>
  );
}

/** A list's choices: each its name and key (from the name until the key is typed), added and removed. */
function Choices({ question, n, error, onChange }: { question: RequestTypeField; n: number; error: string | null; onChange: (values: RequestTypeField['values']) => void }) {
  const values = question.values;
  const set = (j: number, patch: Partial<RequestTypeField['values'][number]>) => onChange(values.map((v, k) => (k === j ? { ...v, ...patch } : v)));
  return (
    <fieldset class={error ? 'invalid' : undefined}>
      <legend>Choix de la question {n}</legend>
      {values.length === 0 && <p class="muted">Aucun choix&nbsp;: une liste en demande au moins un.</p>}
      <ol class="value-rows">
        {values.map((v, j) => (
          <li key={j}>
            <TextField
              label={`Nom du choix ${j + 1}`}
              value={v.name}
              maxLength={200}
              onInput={(name) => set(j, { name, ...(v.key === '' || v.key === codeOf(v.name) ? { key: codeOf(name) } : {}) })}
            />
            <TextField label={`Clé du choix ${j + 1}`} value={v.key} maxLength={64} spellcheck={false} onInput={(key) => set(j, { key })} />
            <button type="button" class="button small secondary" onClick={() => onChange(values.filter((_, k) => k !== j))}>
              Retirer le choix {j + 1}
            </button>
          </li>
        ))}
      </ol>
      {error && <p class="field-error">{error}</p>}
      <button type="button" class="button small secondary" onClick={() => onChange([...values, { key: '', name: '' }])}>
        Ajouter un choix<span class="visually-hidden"> à la question {n}</span>
      </button>
    </fieldset>
  );
}
