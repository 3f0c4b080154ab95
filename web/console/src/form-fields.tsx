// The form fields of the screens: a label, an optional hint and the API's refusal, each tied to its control for
// screen readers (loaded with the screens, not with the first screen).
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

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

/** A colour as `<input type="color">` wants it (#rrggbb), from #rgb, #rrggbb or #rrggbbaa; `fallback` otherwise. */
function sixDigits(color: string, fallback: string): string {
  const hex = color.replace('#', '');
  if (/^[0-9a-f]{3}$/i.test(hex)) return `#${[...hex].map((c) => c + c).join('')}`.toLowerCase();
  if (/^[0-9a-f]{6}([0-9a-f]{2})?$/i.test(hex)) return `#${hex.slice(0, 6)}`.toLowerCase();
  return fallback;
}

/**
 * A colour: the browser's palette and its code as text, either one typed. `fallback` is what the palette shows while
 * the text is not a colour (an empty, optional one).
 */
export function ColorField({
  label,
  value,
  onInput,
  hint = 'Choisissez dans la palette ou tapez un code (#RRGGBB).',
  error,
  fallback = '#000000',
}: {
  label: string;
  value: string;
  onInput: (value: string) => void;
  hint?: ComponentChildren;
  error?: string | null;
  fallback?: string;
}) {
  return (
    <Field label={label} hint={hint} error={error}>
      {({ id, describedBy, invalid }) => (
        <div class="row color-row">
          <input id={id} type="color" value={sixDigits(value, fallback)} aria-describedby={describedBy} onInput={(e) => onInput(e.currentTarget.value.toUpperCase())} />
          <input
            type="text"
            aria-label={`${label} (code)`}
            value={value}
            maxLength={9}
            spellcheck={false}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            onInput={(e) => onInput(e.currentTarget.value)}
          />
        </div>
      )}
    </Field>
  );
}

export function TextArea({
  label,
  value,
  onInput,
  hint,
  error,
  rows = 3,
  required,
  maxLength,
}: {
  label: string;
  value: string;
  onInput: (value: string) => void;
  hint?: ComponentChildren;
  error?: string | null;
  rows?: number;
  required?: boolean;
  maxLength?: number;
}) {
  return (
    <Field label={label} hint={hint} error={error}>
      {({ id, describedBy, invalid }) => (
        <textarea
          id={id}
          rows={rows}
          value={value}
          required={required}
          maxLength={maxLength}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          onInput={(e) => onInput(e.currentTarget.value)}
        />
      )}
    </Field>
  );
}

export function SelectField({
  label,
  value,
  options,
  onChange,
  hint,
  error,
  required,
}: {
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
  hint?: ComponentChildren;
  error?: string | null;
  required?: boolean;
}) {
  return (
    <Field label={label} hint={hint} error={error}>
      {({ id, describedBy, invalid }) => (
        <select id={id} value={value} required={required} aria-describedby={describedBy} aria-invalid={invalid || undefined} onChange={(e) => onChange(e.currentTarget.value)}>
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

export function Checkbox({
  label,
  checked,
  onChange,
  disabled,
  error,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  error?: string | null;
}) {
  const id = useId();
  return (
    <div class="checkbox">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
      <label for={id}>{label}</label>
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** One choice of a few, as radio buttons under a legend (the kind of an exception). */
export function RadioGroup<V extends string>({
  legend,
  value,
  options,
  onChange,
  hint,
}: {
  legend: string;
  value: V;
  options: { value: V; label: string }[];
  onChange: (value: V) => void;
  hint?: ComponentChildren;
}) {
  const id = useId();
  return (
    <fieldset class="radios" aria-describedby={hint ? `${id}-hint` : undefined}>
      <legend>{legend}</legend>
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {options.map((o) => (
        <div class="radio" key={o.value}>
          <input type="radio" id={`${id}-${o.value}`} name={id} value={o.value} checked={value === o.value} onChange={() => onChange(o.value)} />
          <label for={`${id}-${o.value}`}>{o.label}</label>
        </div>
      ))}
    </fieldset>
  );
}
