// When a post or page is public: a draft, published now (or since its date), or scheduled for a later date.
import { useId } from 'preact/hooks';
import { fromLocalInput, type Publication } from './types.ts';

export interface PublicationForm {
  mode: Publication;
  /** The date of a scheduled publication, as `<input type="datetime-local">` holds it. */
  at: string;
  /** When the record has been public since (kept when it stays published); null: publishing now. */
  since: string | null;
}

/** What is wrong with the chosen publication, in French; null when it can be saved. */
export function publicationProblem(form: PublicationForm, now = Date.now()): string | null {
  if (form.mode !== 'scheduled') return null;
  const at = fromLocalInput(form.at);
  if (!at) return 'Choisissez la date et l’heure de publication.';
  if (Date.parse(at) <= now) return 'Choisissez une date de publication à venir, ou publiez maintenant.';
  return null;
}

/** The `publishedAt` to send: null for a draft, the record's date or now when published, the chosen date when scheduled. */
export function publishedAtOf(form: PublicationForm): string | null {
  if (form.mode === 'draft') return null;
  if (form.mode === 'scheduled') return fromLocalInput(form.at);
  return form.since;
}

export function PublicationField({
  form,
  wasPublished,
  error,
  onChange,
}: {
  form: PublicationForm;
  /** Whether the record is public already: « Publié » rather than « Publier maintenant ». */
  wasPublished: boolean;
  error: string | null;
  onChange: (patch: Partial<PublicationForm>) => void;
}) {
  const id = useId();
  const option = (mode: PublicationForm['mode'], label: string) => (
    <div class="radio">
      <input id={`${id}-${mode}`} type="radio" name={`${id}-mode`} checked={form.mode === mode} onChange={() => onChange({ mode })} />
      <label for={`${id}-${mode}`}>{label}</label>
    </div>
  );
  return (
    <fieldset>
      <legend>Publication</legend>
      {option('draft', wasPublished ? 'Dépublier (brouillon, invisible des habitants)' : 'Brouillon (invisible des habitants)')}
      {option('published', wasPublished && form.since ? 'Publié' : 'Publier maintenant')}
      {option('scheduled', 'Programmer à une date')}
      {form.mode === 'scheduled' && (
        <div class={`field${error ? ' invalid' : ''}`}>
          <label for={`${id}-at`}>Date et heure de publication</label>
          <input
            id={`${id}-at`}
            type="datetime-local"
            value={form.at}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onInput={(e) => onChange({ at: e.currentTarget.value })}
          />
          {error && (
            <p class="field-error" id={`${id}-error`}>
              {error}
            </p>
          )}
        </div>
      )}
    </fieldset>
  );
}
