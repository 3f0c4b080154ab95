// A commune's waste types: the list, and a form to create or change one (name, colours, icon, texts) with its
// materials below, a list drawn from their spec.
import { useState } from 'preact/hooks';
import { get, getAll } from '../api.ts';
import { CrudSection } from '../crud/crud-section.tsx';
import type { ResourceSpec } from '../crud/spec.ts';
import { EditorForm } from '../editor-form.tsx';
import { removeRecord, useEditing, useEditor } from '../editor.tsx';
import { ColorField, TextArea, TextField } from '../form-fields.tsx';
import { ofName, quoted } from '../french.ts';
import { HistoryLink } from '../history-link.tsx';
import type { ScreenProps } from '../screens.ts';
import { Swatch, Table } from '../table.tsx';
import type { City, WasteType, WasteTypeDetail } from '../types.ts';
import { Breadcrumbs, Loaded, Notices, Title, useResource } from '../ui.tsx';
import { FIELD_LABELS } from '../field-labels.ts';

/** A waste type's materials (details): what the sorting guide lists under it. */
const detailSpec = (wasteTypeId: string): ResourceSpec<WasteTypeDetail> => ({
  key: `wasteTypeDetail:${wasteTypeId}`,
  noun: { label: 'Matériau', the: 'le matériau' },
  caption: 'Matériaux de ce type de déchets',
  listUrl: `/admin/waste-types/${wasteTypeId}/details`,
  itemUrl: (id) => `/admin/waste-type-details/${id}`,
  fields: [
    { name: 'material', label: 'Matériau', required: true, help: 'Par exemple «\u00a0Bouteille en verre (eau, vin)\u00a0».' },
    { name: 'description', label: 'Description du matériau', kind: 'long' },
    { name: 'instructions', label: 'Consignes pour ce matériau', kind: 'long' },
    { name: 'imageUrl', label: 'Adresse de l’image', kind: 'url', help: 'Une adresse https, ou vide.' },
  ],
  columns: ['material', 'instructions'],
  nameOf: (d) => d.material,
  addLabel: 'Ajouter un matériau',
  empty: 'Aucun matériau pour ce type de déchets.',
});

/** Icon names of the Material Design Icons set the apps draw (the demo's, and a few more). */
const ICONS = ['trash-can-outline', 'recycle', 'bottle-wine-outline', 'food-apple-outline', 'leaf', 'warehouse', 'tshirt-crew-outline', 'pill', 'battery', 'lightbulb-outline', 'newspaper-variant-outline', 'sofa-outline'];

interface Form {
  name: string;
  color: string;
  colorLight: string;
  icon: string;
  description: string;
  instructions: string;
}

const LABELS: Record<keyof Form, string> = FIELD_LABELS.wasteType;

const EMPTY: Form = { name: '', color: '#4B5563', colorLight: '', icon: '', description: '', instructions: '' };

const toForm = (w: WasteType): Form => ({
  name: w.name,
  color: w.color ?? '',
  colorLight: w.colorLight ?? '',
  icon: w.icon ?? '',
  description: w.description ?? '',
  instructions: w.instructions ?? '',
});

const orNull = (s: string) => (s.trim() === '' ? null : s.trim());
const toBody = (f: Form) => ({
  name: f.name.trim(),
  color: orNull(f.color),
  colorLight: orNull(f.colorLight),
  icon: orNull(f.icon),
  description: orNull(f.description),
  instructions: orNull(f.instructions),
});

function WasteTypeForm({ cityId, id, onDone }: { cityId: string; id: string | null; onDone: (saved: string | null) => void }) {
  const editor = useEditor<WasteType, Form>({
    key: id ? `wasteType:${id}` : `wasteType:new:${cityId}`,
    url: id ? `/admin/waste-types/${id}` : null,
    createUrl: `/admin/cities/${cityId}/waste-types`,
    empty: EMPTY,
    toForm,
    toBody,
    onSaved: (w, created) => onDone(created ? `Type de déchets ${quoted(w.name)} créé.` : `Type de déchets ${quoted(w.name)} enregistré.`),
  });
  return (
    <EditorForm editor={editor} id="waste-type-form-title" title={(f) => (id ? `Modifier ${quoted(f.name || '…')}` : 'Nouveau type de déchets')} labels={LABELS} onCancel={() => onDone(null)}>
      {(f) => (
        <>
          <TextField label={LABELS.name} value={f.name} required maxLength={200} onInput={(name) => editor.set({ name })} />
          <div class="row">
            <ColorField label={LABELS.color} value={f.color} onInput={(color) => editor.set({ color })} />
            <ColorField label={LABELS.colorLight} value={f.colorLight} onInput={(colorLight) => editor.set({ colorLight })} />
          </div>
          <TextField
            label={LABELS.icon}
            value={f.icon}
            list="waste-type-icons"
            hint="Nom d’une icône Material Design (par exemple recycle, leaf, trash-can-outline)."
            onInput={(icon) => editor.set({ icon })}
          />
          <datalist id="waste-type-icons">
            {ICONS.map((icon) => (
              <option key={icon} value={icon} />
            ))}
          </datalist>
          <p class="muted">
            Aperçu&nbsp;: <Swatch color={f.color || null} />
            <strong>{f.name || 'Nom du type'}</strong> {f.icon && <span>· icône {f.icon}</span>}
          </p>
          <TextArea label={LABELS.description} value={f.description} onInput={(description) => editor.set({ description })} />
          <TextArea label={LABELS.instructions} value={f.instructions} rows={4} onInput={(instructions) => editor.set({ instructions })} />
        </>
      )}
    </EditorForm>
  );
}

export default function WasteTypes({ params, query }: ScreenProps) {
  const { cityId } = params;
  const data = useResource(cityId, async () => ({
    city: await get<City>(`/admin/cities/${cityId}`),
    types: await getAll<WasteType>(`/admin/cities/${cityId}/waste-types`),
  }));
  const { editing, status, setStatus, open, done } = useEditing(query, data.reload);
  const [problem, setProblem] = useState<unknown>(null);

  const remove = async (w: WasteType) => {
    if (!confirm(`Supprimer le type de déchets ${quoted(w.name)} et ses consignes\u202f?`)) return;
    setProblem(null);
    try {
      await removeRecord(`/admin/waste-types/${w.id}`);
      setStatus(`Type de déchets ${quoted(w.name)} supprimé.`);
      data.reload();
    } catch (err) {
      setProblem(err);
    }
  };

  return (
    <Loaded resource={data} what="des types de déchets">
      {({ city, types }) => (
        <section>
          <Breadcrumbs items={[{ href: '/console/communes', label: 'Communes' }, { href: `/console/communes/${cityId}`, label: city.name }]} />
          <Title text={`Types de déchets – ${city.name}`}>Types de déchets</Title>
          <Notices status={status} problem={problem} />
          {editing ? (
            <>
              <WasteTypeForm
                key={editing}
                cityId={cityId}
                id={editing === 'nouveau' ? null : editing}
                onDone={done}
              />
              {editing !== 'nouveau' && (
                <CrudSection key={`details:${editing}`} heading="Matériaux de ce type de déchets" spec={detailSpec(editing)} onChange={data.reload} />
              )}
            </>
          ) : (
            <p>
              <button type="button" class="button" onClick={() => open('nouveau')}>
                Ajouter un type de déchets
              </button>
            </p>
          )}
          <Table
            caption={`Types de déchets ${ofName(city.name)}`}
            rows={types}
            rowKey={(w) => w.id}
            empty="Aucun type de déchets pour cette commune."
            columns={[
              {
                label: 'Nom',
                cell: (w) => (
                  <>
                    <Swatch color={w.color} />
                    {w.name}
                  </>
                ),
              },
              { label: 'Couleur', cell: (w) => w.color ?? '—' },
              { label: 'Icône', cell: (w) => w.icon ?? '—' },
              { label: 'Matériaux', cell: (w) => w.details.length },
              {
                label: 'Actions',
                class: 'actions-cell',
                cell: (w) => (
                  <>
                    <button type="button" class="link-button" onClick={() => open(w.id)}>
                      Modifier<span class="visually-hidden"> {w.name}</span>
                    </button>
                    <button type="button" class="link-button danger" onClick={() => void remove(w)}>
                      Supprimer<span class="visually-hidden"> {w.name}</span>
                    </button>
                    <HistoryLink entity="wasteType" id={w.id} name={w.name} />
                  </>
                ),
              },
            ]}
          />
        </section>
      )}
    </Loaded>
  );
}
