// The small records a record holds, listed and edited in place: a waste type's materials, a place's attached
// locations. One table, one form (the editor's drafts, 412 and field errors), deletion with If-Match.
import { useState } from 'preact/hooks';
import { getAll } from './api.ts';
import { EditorForm, fieldError, removeRecord, useEditor } from './editor.tsx';
import { Loaded, Notices, Table, TextArea, TextField, useResource } from './ui.tsx';

export interface ChildField {
  /** The API's field name. */
  name: string;
  label: string;
  /** number: a decimal (a French comma accepted); long: a multi-line text. */
  type?: 'text' | 'number' | 'long';
  /** Sent as typed even when empty (otherwise an empty field is sent as null). */
  required?: boolean;
  hint?: string;
}

type Form = Record<string, string>;
type Row = { id: string } & Record<string, unknown>;

/** The form's text as the API wants it: numbers as numbers (the API names a field that is not one), empties as null. */
function toValue(field: ChildField, text: string): unknown {
  const trimmed = text.trim();
  if (field.type === 'number') {
    const n = Number(trimmed.replace(',', '.'));
    return trimmed === '' ? null : Number.isFinite(n) ? n : trimmed;
  }
  return trimmed === '' && !field.required ? null : trimmed;
}

function ChildForm({
  fields,
  draftKey,
  url,
  createUrl,
  title,
  onDone,
}: {
  fields: ChildField[];
  draftKey: string;
  url: string | null;
  createUrl: string;
  title: string;
  onDone: (saved: Row | null, created: boolean) => void;
}) {
  const labels = Object.fromEntries(fields.map((f) => [f.name, f.label]));
  const editor = useEditor<Row, Form>({
    key: draftKey,
    url,
    createUrl,
    empty: Object.fromEntries(fields.map((f) => [f.name, ''])),
    toForm: (r) => Object.fromEntries(fields.map((f) => [f.name, r[f.name] === null || r[f.name] === undefined ? '' : String(r[f.name])])),
    toBody: (form) => Object.fromEntries(fields.map((f) => [f.name, toValue(f, form[f.name] ?? '')])),
    onSaved: (r, created) => onDone(r, created),
  });
  return (
    <EditorForm
      editor={editor}
      id={`${draftKey.replace(/[^a-z0-9]/gi, '-')}-title`}
      title={() => title}
      labels={labels}
      atFields={fields.filter((f) => f.type !== 'long').map((f) => f.name)}
      onCancel={() => onDone(null, false)}
    >
      {(form) =>
        fields.map((f) =>
          f.type === 'long' ? (
            <TextArea key={f.name} label={f.label} hint={f.hint} value={form[f.name]} onInput={(v) => editor.set({ [f.name]: v })} />
          ) : (
            <TextField
              key={f.name}
              label={f.label}
              hint={f.hint}
              value={form[f.name]}
              error={fieldError(editor, f.name)}
              {...(f.type === 'number' ? { inputMode: 'decimal' as const } : {})}
              onInput={(v) => editor.set({ [f.name]: v })}
            />
          ),
        )
      }
    </EditorForm>
  );
}

export function ChildRecords({
  heading,
  listUrl,
  createUrl,
  itemUrl,
  draftKey,
  fields,
  columns,
  nameOf,
  addLabel,
  empty,
  what,
}: {
  heading: string;
  listUrl: string;
  createUrl: string;
  itemUrl: (id: string) => string;
  /** Names the drafts (`wasteTypeDetail:<wasteTypeId>`). */
  draftKey: string;
  fields: ChildField[];
  /** The table's columns, by field name (the first names each row). */
  columns: string[];
  nameOf: (row: Row) => string;
  addLabel: string;
  empty: string;
  /** `le matériau`, `le lieu rattaché`: said in the confirmation and the statuses. */
  what: { one: string; saved: string; removed: string };
}) {
  const rows = useResource(listUrl, () => getAll<Row>(listUrl));
  const [editing, setEditing] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [problem, setProblem] = useState<unknown>(null);
  const label = (name: string) => fields.find((f) => f.name === name)?.label ?? name;

  const remove = async (row: Row) => {
    if (!confirm(`Supprimer ${what.one} « ${nameOf(row)} » ?`)) return;
    setProblem(null);
    try {
      await removeRecord(itemUrl(row.id));
      setStatus(`« ${nameOf(row)} » ${what.removed}.`);
      rows.reload();
    } catch (err) {
      setProblem(err);
    }
  };

  return (
    <section aria-label={heading}>
      <h2>{heading}</h2>
      <Notices status={status} problem={problem} />
      {editing && (
        <ChildForm
          key={editing}
          fields={fields}
          draftKey={`${draftKey}:${editing}`}
          url={editing === 'nouveau' ? null : itemUrl(editing)}
          createUrl={createUrl}
          title={editing === 'nouveau' ? addLabel : `Modifier ${what.one}`}
          onDone={(saved) => {
            setEditing(null);
            setStatus(saved ? `« ${nameOf(saved)} » ${what.saved}.` : null);
            if (saved) rows.reload();
          }}
        />
      )}
      <Loaded resource={rows}>
        {(list) => (
          <Table
            caption={heading}
            rows={list}
            rowKey={(r) => r.id}
            empty={empty}
            columns={[
              ...columns.map((name) => ({ label: label(name), cell: (r: Row) => (r[name] === null || r[name] === undefined ? '—' : String(r[name])) })),
              {
                label: 'Actions',
                class: 'actions-cell',
                cell: (r: Row) => (
                  <>
                    <button type="button" class="link-button" onClick={() => (setStatus(null), setEditing(r.id))}>
                      Modifier<span class="visually-hidden"> {nameOf(r)}</span>
                    </button>
                    <button type="button" class="link-button danger" onClick={() => void remove(r)}>
                      Supprimer<span class="visually-hidden"> {nameOf(r)}</span>
                    </button>
                  </>
                ),
              },
            ]}
          />
        )}
      </Loaded>
      {!editing && (
        <p>
          <button type="button" class="button secondary" onClick={() => (setStatus(null), setEditing('nouveau'))}>
            {addLabel}
          </button>
        </p>
      )}
    </section>
  );
}
