// One collection place: its days and exceptions, each edited with the next 60 days of collections shown as they
// will be before saving (POST /admin/places/:id/preview, nothing stored).
import { useEffect, useState } from 'preact/hooks';
import { get, getAll, messageOf, request } from '../api.ts';
import { ConflictPanel, EditorActions, RestoredNotice, removeRecord, useEditor } from '../editor.tsx';
import { setQuery } from '../router.tsx';
import type { ScreenProps } from '../screens.ts';
import type { City, Collection, CollectionDay, CollectionException, Place, WasteType } from '../types.ts';
import { Breadcrumbs, Checkbox, FormHeading, Loaded, Problem, SelectField, Status, Swatch, Table, TextArea, TextField, Title, useResource } from '../ui.tsx';
import { ChildRecords, type ChildField } from '../child-records.tsx';
import { DateField } from '../date-field.tsx';
import { dayIn, dayRule, dayToTimestamp, frenchDate } from './place-text.ts';
import { StreetEditor, StreetTable } from './place-streets.tsx';
import { PlaceEditor, describeArea } from './place-area.tsx';

/** A place's attached locations (CONTRACT section 11): the addresses the lookup answers with this place. */
const ATTACHED_LOCATION_FIELDS: ChildField[] = [
  { name: 'name', label: 'Nom du lieu', required: true, hint: 'Une rue, une place, un lieu-dit.' },
  { name: 'reference', label: 'Référence', required: true, hint: 'L’identifiant de la Base adresse nationale (par exemple 29019_7547), ou vide.' },
  { name: 'latitude', label: 'Latitude', type: 'number', hint: 'En degrés décimaux (par exemple 48,3932).' },
  { name: 'longitude', label: 'Longitude', type: 'number', hint: 'En degrés décimaux (par exemple -4,4903).' },
];

const WEEKDAYS = ['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche'];
const PREVIEW_DAYS = 60;

interface Context {
  city: City;
  place: Place;
  types: WasteType[];
}

type DayBody = Omit<CollectionDay, 'id'> & { id?: string };
type ExceptionBody = Omit<CollectionException, 'id'> & { id?: string };

function addDays(day: string, n: number): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** The next 60 days of collections as saved, and as they would be with `days` and `exceptions`; changes marked. */
function Preview({ ctx, days, exceptions }: { ctx: Context; days?: DayBody[]; exceptions?: ExceptionBody[] }) {
  const from = dayIn(new Date().toISOString(), ctx.city.timeZone);
  const to = addDays(from, PREVIEW_DAYS - 1);
  const url = `/admin/places/${ctx.place.id}/preview?from=${from}&to=${to}`;
  const proposal = JSON.stringify({ collectionDays: days, exceptions });
  const [state, setState] = useState<{ now: Collection[]; next: Collection[] } | { error: unknown } | null>(null);
  useEffect(() => {
    let live = true;
    // A short pause while the agent types: one preview per pause, not one per key.
    const timer = setTimeout(() => {
      Promise.all([get<Collection[]>(url), request<Collection[]>('POST', url, { body: JSON.parse(proposal) }).then((a) => a.data)]).then(
        ([now, next]) => live && setState({ now, next }),
        (error) => live && setState({ error }),
      );
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [url, proposal]);

  let body;
  if (state === null) body = <p class="muted">Calcul de l’aperçu…</p>;
  else if ('error' in state) body = <p class="problem">{messageOf(state.error)}</p>;
  else {
    const key = (c: Collection) => `${c.date}|${c.wasteTypeId}`;
    const before = new Set(state.now.map(key));
    const after = new Set(state.next.map(key));
    const removed = state.now.filter((c) => !after.has(key(c)));
    const all = [...state.next, ...removed].sort((a, b) => a.date.localeCompare(b.date) || a.wasteTypeName.localeCompare(b.wasteTypeName, 'fr'));
    const changes = removed.length + state.next.filter((c) => !before.has(key(c))).length;
    body = (
      <>
        <p class="legend" role="status">
          {changes === 0 ? 'Aucun changement sur cette période.' : `${changes} changement${changes > 1 ? 's' : ''} sur cette période : collectes ajoutées encadrées, collectes annulées barrées.`}
        </p>
        {all.length === 0 ? (
          <p>Aucune collecte sur cette période.</p>
        ) : (
          <ul class="preview">
            {all.map((c) => {
              const change = !after.has(key(c)) ? 'removed' : !before.has(key(c)) ? 'added' : '';
              return (
                <li key={key(c)} class={change} data-date={c.date} data-waste-type={c.wasteTypeId} data-change={change || 'same'}>
                  <time datetime={c.date}>{frenchDate(c.date, { year: false })}</time>
                  <Swatch color={c.color} />
                  {c.wasteTypeName}
                  {change === 'removed' && <span class="visually-hidden"> (annulée)</span>}
                  {change === 'added' && <span class="visually-hidden"> (ajoutée)</span>}
                  {c.holiday && <span class="tag">{c.holiday}</span>}
                </li>
              );
            })}
          </ul>
        )}
      </>
    );
  }
  return (
    <section class="card" aria-labelledby="preview-title">
      <h2 id="preview-title">Collectes des {PREVIEW_DAYS} prochains jours</h2>
      {body}
    </section>
  );
}

const typeOptions = (types: WasteType[]) => types.map((t) => ({ value: t.id, label: t.name }));

interface DayForm {
  name: string;
  wasteTypeId: string;
  biweekly: boolean;
  startDate: string;
  description: string;
}

const DAY_LABELS: Record<keyof DayForm, string> = {
  name: 'Jour',
  wasteTypeId: 'Type de déchets',
  biweekly: 'Une semaine sur deux',
  startDate: 'À partir du',
  description: 'Explication pour les habitants',
};

function DayEditor({ ctx, id, onDone }: { ctx: Context; id: string | null; onDone: (message: string | null) => void }) {
  const tz = ctx.city.timeZone;
  const toForm = (d: CollectionDay): DayForm => ({
    name: d.name,
    wasteTypeId: d.wasteTypeId,
    biweekly: d.biweekly === true,
    startDate: d.startDate ? dayIn(d.startDate, tz) : '',
    description: d.description ?? '',
  });
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
    toForm,
    toBody,
    onSaved: (_d, created) => onDone(created ? 'Jour de collecte ajouté.' : 'Jour de collecte enregistré.'),
  });
  const f = editor.form;
  if (editor.loadError) return <Problem error={editor.loadError} />;
  if (!f) return null;
  const proposed = [...ctx.place.collectionDays.filter((d) => d.id !== id).map((d) => ({ ...d })), { ...toBody(f), ...(id ? { id } : {}) }];
  const previewable = !f.biweekly || f.startDate !== '';
  return (
    <div class="editing">
      <form
        class="card"
        aria-labelledby="day-form-title"
        onSubmit={(e) => {
          e.preventDefault();
          void editor.save();
        }}
      >
        <FormHeading id="day-form-title">{id ? 'Modifier le jour de collecte' : 'Nouveau jour de collecte'}</FormHeading>
        <RestoredNotice editor={editor} />
        <ConflictPanel editor={editor} labels={DAY_LABELS} />
        <div class="row">
          <SelectField label={DAY_LABELS.name} value={f.name} options={WEEKDAYS.map((d) => ({ value: d, label: d }))} onChange={(name) => editor.set({ name })} />
          <SelectField label={DAY_LABELS.wasteTypeId} value={f.wasteTypeId} options={typeOptions(ctx.types)} onChange={(wasteTypeId) => editor.set({ wasteTypeId })} />
        </div>
        <fieldset>
          <legend>Rythme</legend>
          <Checkbox label="Une semaine sur deux" checked={f.biweekly} onChange={(biweekly) => editor.set({ biweekly })} />
          <DateField
            label={f.biweekly ? 'Une semaine de collecte (première semaine du rythme)' : 'À partir du (facultatif)'}
            hint={f.biweekly ? 'La collecte a lieu la semaine de cette date, puis toutes les deux semaines.' : 'Vide : la règle s’applique déjà.'}
            value={f.startDate}
            required={f.biweekly}
            error={f.biweekly && !f.startDate ? 'Choisissez une date : le rythme d’une semaine sur deux part de sa semaine.' : null}
            onInput={(startDate) => editor.set({ startDate })}
          />
        </fieldset>
        <TextArea label={DAY_LABELS.description} value={f.description} onInput={(description) => editor.set({ description })} />
        <EditorActions editor={editor} onCancel={() => onDone(null)} />
      </form>
      {previewable && <Preview ctx={ctx} days={proposed} />}
    </div>
  );
}

interface ExceptionForm {
  wasteTypeId: string;
  dateFrom: string;
  dateTo: string;
  name: string;
  description: string;
}

const EXCEPTION_LABELS: Record<keyof ExceptionForm, string> = {
  wasteTypeId: 'Type de déchets',
  dateFrom: 'Du',
  dateTo: 'Au',
  name: 'Titre',
  description: 'Explication pour les habitants',
};

function ExceptionEditor({ ctx, id, onDone }: { ctx: Context; id: string | null; onDone: (message: string | null) => void }) {
  const tz = ctx.city.timeZone;
  const toForm = (x: CollectionException): ExceptionForm => ({
    wasteTypeId: x.wasteTypeId,
    dateFrom: dayIn(x.dateFrom, tz),
    dateTo: x.dateTo ? dayIn(x.dateTo, tz) : '',
    name: x.name ?? '',
    description: x.description ?? '',
  });
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
    toForm,
    toBody,
    onSaved: (_x, created) => onDone(created ? 'Exception ajoutée.' : 'Exception enregistrée.'),
  });
  const f = editor.form;
  if (editor.loadError) return <Problem error={editor.loadError} />;
  if (!f) return null;
  const rangeError = f.dateTo && f.dateFrom && f.dateTo < f.dateFrom ? 'La date de fin doit suivre la date de début.' : null;
  const proposed = [...ctx.place.exceptions.filter((x) => x.id !== id).map((x) => ({ ...x })), ...(f.dateFrom && !rangeError ? [{ ...toBody(f), ...(id ? { id } : {}) }] : [])];
  return (
    <div class="editing">
      <form
        class="card"
        aria-labelledby="exception-form-title"
        onSubmit={(e) => {
          e.preventDefault();
          void editor.save();
        }}
      >
        <FormHeading id="exception-form-title">{id ? 'Modifier l’exception' : 'Nouvelle exception (collecte annulée ou déplacée)'}</FormHeading>
        <RestoredNotice editor={editor} />
        <ConflictPanel editor={editor} labels={EXCEPTION_LABELS} />
        <SelectField label={EXCEPTION_LABELS.wasteTypeId} value={f.wasteTypeId} options={typeOptions(ctx.types)} onChange={(wasteTypeId) => editor.set({ wasteTypeId })} />
        <div class="row">
          <DateField label="Du" hint="Premier jour concerné." value={f.dateFrom} required onInput={(dateFrom) => editor.set({ dateFrom })} />
          <DateField label="Au (facultatif)" hint="Vide : ce seul jour." value={f.dateTo} error={rangeError} onInput={(dateTo) => editor.set({ dateTo })} />
        </div>
        <TextField label={EXCEPTION_LABELS.name} value={f.name} maxLength={200} hint="Par exemple : Noël, grève, travaux." onInput={(name) => editor.set({ name })} />
        <TextArea label={EXCEPTION_LABELS.description} value={f.description} hint="Ce qui se passe à la place : report, point d’apport…" onInput={(description) => editor.set({ description })} />
        <EditorActions editor={editor} onCancel={() => onDone(null)} />
      </form>
      <Preview ctx={ctx} exceptions={proposed} />
    </div>
  );
}

export default function PlaceScreen({ params, query }: ScreenProps) {
  const { placeId } = params;
  const data = useResource(placeId, async (): Promise<Context> => {
    const place = await get<Place>(`/admin/places/${placeId}`);
    const [city, types] = await Promise.all([get<City>(`/admin/cities/${place.cityId}`), getAll<WasteType>(`/admin/cities/${place.cityId}/waste-types`)]);
    return { city, place, types };
  });
  const [status, setStatus] = useState<string | null>(null);
  const [problem, setProblem] = useState<unknown>(null);
  const edit = query.get('edit');
  const [kind, target] = edit ? edit.split(':') : [null, null];
  const done = (message: string | null) => {
    setStatus(message);
    setQuery('edit', null);
    if (message) data.reload();
  };
  const open = (value: string) => {
    setStatus(null);
    setProblem(null);
    setQuery('edit', value);
  };
  const remove = async (url: string, what: string) => {
    if (!confirm(`Supprimer ${what} ?`)) return;
    try {
      await removeRecord(url);
      setStatus(`${what[0].toUpperCase()}${what.slice(1)} supprimé${what.startsWith('le ') ? '' : 'e'}.`);
      data.reload();
    } catch (err) {
      setProblem(err);
    }
  };

  return (
    <Loaded resource={data} what="du secteur">
      {(ctx) => {
        const { city, place, types } = ctx;
        const typeOf = new Map(types.map((t) => [t.id, t]));
        const typeCell = (id: string) => (
          <>
            <Swatch color={typeOf.get(id)?.color ?? null} />
            {typeOf.get(id)?.name ?? '?'}
          </>
        );
        return (
          <section>
            <Breadcrumbs
              items={[
                { href: '/console/communes', label: 'Communes' },
                { href: `/console/communes/${city.id}`, label: city.name },
                { href: `/console/communes/${city.id}/secteurs`, label: 'Secteurs' },
              ]}
            />
            <Title text={`${place.name} – ${city.name}`}>{place.name}</Title>
            <p class="muted">
              {describeArea((place as Place & { area: Parameters<typeof describeArea>[0] }).area)}{' '}
              <button type="button" class="link-button" onClick={() => open('secteur')}>
                Renommer ou changer la zone
              </button>
            </p>
            {status && <Status>{status}</Status>}
            {problem !== null && <p class="problem" role="alert">{messageOf(problem)}</p>}
            {kind === 'jour' && <DayEditor key={edit} ctx={ctx} id={target === 'nouveau' ? null : target} onDone={done} />}
            {kind === 'exception' && <ExceptionEditor key={edit} ctx={ctx} id={target === 'nouveau' ? null : target} onDone={done} />}
            {kind === 'secteur' && <PlaceEditor key={edit} cityId={city.id} placeId={place.id} onDone={done} />}
            {kind === 'rue' && <StreetEditor key={edit} placeId={place.id} id={target === 'nouveau' ? null : target} onDone={done} />}

            <h2>Jours de collecte</h2>
            <Table
              caption="Jours de collecte"
              rows={place.collectionDays}
              rowKey={(d) => d.id}
              empty="Aucun jour de collecte."
              columns={[
                { label: 'Type de déchets', cell: (d) => typeCell(d.wasteTypeId) },
                { label: 'Rythme', cell: (d) => dayRule(d, city.timeZone) },
                { label: 'Explication', cell: (d) => d.description ?? '—' },
                {
                  label: 'Actions',
                  class: 'actions-cell',
                  cell: (d) => (
                    <>
                      <button type="button" class="link-button" onClick={() => open(`jour:${d.id}`)}>
                        Modifier<span class="visually-hidden"> le {d.name} ({typeOf.get(d.wasteTypeId)?.name})</span>
                      </button>
                      <button type="button" class="link-button danger" onClick={() => void remove(`/admin/collection-days/${d.id}`, 'le jour de collecte')}>
                        Supprimer<span class="visually-hidden"> le {d.name} ({typeOf.get(d.wasteTypeId)?.name})</span>
                      </button>
                    </>
                  ),
                },
              ]}
            />
            <p>
              <button type="button" class="button secondary" onClick={() => open('jour:nouveau')}>
                Ajouter un jour de collecte
              </button>
            </p>

            <h2>Exceptions</h2>
            <Table
              caption="Exceptions"
              rows={place.exceptions}
              rowKey={(x) => x.id}
              empty="Aucune exception."
              columns={[
                { label: 'Type de déchets', cell: (x) => typeCell(x.wasteTypeId) },
                {
                  label: 'Dates',
                  cell: (x) =>
                    x.dateTo && dayIn(x.dateTo, city.timeZone) !== dayIn(x.dateFrom, city.timeZone)
                      ? `du ${frenchDate(dayIn(x.dateFrom, city.timeZone))} au ${frenchDate(dayIn(x.dateTo, city.timeZone))}`
                      : frenchDate(dayIn(x.dateFrom, city.timeZone)),
                },
                { label: 'Titre', cell: (x) => x.name ?? '—' },
                { label: 'Explication', cell: (x) => x.description ?? '—' },
                {
                  label: 'Actions',
                  class: 'actions-cell',
                  cell: (x) => (
                    <>
                      <button type="button" class="link-button" onClick={() => open(`exception:${x.id}`)}>
                        Modifier<span class="visually-hidden"> l’exception {x.name ?? ''}</span>
                      </button>
                      <button type="button" class="link-button danger" onClick={() => void remove(`/admin/exceptions/${x.id}`, 'l’exception')}>
                        Supprimer<span class="visually-hidden"> l’exception {x.name ?? ''}</span>
                      </button>
                    </>
                  ),
                },
              ]}
            />
            <p>
              <button type="button" class="button secondary" onClick={() => open('exception:nouveau')}>
                Annuler ou déplacer une collecte (exception)
              </button>
            </p>
            <h2>Rues desservies</h2>
            <StreetTable streets={place.streets} onEdit={(id) => open(`rue:${id}`)} onRemove={(id) => void remove(`/admin/streets/${id}`, 'la rue')} />
            <p>
              <button type="button" class="button secondary" onClick={() => open('rue:nouveau')}>
                Ajouter une rue
              </button>
            </p>
            <ChildRecords
              heading="Lieux rattachés"
              listUrl={`/admin/places/${place.id}/attached-locations`}
              createUrl={`/admin/places/${place.id}/attached-locations`}
              itemUrl={(id) => `/admin/attached-locations/${id}`}
              draftKey={`attachedLocation:${place.id}`}
              fields={ATTACHED_LOCATION_FIELDS}
              columns={['name', 'reference', 'latitude', 'longitude']}
              nameOf={(r) => String(r.name)}
              addLabel="Ajouter un lieu rattaché"
              empty="Aucun lieu rattaché à ce secteur."
              what={{ one: 'le lieu rattaché', saved: 'enregistré', removed: 'supprimé' }}
            />
            {!edit && <Preview ctx={ctx} />}
          </section>
        );
      }}
    </Loaded>
  );
}
