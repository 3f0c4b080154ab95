// A commune's recycling points: the list, and a form whose opening-hours field says « ouvert maintenant ? » as one
// types, read by the same OpenStreetMap library as the server (opening_hours, loaded with this screen only).
import { useState } from 'preact/hooks';
import OpeningHours from 'opening_hours';
import { get, getAll, messageOf } from '../api.ts';
import { ConflictPanel, EditorActions, RestoredNotice, removeRecord, useEditor } from '../editor.tsx';
import { setQuery } from '../router.tsx';
import type { ScreenProps } from '../screens.ts';
import type { City, RecyclingPoint, WasteType } from '../types.ts';
import { Breadcrumbs, Checkbox, Field, FormHeading, Loaded, Problem, SelectField, Status, Table, TextArea, TextField, Title, useResource } from '../ui.tsx';
import { HistoryLink } from '../history-link.tsx';

const KINDS = [
  { value: '', label: 'Non précisé' },
  { value: 'CENTRE', label: 'Déchèterie' },
  { value: 'CONTAINER', label: 'Conteneur (point d’apport)' },
  { value: 'SHOP', label: 'Magasin (reprise)' },
];

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

const LABELS: Record<keyof Form, string> = {
  name: 'Nom',
  kind: 'Genre',
  address: 'Adresse',
  latitude: 'Latitude',
  longitude: 'Longitude',
  openingHours: 'Horaires (texte pour les habitants)',
  openingHoursSpec: 'Horaires (format OpenStreetMap)',
  materials: 'Déchets acceptés',
};

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

/** Where PH (public holidays) are read: France, as the server does. */
const FRANCE = { lat: 46.6033, lon: 1.8892, address: { country_code: 'fr', state: '' } };

/** A Date whose local fields show the wall clock of `timeZone` now (the library reads local time). */
function wallClockNow(timeZone: string): Date {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' })
      .formatToParts(new Date())
      .map((p) => [p.type, Number(p.value)]),
  );
  return new Date(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute);
}

const when = (d: Date) =>
  new Intl.DateTimeFormat('fr-FR', { weekday: 'long', day: 'numeric', month: 'long', hour: 'numeric', minute: '2-digit' }).format(d).replace(':', ' h ').replace(' h 00', ' h');

/** Parsed specs: the library is slow to read one, and the table and the form ask again on every render. */
const parsed = new Map<string, OpeningHours | Error>();

function parse(spec: string): OpeningHours {
  let hours = parsed.get(spec);
  if (!hours) {
    try {
      hours = new OpeningHours(spec, FRANCE, { mode: 0, tag_key: 'opening_hours', map_value: false, warnings_severity: 4, locale: 'fr' } as never);
    } catch (err) {
      hours = err instanceof Error ? err : new Error(String(err));
    }
    if (parsed.size > 500) parsed.clear();
    parsed.set(spec, hours);
  }
  if (hours instanceof Error) throw hours;
  return hours;
}

/** « Ouvert maintenant ? » for a spec, in French: the answer and when it changes, or why the spec does not read. */
export function openNowText(spec: string, timeZone: string): { ok: boolean; text: string } {
  if (spec.trim() === '') return { ok: true, text: 'Sans horaires au format OpenStreetMap, l’application ne dit pas si le point est ouvert.' };
  try {
    const hours = parse(spec);
    const now = wallClockNow(timeZone);
    const open = hours.getState(now);
    const next = hours.getNextChange(now);
    const change = next ? ` ${open ? 'Ferme' : 'Ouvre'} ${when(next)}.` : open ? ' Toujours ouvert.' : ' Jamais ouvert.';
    return { ok: true, text: `Ouvert maintenant ? ${open ? 'Oui' : 'Non'}.${change}` };
  } catch (err) {
    return { ok: false, text: `Ces horaires ne se lisent pas : ${(err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').trim()}` };
  }
}

function PointForm({ city, types, id, onDone }: { city: City; types: WasteType[]; id: string | null; onDone: (message: string | null) => void }) {
  const editor = useEditor<RecyclingPoint, Form>({
    key: id ? `recyclingPoint:${id}` : `recyclingPoint:new:${city.id}`,
    url: id ? `/admin/recycling-points/${id}` : null,
    createUrl: `/admin/cities/${city.id}/recycling-points`,
    empty: EMPTY,
    toForm,
    toBody,
    onSaved: (p, created) => onDone(created ? `Point « ${p.name} » créé.` : `Point « ${p.name} » enregistré.`),
  });
  if (editor.loadError) return <Problem error={editor.loadError} />;
  const f = editor.form;
  if (!f) return null;
  const status = openNowText(f.openingHoursSpec, city.timeZone);
  return (
    <form
      class="card"
      aria-labelledby="point-form-title"
      onSubmit={(e) => {
        e.preventDefault();
        void editor.save();
      }}
    >
      <FormHeading id="point-form-title">{id ? `Modifier « ${f.name || '…'} »` : 'Nouveau point d’apport'}</FormHeading>
      <RestoredNotice editor={editor} />
      <ConflictPanel editor={editor} labels={LABELS} />
      <div class="row">
        <TextField label={LABELS.name} value={f.name} required maxLength={200} onInput={(name) => editor.set({ name })} />
        <SelectField label={LABELS.kind} value={f.kind} options={KINDS} onChange={(kind) => editor.set({ kind })} />
      </div>
      <TextField label={LABELS.address} value={f.address} maxLength={500} onInput={(address) => editor.set({ address })} />
      <div class="row">
        <TextField label={LABELS.latitude} value={f.latitude} hint="Par exemple 48.4012" onInput={(latitude) => editor.set({ latitude })} />
        <TextField label={LABELS.longitude} value={f.longitude} hint="Par exemple -4.5228" onInput={(longitude) => editor.set({ longitude })} />
      </div>
      <TextArea label={LABELS.openingHours} value={f.openingHours} onInput={(openingHours) => editor.set({ openingHours })} />
      <Field label={LABELS.openingHoursSpec} hint="Par exemple : Mo-Fr 09:00-12:00,14:00-18:00; Sa 09:00-18:00; PH off">
        {({ id: inputId, describedBy }) => (
          <>
            <input
              id={inputId}
              type="text"
              spellcheck={false}
              value={f.openingHoursSpec}
              aria-describedby={`${describedBy ?? ''} open-now`.trim()}
              aria-invalid={!status.ok || undefined}
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
      </fieldset>
      <EditorActions editor={editor} onCancel={() => onDone(null)} />
    </form>
  );
}

export default function RecyclingPoints({ params, query }: ScreenProps) {
  const { cityId } = params;
  const data = useResource(cityId, async () => ({
    city: await get<City>(`/admin/cities/${cityId}`),
    points: await getAll<RecyclingPoint>(`/admin/cities/${cityId}/recycling-points`),
    types: await getAll<WasteType>(`/admin/cities/${cityId}/waste-types`),
  }));
  const [status, setStatus] = useState<string | null>(null);
  const [problem, setProblem] = useState<unknown>(null);
  const editing = query.get('edit');

  const remove = async (p: RecyclingPoint) => {
    if (!confirm(`Supprimer le point « ${p.name} » ?`)) return;
    try {
      await removeRecord(`/admin/recycling-points/${p.id}`);
      setStatus(`Point « ${p.name} » supprimé.`);
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
          {status && <Status>{status}</Status>}
          {problem !== null && <p class="problem" role="alert">{messageOf(problem)}</p>}
          {editing ? (
            <PointForm
              key={editing}
              city={city}
              types={types}
              id={editing === 'nouveau' ? null : editing}
              onDone={(message) => {
                setStatus(message);
                setQuery('edit', null);
                if (message) data.reload();
              }}
            />
          ) : (
            <p>
              <button type="button" class="button" onClick={() => (setStatus(null), setQuery('edit', 'nouveau'))}>
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
              { label: 'Ouvert maintenant ?', cell: (p) => (p.openingHoursSpec ? openNowText(p.openingHoursSpec, city.timeZone).text.replace('Ouvert maintenant ? ', '') : '—') },
              {
                label: 'Actions',
                class: 'actions-cell',
                cell: (p) => (
                  <>
                    <button type="button" class="link-button" onClick={() => (setStatus(null), setQuery('edit', p.id))}>
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
