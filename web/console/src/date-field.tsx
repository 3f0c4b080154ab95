// A day typed in a date input, said back in French under it (« mardi 1er décembre 2026 »): the input itself shows
// the day in the browser's language and order, which need not be French.
import type { ComponentChildren } from 'preact';
import { TextField } from './form-fields.tsx';
import { frenchDate } from './french.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function DateField({
  hint,
  value,
  ...rest
}: {
  label: string;
  value: string;
  onInput: (value: string) => void;
  hint?: ComponentChildren;
  error?: string | null;
  required?: boolean;
  /** The first and last days the picker offers (YYYY-MM-DD). */
  min?: string;
  max?: string;
}) {
  const said = DAY.test(value) ? <span class="date-said">Date choisie&nbsp;: {frenchDate(value)}.</span> : null;
  return (
    <TextField
      {...rest}
      type="date"
      value={value}
      hint={
        hint || said ? (
          <>
            {hint} {said}
          </>
        ) : undefined
      }
    />
  );
}
