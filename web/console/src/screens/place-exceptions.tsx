// A place's exception (a collection cancelled or moved, on a date or a date range, explained to citizens), edited
// beside the collections as they will be; part of the place screen (its chunk).
import { DateField } from '../date-field.tsx';
import { EditorForm, showValue } from '../editor-form.tsx';
import { useEditor } from '../editor.tsx';
import { SelectField, TextArea, TextField } from '../form-fields.tsx';
import type { CollectionException } from '../types.ts';
import { typeOptions } from './place-days.tsx';
import { Preview, type ExceptionBody, type PlaceContext } from './place-preview.tsx';
import { dayIn, dayToTimestamp } from './place-text.ts';

interface ExceptionForm {
  wasteTypeId: string;
  dateFrom: string;
  dateTo: string;
  name: string;
  description: string;
}

const LABELS: Record<keyof ExceptionForm, string> = {
  wasteTypeId: 'Type de déchets',
  dateFrom: 'Du',
  dateTo: 'Au',
  name: 'Titre',
  description: 'Explication pour les habitants',
};

/** Why the range cannot be saved, or null. */
const rangeProblem = (f: ExceptionForm) => (f.dateTo && f.dateFrom && f.dateTo < f.dateFrom ? 'La date de fin doit suivre la date de début.' : null);

export function ExceptionEditor({ ctx, id, onDone }: { ctx: PlaceContext; id: string | null; onDone: (message: string | null) => void }) {
  const tz = ctx.city.timeZone;
  const toBody = (f: ExceptionForm): ExceptionBody => ({
    wasteTypeId: f.wasteTypeId,
    dateFrom: dayToTimestamp(f.dateFrom),
    dateTo: f.dateTo ? dayToTimestamp(f.dateTo) : null,
    name: f.name.trim() || null,
    description: f.description.trim() || null,
  });
  const editor = useEditor<CollectionException, ExceptionForm>({
    key: id ? `exception:${id}` : `exception:new:${ctx.place.id}`,
    url: id ? `/admin/exceptions/${id}` : null,
    createUrl: `/admin/places/${ctx.place.id}/exceptions`,
    empty: { wasteTypeId: ctx.types[0]?.id ?? '', dateFrom: dayIn(new Date().toISOString(), tz), dateTo: '', name: '', description: '' },
    toForm: (x) => ({
      wasteTypeId: x.wasteTypeId,
      dateFrom: dayIn(x.dateFrom, tz),
      dateTo: x.dateTo ? dayIn(x.dateTo, tz) : '',
      name: x.name ?? '',
      description: x.description ?? '',
    }),
    toBody,
    onSaved: (_x, created) => onDone(created ? 'Exception ajoutée.' : 'Exception enregistrée.'),
  });
  return (
    <EditorForm
      editor={editor}
      id="exception-form-title"
      title={() => (id ? 'Modifier l’exception' : 'Nouvelle exception (collecte annulée ou déplacée)')}
      labels={LABELS}
      show={(v, field) => (field === 'wasteTypeId' ? (ctx.types.find((t) => t.id === v)?.name ?? showValue(v)) : showValue(v))}
      onCancel={() => onDone(null)}
      aside={(f) => {
        const ok = f.dateFrom && !rangeProblem(f);
        const exceptions = [...ctx.place.exceptions.filter((x) => x.id !== id), ...(ok ? [{ ...toBody(f), ...(id ? { id } : {}) }] : [])];
        return <Preview ctx={ctx} exceptions={exceptions} />;
      }}
    >
      {(f) => (
        <>
          <SelectField label={LABELS.wasteTypeId} value={f.wasteTypeId} options={typeOptions(ctx)} onChange={(wasteTypeId) => editor.set({ wasteTypeId })} />
          <div class="row">
            <DateField label={LABELS.dateFrom} hint="Premier jour concerné." value={f.dateFrom} required onInput={(dateFrom) => editor.set({ dateFrom })} />
            <DateField label="Au (facultatif)" hint="Vide&nbsp;: ce seul jour." value={f.dateTo} error={rangeProblem(f)} onInput={(dateTo) => editor.set({ dateTo })} />
          </div>
          <TextField label={LABELS.name} value={f.name} maxLength={200} hint="Par exemple&nbsp;: Noël, grève, travaux." onInput={(name) => editor.set({ name })} />
          <TextArea
            label={LABELS.description}
            value={f.description}
            hint="Ce qui se passe à la place&nbsp;: report, point d’apport…"
            onInput={(description) => editor.set({ description })}
          />
        </>
      )}
    </EditorForm>
  );
}
