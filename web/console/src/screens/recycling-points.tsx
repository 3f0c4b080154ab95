// A commune's recycling points: the list, and a form whose opening-hours field says « ouvert maintenant ? » as one
// types, read by the same OpenStreetMap library as the server (opening_hours, loaded with this screen only).
import { useState } from 'preact/hooks';
import { get, getAll } from '../api.ts';
import { EditorForm, fieldError, showValue } from '../editor-form.tsx';
import { removeRecord, useEditing, useEditor } from '../editor.tsx';
import { Checkbox, Field, SelectField, TextArea, TextField } from '../form-fields.tsx';
import { quoted } from '../french.ts';
import { HistoryLink } from '../history-link.tsx';
import type { ScreenProps } from '../screens.ts';
import { Table } from '../table.tsx';
import type { City, RecyclingPoint, WasteType } from '../types.ts';
import { Breadcrumbs, Loaded, Notices, Title, useResource } from '../ui.tsx';
import { openNowText } from './opening-hours.ts';
import { FIELD_LABELS, RECYCLING_POINT_KINDS } from '../field-labels.ts';

const KINDS = RECYCLING_POINT_KINDS;

interface Form {
  name: string;
  kind: string;
  address: string;
  latitude: string;
  longitude: string;
  openingHours: string;
  openingHoursSpec: string;
  materials: string[];
}

const LABELS: Record<keyof Form, string> = FIELD_LABELS.recyclingPoint;

const EMPTY: Form = { name: '', kind: '', address: '', latitude: '', longitude: '', openingHours: '', openingHoursSpec: '', materials: [] };

const toForm = (p: RecyclingPoint): Form => ({
  name: p.name,
  kind: p.kind ?? '',
  address: p.address ?? '',
  latitude: p.latitude === null ? '' : String(p.latitude),
  longitude: p.longitude === null ? '' : String(p.longitude),
  openingHours: p.openingHours ?? '',
  openingHoursSpec: p.openingHoursSpec ?? '',
  materials: [...p.materials].sort(),
});

const orNull = (s: string) => (s.trim() === '' ? null : s.trim());
const numberOrNull = (s: string) => (s.trim() === '' ? null : Number(s.replace(',', '.')));
const toBody = (f: Form) => ({
  name: f.name.trim(),
  kind: orNull(f.kind),
  address: orNull(f.address),
  latitude: numberOrNull(f.latitude),
  longitude: numberOrNull(f.longitude),
  openingHours: orNull(f.openingHours),
  openingHoursSpec: orNull(f.openingHoursSpec),
  materials: f.materials,
});

function PointForm({ city, types, id, onDone }: { city: City; types: WasteType[]; id: string | null; onDone: (message: string | null) => void }) {
  const editor = useEditor<RecyclingPoint, Form>({
    key: id ? `recyclingPoint:${id}` : `recyclingPoint:new:${city.id}`,
    url: id ? `/admin/recycling-points/${id}` : null,
    createUrl: `/admin/cities/${city.id}/recycling-points`,
    empty: EMPTY,
    toForm,
    toBody,
    onSaved: (p, created) => onDone(created ? `Point ${quoted(p.name)} créé.` : `Point ${quoted(p.name)} enregistré.`),
  });
  const typeNames = (v: unknown) => (Array.isArray(v) && v.length > 0 ? v.map((id) => types.find((t) => t.id === id)?.name ?? '?').join(', ') : '—');
  return (
    <EditorForm
      editor={editor}
      id="point-form-title"
      title={(f) => (id ? `Modifier ${quoted(f.name || '…')}` : 'Nouveau point d’apport')}
      labels={LABELS}
      show={(v, field) => (field === 'materials' ? typeNames(v) : field === 'kind' ? (KINDS.find((k) => k.value === (v ?? ''))?.label ?? '—') : showValue(v))}
      atFields={['name', 'address', 'latitude', 'longitude', 'openingHoursSpec', 'materials']}
      onCancel={() => onDone(null)}
    >
      {(f) => {
        const status = openNowText(f.openingHoursSpec, city.timeZone);
        const refused = fieldError(editor, 'openingHoursSpec');
        return (
          <>
            <div class="row">
              <TextField label={LABELS.name} value={f.name} required maxLength={200} error={fieldError(editor, 'name')} onInput={(name) => editor.set({ name })} />
              <SelectField label={LABELS.kind} value={f.kind} options={KINDS} onChange={(kind) => editor.set({ kind })} />
            </div>
            <TextField label={LABELS.address} value={f.address} maxLength={500} error={fieldError(editor, 'address')} onInput={(address) => editor.set({ address })} />
            <div class="row">
              <TextField label={LABELS.latitude} value={f.latitude} hint="Par exemple 48.4012" error={fieldError(editor, 'latitude')} onInput={(latitude) => editor.set({ latitude })} />
              <TextField label={LABELS.longitude} value={f.longitude} hint="Par exemple -4.5228" error={fieldError(editor, 'longitude')} onInput={(longitude) => editor.set({ longitude })} />
            </div>
            <TextArea label={LABELS.openingHours} value={f.openingHours} onInput={(openingHours) => editor.set({ openingHours })} />
            <Field label={LABELS.openingHoursSpec} hint="Par exemple&nbsp;: Mo-Fr 09:00-12:00,14:00-18:00; Sa 09:00-18:00; PH off" error={refused}>
              {({ id: inputId, describedBy }) => (
                <>
                  <input
                    id={inputId}
                    type="text"
                    spellcheck={false}
                    value={f.openingHoursSpec}
                    aria-describedby={`${describedBy ?? ''} open-now`.trim()}
                    aria-invalid={!status.ok || refused !== null || undefined}
                    onInput={(e) => editor.set({ openingHoursSpec: e.currentTarget.value })}
                  />
                  <p id="open-now" class={status.ok ? 'open-now' : 'field-error'} aria-live="polite">
                    {status.text}
                  </p>
                </>
              )}
            </Field>
            <fieldset>
              <legend>{LABELS.materials}</legend>
              {types.map((t) => (
                <Checkbox
                  key={t.id}
                  label={t.name}
                  checked={f.materials.includes(t.id)}
                  onChange={(on) => editor.set({ materials: (on ? [...f.materials, t.id] : f.materials.filter((m) => m !== t.id)).sort() })}
                />
              ))}
              {fieldError(editor, 'materials') && <p class="field-error">{fieldError(editor, 'materials')}</p>}
            </fieldset>
          </>
        );
      }}
    </EditorForm>
  );
}

export default function RecyclingPoints({ params, query }: ScreenProps) {
  const { cityId } = params;
  const data = useResource(cityId, async () => ({
    city: await get<City>(`/admin/cities/${cityId}`),
    points: await getAll<RecyclingPoint>(`/admin/cities/${cityId}/recycling-points`),
    types: await getAll<WasteType>(`/admin/cities/${cityId}/waste-types`),
  }));
  const { editing, status, setStatus, open, done } = useEditing(query, data.reload);
  const [problem, setProblem] = useState<unknown>(null);

  const remove = async (p: RecyclingPoint) => {
    if (!confirm(`Supprimer le point ${quoted(p.name)}\u202f?`)) return;
    setProblem(null);
    try {
      await removeRecord(`/admin/recycling-points/${p.id}`);
      setStatus(`Point ${quoted(p.name)} supprimé.`);
      data.reload();
    } catch (err) {
      setProblem(err);
    }
  };

  return (
    <Loaded resource={data} what="des points d’apport">
      {({ city, points, types }) => (
        <section>
          <Breadcrumbs items={[{ href: '/console/communes', label: 'Communes' }, { href: `/console/communes/${cityId}`, label: city.name }]} />
          <Title text={`Points d’apport – ${city.name}`}>Points d’apport et déchèteries</Title>
          <Notices status={status} problem={problem} />
          {editing ? (
            <PointForm key={editing} city={city} types={types} id={editing === 'nouveau' ? null : editing} onDone={done} />
          ) : (
            <p>
              <button type="button" class="button" onClick={() => open('nouveau')}>
                Ajouter un point d’apport
              </button>
            </p>
          )}
          <Table
            caption={`Points d’apport de ${city.name}`}
            rows={points}
            rowKey={(p) => p.id}
            empty="Aucun point d’apport pour cette commune."
            columns={[
              { label: 'Nom', cell: (p) => p.name },
              { label: 'Genre', cell: (p) => KINDS.find((k) => k.value === (p.kind ?? ''))?.label },
              { label: 'Adresse', cell: (p) => p.address ?? '—' },
              { label: 'Ouvert maintenant\u202f?', cell: (p) => (p.openingHoursSpec ? openNowText(p.openingHoursSpec, city.timeZone).text.replace('Ouvert maintenant\u202f? ', '') : '—') },
              {
                label: 'Actions',
                class: 'actions-cell',
                cell: (p) => (
                  <>
                    <button type="button" class="link-button" onClick={() => open(p.id)}>
                      Modifier<span class="visually-hidden"> {p.name}</span>
                    </button>
                    <button type="button" class="link-button danger" onClick={() => void remove(p)}>
                      Supprimer<span class="visually-hidden"> {p.name}</span>
                    </button>
                    <HistoryLink entity="recyclingPoint" id={p.id} name={p.name} />
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
