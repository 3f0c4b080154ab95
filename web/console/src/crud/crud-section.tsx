// A list of plain records and their form, drawn from a spec (spec.ts): the table, a form to create or change one (the
// editor's draft, ETag and If-Match, the 412 conflict, each refusal at the field it names), deletion with If-Match.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { getAll } from '../api.ts';
import { EditorForm, fieldError } from '../editor-form.tsx';
import { removeRecord, useEditor } from '../editor.tsx';
import { quoted } from '../french.ts';
import { setQuery, useLocation } from '../location.ts';
import { Table } from '../table.tsx';
import { Loaded, Notices, useResource } from '../ui.tsx';
import { SpecField } from './spec-field.tsx';
import { emptyForm, said, shown, toBody, toForm, type FieldSpec, type Form, type ResourceSpec } from './spec.ts';

/** The `edit` value of a record still to create. */
const NEW = 'nouveau';

/** The fields in lines: the short ones side by side, each other one on a line of its own. */
function lines<Row>(fields: FieldSpec<Row>[]): FieldSpec<Row>[][] {
  const out: FieldSpec<Row>[][] = [];
  for (const field of fields) {
    const last = out.at(-1);
    if (field.short && last?.[0].short) last.push(field);
    else out.push([field]);
  }
  return out;
}

function CrudForm<Row extends { id: string }>({
  spec,
  id,
  onDone,
}: {
  spec: ResourceSpec<Row>;
  id: string | null;
  onDone: (saved: Row | null, created: boolean) => void;
}) {
  const editor = useEditor<Row, Form>({
    key: `${spec.key}:${id ?? NEW}`,
    url: id ? spec.itemUrl(id) : null,
    createUrl: spec.createUrl ?? spec.listUrl,
    empty: emptyForm(spec),
    toForm: (row) => toForm(spec, row),
    toBody: (form) => toBody(spec, form),
    onSaved: (row, created) => onDone(row, created),
  });
  const field = (name: string) => spec.fields.find((f) => f.name === name)!;
  const draw = (f: FieldSpec<Row>, form: Form) => (
    <SpecField key={f.name} field={f} value={form[f.name]} error={fieldError(editor, f.name)} onChange={(value) => editor.set({ [f.name]: value })} />
  );
  return (
    <EditorForm
      editor={editor}
      id={`${spec.key.replace(/[^a-z0-9]+/gi, '-')}-form-title`}
      title={() => (id ? `Modifier ${spec.noun.the}` : spec.addLabel)}
      labels={Object.fromEntries(spec.fields.map((f) => [f.name, f.label]))}
      show={(value, name) => shown(field(name), value)}
      atFields={spec.fields.map((f) => f.name)}
      onCancel={() => onDone(null, false)}
    >
      {(form) =>
        lines(spec.fields).map((line) =>
          line.length > 1 ? (
            <div class="row" key={line[0].name}>
              {line.map((f) => draw(f, form))}
            </div>
          ) : (
            draw(line[0], form)
          ),
        )
      }
    </EditorForm>
  );
}

/**
 * The list and form of `spec`'s records. With `heading`, a section of its own (a waste type's materials under its
 * form); without, the screen's body under its title. With `param`, the open form is in the address (`?edit=…`: a
 * link to it, the back button, and a draft found again after logging in anew); else it is the section's own state.
 * `below(id)` is drawn under an existing record's form (a challenge's badge and series).
 */
export function CrudSection<Row extends { id: string }>({
  spec,
  heading,
  param,
  below,
  onChange,
}: {
  spec: ResourceSpec<Row>;
  heading?: string;
  param?: string;
  below?: (id: string) => ComponentChildren;
  /** After each save or deletion (the screen's own counts). */
  onChange?: () => void;
}) {
  const rows = useResource(spec.listUrl, () => getAll<Row>(spec.listUrl));
  const { query } = useLocation();
  const [own, setOwn] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [problem, setProblem] = useState<unknown>(null);
  const editing = param ? query.get(param) : own;
  const open = (id: string | null) => {
    setStatus(null);
    setProblem(null);
    if (param) setQuery(param, id);
    else setOwn(id);
  };
  const changed = (message: string) => {
    setStatus(message);
    rows.reload();
    onChange?.();
  };
  const label = spec.rowLabel ?? spec.nameOf;

  const remove = async (row: Row) => {
    if (!confirm(`Supprimer ${spec.noun.the} ${quoted(spec.nameOf(row))}\u202f?`)) return;
    setStatus(null);
    setProblem(null);
    try {
      await removeRecord(spec.itemUrl(row.id));
      if (editing === row.id) open(null);
      changed(said(spec.noun, spec.nameOf(row), 'supprimé'));
    } catch (err) {
      setProblem(err);
    }
  };

  const mayAdd = spec.max === undefined || (rows.data !== null && rows.data.length < spec.max);
  const body = (
    <>
      <Notices status={status} problem={problem} />
      {editing ? (
        <>
          <CrudForm
            key={editing}
            spec={spec}
            id={editing === NEW ? null : editing}
            onDone={(saved, created) => {
              open(null);
              if (saved) changed(said(spec.noun, spec.nameOf(saved), created ? 'créé' : 'enregistré'));
            }}
          />
          {editing !== NEW && below?.(editing)}
        </>
      ) : (
        mayAdd && (
          <p>
            <button type="button" class={heading ? 'button secondary' : 'button'} onClick={() => open(NEW)}>
              {spec.addLabel}
            </button>
          </p>
        )
      )}
      <Loaded resource={rows}>
        {(list) => (
          <Table
            caption={spec.caption}
            rows={list}
            rowKey={(r) => r.id}
            empty={spec.empty}
            columns={[
              ...spec.columns.map((c) => {
                if (typeof c !== 'string') return c;
                const f = spec.fields.find((x) => x.name === c);
                return { label: f?.label ?? c, cell: (r: Row) => (f ? shown(f, r[c]) : String(r[c] ?? '—')) };
              }),
              {
                label: 'Actions',
                class: 'actions-cell',
                cell: (r: Row) => (
                  <>
                    <button type="button" class="link-button" onClick={() => open(r.id)}>
                      Modifier<span class="visually-hidden"> {label(r)}</span>
                    </button>
                    <button type="button" class="link-button danger" onClick={() => void remove(r)}>
                      Supprimer<span class="visually-hidden"> {label(r)}</span>
                    </button>
                  </>
                ),
              },
            ]}
          />
        )}
      </Loaded>
    </>
  );
  if (!heading) return body;
  const headingId = `${spec.key.replace(/[^a-z0-9]+/gi, '-')}-heading`;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{heading}</h2>
      {body}
    </section>
  );
}
