// A place's street rules (CONTRACT section 11): which numbers of which streets the place serves; part of the place
// screen (its chunk), in a file of its own.
import { ConflictPanel, EditorActions, RestoredNotice, useEditor } from '../editor.tsx';
import type { Place } from '../types.ts';
import { FormHeading, Problem, SelectField, Table, TextField } from '../ui.tsx';

type Street = Place['streets'][number];

interface StreetForm {
  street: string;
  fromNumber: string;
  toNumber: string;
  side: string;
}

const LABELS: Record<keyof StreetForm, string> = { street: 'Rue', fromNumber: 'Du numéro', toNumber: 'Au numéro', side: 'Côté' };
const SIDES = [
  { value: 'ALL', label: 'Tous les numéros' },
  { value: 'ODD', label: 'Numéros impairs' },
  { value: 'EVEN', label: 'Numéros pairs' },
];

/** `numéros impairs de 1 à 99`, `tous les numéros` … */
export function streetRange(s: Pick<Street, 'fromNumber' | 'toNumber' | 'side'>): string {
  const side = s.side === 'ODD' ? 'numéros impairs' : s.side === 'EVEN' ? 'numéros pairs' : 'numéros';
  if (s.fromNumber === null && s.toNumber === null) return s.side === 'ALL' ? 'tous les numéros' : `tous les ${side}`;
  if (s.toNumber === null) return `${side} à partir du ${s.fromNumber}`;
  if (s.fromNumber === null) return `${side} jusqu’au ${s.toNumber}`;
  return `${side} de ${s.fromNumber} à ${s.toNumber}`;
}

const toForm = (s: Street): StreetForm => ({
  street: s.street,
  fromNumber: s.fromNumber === null ? '' : String(s.fromNumber),
  toNumber: s.toNumber === null ? '' : String(s.toNumber),
  side: s.side,
});
const int = (v: string) => (v.trim() === '' ? null : Number(v));
const toBody = (f: StreetForm) => ({ street: f.street.trim(), fromNumber: int(f.fromNumber), toNumber: int(f.toNumber), side: f.side });

export function StreetEditor({ placeId, id, onDone }: { placeId: string; id: string | null; onDone: (message: string | null) => void }) {
  const editor = useEditor<Street, StreetForm>({
    key: id ? `street:${id}` : `street:new:${placeId}`,
    url: id ? `/admin/streets/${id}` : null,
    createUrl: `/admin/places/${placeId}/streets`,
    empty: { street: '', fromNumber: '', toNumber: '', side: 'ALL' },
    toForm,
    toBody,
    onSaved: (_s, created) => onDone(created ? 'Rue ajoutée.' : 'Rue enregistrée.'),
  });
  if (editor.loadError) return <Problem error={editor.loadError} />;
  const f = editor.form;
  if (!f) return null;
  return (
    <form
      class="card"
      aria-labelledby="street-form-title"
      onSubmit={(e) => {
        e.preventDefault();
        void editor.save();
      }}
    >
      <FormHeading id="street-form-title">{id ? 'Modifier la rue' : 'Nouvelle rue desservie'}</FormHeading>
      <RestoredNotice editor={editor} />
      <ConflictPanel editor={editor} labels={LABELS} />
      <TextField label={LABELS.street} value={f.street} required maxLength={200} hint="Comme sur la plaque : Rue de Siam." onInput={(street) => editor.set({ street })} />
      <div class="row">
        <TextField type="number" label={LABELS.fromNumber} hint="Vide : depuis le début." value={f.fromNumber} min="0" onInput={(fromNumber) => editor.set({ fromNumber })} />
        <TextField type="number" label={LABELS.toNumber} hint="Vide : jusqu’au bout." value={f.toNumber} min="0" onInput={(toNumber) => editor.set({ toNumber })} />
        <SelectField label={LABELS.side} value={f.side} options={SIDES} onChange={(side) => editor.set({ side })} />
      </div>
      <EditorActions editor={editor} onCancel={() => onDone(null)} />
    </form>
  );
}

export function StreetTable({ streets, onEdit, onRemove }: { streets: Street[]; onEdit: (id: string) => void; onRemove: (id: string) => void }) {
  return (
    <Table
      caption="Rues desservies"
      rows={streets}
      rowKey={(s) => s.id}
      empty="Aucune rue : le secteur se trouve par sa zone ou ses lieux rattachés."
      columns={[
        { label: 'Rue', cell: (s) => s.street },
        { label: 'Numéros', cell: (s) => streetRange(s) },
        {
          label: 'Actions',
          class: 'actions-cell',
          cell: (s) => (
            <>
              <button type="button" class="link-button" onClick={() => onEdit(s.id)}>
                Modifier<span class="visually-hidden"> {s.street}, {streetRange(s)}</span>
              </button>
              <button type="button" class="link-button danger" onClick={() => onRemove(s.id)}>
                Supprimer<span class="visually-hidden"> {s.street}, {streetRange(s)}</span>
              </button>
            </>
          ),
        },
      ]}
    />
  );
}
