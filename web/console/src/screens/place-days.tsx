// A place's collection day (weekly, or every other week from a given week), edited beside the collections as they
// will be; part of the place screen (its chunk).
import { DateField } from '../date-field.tsx';
import { EditorForm, showValue } from '../editor-form.tsx';
import { useEditor } from '../editor.tsx';
import { Checkbox, SelectField, TextArea } from '../form-fields.tsx';
import type { CollectionDay } from '../types.ts';
import { Preview, type DayBody, type PlaceContext } from './place-preview.tsx';
import { dayIn, dayToTimestamp } from './place-text.ts';
import { FIELD_LABELS } from '../field-labels.ts';

const WEEKDAYS = ['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche'];

interface DayForm {
  name: string;
  wasteTypeId: string;
  biweekly: boolean;
  startDate: string;
  description: string;
}

const LABELS: Record<keyof DayForm, string> = FIELD_LABELS.collectionDay;

export const typeOptions = (ctx: PlaceContext) => ctx.types.map((t) => ({ value: t.id, label: t.name }));

export function DayEditor({ ctx, id, onDone }: { ctx: PlaceContext; id: string | null; onDone: (message: string | null) => void }) {
  const tz = ctx.city.timeZone;
  const toBody = (f: DayForm): DayBody => ({
    name: f.name,
    wasteTypeId: f.wasteTypeId,
    biweekly: f.biweekly,
    startDate: f.startDate ? dayToTimestamp(f.startDate) : null,
    description: f.description.trim() || null,
  });
  const editor = useEditor<CollectionDay, DayForm>({
    key: id ? `collectionDay:${id}` : `collectionDay:new:${ctx.place.id}`,
    url: id ? `/admin/collection-days/${id}` : null,
    createUrl: `/admin/places/${ctx.place.id}/collection-days`,
    empty: { name: 'lundi', wasteTypeId: ctx.types[0]?.id ?? '', biweekly: false, startDate: '', description: '' },
    toForm: (d) => ({
      name: d.name,
      wasteTypeId: d.wasteTypeId,
      biweekly: d.biweekly === true,
      startDate: d.startDate ? dayIn(d.startDate, tz) : '',
      description: d.description ?? '',
    }),
    toBody,
    onSaved: (_d, created) => onDone(created ? 'Jour de collecte ajouté.' : 'Jour de collecte enregistré.'),
  });
  const typeName = (v: unknown) => ctx.types.find((t) => t.id === v)?.name ?? showValue(v);
  return (
    <EditorForm
      editor={editor}
      id="day-form-title"
      title={() => (id ? 'Modifier le jour de collecte' : 'Nouveau jour de collecte')}
      labels={LABELS}
      show={(v, field) => (field === 'wasteTypeId' ? typeName(v) : field === 'biweekly' ? (v ? 'oui' : 'non') : showValue(v))}
      onCancel={() => onDone(null)}
      aside={(f) => {
        // Every other week needs its starting week before there is anything to show.
        if (f.biweekly && f.startDate === '') return null;
        const days = [...ctx.place.collectionDays.filter((d) => d.id !== id), { ...toBody(f), ...(id ? { id } : {}) }];
        return <Preview ctx={ctx} days={days} />;
      }}
    >
      {(f) => (
        <>
          <div class="row">
            <SelectField label={LABELS.name} value={f.name} options={WEEKDAYS.map((d) => ({ value: d, label: d }))} onChange={(name) => editor.set({ name })} />
            <SelectField label={LABELS.wasteTypeId} value={f.wasteTypeId} options={typeOptions(ctx)} onChange={(wasteTypeId) => editor.set({ wasteTypeId })} />
          </div>
          <fieldset>
            <legend>Rythme</legend>
            <Checkbox label={LABELS.biweekly} checked={f.biweekly} onChange={(biweekly) => editor.set({ biweekly })} />
            <DateField
              label={f.biweekly ? 'Une semaine de collecte (première semaine du rythme)' : 'À partir du (facultatif)'}
              hint={f.biweekly ? 'La collecte a lieu la semaine de cette date, puis toutes les deux semaines.' : 'Vide\u00a0: la règle s’applique déjà.'}
              value={f.startDate}
              required={f.biweekly}
              error={f.biweekly && !f.startDate ? 'Choisissez une date\u00a0: le rythme d’une semaine sur deux part de sa semaine.' : null}
              onInput={(startDate) => editor.set({ startDate })}
            />
          </fieldset>
          <TextArea label={LABELS.description} value={f.description} onInput={(description) => editor.set({ description })} />
        </>
      )}
    </EditorForm>
  );
}
