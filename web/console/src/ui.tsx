// Shared pieces of every screen: titles, loading and error states, form fields, tables, data loading.
import { useEffect, useId, useRef } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import { messageOf } from './api.ts';
import { hasNavigated, Link } from './router.tsx';
import type { Resource } from '../../shared/resource.ts';

export { useResource, type Resource } from '../../shared/resource.ts';

/** The screen's title: focused when the agent moves to its screen (a screen reader hears it) and in the tab's title. */
export function Title({ children, text }: { children: ComponentChildren; text: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${text} – Console Collecte`;
    if (hasNavigated()) ref.current?.focus({ preventScroll: true });
  }, [text]);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {children}
    </h1>
  );
}

/** A form's heading, focused when the form opens (a keyboard or screen-reader user lands on it). */
export function FormHeading({ id, children }: { id: string; children: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (hasNavigated()) ref.current?.focus();
  }, []);
  return (
    <h2 id={id} ref={ref} tabIndex={-1}>
      {children}
    </h2>
  );
}

/** Where the agent is: links to the screens above this one. */
export function Breadcrumbs({ items }: { items: { href: string; label: string }[] }) {
  return (
    <nav aria-label="Fil d’Ariane" class="breadcrumbs">
      <ol>
        {items.map((item) => (
          <li key={item.href}>
            <Link href={item.href}>{item.label}</Link>
          </li>
        ))}
      </ol>
    </nav>
  );
}

export function Loading({ what = '' }: { what?: string }) {
  return (
    <p class="loading" role="status">
      <span class="spinner" aria-hidden="true" /> Chargement{what ? ` ${what}` : ''}…
    </p>
  );
}

export function Problem({ error, retry }: { error: unknown; retry?: () => void }) {
  return (
    <div class="problem" role="alert">
      <p>{messageOf(error)}</p>
      {retry && (
        <button type="button" class="button secondary" onClick={retry}>
          Réessayer
        </button>
      )}
    </div>
  );
}

/** Loading, error or the data: the usual three states of a screen's resource. */
export function Loaded<T>({ resource, what, children }: { resource: Resource<T>; what?: string; children: (data: T) => ComponentChildren }) {
  if (resource.error) return <Problem error={resource.error} retry={resource.reload} />;
  if (resource.data === null) return <Loading what={what} />;
  return <>{children(resource.data)}</>;
}

/** A labelled field: the label, an optional hint and error, each tied to the control for screen readers. */
export function Field({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: ComponentChildren;
  error?: string | null;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ComponentChildren;
}) {
  const id = useId();
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`field${error ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {children({ id, describedBy: described, invalid: Boolean(error) })}
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** The input attributes a text field may pass on. */
interface InputProps {
  type?: 'text' | 'email' | 'date' | 'number' | 'url' | 'time';
  required?: boolean;
  autocomplete?: string;
  placeholder?: string;
  maxLength?: number;
  min?: string;
  max?: string;
  list?: string;
  spellcheck?: boolean;
  inputMode?: 'decimal' | 'numeric' | 'text' | 'email' | 'tel';
}

export function TextField({
  label,
  value,
  onInput,
  hint,
  error,
  ...rest
}: InputProps & { label: string; value: string; onInput: (value: string) => void; hint?: ComponentChildren; error?: string | null }) {
  return (
    <Field label={label} hint={hint} error={error}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          value={value}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          onInput={(e) => onInput(e.currentTarget.value)}
          {...rest}
          type={rest.type ?? 'text'}
        />
      )}
    </Field>
  );
}

export function TextArea({ label, value, onInput, hint, rows = 3 }: { label: string; value: string; onInput: (value: string) => void; hint?: ComponentChildren; rows?: number }) {
  return (
    <Field label={label} hint={hint}>
      {({ id, describedBy }) => <textarea id={id} rows={rows} value={value} aria-describedby={describedBy} onInput={(e) => onInput(e.currentTarget.value)} />}
    </Field>
  );
}

export function SelectField({
  label,
  value,
  options,
  onChange,
  hint,
}: {
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
  hint?: ComponentChildren;
}) {
  return (
    <Field label={label} hint={hint}>
      {({ id, describedBy }) => (
        <select id={id} value={value} aria-describedby={describedBy} onChange={(e) => onChange(e.currentTarget.value)}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

export function Checkbox({ label, checked, onChange, disabled }: { label: string; checked: boolean; onChange: (checked: boolean) => void; disabled?: boolean }) {
  const id = useId();
  return (
    <div class="checkbox">
      <input id={id} type="checkbox" checked={checked} disabled={disabled} onChange={(e) => onChange(e.currentTarget.checked)} />
      <label for={id}>{label}</label>
    </div>
  );
}

/** A table with a caption (its accessible name); `columns` say how to show each row. */
export function Table<T>({
  caption,
  rows,
  columns,
  rowKey,
  empty = 'Aucun élément.',
}: {
  caption: string;
  rows: T[];
  columns: { label: string; cell: (row: T) => ComponentChildren; class?: string }[];
  rowKey: (row: T) => string;
  empty?: string;
}) {
  if (rows.length === 0) return <p class="muted">{empty}</p>;
  return (
    <div class="table-wrap">
      <table>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.label} scope="col" class={c.class}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => (
                <td key={c.label} class={c.class}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A short message announced politely (saved, deleted …). */
export function Status({ children }: { children: ComponentChildren }) {
  return (
    <p class="status" role="status">
      {children}
    </p>
  );
}

export function Swatch({ color }: { color: string | null }) {
  return <span class="swatch" style={{ background: color ?? '#6b7280' }} aria-hidden="true" />;
}

/** What the last action said above a screen's list: its status (saved, deleted …) and its failure. */
export function Notices({ status, problem }: { status: string | null; problem: unknown }) {
  return (
    <>
      {status && <Status>{status}</Status>}
      {problem !== null && (
        <p class="problem" role="alert">
          {messageOf(problem)}
        </p>
      )}
    </>
  );
}
