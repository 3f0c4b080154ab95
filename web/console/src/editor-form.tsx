// The form of one record as every screen draws it (useEditor's state, editor.tsx): its heading, the restored-draft
// notice, the conflict of a 412 with both agents' values (merged field by field), the fields, save and cancel, and the API's refusal
// shown at the field it names.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api.ts';
import type { Editor } from './editor.tsx';
import './conflict.css';
import { quoted } from './french.ts';
import { fieldChanges, unresolved, type Choice } from './merge.ts';
import { FormHeading, Problem } from './ui.tsx';

/** How a value shows in the conflict's table: an empty one as a dash. */
export const showValue = (v: unknown): string => (v === null || v === undefined || v === '' ? '—' : String(v));

/**
 * The conflict of a 412: each field either agent changed since the form was loaded, with its value then, theirs and
 * this agent's (this agent's changes marked), a choice for each field both changed, and three ways out: both agents'
 * changes kept (merge.ts), the saved version reloaded, or this agent's version written over it.
 */
export function ConflictPanel<R, F>({
  editor,
  labels,
  show = showValue,
}: {
  editor: Editor<R, F>;
  labels: Partial<Record<keyof F & string, string>>;
  show?: (value: unknown, field: keyof F & string) => ComponentChildren;
}) {
  const { conflict, form } = editor;
  const heading = useRef<HTMLHeadingElement>(null);
  const problem = useRef<HTMLParagraphElement>(null);
  const [choices, setChoices] = useState<Partial<Record<keyof F & string, Choice>>>({});
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    // The save button may be far below: bring the conflict to the agent's eyes and keyboard.
    if (conflict) heading.current?.focus();
    setChoices({});
    setMissing(false);
  }, [conflict]);
  useEffect(() => {
    if (missing) problem.current?.focus();
  }, [missing]);
  if (!conflict || !form) return null;
  const mine = form as Record<string, unknown>;
  const changes = fieldChanges(conflict.base as F & object, form as F & object, conflict.theirs as F & object);
  const theirs = changes.filter((c) => c.theirs);
  const label = (field: keyof F & string) => labels[field] ?? field;
  const keepBoth = () => {
    if (unresolved(changes, choices).length > 0) return setMissing(true);
    setMissing(false);
    void editor.merge(choices);
  };
  return (
    <div class="conflict" role="alert">
      <h2 ref={heading} tabIndex={-1}>Quelqu’un a modifié cet élément pendant que vous le modifiiez</h2>
      {theirs.length === 0 && <p>Ses changements ne touchent aucun champ de ce formulaire.</p>}
      {changes.length > 0 && (
        <div class="table-wrap">
          <table class="conflict-fields">
            <caption>Champs modifiés depuis l’ouverture du formulaire</caption>
            <thead>
              <tr>
                <th scope="col">Champ</th>
                <th scope="col">Valeur d’origine</th>
                <th scope="col">Leur valeur</th>
                <th scope="col">Ma valeur</th>
                <th scope="col">À garder</th>
              </tr>
            </thead>
            <tbody>
              {changes.map((c) => (
                <tr key={c.field} class={c.clash ? 'clash' : undefined}>
                  <th scope="row">{label(c.field)}</th>
                  <td>{show((conflict.base as Record<string, unknown>)[c.field] ?? null, c.field)}</td>
                  <td class={c.theirs ? 'changed-theirs' : undefined}>{show((conflict.theirs as Record<string, unknown>)[c.field] ?? null, c.field)}</td>
                  <td class={c.mine ? 'changed-mine' : undefined}>
                    {show(mine[c.field] ?? null, c.field)}
                    {c.mine && <span class="mine-tag">modifiée par vous</span>}
                  </td>
                  <td>
                    {c.clash ? (
                      <fieldset class="choice">
                        <legend class="visually-hidden">Valeur à garder pour {label(c.field)}</legend>
                        {(['mine', 'theirs'] as const).map((side) => (
                          <label key={side}>
                            <input
                              type="radio"
                              name={`conflict-${c.field}`}
                              checked={choices[c.field] === side}
                              onChange={() => setChoices({ ...choices, [c.field]: side })}
                            />{' '}
                            {side === 'mine' ? 'garder la mienne' : 'garder la leur'}
                          </label>
                        ))}
                      </fieldset>
                    ) : c.mine ? (
                      'la vôtre'
                    ) : (
                      'la leur'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {missing && (
        <p class="problem" ref={problem} tabIndex={-1}>
          Choisissez la valeur à garder pour {unresolved(changes, choices).map((f) => quoted(label(f))).join(', ')}.
        </p>
      )}
      <div class="actions">
        <button type="button" class="button" onClick={keepBoth} disabled={editor.saving}>
          Garder leurs changements et les miens
        </button>
        <button type="button" class="button secondary" onClick={editor.reload}>
          Recharger la version enregistrée
        </button>
        <button type="button" class="button danger" onClick={() => void editor.overwrite()} disabled={editor.saving}>
          Écraser avec ma version
        </button>
      </div>
    </div>
  );
}

/**
 * The form field a refusal names: the top-level name of the error body's `field` (`attachedLocations[2].name` is the
 * `attachedLocations` field), so that a form shows the sentence beside it. The wording of `message` is never read.
 */
export function refusedField(err: unknown): string | null {
  if (!(err instanceof ApiError) || err.status < 400 || err.status >= 500 || err.field === null) return null;
  return err.field.replace(/[.[].*$/, '');
}

/**
 * The save's refusal while the field it names still holds what was sent: once the agent changes that field, the
 * refusal no longer speaks of it and is not shown (the form's own checks still are). Pass it to `fieldError`.
 */
export function useLiveRefusal<F>(editor: { saveError: unknown; form: F | null }): { saveError: unknown } {
  const field = refusedField(editor.saveError);
  const valueOf = (form: F | null) => (field && form ? JSON.stringify((form as Record<string, unknown>)[field]) : null);
  const sent = useRef<{ error: unknown; value: string | null } | null>(null);
  if (sent.current?.error !== editor.saveError) sent.current = { error: editor.saveError, value: valueOf(editor.form) };
  return { saveError: field === null || sent.current!.value === valueOf(editor.form) ? editor.saveError : null };
}

/** The save's refusal when it names `field` (shown at that field), else null. */
export function fieldError(editor: { saveError: unknown }, field: string): string | null {
  return refusedField(editor.saveError) === field ? (editor.saveError as ApiError).message : null;
}

/**
 * Save and cancel, with the save's failure; a failure that names one of `atFields` is shown at that field instead
 * (fieldError).
 */
function EditorActions<R, F>({ editor, onCancel, atFields = [] }: { editor: Editor<R, F>; onCancel: () => void; atFields?: string[] }) {
  const atField = atFields.includes(refusedField(editor.saveError) ?? '');
  return (
    <>
      {editor.saveError !== null && !atField && <Problem error={editor.saveError} />}
      <div class="actions">
        <button type="submit" class="button" disabled={editor.saving}>
          {editor.saving ? 'Enregistrement…' : 'Enregistrer'}
        </button>
        <button
          type="button"
          class="button secondary"
          onClick={() => {
            editor.discard();
            onCancel();
          }}
        >
          Annuler
        </button>
      </div>
    </>
  );
}

function RestoredNotice({ editor }: { editor: { restored: boolean; dirty: boolean } }) {
  if (!editor.restored || !editor.dirty) return null;
  return <p class="notice">Vos modifications non enregistrées ont été conservées&nbsp;: vérifiez-les, puis enregistrez.</p>;
}

export interface EditorFormProps<R, F> {
  editor: Editor<R, F>;
  /** The heading's id, which names the form; with `title`. */
  id?: string;
  /** The form's heading, focused when it opens. */
  title?: (form: F) => ComponentChildren;
  /** The form's name when it has no heading (the screen's title says what it edits). */
  label?: string;
  /** Each field's label, for the conflict's table. */
  labels: Partial<Record<keyof F & string, string>>;
  /** How the conflict's table shows a field's value (a page by its title); a dash for an empty one by default. */
  show?: (value: unknown, field: keyof F & string) => ComponentChildren;
  /** Fields at which the save's refusal is shown (fieldError); any other refusal is shown above the buttons. */
  atFields?: string[];
  /** Called when the agent saves: false holds the save (the form says why, at its field). */
  beforeSave?: (form: F) => boolean;
  onCancel: () => void;
  /** More classes of the form's card. */
  class?: string;
  /** Beside the form on a wide screen, below it on a phone (the collections as they will be). */
  aside?: (form: F) => ComponentChildren;
  children: (form: F) => ComponentChildren;
}

/**
 * A record's form as the screens draw it: nothing while it loads, the load's failure, else the card with its
 * heading (focused on opening), the restored-draft notice, the conflict of a 412, the fields and save/cancel.
 */
export function EditorForm<R, F>(props: EditorFormProps<R, F>) {
  const { editor, id, title, aside } = props;
  if (editor.loadError) return <Problem error={editor.loadError} />;
  const form = editor.form;
  if (!form) return null;
  const card = (
    <form
      class={`card${props.class ? ` ${props.class}` : ''}`}
      aria-labelledby={title ? id : undefined}
      aria-label={title ? undefined : props.label}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (props.beforeSave?.(form) !== false) void editor.save();
      }}
    >
      {title && id && <FormHeading id={id}>{title(form)}</FormHeading>}
      <RestoredNotice editor={editor} />
      <ConflictPanel editor={editor} labels={props.labels} show={props.show} />
      {props.children(form)}
      <EditorActions editor={editor} onCancel={props.onCancel} atFields={props.atFields} />
    </form>
  );
  if (!aside) return card;
  return (
    <div class="editing">
      {card}
      {aside(form)}
    </div>
  );
}
