// A place's exception, edited beside the collections as they will be; part of the place screen (its chunk). It does
// one of three things (docs/api.md, exceptions and holiday rules): cancel the collections of a day or a date range,
// move one collection to another day (14 days at most either way), or add a collection on a day the weekly rules do
// not have. The fields follow the choice, and the body sends null where the kind wants it.
import { DateField } from '../date-field.tsx';
import { EditorForm, fieldError, showValue, useLiveRefusal } from '../editor-form.tsx';
import { useEditor } from '../editor.tsx';
import { RadioGroup, SelectField, TextArea, TextField } from '../form-fields.tsx';
import type { AdminException, ExceptionKind } from '../types.ts';
import { typeOptions } from './place-days.tsx';
import { exceptionBody, Preview, type ExceptionBody, type PlaceContext } from './place-preview.tsx';
import { dayIn, dayToTimestamp, frenchDate } from './place-text.ts';
import { FIELD_LABELS } from '../field-labels.ts';

/** How far a collection may be moved, in days before or after its day (the API's rule: docs/api.md, exceptions and holiday rules). */
const MAX_MOVE_DAYS = 14;

interface ExceptionForm {
  kind: ExceptionKind;
  wasteTypeId: string;
  dateFrom: string;
  dateTo: string;
  movedTo: string;
  name: string;
  description: string;
}

const KINDS: { value: ExceptionKind; label: string; edit: string }[] = [
  { value: 'CANCEL', label: 'Annuler une collecte', edit: 'collecte annulée' },
  { value: 'MOVE', label: 'Déplacer une collecte', edit: 'collecte déplacée' },
  { value: 'ADD', label: 'Ajouter une collecte', edit: 'collecte ajoutée' },
];
const kindOf = (kind: ExceptionKind) => KINDS.find((k) => k.value === kind)!;

/** The first day's label: what dateFrom is for each kind. */
const DAY_LABELS: Record<ExceptionKind, string> = { CANCEL: 'Du', MOVE: 'Jour prévu', ADD: 'Jour de la collecte ajoutée' };

const LABELS: Record<keyof ExceptionForm, string> = FIELD_LABELS.exception;

function addDays(day: string, n: number): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T12:00:00Z`) - Date.parse(`${from}T12:00:00Z`)) / 86_400_000);

/** Why the range of a cancellation cannot be saved, or null. */
const rangeProblem = (f: ExceptionForm) =>
  f.kind === 'CANCEL' && f.dateTo && f.dateFrom && f.dateTo < f.dateFrom ? 'La date de fin doit suivre la date de début.' : null;

/** Why the new day of a move cannot be saved, or null (the API says the same, at the same field). */
function moveProblem(f: ExceptionForm): string | null {
  if (f.kind !== 'MOVE' || !f.dateFrom || !f.movedTo) return null;
  const days = daysBetween(f.dateFrom, f.movedTo);
  if (days === 0) return 'Choisissez un autre jour que le jour prévu.';
  if (Math.abs(days) > MAX_MOVE_DAYS) return `Le nouveau jour doit être à ${MAX_MOVE_DAYS}\u00a0jours au plus du jour prévu.`;
  return null;
}

export function ExceptionEditor({ ctx, id, onDone }: { ctx: PlaceContext; id: string | null; onDone: (message: string | null) => void }) {
  const tz = ctx.city.timeZone;
  const toBody = (f: ExceptionForm): ExceptionBody => ({
    kind: f.kind,
    wasteTypeId: f.wasteTypeId,
    dateFrom: dayToTimestamp(f.dateFrom),
    // Only a cancellation spans days; only a move has a new day.
    dateTo: f.kind === 'CANCEL' && f.dateTo ? dayToTimestamp(f.dateTo) : null,
    movedTo: f.kind === 'MOVE' && f.movedTo ? dayToTimestamp(f.movedTo) : null,
    name: f.name.trim() || null,
    description: f.description.trim() || null,
  });
  const editor = useEditor<AdminException, ExceptionForm>({
    key: id ? `exception:${id}` : `exception:new:${ctx.place.id}`,
    url: id ? `/admin/exceptions/${id}` : null,
    createUrl: `/admin/places/${ctx.place.id}/exceptions`,
    empty: {
      kind: 'CANCEL',
      wasteTypeId: ctx.types[0]?.id ?? '',
      dateFrom: dayIn(new Date().toISOString(), tz),
      dateTo: '',
      movedTo: '',
      name: '',
      description: '',
    },
    toForm: (x) => ({
      kind: x.kind,
      wasteTypeId: x.wasteTypeId,
      dateFrom: dayIn(x.dateFrom, tz),
      dateTo: x.dateTo ? dayIn(x.dateTo, tz) : '',
      movedTo: x.movedTo ? dayIn(x.movedTo, tz) : '',
      name: x.name ?? '',
      description: x.description ?? '',
    }),
    toBody,
    onSaved: (_x, created) => onDone(created ? 'Exception ajoutée.' : 'Exception enregistrée.'),
  });
  const refusal = useLiveRefusal(editor);
  const at = (field: keyof ExceptionForm) => fieldError(refusal, field);
  const show = (v: unknown, field: keyof ExceptionForm) => {
    if (field === 'wasteTypeId') return ctx.types.find((t) => t.id === v)?.name ?? showValue(v);
    if (field === 'kind') return KINDS.find((k) => k.value === v)?.label ?? showValue(v);
    if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v)) return frenchDate(v);
    return showValue(v);
  };
  return (
    <EditorForm
      editor={editor}
      id="exception-form-title"
      title={(f) => (id ? `Modifier l’exception (${kindOf(f.kind).edit})` : kindOf(f.kind).label)}
      labels={LABELS}
      show={show}
      atFields={['kind', 'wasteTypeId', 'dateFrom', 'dateTo', 'movedTo', 'name', 'description']}
      onCancel={() => onDone(null)}
      aside={(f) => {
        const ok = f.dateFrom && !rangeProblem(f) && (f.kind !== 'MOVE' || (f.movedTo && !moveProblem(f)));
        const exceptions = [...ctx.exceptions.filter((x) => x.id !== id).map(exceptionBody), ...(ok ? [{ ...toBody(f), ...(id ? { id } : {}) }] : [])];
        return <Preview ctx={ctx} exceptions={exceptions} />;
      }}
    >
      {(f) => (
        <>
          <RadioGroup legend={'Que voulez-vous faire\u202f?'} value={f.kind} options={KINDS} onChange={(kind) => editor.set({ kind })} />
          {at('kind') && <p class="field-error">{at('kind')}</p>}
          <SelectField
            label={LABELS.wasteTypeId}
            value={f.wasteTypeId}
            options={typeOptions(ctx)}
            error={at('wasteTypeId')}
            onChange={(wasteTypeId) => editor.set({ wasteTypeId })}
          />
          {f.kind === 'CANCEL' && (
            <div class="row" key="cancel">
              <DateField label={DAY_LABELS.CANCEL} hint="Premier jour sans collecte." value={f.dateFrom} required error={at('dateFrom')} onInput={(dateFrom) => editor.set({ dateFrom })} />
              <DateField
                label="Au (facultatif)"
                hint="Vide&nbsp;: ce seul jour."
                value={f.dateTo}
                min={f.dateFrom || undefined}
                error={at('dateTo') ?? rangeProblem(f)}
                onInput={(dateTo) => editor.set({ dateTo })}
              />
            </div>
          )}
          {f.kind === 'MOVE' && (
            <fieldset key="move">
              <legend>Jours</legend>
              <p class="hint">
                La collecte peut être avancée ou reportée de {MAX_MOVE_DAYS}&nbsp;jours au plus
                {f.dateFrom ? `\u00a0: entre le ${frenchDate(addDays(f.dateFrom, -MAX_MOVE_DAYS), { year: false })} et le ${frenchDate(addDays(f.dateFrom, MAX_MOVE_DAYS), { year: false })}` : ''}.
              </p>
              <div class="row">
                <DateField
                  label={DAY_LABELS.MOVE}
                  hint="Le jour où la collecte était prévue."
                  value={f.dateFrom}
                  required
                  error={at('dateFrom')}
                  onInput={(dateFrom) => editor.set({ dateFrom })}
                />
                <DateField
                  label={LABELS.movedTo}
                  hint="Le jour où elle a lieu à la place."
                  value={f.movedTo}
                  required
                  min={f.dateFrom ? addDays(f.dateFrom, -MAX_MOVE_DAYS) : undefined}
                  max={f.dateFrom ? addDays(f.dateFrom, MAX_MOVE_DAYS) : undefined}
                  error={at('movedTo') ?? moveProblem(f)}
                  onInput={(movedTo) => editor.set({ movedTo })}
                />
              </div>
            </fieldset>
          )}
          {f.kind === 'ADD' && (
            <DateField
              key="add"
              label={DAY_LABELS.ADD}
              hint="Un jour où ce type de déchets n’est pas collecté d’habitude."
              value={f.dateFrom}
              required
              error={at('dateFrom')}
              onInput={(dateFrom) => editor.set({ dateFrom })}
            />
          )}
          <TextField label={LABELS.name} value={f.name} maxLength={200} hint="Par exemple&nbsp;: Noël, grève, travaux." error={at('name')} onInput={(name) => editor.set({ name })} />
          <TextArea
            label={LABELS.description}
            value={f.description}
            hint="Ce que les habitants doivent savoir&nbsp;: la raison, un point d’apport…"
            error={at('description')}
            onInput={(description) => editor.set({ description })}
          />
        </>
      )}
    </EditorForm>
  );
}
