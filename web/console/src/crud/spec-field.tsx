// One field of a spec (spec.ts) drawn by its kind, with its help and the API's refusal at it.
import { useId } from 'preact/hooks';
import { DateField } from '../date-field.tsx';
import { Checkbox, SelectField, TextArea, TextField } from '../form-fields.tsx';
import type { FieldShape, FormValue } from './spec.ts';

export function SpecField({ field, value, error, onChange }: { field: FieldShape; value: FormValue; error: string | null; onChange: (value: FormValue) => void }) {
  const groupId = useId();
  const text = typeof value === 'string' ? value : '';
  const common = { label: field.label, hint: field.help, error, required: field.required };
  switch (field.kind ?? 'text') {
    case 'long':
      return <TextArea {...common} value={text} maxLength={field.maxLength} rows={4} onInput={onChange} />;
    case 'boolean':
      return <Checkbox label={field.label} checked={value === true} error={error} onChange={onChange} />;
    case 'date':
      return <DateField {...common} value={text} onInput={onChange} />;
    case 'number':
      return <TextField {...common} value={text} inputMode="decimal" onInput={onChange} />;
    case 'integer':
      return <TextField {...common} type="number" value={text} onInput={onChange} />;
    case 'email':
    case 'url':
      return <TextField {...common} type={field.kind === 'url' ? 'url' : 'email'} value={text} maxLength={field.maxLength} spellcheck={false} onInput={onChange} />;
    case 'select': {
      const choices = field.choices ?? [];
      // A choice to make, or none (an optional field): the empty value is one of the options.
      const none = field.required && choices.some((c) => c.value === text) ? [] : [{ value: '', label: field.required ? 'Choisissez…' : '—' }];
      return <SelectField {...common} value={text} options={[...none, ...choices]} onChange={onChange} />;
    }
    case 'multi': {
      const chosen = Array.isArray(value) ? value : [];
      const choices = field.choices ?? [];
      return (
        <fieldset class={error ? 'invalid' : undefined} aria-describedby={error ? `${groupId}-error` : field.help ? `${groupId}-hint` : undefined}>
          <legend>{field.label}</legend>
          {field.help && (
            <p class="hint" id={`${groupId}-hint`}>
              {field.help}
            </p>
          )}
          {choices.length === 0 && <p class="muted">Rien à choisir pour l’instant.</p>}
          <div class="choices">
            {choices.map((c) => (
              <Checkbox
                key={c.value}
                label={c.label}
                checked={chosen.includes(c.value)}
                // The choices' order, whatever the order of the clicks: the form compares equal to the record it came from.
                onChange={(on) => onChange(choices.filter((x) => (x.value === c.value ? on : chosen.includes(x.value))).map((x) => x.value))}
              />
            ))}
          </div>
          {error && (
            <p class="field-error" id={`${groupId}-error`}>
              {error}
            </p>
          )}
        </fieldset>
      );
    }
    default:
      return <TextField {...common} value={text} maxLength={field.maxLength} onInput={onChange} />;
  }
}
