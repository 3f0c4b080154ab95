// A record's history (GET /admin/audit?entity=&entityId=): who changed it, when, and each field before and after, in
// French; for the collection data the console edits, « Restaurer cette version » writes a past version back as any
// edit does (PATCH with If-Match of the current version: checked, audited, published), a 412 going through the
// conflict panel.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, get, getAll } from '../api.ts';
import { frenchMoment, type AuditEntry } from '../chat-types.ts';
import { ConflictPanel } from '../editor-form.tsx';
import { useEditor, type Editor } from '../editor.tsx';
import { FIELD_LABELS, isLabelledEntity, type LabelledEntity } from '../field-labels.ts';
import { sayValue, type HistoryContext } from '../history-values.ts';
import type { ScreenProps } from '../screens.ts';
import type { WasteType } from '../types.ts';
import { Loaded, Notices, Title, useResource } from '../ui.tsx';

const ACTIONS: Record<AuditEntry['action'], string> = { create: 'Création', update: 'Modification', delete: 'Suppression' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The record's own admin URL, for the kinds whose versions can be restored. */
const RECORD_URL: Record<LabelledEntity, (id: string) => string> = {
  wasteType: (id) => `/admin/waste-types/${id}`,
  recyclingPoint: (id) => `/admin/recycling-points/${id}`,
  collectionPlace: (id) => `/admin/places/${id}`,
  collectionDay: (id) => `/admin/collection-days/${id}`,
  exception: (id) => `/admin/exceptions/${id}`,
};

type Fields = Record<string, unknown>;

/** The fields a version is restored with: those its form writes (its labels), as the version held them. */
const writable = (entity: LabelledEntity, record: Fields | null): Fields =>
  Object.fromEntries(Object.keys(FIELD_LABELS[entity]).filter((f) => record !== null && f in record).map((f) => [f, record![f]]));

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The fields whose value differs between before and after (all of them for a creation or deletion). */
function changes(entity: LabelledEntity | null, entry: AuditEntry): { field: string; before: unknown; after: unknown }[] {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  // For a kind the console edits, the fields it edits (the rest, ids and children, is written elsewhere).
  const fields = entity ? Object.keys(FIELD_LABELS[entity]) : [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((f) => f !== 'id');
  return fields
    .map((field) => ({ field, before: before[field], after: after[field] }))
    .filter((c) => !same(c.before, c.after));
}

/** The record as it is now (null once deleted) and the names of its city's waste types. */
async function loadContext(entity: LabelledEntity, id: string): Promise<{ exists: boolean; context: HistoryContext }> {
  let record: { cityId?: string; placeId?: string } | null = null;
  try {
    record = await get<{ cityId?: string; placeId?: string }>(RECORD_URL[entity](id));
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) throw err;
  }
  const cityId = record?.cityId ?? (record?.placeId ? (await get<{ cityId: string }>(`/admin/places/${record.placeId}`)).cityId : null);
  const types = cityId ? await getAll<WasteType>(`/admin/cities/${cityId}/waste-types`) : [];
  return { exists: record !== null, context: { wasteTypeNames: new Map(types.map((t) => [t.id, t.name])) } };
}

/** A past version the agent may restore: the record as a write left it, named for the button and the status. */
interface Version {
  record: Fields;
  /** « du 3 mars 2026 à 10 h 05 », « d’avant le 3 mars 2026 à 10 h 05 ». */
  of: string;
}

function Entries({
  entity,
  entries,
  context,
  restore,
}: {
  entity: LabelledEntity | null;
  entries: AuditEntry[];
  context: HistoryContext | null;
  restore: { editor: Editor<Fields, Fields>; onRestore: (version: Version) => void } | null;
}) {
  const label = (field: string) => (entity ? ((FIELD_LABELS[entity] as Record<string, string>)[field] ?? field) : field);
  const say = (field: string, value: unknown) => sayValue(entity, field, value, context);
  if (entries.length === 0) return <p class="muted">Aucune modification enregistrée.</p>;
  const restoreButton = (version: Version) => {
    if (!restore || !entity) return null;
    const current = restore.editor.form !== null && same(writable(entity, version.record), restore.editor.form);
    return (
      <p class="actions">
        {current ? (
          <span class="muted">C’est la version actuelle.</span>
        ) : (
          <button type="button" class="button secondary" disabled={restore.editor.saving} onClick={() => restore.onRestore(version)}>
            Restaurer cette version<span class="visually-hidden"> {version.of}</span>
          </button>
        )}
      </p>
    );
  };
  // The oldest entry changed a record written before the log began (by the import): the version it changed can be restored too.
  const oldest = entries[entries.length - 1];
  return (
    <ol class="history">
      {entries.map((e) => {
        const diff = changes(entity, e);
        const when = frenchMoment(e.at);
        return (
          <li key={e.id} class="card">
            <h2>
              {ACTIONS[e.action]} par {e.userName}, le {when}
            </h2>
            {diff.length === 0 ? (
              <p class="muted">Aucun champ modifié.</p>
            ) : (
              <div class="table-wrap">
                <table class="diff">
                  <caption class="visually-hidden">Champs modifiés&nbsp;: {ACTIONS[e.action].toLowerCase()} du {when}</caption>
                  <thead>
                    <tr>
                      <th scope="col">Champ</th>
                      <th scope="col">Avant</th>
                      <th scope="col">Après</th>
                    </tr>
                  </thead>
                  <tbody>
                    {diff.map((c) => (
                      <tr key={c.field}>
                        <th scope="row">{label(c.field)}</th>
                        <td class="before">{e.action === 'create' ? '—' : say(c.field, c.before)}</td>
                        <td class="after">{e.action === 'delete' ? '—' : say(c.field, c.after)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            {e.after && restoreButton({ record: e.after, of: `du ${when}` })}
          </li>
        );
      })}
      {restore && oldest.action === 'update' && oldest.before && (
        <li class="card">
          <h2>Version d’avant le {frenchMoment(oldest.at)}</h2>
          <p class="muted">La version enregistrée avant le début de l’historique (par exemple à l’import des données).</p>
          {restoreButton({ record: oldest.before, of: `d’avant le ${frenchMoment(oldest.at)}` })}
        </li>
      )}
    </ol>
  );
}

/** The history of a record that still exists, each past version restorable. */
function RestorableHistory({
  entity,
  id,
  entries,
  context,
  onRestored,
}: {
  entity: LabelledEntity;
  id: string;
  entries: AuditEntry[];
  context: HistoryContext;
  onRestored: (message: string) => void;
}) {
  // The version being restored, read when the save answers (the editor keeps the options of the render that sent it).
  const restoring = useRef<Version | null>(null);
  const editor = useEditor<Fields, Fields>({
    key: `history:${entity}:${id}`,
    url: RECORD_URL[entity](id),
    empty: {},
    toForm: (record) => writable(entity, record),
    toBody: (form) => form,
    onSaved: () => onRestored(restoring.current ? `Version ${restoring.current.of} restaurée.` : 'Version restaurée.'),
  });
  // A restore that conflicted and was left is not kept as a draft for the next visit.
  useEffect(() => () => editor.discard(), []);
  return (
    <>
      <ConflictPanel editor={editor} labels={FIELD_LABELS[entity]} show={(value, field) => sayValue(entity, field, value, context)} />
      {editor.saveError !== null && <Notices status={null} problem={editor.saveError} />}
      <Entries
        entity={entity}
        entries={entries}
        context={context}
        restore={{
          editor,
          onRestore: (version) => {
            restoring.current = version;
            void editor.saveForm(writable(entity, version.record));
          },
        }}
      />
    </>
  );
}

export default function History({ query }: ScreenProps) {
  const entity = query.get('entite') ?? '';
  const id = query.get('id') ?? '';
  const name = query.get('nom') ?? 'cet élément';
  const valid = /^[a-z][A-Za-z]{0,63}$/.test(entity) && UUID.test(id);
  const known = isLabelledEntity(entity) ? entity : null;
  const [status, setStatus] = useState<string | null>(null);
  const resource = useResource(valid ? `${entity}/${id}` : null, async () => ({
    entries: await getAll<AuditEntry>(`/admin/audit?entity=${encodeURIComponent(entity)}&entityId=${id}`),
    record: known ? await loadContext(known, id) : null,
  }));
  return (
    <section>
      <Title text={`Historique de ${name}`}>Historique de «&nbsp;{name}&nbsp;»</Title>
      {!valid ? (
        <p class="problem" role="alert">
          Ce lien d’historique est incomplet&nbsp;: ouvrez l’historique depuis la liste de l’élément.
        </p>
      ) : (
        <Loaded resource={resource} what="de l’historique">
          {({ entries, record }) => (
            <>
              <Notices status={status} problem={null} />
              {known && record?.exists ? (
                <RestorableHistory
                  entity={known}
                  id={id}
                  entries={entries}
                  context={record.context}
                  onRestored={(message) => {
                    setStatus(message);
                    resource.reload();
                  }}
                />
              ) : (
                <Entries entity={known} entries={entries} context={record?.context ?? null} restore={null} />
              )}
            </>
          )}
        </Loaded>
      )}
    </section>
  );
}
